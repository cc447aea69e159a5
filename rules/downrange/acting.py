"""A unit's one Action a turn (2.3): whether it may act now, and the unit after it uses its Action or
its ready Reaction. Every module that implements an action spends one through here.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.downrange.pieces import Status, Unit, possessive
from rules.geometry import EPS

if TYPE_CHECKING:
    from rules.downrange.state import GameState


def action_refusal(state: GameState, unit: Unit, what: str, *, reaction: bool = False, needs_focus: bool = False) -> str:
    """Why ``unit`` may not use its Action (or its ready Reaction) on ``what`` now, or '' if it may.

    Asked before any die is rolled (the odds panel shows it in place of odds), and by
    :func:`spend_action` when the result is applied, so both refuse with the same words.
    """
    strict = state.options.strict
    if unit.status is not Status.ACTIVE:
        return f"{unit.name} is {'destroyed' if unit.is_vehicle and unit.status is Status.DOWN else unit.status.value}: it cannot {what}"
    if not strict:
        return ""
    if unit.carrying is not None or unit.carried_by is not None:
        return (f"{unit.name} is {'carrying a unit' if unit.carrying is not None else 'being carried'}: "
                f"neither may act (2.3.1); put the unit down first")
    if unit.disabled and state.options.disabling_hazard == "cannot act":
        return f"{unit.name} is disabled by a hazard this turn and cannot act"
    if needs_focus and unit.moved_in > EPS:
        return (f"{unit.name} moved {unit.moved_in:.1f}\" this turn: to {what} it must Focus, and a "
                "Focusing unit must not move at all during the turn")
    if reaction:
        if not unit.reaction_ready:
            return f"{unit.name} has no Reaction ready: a unit readies one by not using its Action in its turn"
        return ""
    if state.in_turn:
        if state.active_side != unit.side:
            return (f"it is {possessive(state.active_side or '')} turn: {unit.name} can only act in its own player's "
                    "turn, or with a ready Reaction")
        if unit.action_used is not None:
            return f"{unit.name} already used its Action this turn ({unit.action_used}): one Action per turn"
        if unit.reaction_ready:
            return f"{unit.name} saved its Action as a Reaction this turn: use it as a Reaction"
        if unit.is_vehicle and unit.crew > 1 and unit.crew_actions_used + 1 > unit.crew:
            return f"all {unit.crew} crew of {unit.name} have acted this turn"
    return ""


def spend_action(state: GameState, unit: Unit, what: str, *, reaction: bool = False, needs_focus: bool = False) -> Unit:
    """The unit after using its Action (or its ready Reaction) on ``what``; refused when the rules
    forbid it (the unit is down, already acted, it is not its turn, it moved and ``what`` needs Focus)."""
    refusal = action_refusal(state, unit, what, reaction=reaction, needs_focus=needs_focus)
    if refusal:
        raise state.illegal(refusal)
    if reaction:
        changes: dict[str, object] = {"reaction_ready": False, "action_used": f"{what} (Reaction)"}
        if needs_focus and state.active_side != unit.side:
            changes["focus_until_own_turn"] = True
        return replace(unit, **changes)  # type: ignore[arg-type]  # changes is a dict[str, object] of field values: replace() cannot check keyword dicts
    if state.in_turn and state.options.strict and unit.is_vehicle and unit.crew > 1:
        # A crewed vehicle acts with each crew member once a turn (4.1).
        used = unit.crew_actions_used + 1
        return replace(unit, crew_actions_used=used, action_used=what if used >= unit.crew else None)
    if unit.is_vehicle and unit.crew > 1:
        return replace(unit, crew_actions_used=unit.crew_actions_used + 1)
    return replace(unit, action_used=what)
