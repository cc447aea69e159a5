"""From tag detections to units: poses, filtering, occlusion, lifting, conflicts, movement accounting.

One :class:`UnitTracker` per game. Feed it each frame's detections (and the frame, for the lifted
test); it returns every unit's :class:`UnitPose` and the events of that frame.

States of a unit (docs/tracker.md has the diagram):

* **seen** - its tag is in view (a detector miss shorter than ``stale_after_s`` is bridged).
* **stale** - not seen for ``stale_after_s`` while its surroundings are covered: a hand over the table.
  Its last pose is kept; seen again at the same place it is not a move.
* **lost** - stale for longer than ``lost_after_s``.
* **lifted** - not seen for ``lift_after_s`` while the table around where it stood is visible as
  before (see ``tracker/visibility.py``): a player took it off the table. Putting it back is an event
  too (``returned``). The GUI can also mark a unit lifted by hand (:meth:`UnitTracker.mark_lifted`).

Anchors (the layout's ids, 0-9) are never units. Tags that are not in the roster are reported once as
``unknown_tag``; two tags with the same id in view at once are a ``conflict`` (the unit keeps following
the one nearer to where it was).

Movement accounting: each unit's path length since :meth:`UnitTracker.start_turn`, summed from filtered
poses (a still unit adds nothing), plus the straight distance when it reappears elsewhere after being
hidden or lifted.

Camera rate: the fast detector repeats a still tag's last detection bit for bit (most units, most
frames). A unit keeps the detection its last measurement came from, and the same detection again
reuses that measurement instead of mapping it onto the table again; the filter takes it as before, so
poses and events are exactly those of measuring every frame (tests/tracker/test_repeated_detections.py).
"""
from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tracker.detections import TagDetections, one_per_tag
from tracker.events import EventKind, TrackerEvent
from tracker.pose_filter import FilterSettings, PoseFilter, angle_diff_deg
from tracker.roster import Roster, UnitSpec
from tracker.unit_pose import (
    HeightMap,
    TableMapping,
    UnitPose,
    UnitState,
    image_pose,
    table_poses,
    unit_pose_from_fields,
)
from tracker.visibility import RingSnapshot, ring_similarity, take_ring

DEFAULT_ANCHOR_IDS = frozenset(range(10))
#: One line for a user whose miniatures carry tags 0-9 and who would otherwise see nothing of them.
ANCHORS_WITHOUT_CALIBRATION = (
    "note: without --calibration, tags 0-9 are taken as table anchors, not units; "
    "give --calibration (its anchors), or number unit tags from 10"
)


@dataclass(frozen=True)
class TrackerSettings:
    """Timings and thresholds of :class:`UnitTracker` (lengths in table inches)."""

    stale_after_s: float = 0.25  # a tag missing this long makes its unit stale (hidden)
    lift_after_s: float = 1.0  # missing this long with its surroundings visible: lifted
    lost_after_s: float = 10.0  # stale this long: lost
    filter: FilterSettings = field(default_factory=FilterSettings)
    conflict_clear_s: float = 1.0  # a duplicate id must be gone this long before a new conflict is reported
    ring_similarity_min: float = 0.6  # ring correlation above this: the place is visible as before
    spot_similarity_max: float = 0.5  # the tag's own spot correlating below this: the unit is gone
    ring_every_s: float = 0.5  # how often the ring around a still unit is snapshotted
    default_tag_size_in: float = 1.0


@dataclass(frozen=True)
class TrackingUpdate:
    """The outcome of one frame: every known unit's pose (by tag id order) and what happened."""

    frame_index: int
    t_s: float
    poses: tuple[UnitPose, ...]
    events: tuple[TrackerEvent, ...]
    anchors: TagDetections  # the anchor tags seen in this frame (for registration and drift)

    def pose(self, tag_id: int) -> UnitPose | None:
        for p in self.poses:
            if p.tag_id == tag_id:
                return p
        return None


