"""Tracked poses into the rules: the tracker's unit poses become ``ruleset.set_pose`` calls.

The tracker never imports rules; this is where its poses meet them. :class:`TrackedPoses` keeps what
the glue must remember between frames -- how far each tag had moved this turn when last applied (the
rules are charged the difference), and which units' own tags were seen (they move on their own, never
as a gun team's riders) -- and is handed the ruleset and the units' base heights; it returns a new
state and leaves committing it (log, recording, views) to the session.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rules.ruleset import PoseUpdate, Ruleset, UnitView, set_one_pose

#: A tracked pose closer than this to the state's (inches / degrees) is not a change worth a set_pose.
POSE_EPS_IN = 0.01
HEADING_EPS_DEG = 0.5


def pose_state(pose: Any) -> str:
    """A tracker pose's state as text ("seen", "stale", "lost", "lifted"); poses without one are seen."""
    return str(getattr(getattr(pose, "state", None), "value", getattr(pose, "state", None) or "seen"))


def sharing_spot(views: Mapping[int, UnitView], unit: UnitView) -> list[int]:
    """Other units standing exactly on ``unit``'s spot (a gun team's shared token)."""
    return [uid for uid, v in views.items()
            if uid != unit.unit_id and (v.x_in, v.y_in, v.on_table) == (unit.x_in, unit.y_in, unit.on_table)]


def replayed_poses(ruleset: Ruleset, state: Any, poses: Iterable[Any], *,
                   base_height_in: Callable[[int], float]) -> Any:
    """``state`` with its units where recorded ``poses`` put them, as a replay shows a moment (the
    replay window and the report's review read the same): ``moved_in=0``, for the movement was already
    accounted live; ``base_height_in(tag)``: a unit's base height."""
    poses = list(poses)
    known = {u.unit_id: u for u in ruleset.units(state)}
    tagged = {p.tag_id for p in poses}  # these have tags of their own: none rides on another's token
    moves = []
    for pose in poses:
        u = known.get(pose.tag_id)
        if u is None or pose.x_in is None:
            continue
        on_table = pose.state.value != "lifted"
        if abs(u.x_in - pose.x_in) > 1e-3 or abs(u.y_in - pose.y_in) > 1e-3 or abs(u.heading_deg - pose.heading_deg) > 1e-3 \
                or u.on_table != on_table:
            alone = any(uid in tagged for uid in sharing_spot(known, u))
            moves.append(pose_update(pose, moved_in=0.0, on_table=on_table, alone=alone,
                                     base_height_in=base_height_in(pose.tag_id)))
    return ruleset.set_poses(state, moves) if moves else state  # one rebuild of the state for the moment


def set_tracked_pose(ruleset: Ruleset, state: Any, pose: Any, *, moved_in: float | None, on_table: bool,
                     alone: bool = False, base_height_in: float = 1.0) -> Any:
    """``ruleset.set_pose`` for one tracker pose, with what the ruleset understands of it: ``alone``
    (a gun-team member with its own tag, Down Range) and the ground height under the figure
    (``uses_elevation`` rulesets: the tag's height minus the base's)."""
    return set_one_pose(ruleset, state, pose_update(pose, moved_in=moved_in, on_table=on_table, alone=alone,
                                                    base_height_in=base_height_in))


def pose_update(pose: Any, *, moved_in: float | None, on_table: bool, alone: bool = False,
                base_height_in: float = 1.0) -> PoseUpdate:
    """A tracker pose as the rules take it (:meth:`rules.ruleset.Ruleset.set_poses`): the ground under
    the figure is the tag's height minus the base's."""
    z = getattr(pose, "z_in", None)
    return PoseUpdate(pose.tag_id, float(pose.x_in), float(pose.y_in), float(pose.heading_deg), moved_in, on_table, alone,
                      None if z is None else round(max(0.0, float(z) - base_height_in), 2))


def moved_enough(pose: Any, unit: UnitView, on_table: bool) -> bool:
    """Whether a pose differs from the unit's place in the rules by more than tracking noise."""
    turned = abs(((pose.heading_deg - unit.heading_deg) + 180.0) % 360.0 - 180.0)
    return math.hypot(pose.x_in - unit.x_in, pose.y_in - unit.y_in) > POSE_EPS_IN or turned > HEADING_EPS_DEG \
        or on_table != unit.on_table


class TrackedPoses:
    """Applies tracker poses (``tracker.unit_pose.UnitPose``) to a game state of ``ruleset``.

    ``base_height_in(unit_id)``: the height of a figure's base, taken off the tag's height to give
    the ground under it (rulesets that use elevation)."""

    def __init__(self, ruleset: Ruleset, base_height_in: Callable[[int], float]) -> None:
        self.ruleset = ruleset
        self.base_height_in = base_height_in
        #: How far each tag had moved this turn when last applied (the tracker's running total).
        self._moved_seen: dict[int, float] = {}
        #: Units whose own tag the tracker has seen: they move on their own, never as riders.
        self.tagged: set[int] = set()

    def start_turn(self) -> None:
        """The tracker restarts its movement totals with the turn: so do we."""
        self._moved_seen.clear()

    def _moved_since(self, tag_id: int, moved_now: float | None) -> float | None:
        if moved_now is None:
            return None
        seen = self._moved_seen.get(tag_id)
        self._moved_seen[tag_id] = moved_now
        return moved_now if seen is None or moved_now < seen else moved_now - seen

    def apply(self, state: Any, views: Mapping[int, UnitView], poses: Iterable[Any]) -> tuple[Any, int]:
        """The state with the units moved to ``poses``, and how many moved.

        The path length the tracker measured since the last pose is passed as ``moved_in``, so a unit
        carried around an obstacle is charged for the way it went. Gun teams: members standing on one
        spot share one token with one tag, and the rules move the riders with it; a member whose own
        tag was seen moves alone, and a team-mate on its spot is not dragged along. A hidden tag's pose
        (stale, lost) is its last sighting, already applied: it never pulls a unit back; nor is a pose
        held through a detector miss (``measured`` False while still ``seen``) applied as a move: it is
        the last measurement again, and the next measured pose carries the whole move."""
        poses = list(poses)
        self.tagged.update(p.tag_id for p in poses if pose_state(p) == "seen")
        changed = 0
        for p in poses:
            kind = pose_state(p)
            if getattr(p, "x_in", None) is None or p.tag_id not in views or kind in ("stale", "lost"):
                continue
            if kind == "seen" and not getattr(p, "measured", True):
                continue  # held through a miss: not a fresh measurement of where it is
            u = views[p.tag_id]
            on_table = kind != "lifted"
            delta = self._moved_since(p.tag_id, p.moved_this_turn_in)
            if moved_enough(p, u, on_table):
                alone = any(uid in self.tagged for uid in sharing_spot(views, u))
                state = set_tracked_pose(self.ruleset, state, p, moved_in=delta, on_table=on_table, alone=alone,
                                         base_height_in=self.base_height_in(p.tag_id))
                changed += 1
        return state, changed
