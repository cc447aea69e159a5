"""Line of sight, line of fire, and who may fire (A.7, A.8) -- the part of firing the excerpt covers.

* Line of sight is traced from the rough centre of the firing unit to the rough centre of the target
  (not per figure). The camera cannot see terrain, so the players say whether that line is blocked
  (``line_of_sight``) and, when it is partly blocked, how many figures see / are seen. A unit fires
  only if half or more of its figures see the target; a target of which less than half is visible
  cannot be fired upon.
* Line of fire: units and civilian stands within 2" of the centre-to-centre line, at the same
  elevation, are "in the line of fire" -- a flat-ended 4"-wide corridor between the two centres
  (proposal), counted for any figure of a unit touching it. When firer and target stand at different
  elevations the shot passes over or under everyone (the rooftop example).
* Regulars may not fire with friends in the line of fire, nor directly through another unit at the
  same elevation; they may fire with civilians in it (chance of hitting them: "Civilians on the
  Battlefield", not in the excerpt) unless the scenario forbids it. Irregulars may fire whatever is in
  the line, with the same risk to friends.

What a shot does once allowed (Firepower dice, cover, casualties) is **not in the excerpt**: the fire
is settled with an opposed test on the dice the players name (:mod:`rules.forceonforce.checks`) and
the effect is applied from the rulebook by hand.

>>> from rules.forceonforce.examples.patrol import initial_state
>>> check = check_fire(initial_state(), "Alpha", "Cell 1")
>>> check.allowed, [(x.name, x.relation) for x in check.in_line_of_fire]
(False, [('Bravo', 'friend'), ('Shoppers', 'civilian')])
>>> check.reasons[0]
'Regulars may not fire with friends in the line of fire: Bravo (A.8)'
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.forceonforce.pieces import Figure, Team, TroopType
from rules.geometry import Corridor

if TYPE_CHECKING:
    from rules.forceonforce.state import FofState


@dataclass(frozen=True)
class InLineOfFire:
    """A unit, leader or civilian stand in the corridor: ``relation`` is "friend", "enemy" or "civilian"."""

    name: str
    side: str
    relation: str
    figure_ids: tuple[int, ...]
    distance_in: float


@dataclass(frozen=True)
class FireCheck:
    """Whether a unit may fire at another, from the geometry and the players' sight declarations."""

    firer: str
    target: str
    firer_side: str
    target_side: str
    firer_troop_type: TroopType
    centre_distance_in: float
    corridor: Corridor
    same_elevation: bool
    firer_elevation_in: float
    target_elevation_in: float
    in_line_of_fire: tuple[InLineOfFire, ...]
    line_of_sight: bool
    firers_seeing: int
    firers_total: int
    target_visible: int
    target_total: int
    firepower: int
    allowed: bool
    reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def firepower(state: FofState, team: Team) -> int:
    """Basic Firepower: the unit's figures in play (riflemen; A.2.4 examples), or the scenario's
    ``firepower``, plus or minus one die for Abundant / Poor Supplies."""
    base = team.firepower if team.firepower is not None else len(state.in_play_members(team))
    return max(0, base + state.data.supplies(team.supplies).firepower_dice)


def line_of_fire(state: FofState, firer: Team, target: Team) -> tuple[Corridor, bool, tuple[InLineOfFire, ...]]:
    """The corridor, whether firer and target are at the same elevation, and who is in the line."""
    a, b = state.centre(firer), state.centre(target)
    corridor = Corridor(a.x_in, a.y_in, b.x_in, b.y_in, state.data.lof_half_width_in)
    tolerance = state.options.elevation_tolerance_in
    z_firer, z_target = state.elevation_in(firer), state.elevation_in(target)
    same = abs(z_firer - z_target) <= tolerance
    if not same:
        return corridor, False, ()
    skip = {f.figure_id for f in state.members(firer) + state.members(target)}
    skip |= {x for x in (firer.leader, target.leader) if x is not None}
    groups: dict[str, list[Figure]] = {}
    for f in state.figures:
        if f.figure_id in skip or not f.in_play or abs(f.z_in - z_firer) > tolerance:
            continue
        if not corridor.touches(f.footprint):
            continue
        key = f.team if f.team is not None else f"{f.name}#{f.figure_id}"
        groups.setdefault(key, []).append(f)
    found = []
    line = corridor.line
    for figs in groups.values():
        first = figs[0]
        relation = "civilian" if first.civilian else ("friend" if first.side == firer.side else "enemy")
        name = first.team if first.team is not None else first.name
        distance = min(max(0.0, line.distance_to_point_in(f.x_in, f.y_in) - f.radius_in) for f in figs)
        found.append(InLineOfFire(name, first.side, relation, tuple(f.figure_id for f in figs), round(distance, 6)))
    found.sort(key=lambda x: (x.distance_in, x.name))
    return corridor, True, tuple(found)