@dataclass
class _Unit:
    """The tracker's mutable record of one unit (internal)."""

    spec: UnitSpec
    filter: PoseFilter
    state: UnitState
    last_seen_t: float
    center_px: tuple[float, float]  # the tag's centre in the image (px)
    edge_px: float
    z_in: float | None
    path_this_turn: float = 0.0
    turned_this_turn: float = 0.0
    move_start: tuple[float, float] | None = None
    move_path: float = 0.0
    conflict_until_t: float = -math.inf
    conflict: bool = False
    rings: deque[RingSnapshot] = field(default_factory=lambda: deque(maxlen=4))
    #: The detection (corner and centre bytes) and roster entry its last measurement came from, and that
    #: measurement: a detector repeating that detection gives the same measurement, so it is reused.
    measured_key: bytes | None = None
    measured_spec: UnitSpec | None = None
    measured_pose: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


def _detection_keys(dets: TagDetections) -> list[bytes]:
    """Each detection's corners and centre as bytes: equal keys, bit-identical detections."""
    n = len(dets)
    if n == 0:
        return []
    raw = np.concatenate((dets.corners_px.reshape(n, 8), dets.centers_px.reshape(n, 2)), axis=1).tobytes()
    size = len(raw) // n
    return [raw[i * size : (i + 1) * size] for i in range(n)]


def _measured_alike(spec: UnitSpec, before: UnitSpec | None) -> bool:
    """Whether a tag measured for ``before`` measures the same for ``spec`` (same height and facing)."""
    return spec is before or (
        before is not None
        and spec.base_height_in == before.base_height_in
        and spec.facing_offset_deg == before.facing_offset_deg
    )


