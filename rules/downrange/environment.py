"""Environmental damage (2.9): falls and crashes, hazardous areas, fire.

>>> from rules.dice import Dice
>>> str(fall_damage_dice(Dice.parse("1d8"), 16)), str(fall_damage_dice(Dice.parse("4"), 8))
('2d8', '1d8')
>>> str(fall_damage_dice(Dice.parse("1d4"), 25))
'3d6'
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.dice import Dice, DiceSource, RollRequest
from rules.downrange.actions import Extinguish, RecordDamage
from rules.downrange.attack import casualties_of
from rules.downrange.narration import damage_rolls, narrate_damage
from rules.downrange.operators import falling_aircraft, operator_problem
from rules.downrange.pieces import Status, Unit
from rules.downrange.results import DamageResult, UnitDamage
from rules.downrange.rolls import roll_damage
from rules.downrange.turns import spend_action
from rules.geometry import EPS, distance_to_point_in, gap_in
from rules.serialize import to_jsonable

if TYPE_CHECKING:
    from rules.downrange.state import GameState

FIRE_DIE = Dice.parse("1d6")


def fall_damage_dice(defense: Dice, distance_in: float, *, static_die_sides: int = 8) -> Dice:
    """2.9.1: one die per 10" (rounded up) travelled without changing direction, at least one
    (proposal), of the same type as the object's Defense die, at least a d6; a static Defense uses
    ``static_die_sides`` (proposal: d8, the lost die of the text)."""
    count = max(1, math.ceil(distance_in / 10 - 1e-9))
    sides = static_die_sides if defense.is_static else max(6, defense.sides)
    return Dice(count, max(6, sides))


def _damage(state: GameState, dice: DiceSource, unit: Unit, damage: Dice, *, nature: str = "lethal") -> UnitDamage:
    roll = roll_damage(dice, damage, state.effective_defense(unit), label=unit.name, options=state.options)
    if not roll.can_damage:
        effect = "unharmed (the Damage die is smaller than the Defense die)"
    elif roll.killed:
        effect = "disabled this turn" if nature == "disabling" else ("destroyed" if unit.is_vehicle else "killed")
    else:
        effect = "unharmed"
    return UnitDamage(unit.unit_id, unit.name, roll, effect)


def resolve_fall(state: GameState, unit_id: int, distance_in: float, dice: DiceSource) -> DamageResult:
    """A crash or fall after ``distance_in`` inches without changing direction."""
    unit = state.unit(unit_id)
    if distance_in < 0:
        raise state.illegal(f"a fall of {distance_in:g}\" is impossible: give the distance travelled before impact")
    damage = fall_damage_dice(state.effective_defense(unit), distance_in, static_die_sides=state.options.fall_die_sides)
    return DamageResult("fall", f"{distance_in:g}\" before impact: Damage {damage}", (_damage(state, dice, unit, damage),))


def resolve_crash(state: GameState, vehicle_id: int, dice: DiceSource) -> DamageResult:
    """An aircraft with no living operator crashes (4): a fall (2.9.1) of ``crash_fall_in``, since
    the table does not know its altitude. Its occupants die with it if it is destroyed (4.3)."""
    unit = state.unit(vehicle_id)
    distance = state.options.crash_fall_in
    damage = fall_damage_dice(state.effective_defense(unit), distance, static_die_sides=state.options.fall_die_sides)
    if unit.falling:
        what = f"{unit.name} is jammed out of control and crashes"
    else:
        what = f"{unit.name} has no living operator ({operator_problem(state, unit) or 'it lost its operator'}) and crashes"
    return DamageResult("crash", f"{what}: {distance:g}\" before impact, Damage {damage}",
                        (_damage(state, dice, unit, damage),))


def resolve_crashes(state: GameState, dice: DiceSource) -> tuple[GameState, tuple[DamageResult, ...]]:
    """Every aircraft that has lost its operator comes down now, its crash applied."""
    results = []
    for aircraft in falling_aircraft(state):
        result = resolve_crash(state, aircraft.unit_id, dice)
        state = state.apply(RecordDamage(result))
        results.append(result)
    return state, tuple(results)


def resolve_hazard(state: GameState, hazard: str | Dice, unit_ids: Sequence[int], dice: DiceSource, *,
                   nature: str | None = None) -> DamageResult:
    """A persistent hazard's Damage, once this turn, against each vulnerable unit without protection
    (the players say which); a disabling hazard disables instead of killing."""
    if isinstance(hazard, Dice):
        damage, name, kind = hazard, f"a hazard ({hazard})", nature or "lethal"
    else:
        h = state.catalog.hazard(hazard)
        damage, name, kind = h.damage, h.name, nature or h.nature
    if kind not in ("lethal", "disabling"):
        raise state.illegal(f"hazard nature {kind!r}: use lethal or disabling")
    damages = tuple(_damage(state, dice, state.unit(uid), damage, nature=kind) for uid in unit_ids)
    return DamageResult("hazard", f"{name}, Damage {damage}, {kind}", damages, nature=kind)


def resolve_burning(state: GameState, unit_id: int, dice: DiceSource) -> DamageResult:
    """A unit on fire takes 1d6 Damage each turn until extinguished (proposal: at the start of its
    player's turn)."""
    unit = state.unit(unit_id)
    if not unit.on_fire:
        raise state.illegal(f"{unit.name} is not on fire")
    return DamageResult("fire", "burning: Damage 1d6", (_damage(state, dice, unit, FIRE_DIE),))


def resolve_fire_spread(state: GameState, dice: DiceSource, *, source_unit: int | None = None,
                        x_in: float | None = None, y_in: float | None = None,
                        flammable: Sequence[int] | None = None) -> DamageResult:
    """Each turn, for each burning object roll 1d6: every flammable object within that many inches
    catches fire and takes 1d6 Damage (no Skill roll). ``flammable``: the units the players judge
    flammable (default: units marked flammable)."""
    spread = dice.roll(RollRequest("fire spread distance (inches)", 1, 6)).dice_total
    candidates = flammable if flammable is not None else [u.unit_id for u in state.units if u.flammable]
    caught = []
    for uid in candidates:
        u = state.unit(uid)
        if source_unit is not None:
            if uid == source_unit:
                continue
            d = gap_in(state.unit(source_unit).footprint, u.footprint)
        elif x_in is not None and y_in is not None:
            d = distance_to_point_in(u.footprint, x_in, y_in)
        else:
            raise state.illegal("fire spreads from a burning unit or a point: give one")
        if d <= spread + EPS and u.status is Status.ACTIVE and u.on_table and not u.on_fire:
            caught.append(u)
    damages = tuple(_damage(state, dice, u, FIRE_DIE) for u in caught)
    return DamageResult("fire spread", f"the fire spreads {spread}\"", damages, spread_in=spread,
                        ignited=tuple(u.unit_id for u in caught))


def apply_damage(state: GameState, action: RecordDamage) -> GameState:
    r = action.result
    changed: list[Unit] = []
    for uid in r.ignited:
        state = state.update_unit(uid, on_fire=True)
    if r.cause == "crash":
        # Down whether or not the crash destroys it: an aircraft without its pilot does not fly again.
        state = state.with_units(replace(state.unit(d.unit_id), crashed=True, falling=False) for d in r.damages)
    for d in r.damages:
        unit = state.unit(d.unit_id)
        if not d.roll.killed:
            continue
        if r.nature == "disabling":
            changed.append(replace(unit, disabled=True))
            continue
        down, bailed = casualties_of(state, unit)
        for uid in down:
            changed.append(replace(state.unit(uid), status=Status.DOWN, on_fire=False if uid == unit.unit_id else state.unit(uid).on_fire))
        for uid in bailed:
            changed.append(replace(state.unit(uid), aboard=None, on_table=True, reaction_ready=False,
                                   x_in=unit.x_in, y_in=unit.y_in))
    state = state.with_units(changed)
    return state.log(r.cause, " ".join(narrate_damage(r)), inputs={"cause": r.cause}, outcome=to_jsonable(r),
                     rolls=damage_rolls(r))


def apply_extinguish(state: GameState, action: Extinguish) -> GameState:
    unit = state.unit(action.unit_id)
    if not unit.on_fire:
        raise state.illegal(f"{unit.name} is not on fire")
    if unit.is_vehicle:
        raise state.illegal(f"{unit.name} is a vehicle: a troop unit puts itself out by stopping, dropping and rolling")
    unit = spend_action(state, unit, "stop, drop and roll", needs_focus=True)
    state = state.with_unit(replace(unit, on_fire=False, focused="stop, drop and roll"))
    return state.log("fire", f"{unit.name} Focuses to stop, drop and roll: the fire is out.", inputs=to_jsonable(action))
