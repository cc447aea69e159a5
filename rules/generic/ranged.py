"""Ranged fire in the generic rules: range band and to-hit (B.1, B.2), area-of-effect misses (B.3),
damage points against ranged defence and the status ladder (B.4) -- planned without dice, resolved
with a dice source, and given exact odds by enumerating every die.

Procedure of one shot:

1. The distance (base to base; to the point for a shot aimed at a point) picks the range level of the
   weapon's delivery type; bases in contact are Adjacent (automatic hit). The players may shift it
   whole levels for the modifiers the text does not list ("adjusted range"); beyond Very Long, beyond
   the record's Maximum range or inside its Minimum range there is no fire.
2. Roll a d6: hit on the level's number or more.
3. A hit does the weapon's Damage to the unit hit; units within the area of effect of the impact take
   half (rounded up; proposal). A miss with an area of effect still detonates: 1d6 inches away, at most
   half the range, in the direction of two d6 on the scatter table (a Dud does not go off); every unit
   within the area of effect of where it lands takes half damage.
4. For each damage point roll a d6: at or under the unit's ranged defence it is deflected, otherwise
   the unit drops one status level. The last level (Destroyed) removes it.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING

from rules.dice import DiceSource, RollRequest
from rules.generic.catalog import Band, compass_bearing_deg
from rules.generic.pieces import Unit
from rules.geometry import EPS, Circle, bearing_deg, distance_to_point_in, gap_in

if TYPE_CHECKING:
    from rules.generic.state import GenericState


@dataclass(frozen=True)
class ShotPlan:
    """Everything about a shot that needs no dice. ``to_hit`` is the d6 needed (1: automatic)."""

    attacker: int
    attacker_name: str
    side: str
    weapon: str
    target: int | None
    target_name: str | None
    intended_x_in: float
    intended_y_in: float
    distance_in: float
    adjacent: bool
    band: str | None
    range_shift: int
    to_hit: int
    damage: int
    aoe_in: float
    max_scatter_in: float
    allowed: bool
    reason: str = ""
    #: The band the measured distance falls in, when a range shift moved it (``band`` is the shifted one).
    measured_band: str | None = field(default=None, metadata={"added": True})

    @property
    def p_hit(self) -> Fraction:
        return Fraction(7 - self.to_hit, 6) if self.to_hit > 1 else Fraction(1)


@dataclass(frozen=True)
class ScatterResult:
    """Where a missed area-of-effect shot lands: the distance die (capped at half the range) and the
    two direction dice."""

    distance_face: int
    cap_in: float
    distance_in: float
    direction_faces: tuple[int, int]
    direction: str
    bearing_deg: float | None
    landing_x_in: float | None
    landing_y_in: float | None

    @property
    def dud(self) -> bool:
        return self.direction == "Dud"


@dataclass(frozen=True)
class DamageResult:
    """The damage points one unit took, every die against its ranged defence, and its status."""

    unit_id: int
    name: str
    side: str
    points: int
    full: bool
    defence: int
    faces: tuple[int, ...]
    applied: int
    status_before: str
    status_after: str
    destroyed: bool


@dataclass(frozen=True)
class ShotResult:
    """A resolved shot: the plan, the to-hit die, the scatter of a miss, and the damage done."""

    plan: ShotPlan
    to_hit_face: int | None
    hit: bool
    scatter: ScatterResult | None = None
    impact_x_in: float | None = None
    impact_y_in: float | None = None
    damages: tuple[DamageResult, ...] = ()
    identified: tuple[int, ...] = ()
    dummy_removed: bool = False
    shots_left: int | None = None


@dataclass(frozen=True)
class UnitOdds:
    """Exact odds of one shot for one unit: caught (hit directly, or inside the area of effect where
    the shot comes down), losing at least one status level, being destroyed."""

    unit_id: int
    p_caught: Fraction
    p_damaged: Fraction
    p_destroyed: Fraction


# ---------------------------------------------------------------------------------------------


def half(points: int, rounding: str) -> int:
    """Half damage (B.4.1): rounded up (proposal) or down.

    >>> half(3, "up"), half(3, "down"), half(1, "up")
    (2, 1, 1)
    """
    return -(-points // 2) if rounding == "up" else points // 2


def p_point_applies(defence: int) -> Fraction:
    """A damage point gets through when a d6 rolls over the ranged defence (B.4.2).

    >>> p_point_applies(0), p_point_applies(3), p_point_applies(6)
    (Fraction(1, 1), Fraction(1, 2), Fraction(0, 1))
    """
    return Fraction(max(0, min(6, 6 - defence)), 6)


@lru_cache(maxsize=1024)
def p_at_least_levels(points: int, defence: int, levels: int) -> Fraction:
    """Probability that at least ``levels`` of ``points`` damage points get through."""
    if levels <= 0:
        return Fraction(1)
    q = p_point_applies(defence)
    return sum((Fraction(comb(points, k)) * q**k * (1 - q) ** (points - k) for k in range(levels, points + 1)),
               Fraction(0))


def shifted_beyond_very_long(distance_in: float, measured_band: str, range_shift: int, delivery: str) -> str:
    """Why a shot a range shift pushed past Very Long may not fire, naming the measured distance and
    band apart from the shift (the measured distance itself is in range).

    >>> shifted_beyond_very_long(9.2, "Medium", 3, "Rifle")
    '9.2" measured is Medium for a Rifle; shifted +3 levels it is beyond Very Long: no fire'
    """
    return (f"{distance_in:.1f}\" measured is {measured_band} for a {delivery}; shifted {range_shift:+d} level"
            f"{'s' if abs(range_shift) != 1 else ''} it is beyond Very Long: no fire")


def plan_shot(state: GenericState, attacker_id: int, *, target_id: int | None = None,
              aim_point: tuple[float, float] | None = None, range_shift: int = 0) -> ShotPlan:
    """Plan a shot at a unit or (area-of-effect weapons) at a point; ``allowed`` and ``reason`` say
    whether the rules let it go."""
    data = state.data
    a = state.unit(attacker_id)
    rec = a.record
    target = state.unit(target_id) if target_id is not None else None
    reasons: list[str] = []
    if target is not None:
        ix, iy = target.x_in, target.y_in
        distance = gap_in(a.footprint, target.footprint)
    elif aim_point is not None:
        ix, iy = aim_point
        distance = distance_to_point_in(a.footprint, ix, iy)
        if rec.aoe_in <= 0:
            reasons.append(f"the {rec.weapon or 'weapon'} has no area of effect: aim it at a unit")
    else:
        raise ValueError("plan_shot needs a target unit or an aim point")
    adjacent = target is not None and distance <= state.options.adjacent_in + EPS
    band: Band | None = None
    measured_band: str | None = None
    to_hit = 7
    if not rec.has_ranged_attack or rec.delivery is None:
        reasons.append(f"{a.short_id} has no ranged attack")
    elif adjacent:
        to_hit = data.level("Adjacent").to_hit
    else:
        band = data.band(rec.delivery, distance)
        if band is None:
            reasons.append(f"{distance:.1f}\" is beyond Very Long for a {rec.delivery} ({data.delivery(rec.delivery).very_long_in:g}\")")
        elif range_shift:
            measured_band = band.name
            band = data.shifted(rec.delivery, band, range_shift)
            if band is None:
                reasons.append(shifted_beyond_very_long(distance, measured_band, range_shift, rec.delivery))
        if band is not None:
            to_hit = band.level.to_hit
    if rec.has_ranged_attack:
        if distance > rec.max_range_in + EPS:
            reasons.append(f"{distance:.1f}\" is beyond its Maximum range {rec.max_range_in:g}\"")
        if distance < rec.min_range_in - EPS:
            reasons.append(f"{distance:.1f}\" is inside its Minimum range {rec.min_range_in:g}\"")
        if a.shots_left == 0:
            reasons.append(f"{a.short_id} has no shots left")
    if not a.in_play:
        reasons.append(f"{a.short_id} is not in play")
    if target is not None and not target.in_play:
        reasons.append(f"{target.short_id} is not in play")
    if target is not None and target.unit_id == a.unit_id:
        reasons.append("a unit cannot fire at itself")
    # "max. distance of range/2": the range to the intended point (the target's centre), not the
    # base-to-base gap that picks the band (docs/rules-generic.md, Scatter).
    cap = distance_to_point_in(a.footprint, ix, iy) / 2
    return ShotPlan(a.unit_id, a.short_id, a.side, rec.weapon, target.unit_id if target else None,
                    target.short_id if target else None, ix, iy, round(distance, 6), adjacent,
                    "Adjacent" if adjacent else (band.name if band else None), range_shift, to_hit,
                    rec.damage, rec.aoe_in, min(float(state.data.distance_die), cap), not reasons, "; ".join(reasons),
                    measured_band)


def _north_deg(state: GenericState, plan: ShotPlan) -> float:
    if state.options.scatter_north == "line of fire":
        a = state.unit(plan.attacker)
        return bearing_deg(a.x_in, a.y_in, plan.intended_x_in, plan.intended_y_in)
    return 90.0


def landing_point(state: GenericState, plan: ShotPlan, distance_face: int, first: int,
                  second: int) -> ScatterResult:
    """Where a missed shot lands for the three scatter dice (distance, then the two direction dice)."""
    data = state.data
    direction = data.direction(first, second)
    cap = plan.distance_in / 2
    distance = min(float(distance_face), cap)
    if direction == "Dud":
        return ScatterResult(distance_face, cap, distance, (first, second), direction, None, None, None)
    bearing = compass_bearing_deg(direction, north_deg=_north_deg(state, plan))
    x = plan.intended_x_in + distance * math.cos(math.radians(bearing))
    y = plan.intended_y_in + distance * math.sin(math.radians(bearing))
    return ScatterResult(distance_face, cap, distance, (first, second), direction, bearing, round(x, 9), round(y, 9))


def points_by_unit(state: GenericState, plan: ShotPlan, hit: bool, impact: tuple[float, float] | None,
                   units: Sequence[Unit]) -> list[tuple[Unit, int, bool]]:
    """(unit, damage points, full?) for every unit the shot reaches."""
    out: list[tuple[Unit, int, bool]] = []
    if impact is None:
        return out
    rounding = state.options.half_rounding
    area = Circle(impact[0], impact[1], plan.aoe_in) if plan.aoe_in > 0 else None
    for u in units:
        if not u.in_play or u.dummy:
            continue
        direct = hit and plan.target == u.unit_id
        if direct:
            out.append((u, plan.damage, True))
        elif area is not None and area.touches(u.footprint):
            full = hit and state.options.half_damage == "misses only"
            out.append((u, plan.damage if full else half(plan.damage, rounding), full))
    return [x for x in out if x[1] > 0]


def roll_damage(state: GenericState, unit: Unit, points: int, full: bool, dice: DiceSource) -> DamageResult:
    """Roll each damage point against the unit's ranged defence and step it down the status ladder."""
    faces: list[int] = []
    if points:
        r = dice.roll(RollRequest(f"damage to {unit.short_id} ({points} point{'s' if points != 1 else ''} against "
                                  f"defence {unit.record.ranged_defence})", points, 6, each_die=True))
        faces = list(r.faces or ())
    applied = sum(1 for f in faces if f > unit.record.ranged_defence)
    ladder = state.data.status_ladder
    after = min(len(ladder) - 1, unit.status_level + applied)
    return DamageResult(unit.unit_id, unit.short_id, unit.side, points, full, unit.record.ranged_defence,
                        tuple(faces), applied, ladder[unit.status_level], ladder[after], after == len(ladder) - 1)


