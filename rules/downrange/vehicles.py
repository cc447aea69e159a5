"""Vehicles (section 4): boarding and leaving, bailing out, overloading.

Crew and weapons are handled where they act: a crewed vehicle takes one Action per crew member per
turn and fires each weapon at most once (:func:`rules.downrange.turns.spend_action`,
:mod:`rules.downrange.attack`); linked weapons make one full attack each in one Action; occupants
die with their vehicle unless a Reaction to bail out was ready (:func:`rules.downrange.attack.casualties_of`);
occupants of open compartments can be attacked at Disadvantage, exposed ones normally, enclosed ones not.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.downrange.actions import BailOut, Board, Disembark
from rules.downrange.pieces import Compartment, Status, Unit
from rules.downrange.reach import TOUCH_IN, out_of_reach
from rules.downrange.turns import spend_action
from rules.geometry import EPS
from rules.serialize import to_jsonable

if TYPE_CHECKING:
    from rules.downrange.state import GameState


def passengers_of(state: GameState, vehicle: Unit) -> tuple[Unit, ...]:
    return state.occupants(vehicle.unit_id)


def apply_board(state: GameState, action: Board) -> GameState:
    unit = state.unit(action.unit_id)
    vehicle = state.unit(action.vehicle_id)
    if not vehicle.is_vehicle:
        raise state.illegal(f"{vehicle.name} is not a vehicle")
    if unit.is_vehicle and vehicle.capacity == 0:
        raise state.illegal(f"{vehicle.name} carries no passengers")
    if unit.aboard is not None:
        raise state.illegal(f"{unit.name} is already aboard {state.unit(unit.aboard).name}")
    if vehicle.status is not Status.ACTIVE:
        raise state.illegal(f"{vehicle.name} is destroyed: nobody can board it")
    if state.options.strict and unit.on_table and (far := out_of_reach(
            state, unit, vehicle, reach_in=TOUCH_IN,
            needs=f"touching {vehicle.name} to board it: move it to the vehicle first (boarding is part of its Move, 4.3)")):
        raise state.illegal(far)
    aboard = len([o for o in state.occupants(vehicle.unit_id) if o.status is Status.ACTIVE])
    overloaded = vehicle.overloaded
    if aboard + 1 > vehicle.capacity:
        if not action.overload:
            raise state.illegal(f"{vehicle.name} carries {vehicle.capacity} passengers and has {aboard} aboard: "
                                "overloading needs the players' agreement (overload = true; half Movement and "
                                "Disadvantage for the vehicle, 4.3.2)")
        overloaded = True
    # 4.3.2: "Use the rules for nonstandard embarking/disembarking of vehicles if a vehicle is
    # overcrowded internally": squeezing in beyond capacity (enclosed) takes Focus and a still vehicle.
    crowded_inside = aboard + 1 > vehicle.capacity and action.compartment is Compartment.ENCLOSED
    changes: dict[str, object] = {"aboard": vehicle.unit_id, "on_table": False, "compartment": action.compartment}
    vehicle_changes: dict[str, object] = {"overloaded": overloaded}
    how = "as part of its Move"
    if not action.standard or crowded_inside:
        unit = spend_action(state, unit, f"get into {vehicle.name} (non-standard)", needs_focus=True)
        changes["focused"] = f"boarding {vehicle.name}"
        if state.options.strict and vehicle.moved_in > EPS:
            raise state.illegal(f"{vehicle.name} moved this turn: for a non-standard boarding it must stay still")
        vehicle_changes["stay_still"] = True
        how = "the non-standard way (it Focuses; the vehicle must stay still)"
        if action.standard:
            how = "the non-standard way, as the vehicle is overcrowded inside (4.3.2: it Focuses; the vehicle must stay still)"
    state = state.with_units([replace(unit, **changes), replace(vehicle, **vehicle_changes)])  # type: ignore[arg-type]  # changes is a dict[str, object] of field values: replace() cannot check keyword dicts
    text = f"{unit.name} boards {vehicle.name} {how} and leaves the table"
    if overloaded and not vehicle.overloaded:
        text += f"; {vehicle.name} is overloaded: half Movement and Disadvantage on its actions"
    return state.log("board", text + ".", inputs=to_jsonable(action))


def apply_disembark(state: GameState, action: Disembark) -> GameState:
    unit = state.unit(action.unit_id)
    if unit.aboard is None:
        raise state.illegal(f"{unit.name} is not aboard a vehicle")
    vehicle = state.unit(unit.aboard)
    changes: dict[str, object] = {"aboard": None, "on_table": True, "x_in": action.x_in, "y_in": action.y_in}
    how = "through its door, hatch or ramp, and starts its Move there"
    vehicle_changes: dict[str, object] = {}
    if not action.standard:
        unit = spend_action(state, unit, f"get out of {vehicle.name} (non-standard)", needs_focus=True)
        changes["focused"] = f"getting out of {vehicle.name}"
        if state.options.strict and vehicle.moved_in > EPS:
            raise state.illegal(f"{vehicle.name} moved this turn: for a non-standard exit (fast-rope...) it must stay still")
        vehicle_changes["stay_still"] = True
        how = "the non-standard way: it Focuses and is placed next to the exit; the vehicle must stay still"
    left = [o for o in state.occupants(vehicle.unit_id) if o.unit_id != unit.unit_id and o.status is Status.ACTIVE]
    if vehicle.overloaded and len(left) <= vehicle.capacity:
        vehicle_changes["overloaded"] = False
    updates = [replace(unit, **changes)]  # type: ignore[arg-type]  # changes is a dict[str, object] of field values: replace() cannot check keyword dicts
    if vehicle_changes:
        updates.append(replace(vehicle, **vehicle_changes))  # type: ignore[arg-type]  # changes is a dict[str, object] of field values: replace() cannot check keyword dicts
    state = state.with_units(updates)
    return state.log("disembark", f"{unit.name} gets out of {vehicle.name} {how}.", inputs=to_jsonable(action))


def apply_bail_out(state: GameState, action: BailOut) -> GameState:
    unit = state.unit(action.unit_id)
    if unit.aboard is None:
        raise state.illegal(f"{unit.name} is not aboard a vehicle")
    vehicle = state.unit(unit.aboard)
    unit = spend_action(state, unit, f"bail out of {vehicle.name}", reaction=True)
    state = state.with_unit(replace(unit, aboard=None, on_table=True, x_in=action.x_in, y_in=action.y_in))
    return state.log("bail out", f"{unit.name} spends its Reaction to bail out of {vehicle.name}.",
                     inputs=to_jsonable(action))
