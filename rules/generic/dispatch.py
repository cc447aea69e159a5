"""Each generic-rules action to its handler: the dispatcher behind ``state.apply(action)``.

The action value types live in :mod:`rules.generic.actions`; the handlers of the game's few actions
live here, using the shooting, close combat and automation modules, which never import this one.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.action_registry import ActionRegistry, Handlers
from rules.errors import IllegalActionError, RulesError
from rules.generic.actions import (EDITABLE, Action, EditUnit, EndTurn, Identify, RecordAutomation, RecordCloseCombat,
                                   RecordShot, SetPose, StartRound, StartTurn)
from rules.generic.close_combat import close_combat_problems
from rules.generic.narration import (automation_rolls, close_combat_rolls, narrate_automation, narrate_close_combat,
                                     narrate_shot, shot_rolls)
from rules.generic.pieces import Impact, Presence, Unit
from rules.serialize import to_jsonable
from rules.side_words import side_does

if TYPE_CHECKING:
    from rules.generic.state import GenericState


def _set_pose(state: GenericState, a: SetPose) -> GenericState:
    u = state.unit(a.unit_id)
    step = math.hypot(a.x_in - u.x_in, a.y_in - u.y_in) if u.on_table and a.on_table else 0.0
    # placed before the first turn: where the unit starts, not a move
    moved = u.moved_in + (0.0 if state.setting_up else a.moved_in if a.moved_in is not None else step)
    after = state.with_unit(replace(u, x_in=a.x_in, y_in=a.y_in, heading_deg=a.heading_deg % 360.0,
                                    on_table=a.on_table, moved_in=moved))
    speed = u.record.max_speed_in
    if math.isfinite(speed) and moved > speed + 0.25 and u.moved_in <= speed + 0.25:
        after = after.log("warning", f"{u.short_id} has moved {moved:.1f}\", more than its Maximum speed {speed:g}\".",
                          inputs={"unit": u.unit_id}, warnings=(f"{u.short_id} over its Maximum speed",))
    return after


def _edit(state: GenericState, a: EditUnit) -> GenericState:
    u = state.unit(a.unit_id)
    changes: dict[str, Any] = {}
    for key, value in a.changes.items():
        if key not in EDITABLE:
            raise RulesError(f"cannot edit {key!r}: edit one of {', '.join(EDITABLE)}")
        if key == "status":
            level = state.data.status_index(str(value))
            changes["status_level"] = level
            last = len(state.data.status_ladder) - 1
            changes["presence"] = Presence.DESTROYED if level == last else Presence.ACTIVE
        else:
            changes[key] = value
    after = state.with_unit(replace(u, **changes))
    words = ", ".join(f"{k} {v}" for k, v in a.changes.items())
    return after.log("edit", f"{u.short_id}: {words}.", inputs={"unit": u.unit_id, "changes": to_jsonable(dict(a.changes))})


def _start_round(state: GenericState, a: StartRound) -> GenericState:
    units = tuple(replace(u, moved_in=0.0, fired=False, initiated_close_combat=False) for u in state.units)
    order = tuple(s.name for s in state.sides)
    after = replace(state, round=state.round + 1, order=order, turn_index=-1, in_turn=False, units=units)
    return after.log("round", f"Turn {after.round}: the sides act in order: {', '.join(order)}.")


def _start_turn(state: GenericState, a: StartTurn) -> GenericState:
    if state.round == 0:
        raise IllegalActionError("the game has not started: start a round first")
    if state.in_turn:
        raise IllegalActionError(f"{side_does(str(state.active_side), 'is')} still acting: end its turn first")
    if state.turn_index + 1 >= len(state.order):
        raise IllegalActionError(f"every side has acted in turn {state.round}: start the next round")
    side = state.order[state.turn_index + 1]
    units = tuple(replace(u, moved_in=0.0) if u.side == side else u for u in state.units)
    after = replace(state, turn_index=state.turn_index + 1, in_turn=True, impacts=(), units=units, setting_up=False)
    who = " (played by the automation tables)" if state.side(side).automated else ""
    return after.log("turn", f"Turn {state.round}: {side_does(side, 'acts')}{who}.")


def _end_turn(state: GenericState, a: EndTurn) -> GenericState:
    if not state.in_turn:
        raise IllegalActionError("no side is acting: start a turn first")
    side = state.active_side or ""
    slow = [u.short_id for u in state.units_of(side) if u.in_play and u.record.min_speed_in > 0
            and u.moved_in + 0.25 < u.record.min_speed_in]
    after = replace(state, in_turn=False)
    note = f" Moved less than their minimum speed: {', '.join(slow)}." if slow else ""
    return after.log("turn", f"{side} ends its turn.{note}", warnings=tuple(slow))


def _shot(state: GenericState, a: RecordShot) -> GenericState:
    r = a.result
    p = r.plan
    attacker = state.unit(p.attacker)
    problems = [] if p.allowed else [p.reason]
    if attacker.fired:
        problems.append(f"{attacker.short_id} has already fired this turn")
    warnings = state.refuse_or_warn(problems, f"{attacker.short_id} cannot fire")
    changed: dict[int, Unit] = {attacker.unit_id: replace(attacker, fired=True, shots_left=r.shots_left)}
    for uid in r.identified:
        u = changed.get(uid, state.unit(uid))
        changed[uid] = replace(u, identified=True)
    if r.dummy_removed and p.target is not None:
        u = changed.get(p.target, state.unit(p.target))
        changed[p.target] = replace(u, presence=Presence.REMOVED, on_table=False)
    ladder = state.data.status_ladder
    for d in r.damages:
        u = changed.get(d.unit_id, state.unit(d.unit_id))
        level = min(len(ladder) - 1, u.status_level + d.applied)
        changed[d.unit_id] = replace(u, status_level=level,
                                     presence=Presence.DESTROYED if level == len(ladder) - 1 else u.presence)
    after = state.with_units(changed.values())
    if p.aoe_in > 0 and not r.dummy_removed:
        impact = Impact(p.attacker, p.side, p.weapon, p.intended_x_in, p.intended_y_in, r.impact_x_in, r.impact_y_in,
                        p.aoe_in, r.hit, bool(r.scatter and r.scatter.dud))
        after = replace(after, impacts=after.impacts + (impact,))
    return after.log("attack", " ".join(narrate_shot(r)), inputs={"attacker": p.attacker, "target": p.target},
                     outcome=to_jsonable(r), rolls=shot_rolls(r), warnings=warnings)


def _close_combat(state: GenericState, a: RecordCloseCombat) -> GenericState:
    r = a.result
    att, dfn = state.unit(r.attacker), state.unit(r.defender)
    warnings = state.refuse_or_warn(close_combat_problems(state, att, dfn), f"{att.short_id} cannot attack {dfn.short_id}")
    ladder = state.data.status_ladder
    last = len(ladder) - 1

    def hurt(u: Unit, levels: int) -> Unit:
        level = min(last, u.status_level + levels)
        return replace(u, status_level=level, presence=Presence.DESTROYED if level == last else u.presence,
                       identified=True)

    after = state.with_units([replace(hurt(att, r.attacker_levels), initiated_close_combat=True),
                              hurt(dfn, r.defender_levels)])
    return after.log("close combat", " ".join(narrate_close_combat(r)), inputs={"attacker": att.unit_id,
                                                                              "defender": dfn.unit_id},
                     outcome=to_jsonable(r), rolls=close_combat_rolls(r), warnings=warnings)


def _identify(state: GenericState, a: Identify) -> GenericState:
    u = state.unit(a.unit_id)
    if u.dummy:
        after = state.with_unit(replace(u, identified=True, presence=Presence.REMOVED, on_table=False))
        return after.log("identify", f"{u.short_id} is identified: a dummy. It is removed.", inputs={"unit": u.unit_id})
    after = state.with_unit(replace(u, identified=True))
    return after.log("identify", f"{u.short_id} is identified: {u.name} ({u.record.name}).", inputs={"unit": u.unit_id})


def _automation(state: GenericState, a: RecordAutomation) -> GenericState:
    r = a.result
    return state.log("automation", " ".join(narrate_automation(r)), inputs={"side": r.side},
                     outcome=to_jsonable(r), rolls=automation_rolls(r))


_HANDLERS: Handlers = {
    SetPose: _set_pose, EditUnit: _edit, StartRound: _start_round, StartTurn: _start_turn, EndTurn: _end_turn,
    RecordShot: _shot, RecordCloseCombat: _close_combat, Identify: _identify, RecordAutomation: _automation,
}


ACTIONS: ActionRegistry["GenericState"] = ActionRegistry(Action, what="an action of the generic rules", handlers=_HANDLERS)
apply_action = ACTIONS.apply