def resolve_shot(state: GenericState, plan: ShotPlan, dice: DiceSource) -> ShotResult:
    """Roll a planned shot: to-hit, then the scatter of a miss, then every unit's damage dice
    (the unit hit first, then by distance from the impact)."""
    a = state.unit(plan.attacker)
    shots_left = None if a.shots_left is None else a.shots_left - 1
    if plan.target is not None:
        target = state.unit(plan.target)
        if target.anonymous and state.options.attack_identifies:
            if target.dummy:
                return ShotResult(plan, None, False, identified=(target.unit_id,), dummy_removed=True,
                                  shots_left=shots_left)
    face = None
    if plan.to_hit > 1:
        face = dice.roll(RollRequest(f"to hit {plan.target_name or 'the point'} at {plan.band} "
                                     f"({plan.to_hit}+)", 1, 6)).dice_total
    hit = face is None or face >= plan.to_hit
    scatter = None
    impact: tuple[float, float] | None = (plan.intended_x_in, plan.intended_y_in) if hit else None
    if not hit and plan.aoe_in > 0:
        d = dice.roll(RollRequest(f"scatter distance (1d6, at most {plan.distance_in / 2:g}\")", 1, 6)).dice_total
        r = dice.roll(RollRequest("scatter direction (2d6: row, column)", 2, 6, each_die=True))
        first, second = (r.faces or (1, 1))[:2]
        scatter = landing_point(state, plan, d, first, second)
        impact = None if scatter.dud else (scatter.landing_x_in or 0.0, scatter.landing_y_in or 0.0)
    reached = points_by_unit(state, plan, hit, impact, state.units)
    reached.sort(key=lambda x: (not (x[2] and x[0].unit_id == plan.target),
                                math.hypot(x[0].x_in - (impact or (0, 0))[0], x[0].y_in - (impact or (0, 0))[1])))
    damages = tuple(roll_damage(state, u, pts, full, dice) for u, pts, full in reached)
    identified = tuple(u.unit_id for u, _, _ in reached if u.anonymous)
    if plan.target is not None and state.unit(plan.target).anonymous and state.options.attack_identifies:
        identified = (plan.target,) + tuple(i for i in identified if i != plan.target)
    return ShotResult(plan, face, hit, scatter, impact[0] if impact else None, impact[1] if impact else None, damages,
                      identified, False, shots_left)


