"""Who controls a vehicle (section 4): every vehicle needs a primary crew member, its driver or pilot.
With no living operator actively controlling it, it does not move: aircraft crash (2.9.1), ground
vehicles stand still.

A crewed vehicle's operator is the unit named by its ``operator`` field (a unit riding in it, e.g. a
motorcycle's rider, who may be shot in an exposed seat, 4.3.1); without one its crew is a number
(``crew``, which a hand edit lowers when the players rule crew members dead). A remotely piloted
vehicle is controlled while its operator Focuses and Signals (:mod:`rules.downrange.unmanned`); an
autonomous one needs nobody.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rules.downrange.pieces import Status, Unit

if TYPE_CHECKING:
    from rules.downrange.state import GameState


def operator_problem(state: GameState, vehicle: Unit) -> str:
    """Why the crewed vehicle has no living operator at its controls ("" when it has one, or needs none)."""
    if not vehicle.is_vehicle or vehicle.control != "crewed":
        return ""
    if vehicle.operator is not None:
        try:
            op = state.unit(vehicle.operator)
        except ValueError:
            return f"its operator (tag {vehicle.operator}) is not in the game"
        if op.status is not Status.ACTIVE:
            return f"its operator {op.name} is {'dead' if op.status is Status.DOWN else op.status.value}"
        if op.aboard != vehicle.unit_id:
            return f"its operator {op.name} is not aboard"
        return ""
    if vehicle.crew <= 0:
        return "its crew are all dead"
    return ""


def has_living_operator(state: GameState, vehicle: Unit) -> bool:
    return not operator_problem(state, vehicle)


def falling_aircraft(state: GameState) -> tuple[Unit, ...]:
    """Aircraft in the fight coming down and not crashed yet: crewed ones that have lost their operator,
    remote ones jammed out of control (``falling``)."""
    return tuple(u for u in state.units if u.is_vehicle and u.is_flying and u.status is Status.ACTIVE
                 and u.on_table and not u.crashed and (u.falling or not has_living_operator(state, u)))