def check_fire(state: FofState, firer: Team | str | int, target: Team | str | int, *, line_of_sight: bool = True,
               firers_seeing: int | None = None, target_visible: int | None = None) -> FireCheck:
    """May ``firer`` fire at ``target``? Every reason it may not, and every warning (A.7, A.8)."""
    f = firer if isinstance(firer, Team) else state.team(firer)
    t = target if isinstance(target, Team) else state.team(target)
    corridor, same, crossing = line_of_fire(state, f, t)
    z_f, z_t = state.elevation_in(f), state.elevation_in(t)
    firers_total, target_total = len(state.in_play_members(f)), len(state.in_play_members(t))
    seeing = firers_total if firers_seeing is None else firers_seeing
    visible = target_total if target_visible is None else target_visible
    reasons: list[str] = []
    warnings: list[str] = []
    if f.name == t.name:
        reasons.append("a unit cannot fire at itself")
    if firers_total == 0:
        reasons.append(f"{f.name} has no figure in play")
    if target_total == 0:
        reasons.append(f"{t.name} has no figure in play")
    if not line_of_sight:
        reasons.append(f"the line from the centre of {f.name} to the centre of {t.name} is blocked (A.7)")
    if firers_total and 2 * seeing < firers_total:
        reasons.append(f"only {seeing} of {firers_total} figures of {f.name} see the target: half or more must (A.7)")
    if target_total and 2 * visible < target_total:
        reasons.append(f"only {visible} of {target_total} figures of {t.name} are visible: less than half cannot be "
                       "fired upon (A.7)")
    if f.side == t.side:
        warnings.append(f"{t.name} is on the firer's own side")
    options = state.options
    friends = [x.name for x in crossing if x.relation == "friend"]
    civilians = [x.name for x in crossing if x.relation == "civilian"]
    others = [x.name for x in crossing if x.relation == "enemy"]
    if f.troop_type is TroopType.REGULAR:
        if friends:
            reasons.append(f"Regulars may not fire with friends in the line of fire: {', '.join(friends)} (A.8)")
        if others and options.regulars_blocked_by == "any unit":
            reasons.append(f"Regulars may not fire directly through another unit at the same elevation: "
                           f"{', '.join(others)} (A.8)")
    else:
        if friends and not options.irregulars_fire_through_friends:
            reasons.append(f"the scenario forbids firing with friends in the line of fire: {', '.join(friends)}")
        elif friends:
            warnings.append(f"friends in the line of fire may be hit, as civilians would be: {', '.join(friends)} "
                            "(Civilians on the Battlefield, p. 127, is not in the excerpt)")
    if civilians:
        if options.forbid_fire_near_civilians:
            reasons.append(f"the scenario forbids fire that might injure civilians: {', '.join(civilians)} in the line")
        else:
            warnings.append(f"civilians in the line of fire may be hit: {', '.join(civilians)} "
                            "(Civilians on the Battlefield, p. 127, is not in the excerpt)")
    if not same:
        warnings.append(f"firing {'up' if z_t > z_f else 'down'} {abs(z_t - z_f):.1f}\": the shot passes over or under "
                        "units near the line (A.8)")
    a, b = state.centre(f), state.centre(t)
    return FireCheck(f.name, t.name, f.side, t.side, f.troop_type, math.hypot(b.x_in - a.x_in, b.y_in - a.y_in),
                     corridor, same, z_f, z_t, crossing, line_of_sight, seeing, firers_total, visible, target_total,
                     firepower(state, f), not reasons, tuple(reasons), tuple(warnings))