def shot_odds(state: GenericState, plan: ShotPlan) -> dict[int, UnitOdds]:
    """Exact odds for every unit the shot can reach, by enumerating the to-hit die, the scatter
    distance die and both direction dice (6 x 6 x 36 equally likely outcomes)."""
    units = [u for u in state.units if u.in_play and not u.dummy]
    target = state.unit(plan.target) if plan.target is not None else None
    if target is not None and target.dummy and target.anonymous and state.options.attack_identifies:
        return {}
    caught: dict[int, Fraction] = {}
    damaged: dict[int, Fraction] = {}
    destroyed: dict[int, Fraction] = {}
    by_id = {u.unit_id: u for u in units}

    def add(weight: Fraction, tally: dict[tuple[int, int], int]) -> None:
        # Outcomes that give a unit the same number of points are counted first and weighed once.
        for (uid, pts), n in tally.items():
            u, w = by_id[uid], weight * n
            caught[uid] = caught.get(uid, Fraction(0)) + w
            damaged[uid] = damaged.get(uid, Fraction(0)) + w * p_at_least_levels(pts, u.record.ranged_defence, 1)
            destroyed[uid] = destroyed.get(uid, Fraction(0)) + w * p_at_least_levels(
                pts, u.record.ranged_defence, state.levels_left(u))

    def tally_of(hit: bool, impacts: list[tuple[float, float]]) -> dict[tuple[int, int], int]:
        tally: dict[tuple[int, int], int] = {}
        for impact in impacts:
            for u, pts, _ in points_by_unit(state, plan, hit, impact, units):
                tally[(u.unit_id, pts)] = tally.get((u.unit_id, pts), 0) + 1
        return tally

    p_hit = plan.p_hit
    add(p_hit, tally_of(True, [(plan.intended_x_in, plan.intended_y_in)]))
    if p_hit < 1 and plan.aoe_in > 0:
        landings = []
        for d in range(1, 7):
            for first in range(1, 7):
                for second in range(1, 7):
                    s = landing_point(state, plan, d, first, second)
                    if not s.dud:
                        landings.append((s.landing_x_in or 0.0, s.landing_y_in or 0.0))
        add((1 - p_hit) / (6 * 36), tally_of(False, landings))
    return {uid: UnitOdds(uid, caught[uid], damaged[uid], destroyed[uid]) for uid in caught}
