"""The automation tables (B.8): one player plays against the table itself.

For every unit of an automated side, each turn:

1. **Movement**: roll a d6 (the die is not stated: proposal); at or under the unit's Probability of
   movement it moves this turn.
2. **Route**: two d6 on the route table (first the row, second the column): advance, outflank left or
   right, retreat, or a random direction; by the direct or the easiest route. The text's Direction
   table is missing, so the engine suggests a direction (proposal): "advance" is the bearing toward the
   side's objective, or else the nearest enemy unit it knows of; outflanking turns 45 degrees off it,
   retreating 180; a random direction is rolled on the scatter table (re-rolling a Dud). The suggested
   move is the unit's Maximum speed that way; the players pick the actual path (the easiest route is
   theirs to judge).
3. **Firing**: the nearest enemy unit it can engage picks the range level; Point Blank and Short
   always fire, Medium on 1-5, Long and Very Long on 1-3 (B.8.2); an adjacent enemy means close combat
   (proposal: always). Dummy counters move (as foot units) but never fire (proposal).

>>> from rules.generic.catalog import load_data
>>> data = load_data()
>>> data.route(2, 6), data.route(4, 1), data.route(6, 3)
('OfL Esy', 'OfR Dir', 'Rnd Dir')
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.dice import DiceSource, RollRequest
from rules.generic.catalog import compass_bearing_deg
from rules.generic.pieces import Unit
from rules.generic.ranged import plan_shot
from rules.geometry import EPS, bearing_deg, gap_in

if TYPE_CHECKING:
    from rules.generic.state import GenericState


@dataclass(frozen=True)
class AutomatedMove:
    """What the tables say a unit does with its movement this turn."""

    unit_id: int
    name: str
    move_face: int
    probability: int
    moves: bool
    route_faces: tuple[int, int] | None = None
    route: str = ""
    manoeuvre: str = ""
    path: str = ""
    toward: str = ""
    random_faces: tuple[tuple[int, int], ...] = ()
    bearing_deg: float | None = None
    distance_in: float = 0.0
    to_x_in: float | None = None
    to_y_in: float | None = None
    from_x_in: float | None = None
    from_y_in: float | None = None


@dataclass(frozen=True)
class AutomatedFire:
    """Whether a unit fires this turn, at whom, at which range level, and the d6 that decided it."""

    unit_id: int
    name: str
    target: int | None
    target_name: str | None
    level: str | None
    face: int | None
    fires: bool
    close_combat: bool = False
    reason: str = ""


@dataclass(frozen=True)
class AutomationResult:
    """Every automated unit's movement and fire decision for one turn."""

    side: str
    round: int
    moves: tuple[AutomatedMove, ...]
    fires: tuple[AutomatedFire, ...]


def _enemies(state: GenericState, unit: Unit) -> list[Unit]:
    return [u for u in state.in_play() if u.side != unit.side and not (u.dummy and not u.anonymous)]


def _goal(state: GenericState, unit: Unit) -> tuple[float, float, str] | None:
    side = state.side(unit.side)
    if side.objective_x_in is not None and side.objective_y_in is not None:
        return side.objective_x_in, side.objective_y_in, "the objective"
    enemies = _enemies(state, unit)
    known = [u for u in enemies if not u.anonymous] or enemies
    if not known:
        return None
    nearest = min(known, key=lambda u: (gap_in(unit.footprint, u.footprint), u.unit_id))
    return nearest.x_in, nearest.y_in, nearest.short_id