class UnitTracker:
    """Keeps every unit's pose current from per-frame detections (mutable; one per game)."""

    def __init__(
        self,
        roster: Roster | None = None,
        *,
        mapping: TableMapping | None = None,
        terrain: HeightMap | None = None,
        anchor_ids: Iterable[int] = DEFAULT_ANCHOR_IDS,
        settings: TrackerSettings | None = None,
    ) -> None:
        self.roster = roster or Roster()
        self.mapping = mapping
        self.terrain = terrain
        self.anchor_ids = frozenset(int(i) for i in anchor_ids)
        self.settings = settings or TrackerSettings()
        self._units: dict[int, _Unit] = {}
        self._reported_unknown: set[int] = set()
        self._anchor_conflict_until: dict[int, float] = {}
        self._last_t = 0.0
        self._last_frame = 0
        self._in_id_order: list[_Unit] | None = None  # self._units sorted by tag id (None: sort again)
        self._measured_with: tuple[Any, Any] = (self.mapping, self.terrain)  # what the measured_pose values assume
        #: (x_in, y_in) -> True where no camera sees the table (several cameras: a gap between views).
        #: A unit missing there is stale for as long as it stays missing, never lost: nothing looked.
        self.unseen_at: Callable[[float, float], bool] | None = None

    # -- what the GUI and rules read ---------------------------------------------------------
    @property
    def calibrated(self) -> bool:
        return self.mapping is not None

    def poses(self, t_s: float | None = None) -> tuple[UnitPose, ...]:
        t = self._last_t if t_s is None else t_s
        if self._in_id_order is None:
            self._in_id_order = [u for _, u in sorted(self._units.items())]
        return tuple(self._pose(u, t) for u in self._in_id_order)

    def set_mapping(self, mapping: TableMapping | None) -> None:
        """Use a new table calibration (after re-registration); filtered poses are re-measured on the next sighting."""
        switched = (mapping is None) != (self.mapping is None)
        self.mapping = mapping
        if switched:
            self._units.clear()  # pixel and inch filters cannot be converted into each other
            self._in_id_order = None

    def start_turn(self, t_s: float | None = None, *, frame_index: int | None = None) -> TrackerEvent:
        """Reset movement accounting: a player's turn begins (called by the GUI when the rules say so)."""
        for unit in self._units.values():
            unit.path_this_turn = 0.0
            unit.turned_this_turn = 0.0
        t = self._last_t if t_s is None else t_s
        return TrackerEvent(EventKind.TURN_STARTED, t, self._last_frame if frame_index is None else frame_index)

    def mark_lifted(self, tag_id: int, t_s: float | None = None) -> TrackerEvent | None:
        """Mark a unit as taken off the table by hand (the GUI's "lifted" button); None if unknown."""
        unit = self._units.get(int(tag_id))
        if unit is None or unit.state is UnitState.LIFTED:
            return None
        unit.state = UnitState.LIFTED
        t = self._last_t if t_s is None else t_s
        return self._event(EventKind.LIFTED, unit, t, self._last_frame, manual=True)

    # -- one frame ------------------------------------------------------------------------------
    def update(self, detections: TagDetections, *, image: np.ndarray | None = None) -> TrackingUpdate:
        """Take one frame's detections (and, for the lifted test, the frame itself)."""
        t = float(detections.t_s)
        frame = int(detections.frame_index)
        self._last_t, self._last_frame = t, frame
        # One printed tag found twice a few pixels apart (overlapping searches) is one tag, not a conflict.
        detections = one_per_tag(detections)
        events: list[TrackerEvent] = []
        ids = detections.tag_ids.tolist()
        is_anchor = [tag_id in self.anchor_ids for tag_id in ids]
        if any(is_anchor):
            mask = np.array(is_anchor, dtype=bool)
            anchors = detections.filter(mask)
            events += self._anchor_conflicts(anchors, t, frame)
            units = detections.filter(~mask)
            ids = units.tag_ids.tolist()
        else:
            anchors = TagDetections.empty(frame_index=frame, t_s=detections.t_s, frame_size_px=detections.frame_size_px)
            units = detections
        if self.mapping is not self._measured_with[0] or self.terrain is not self._measured_with[1]:
            self._measured_with = (self.mapping, self.terrain)
            for unit in self._units.values():
                unit.measured_key = None  # measured with another calibration or terrain

        by_id: dict[int, list[int]] = {}
        for i, tag_id in enumerate(ids):
            by_id.setdefault(tag_id, []).append(i)
        keys = _detection_keys(units)
        trusted_rows = (units.hammings == 0).tolist()  # corrected bits: maybe partly covered, corners less sure
        seen: set[int] = set()
        # Per unit in view: its roster entry, its detection, and the unit itself when the detector repeated
        # the detection it was last measured from (None: measure it now).
        plan: list[tuple[UnitSpec, int, _Unit | None]] = []
        for tag_id, rows in by_id.items():
            spec = self.roster.spec_for(tag_id)
            if spec is None:
                if tag_id not in self._reported_unknown:
                    self._reported_unknown.add(tag_id)
                    c = units.centers_px[rows[0]]
                    events.append(
                        TrackerEvent(
                            EventKind.UNKNOWN_TAG,
                            t,
                            frame,
                            tag_id=tag_id,
                            payload={"center_px": [round(float(c[0]), 1), round(float(c[1]), 1)],
                                     "hint": "add it to the scenario's [[units]] or cover it"},
                        )
                    )
                continue
            if len(rows) > 1:
                plan.append((spec, self._pick(tag_id, rows, units, t, frame, events), None))
                continue
            row = rows[0]
            unit = self._units.get(tag_id)
            repeated = (
                unit is not None
                and unit.state is UnitState.SEEN
                and unit.measured_key == keys[row]
                and (spec is unit.measured_spec or _measured_alike(spec, unit.measured_spec))
            )
            plan.append((spec, row, unit if repeated else None))
        measured = iter(self._measure_all([(spec, row) for spec, row, again in plan if again is None], units))
        for spec, row, again in plan:
            trusted = trusted_rows[row]
            if again is not None:
                # The detection it was last measured from, again: the same measurement, place and tag
                # size; what _sighting does for a unit in view, without measuring it again.
                again.last_seen_t = t
                x, y, _, heading = again.measured_pose
                f = again.filter
                if not f.refine(x, y, heading, t, trusted=trusted):
                    events += self._filtered_step(again, x, y, heading, t, frame, trusted=trusted)
                if image is not None and not (f.moving or f.following):
                    self._snapshot_ring(again, image, t)
                seen.add(spec.tag_id)
                continue
            pose = x, y, _, heading = next(measured)
            if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(heading)):
                continue  # corners that do not reach the table: a calibration that does not fit this camera
            events += self._sighting(spec, pose, units.corners_px[row], units.centers_px[row], t, frame, image, trusted=trusted)
            unit = self._units[spec.tag_id]
            unit.measured_key, unit.measured_spec, unit.measured_pose = keys[row], spec, pose
            seen.add(spec.tag_id)

        for tag_id, unit in self._units.items():
            if tag_id not in seen:
                events += self._missing(unit, t, frame, image)
            if unit.conflict and t > unit.conflict_until_t:
                unit.conflict = False
        return TrackingUpdate(frame, t, self.poses(t), tuple(events), anchors)

    # -- sightings -----------------------------------------------------------------------------
    def _pick(
        self, tag_id: int, rows: list[int], units: TagDetections, t: float, frame: int, events: list[TrackerEvent]
    ) -> int:
        """The detection that is this unit when its id is in view more than once (a conflict)."""
        if len(rows) == 1:
            return rows[0]
        unit = self._units.get(tag_id)
        if unit is not None:
            row = min(rows, key=lambda r: float(np.linalg.norm(units.centers_px[r] - unit.center_px)))
            if not unit.conflict:
                events.append(self._conflict_event(tag_id, unit.spec.name, rows, units, t, frame))
            unit.conflict = True
            unit.conflict_until_t = t + self.settings.conflict_clear_s
            return row
        events.append(self._conflict_event(tag_id, "", rows, units, t, frame))
        return max(rows, key=lambda r: float(units.decision_margins[r]))

    def _conflict_event(
        self, tag_id: int, name: str, rows: list[int], dets: TagDetections, t: float, frame: int
    ) -> TrackerEvent:
        where: list[Any] = []
        for r in rows:
            entry: dict[str, Any] = {"center_px": [round(float(v), 1) for v in dets.centers_px[r]]}
            if self.mapping is not None:
                try:
                    xy = self.mapping.table_from_camera(dets.centers_px[r].reshape(1, 2), z_in=0.0)[0]
                    entry["table_in"] = [round(float(xy[0]), 2), round(float(xy[1]), 2)]
                except Exception:
                    pass
            where.append(entry)
        return TrackerEvent(
            EventKind.CONFLICT,
            t,
            frame,
            tag_id=tag_id,
            name=name,
            payload={"count": len(rows), "where": where, "hint": f"two tags with id {tag_id} are in view; reprint one with another id"},
        )

    def _anchor_conflicts(self, anchors: TagDetections, t: float, frame: int) -> list[TrackerEvent]:
        events = []
        ids, counts = np.unique(anchors.tag_ids, return_counts=True)
        for tag_id, count in zip(ids.tolist(), counts.tolist()):
            if count > 1:
                if t > self._anchor_conflict_until.get(tag_id, -math.inf):
                    rows = [i for i in range(len(anchors)) if anchors.tag_ids[i] == tag_id]
                    events.append(self._conflict_event(tag_id, f"anchor {tag_id}", rows, anchors, t, frame))
                self._anchor_conflict_until[tag_id] = t + self.settings.conflict_clear_s
        return events

    def _measure_all(self, picked: list[tuple[UnitSpec, int]], units: TagDetections) -> list[tuple[float, float, float, float]]:
        """Rows of x, y, z_in (NaN uncalibrated), unit heading: table inches, or image pixels."""
        if not picked:
            return []
        rows = [row for _, row in picked]
        if self.mapping is not None:
            heights = np.array([spec.base_height_in for spec, _ in picked])
            # Flat ground adds nothing to any height: skip asking it (the same poses, fewer steps).
            terrain = None if getattr(self.terrain, "is_flat", False) else self.terrain
            measured = table_poses(units.corners_px[rows], self.mapping, base_heights_in=heights, terrain=terrain).tolist()
        else:
            measured = [[x, y, math.nan, h] for x, y, h in (image_pose(units.corners_px[r]) for r in rows)]
        # The roster's facing offset, row by row in Python (a few rows: cheaper than numpy calls; same values).
        return [(x, y, z, (h + spec.facing_offset_deg) % 360.0) for (x, y, z, h), (spec, _) in zip(measured, picked)]

    def _filter_settings(self, spec: UnitSpec, edge_px: float) -> FilterSettings:
        if self.mapping is not None:
            return self.settings.filter
        size_in = spec.tag_size_in or self.settings.default_tag_size_in
        return self.settings.filter.scaled(edge_px / size_in)  # inches to pixels at this tag's scale

    def _sighting(
        self,
        spec: UnitSpec,
        pose: tuple[float, float, float, float],
        corners: np.ndarray,
        center_px: np.ndarray,
        t: float,
        frame: int,
        image: np.ndarray | None,
        *,
        trusted: bool = True,
    ) -> list[TrackerEvent]:
        x, y, heading = float(pose[0]), float(pose[1]), float(pose[3])
        z = float(pose[2]) if self.mapping is not None else None
        a, b, c, d = corners.tolist()
        edge = (math.dist(a, b) + math.dist(b, c) + math.dist(c, d) + math.dist(d, a)) / 4.0
        unit = self._units.get(spec.tag_id)
        events: list[TrackerEvent] = []
        if unit is None:
            unit = _Unit(
                spec=spec,
                filter=PoseFilter(x, y, heading, t, settings=self._filter_settings(spec, edge)),
                state=UnitState.SEEN,
                last_seen_t=t,
                center_px=(float(center_px[0]), float(center_px[1])),
                edge_px=edge,
                z_in=z,
            )
            self._units[spec.tag_id] = unit
            self._in_id_order = None
            events.append(self._event(EventKind.APPEARED, unit, t, frame))
        else:
            previous = unit.state
            unit.last_seen_t = t
            unit.center_px = (float(center_px[0]), float(center_px[1]))
            unit.edge_px = edge
            unit.z_in = z
            if previous is UnitState.SEEN:
                if not unit.filter.refine(x, y, heading, t, trusted=trusted):  # refine: still, no path, no event
                    events += self._filtered_step(unit, x, y, heading, t, frame, trusted=trusted)
            else:
                unit.state = UnitState.SEEN
                f = unit.filter
                far = math.hypot(x - f.x, y - f.y) > f.settings.jump
                turned = abs(angle_diff_deg(heading, f.heading_deg)) > f.settings.jump_deg
                if far or turned or previous is UnitState.LIFTED:
                    old_heading = f.heading_deg
                    distance = f.relocate(x, y, heading, t)
                    distance = distance if far else 0.0
                    unit.path_this_turn += distance
                    unit.turned_this_turn += abs(angle_diff_deg(heading, old_heading)) if turned else 0.0
                    unit.move_start = None
                    moved = {"moved": far, "distance": self._length(distance)}
                else:
                    moved = {"moved": False}
                    events += self._filtered_step(unit, x, y, heading, t, frame, trusted=trusted)
                kind = EventKind.RETURNED if previous is UnitState.LIFTED else EventKind.REAPPEARED
                events.insert(0, self._event(kind, unit, t, frame, was=previous.value, **moved))
        if image is not None and not (unit.filter.moving or unit.filter.following):
            self._snapshot_ring(unit, image, t)
        return events

    def _filtered_step(
        self, unit: _Unit, x: float, y: float, heading: float, t: float, frame: int, *, trusted: bool = True
    ) -> list[TrackerEvent]:
        before_heading = unit.filter.heading_deg
        start = unit.filter.rest_xy  # where it stood (a slow push is followed before it counts as a move)
        step = unit.filter.update(x, y, heading, t, trusted=trusted)
        unit.path_this_turn += step.travelled
        if step.moving or step.stopped:
            unit.turned_this_turn += abs(angle_diff_deg(step.heading_deg, before_heading))
        events = []
        if step.started:
            unit.move_start = start
            unit.move_path = step.travelled
            unit.rings.clear()  # the ring around where it stood no longer describes where it is
            events.append(self._event(EventKind.MOVED, unit, t, frame, **self._from(start)))
        elif step.moving or step.stopped:
            unit.move_path += step.travelled
        if step.stopped:
            payload: dict[str, Any] = {"distance": self._length(unit.move_path)}
            if unit.move_start is not None:
                payload["straight"] = self._length(math.hypot(step.x - unit.move_start[0], step.y - unit.move_start[1]))
            events.append(self._event(EventKind.STOPPED, unit, t, frame, **payload))
            unit.move_start = None
            unit.move_path = 0.0
        return events

    # -- absences ------------------------------------------------------------------------------
    def _missing(self, unit: _Unit, t: float, frame: int, image: np.ndarray | None) -> list[TrackerEvent]:
        s = self.settings
        gone_s = t - unit.last_seen_t
        events = []
        if unit.state is UnitState.SEEN and gone_s > s.stale_after_s:
            unit.state = UnitState.STALE
            events.append(self._event(EventKind.HIDDEN, unit, t, frame))
        if unit.state in (UnitState.STALE, UnitState.LOST) and gone_s >= s.lift_after_s and self._place_visible(unit, image):
            unit.state = UnitState.LIFTED
            events.append(self._event(EventKind.LIFTED, unit, t, frame, manual=False))
        elif unit.state is UnitState.STALE and gone_s >= s.lost_after_s and not self.in_gap(unit.spec.tag_id):
            unit.state = UnitState.LOST
            events.append(self._event(EventKind.LOST, unit, t, frame))
        return events

    def _ring_radii_px(self, unit: _Unit) -> tuple[float, float]:
        size_in = unit.spec.tag_size_in or self.settings.default_tag_size_in
        px_per_in = unit.edge_px / size_in
        # Outside the printed card (about 1.3 tag edges wide), the base, and the block's sides and
        # shadow, which lean outward the taller the base is.
        inner_in = max(0.9 * size_in, unit.spec.base_radius_in) + 0.4 + 0.4 * unit.spec.base_height_in
        return inner_in * px_per_in, (inner_in + 1.0) * px_per_in

    def _snapshot_ring(self, unit: _Unit, image: np.ndarray, t: float) -> None:
        if unit.rings and t - unit.rings[-1].t_s < self.settings.ring_every_s:
            return
        inner, outer = self._ring_radii_px(unit)
        like = unit.rings[-1] if unit.rings else None
        ring = take_ring(image, unit.center_px, inner_px=inner, outer_px=outer, t_s=t, spot_px=0.45 * unit.edge_px, like=like)
        if ring is not None:
            unit.rings.append(ring)

    def _place_visible(self, unit: _Unit, image: np.ndarray | None) -> bool:
        if image is None or not unit.rings:
            return False  # cannot tell: stay hidden (safe: nothing is deleted)
        # A snapshot from a moment before the tag vanished: the last one may already show the
        # hand that was about to cover it.
        older = [r for r in unit.rings if r.t_s <= unit.last_seen_t - 0.3]
        ring = older[-1] if older else unit.rings[0]
        around, spot = ring_similarity(ring, image)
        # The table around it as before but the spot itself changed: the unit is gone. Both as
        # before: the tag is still there and only missed by the detector (blur, glare).
        return around >= self.settings.ring_similarity_min and spot < self.settings.spot_similarity_max

    def in_gap(self, tag_id: int) -> bool:
        """Whether the unit's last known place is where no camera looks (see ``unseen_at``)."""
        unit = self._units.get(int(tag_id))
        if unit is None or self.unseen_at is None or self.mapping is None:
            return False
        return bool(self.unseen_at(unit.filter.x, unit.filter.y))

    # -- output --------------------------------------------------------------------------------
    def _length(self, value: float) -> float:
        return round(float(value), 3)

    def _from(self, start: tuple[float, float]) -> dict[str, Any]:
        if self.mapping is not None:
            return {"from_in": [round(start[0], 3), round(start[1], 3)]}
        return {"from_px": [round(start[0], 2), round(start[1], 2)]}

    def _event(self, kind: EventKind, unit: _Unit, t: float, frame: int, **extra: Any) -> TrackerEvent:
        f = unit.filter
        payload: dict[str, Any] = {}
        if self.mapping is not None:
            payload["x_in"] = round(f.x, 3)
            payload["y_in"] = round(f.y, 3)
        else:
            payload["center_px"] = [round(f.x, 2), round(f.y, 2)]
        payload["heading_deg"] = round(f.heading_deg, 2)
        payload.update(extra)
        return TrackerEvent(kind, t, frame, tag_id=unit.spec.tag_id, name=unit.spec.name, payload=payload)

    def _pose(self, unit: _Unit, t: float) -> UnitPose:
        f = unit.filter
        if self.mapping is not None:
            x_in, y_in, z_in, moved, center = f.x, f.y, unit.z_in, unit.path_this_turn, unit.center_px
        else:
            x_in = y_in = z_in = moved = None
            center = (float(f.x), float(f.y))
        return unit_pose_from_fields({
            "tag_id": unit.spec.tag_id,
            "name": unit.spec.name,
            "side": unit.spec.side,
            "x_in": x_in,
            "y_in": y_in,
            "z_in": z_in,
            "heading_deg": f.heading_deg,
            "state": unit.state,
            "t_s": t,
            "moved_this_turn_in": moved,
            "turned_this_turn_deg": unit.turned_this_turn,
            "last_seen_t_s": unit.last_seen_t,
            "moving": f.moving,
            "conflict": unit.conflict,
            "center_px": center,
        })
