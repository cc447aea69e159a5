"""Unmanned and remotely piloted systems (4.4) and what jamming does to them (5.1.2).

An autonomous system acts like any unit. A remotely piloted vehicle (RPV) needs its operator to
Focus and Signal every turn; it then moves up to its own Movement and, if armed, attacks with the
operator's Skill. What its sensors see counts as seen by the operator. When control ends, a UAS
flies back to its launch point and a ground RPV stops (proposal). Inside an enemy jamming radius a
remote system does not operate: flying ones crash (a fall roll, as for an aircraft losing its pilot),
ground ones stop.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.downrange.acting import spend_action
from rules.downrange.actions import ControlRpv, ReleaseRpv
from rules.downrange.pieces import Emission, Status, Unit
from rules.downrange.radio import is_jammed, require_radio
from rules.serialize import to_jsonable

if TYPE_CHECKING:
    from rules.downrange.state import GameState

#: The operator's task while piloting (its Focus) and the purpose of its emission.
PILOTING = "piloting an RPV"


def is_controlled(state: GameState, rpv: Unit) -> bool:
    """The RPV's operator is in the fight, Focusing on piloting it and Signalling."""
    if not rpv.is_remote or rpv.operator is None:
        return False
    try:
        op = state.unit(rpv.operator)
    except ValueError:
        return False
    # Control was checked when the operator Focused to pilot; it lasts with the emission token.
    return op.is_active and op.emission is not None and op.emission.purpose == "rpv control"


def apply_control(state: GameState, action: ControlRpv) -> GameState:
    op = state.unit(action.operator_id)
    rpv = state.unit(action.rpv_id)
    if not rpv.is_remote:
        raise state.illegal(f"{rpv.name} is not remotely piloted ({rpv.control}): it needs no operator")
    if rpv.side != op.side:
        raise state.illegal(f"{op.name} cannot pilot the enemy's {rpv.name}")
    if rpv.status is not Status.ACTIVE:
        raise state.illegal(f"{rpv.name} is {rpv.status.value}")
    if rpv.operator is not None and rpv.operator != op.unit_id and is_controlled(state, rpv):
        raise state.illegal(f"{rpv.name} is already piloted by {state.unit(rpv.operator).name}")
    require_radio(state, op, "pilot an RPV")
    op = spend_action(state, op, PILOTING, needs_focus=True)
    op = replace(op, focused=PILOTING, emission=Emission("rpv control", op.side))
    changes: dict[str, object] = {"operator": op.unit_id}
    if action.launch or not rpv.on_table:
        # Launched from directly next to the operator (6.2).
        h = math.radians(op.heading_deg)
        gap = op.radius_in + rpv.radius_in + 0.1
        x, y = op.x_in + gap * math.cos(h), op.y_in + gap * math.sin(h)
        changes.update(on_table=True, aboard=None, x_in=x, y_in=y, launch_x_in=x, launch_y_in=y)
    elif rpv.launch_x_in is None:
        changes.update(launch_x_in=rpv.x_in, launch_y_in=rpv.y_in)
    state = state.with_units([op, replace(rpv, **changes)])  # type: ignore[arg-type]  # changes is a dict[str, object] of field values: replace() cannot check keyword dicts
    if is_jammed(state, state.unit(rpv.unit_id)):
        state, _ = apply_jamming_to_rpvs(state)
    return state.log("rpv", f"{op.name} Focuses and Signals to pilot {rpv.name} (emission token); {rpv.name} "
                     f"may move up to {rpv.move_in:g}\" this turn.", inputs=to_jsonable(action))


def _release(state: GameState, rpv: Unit) -> tuple[GameState, str]:
    if rpv.is_flying:
        # Most UAS switch to autonomous mode and fly back to where they were launched (4.4).
        x = rpv.launch_x_in if rpv.launch_x_in is not None else rpv.x_in
        y = rpv.launch_y_in if rpv.launch_y_in is not None else rpv.y_in
        state = state.update_unit(rpv.unit_id, operator=None, x_in=x, y_in=y)
        return state, f"{rpv.name} loses control and flies back to its launch point"
    state = state.update_unit(rpv.unit_id, operator=None)
    return state, f"{rpv.name} loses control and stops"


def apply_release(state: GameState, action: ReleaseRpv) -> GameState:
    op = state.unit(action.operator_id)
    rpvs = [u for u in state.units if u.operator == op.unit_id]
    if not rpvs:
        raise state.illegal(f"{op.name} is not piloting anything")
    texts = []
    for rpv in rpvs:
        state, text = _release(state, rpv)
        texts.append(text)
    # The emission token stays until the start of the player's next turn; only the piloting stops.
    state = state.update_unit(op.unit_id, focused=None if op.focused == PILOTING else op.focused)
    return state.log("rpv", f"{op.name} stops piloting: " + "; ".join(texts) + ".", inputs=to_jsonable(action))


def release_uncontrolled(state: GameState, side: str) -> tuple[GameState, list[str]]:
    """At the end of a player's turn, RPVs whose operator did not keep Focusing and Signalling."""
    texts = []
    for rpv in state.units:
        if rpv.side == side and rpv.is_remote and rpv.operator is not None and rpv.status is Status.ACTIVE:
            if not is_controlled(state, rpv):
                state, text = _release(state, rpv)
                texts.append(text + ".")
    return state, texts


def apply_jamming_to_rpvs(state: GameState) -> tuple[GameState, list[str]]:
    """Remote systems inside an enemy jamming radius: flying ones crash, ground ones stop."""
    effects = []
    for u in state.units:
        if not (u.is_remote and u.status is Status.ACTIVE and u.on_table and u.aboard is None) or u.falling or u.crashed:
            continue
        if not is_jammed(state, u):
            continue
        if u.is_flying:
            # The same crash as an aircraft losing its pilot (4, 2.9.1): rolled by resolve_crashes.
            state = state.update_unit(u.unit_id, operator=None, falling=True)
            effects.append(f"{u.name} is jammed, loses control and crashes (a fall roll against its Defense)")
        elif u.operator is not None:
            state = state.update_unit(u.unit_id, operator=None)
            effects.append(f"{u.name} is jammed and stops")
    return state, effects