def decide_move(state: GenericState, unit: Unit, dice: DiceSource) -> AutomatedMove:
    data = state.data
    rec = unit.record
    face = dice.roll(RollRequest(f"does {unit.short_id} move? (d{data.movement_die} <= {rec.movement_probability})", 1,
                                 data.movement_die)).dice_total
    if face > rec.movement_probability:
        return AutomatedMove(unit.unit_id, unit.short_id, face, rec.movement_probability, False)
    r = dice.roll(RollRequest(f"route of {unit.short_id} (2d6: row, column)", 2, 6, each_die=True))
    first, second = (r.faces or (1, 1))[:2]
    code = data.route(first, second)
    m_code, p_code = code.split()[0], code.split()[-1]
    manoeuvre = data.manoeuvres[m_code]
    goal = _goal(state, unit)
    randoms: list[tuple[int, int]] = []
    bearing: float | None = None
    toward = goal[2] if goal else ""
    if manoeuvre.turn_deg is None:
        for _ in range(50):
            rr = dice.roll(RollRequest(f"random direction of {unit.short_id} (2d6 on the scatter table, Dud: again)",
                                       2, 6, each_die=True))
            a, b = (rr.faces or (1, 1))[:2]
            randoms.append((a, b))
            direction = data.direction(a, b)
            if direction != "Dud":
                bearing = compass_bearing_deg(direction)
                toward = direction
                break
    elif goal is not None:
        bearing = (bearing_deg(unit.x_in, unit.y_in, goal[0], goal[1]) + manoeuvre.turn_deg) % 360.0
    distance = rec.max_speed_in if math.isfinite(rec.max_speed_in) else 0.0
    to = None
    if bearing is not None and distance > 0:
        to = (round(unit.x_in + distance * math.cos(math.radians(bearing)), 6),
              round(unit.y_in + distance * math.sin(math.radians(bearing)), 6))
    return AutomatedMove(unit.unit_id, unit.short_id, face, rec.movement_probability, True, (first, second), code,
                         manoeuvre.name, data.paths[p_code], toward, tuple(randoms),
                         None if bearing is None else round(bearing, 6), distance,
                         to[0] if to else None, to[1] if to else None, unit.x_in, unit.y_in)


def decide_fire(state: GenericState, unit: Unit, dice: DiceSource) -> AutomatedFire:
    data = state.data
    candidates = []
    for e in _enemies(state, unit):
        gap = gap_in(unit.footprint, e.footprint)
        if gap <= state.options.adjacent_in + EPS:
            return AutomatedFire(unit.unit_id, unit.short_id, e.unit_id, e.short_id, "Adjacent", None, True, True,
                                 "an enemy is adjacent: close combat (proposal: always)")
        plan = plan_shot(state, unit.unit_id, target_id=e.unit_id)
        if plan.allowed and plan.band is not None:
            candidates.append((gap, e.unit_id, e, plan))
    if not candidates:
        return AutomatedFire(unit.unit_id, unit.short_id, None, None, None, None, False,
                             reason="no enemy unit within reach")
    _, _, target, plan = min(candidates, key=lambda c: (c[0], c[1]))
    level = data.level(plan.band or "Very Long")
    face = None
    if level.automation_fires < 6:
        face = dice.roll(RollRequest(f"does {unit.short_id} fire at {target.short_id} ({level.name}: 1-"
                                     f"{level.automation_fires})", 1, 6)).dice_total
    fires = face is None or face <= level.automation_fires
    reason = "always at this range" if face is None else f"{face} {'<=' if fires else '>'} {level.automation_fires}"
    return AutomatedFire(unit.unit_id, unit.short_id, target.unit_id, target.short_id, level.name, face, fires,
                         False, reason)


def automate_side(state: GenericState, side: str, dice: DiceSource) -> AutomationResult:
    """The tables' decisions for every unit of ``side`` in play: all movement rolls first, then fire."""
    units = [u for u in state.units_of(side) if u.in_play]
    moves = tuple(decide_move(state, u, dice) for u in units)
    # Dummy counters move like the units they pretend to be, but never fire (it would give them away).
    fires = tuple(decide_fire(state, u, dice) for u in units
                  if not u.dummy and (u.record.has_ranged_attack or u.record.cc_strength))
    return AutomationResult(side, state.round, moves, fires)
