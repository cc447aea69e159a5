"""Rounds, initiative, turns, one Move and one Action, Focus, Reactions, sprinting and movement (2.2, 2.3).

A round: every player rolls 1d10 (+1d4 after Enhanced Initiative) and takes a turn, highest first.
In its turn each unit has one Move and one Action; an unused Action may be saved as a Reaction,
usable once until the start of its player's next turn. Tokens end when the rules say (Appendix B):
this module removes them at the start and end of turns.

>>> from rules.dice import EnteredDice
>>> from rules.downrange.scenario import demo_state
>>> result = roll_initiative(demo_state(), EnteredDice([5, 3]))
>>> result.order
('Marines', 'PLA Marine Corps')
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.dice import Dice, DiceSource, RollRequest
from rules.downrange.acting import action_refusal, spend_action  # noqa: F401 - used here and by the action modules
from rules.downrange.actions import (Carry, EndTurn, Focus, MoveUnit, ReadyReaction, RecordTask, SetPose, SetPoses,
                                     Sprint, StartRound, StartTurn, TakeAction)
from rules.downrange.modifiers import Modifiers, unit_modifiers
from rules.downrange.narration import initiative_rolls, narrate_task, skill_record
from rules.downrange.operators import operator_problem
from rules.downrange.pieces import Status, Unit, UnitKind, possessive
from rules.downrange.reach import TOUCH_IN, gap_between_in, out_of_reach
from rules.downrange.results import InitiativeResult, SideRoll, TaskResult
from rules.downrange.rolls import roll_skill
from rules.downrange.unmanned import apply_jamming_to_rpvs, release_uncontrolled
from rules.errors import IllegalActionError
from rules.geometry import EPS
from rules.serialize import to_jsonable
from rules.side_words import side_does

if TYPE_CHECKING:
    from rules.downrange.state import GameState


# -- Actions and Focus ---------------------------------------------------------------------------

def apply_focus(state: GameState, action: Focus) -> GameState:
    unit = state.unit(action.unit_id)
    unit = spend_action(state, unit, action.task, needs_focus=True)
    unit = replace(unit, focused=action.task)
    state = state.with_unit(unit)
    return state.log("focus", f"{unit.name} Focuses: {action.task}. It cannot move this turn.",
                     inputs=to_jsonable(action))


def apply_take_action(state: GameState, action: TakeAction) -> GameState:
    unit = spend_action(state, state.unit(action.unit_id), action.what)
    state = state.with_unit(unit)
    return state.log("action", f"{unit.name} uses its Action: {action.what}.", inputs=to_jsonable(action))


def apply_ready_reaction(state: GameState, action: ReadyReaction) -> GameState:
    unit = state.unit(action.unit_id)
    if state.options.strict:
        if unit.status is not Status.ACTIVE:
            raise state.illegal(f"{unit.name} is {unit.status.value}: it cannot ready a Reaction")
        if state.in_turn and state.active_side != unit.side:
            raise state.illegal(f"a Reaction is readied in the unit's own turn; it is {possessive(state.active_side or '')} turn")
        if unit.action_used is not None:
            raise state.illegal(f"{unit.name} already used its Action ({unit.action_used}): nothing left to save as a Reaction")
    state = state.update_unit(unit.unit_id, reaction_ready=True)
    return state.log("reaction", f"{unit.name} readies a Reaction.", inputs=to_jsonable(action))


# -- Movement -------------------------------------------------------------------------------------

def movement_allowance_in(state: GameState, unit: Unit) -> float:
    """Movement available this turn: halved once if injured etc., doubled by a sprint in the unit's own
    turn. A sprint taken as a Reaction in another player's turn is one Move from where the unit stands:
    the Move it did not use in its own turn is not carried over (2.2.2; 6.5.2: "up to 8\"")."""
    move = state.movement_in(unit)
    if unit.reaction_sprint_from_in is not None:
        return unit.reaction_sprint_from_in + move
    return move * 2 if unit.sprinted else move


def movement_left_in(state: GameState, unit: Unit) -> float:
    allowance = movement_allowance_in(state, unit)
    return allowance if math.isinf(allowance) else max(0.0, allowance - unit.moved_in)


def terrain_factor(state: GameState, unit: Unit, terrain_name: str) -> float:
    """How many inches of Movement one inch through ``terrain_name`` costs this unit (2.3.1)."""
    terrain = state.catalog.terrain_cost(terrain_name)
    classes = {"troop"} if unit.kind is UnitKind.TROOP else {unit.mobility, "vehicle"}
    if terrain.applies_to and not classes & set(terrain.applies_to):
        return 1.0
    if classes & set(terrain.exempt) or any(state.has_effect(unit, e) for e in terrain.exempt
                                             if e in ("snow_movement",)):
        return 1.0
    return terrain.cost_factor


def movement_cost_in(state: GameState, unit: Unit, open_in: float, impaired: Sequence[tuple[str, float]] = ()) -> float:
    """Movement spent on ``open_in`` inches of open ground plus impaired stretches.

    Several conditions on the same stretch do not multiply (proposal): give each stretch once.
    """
    return open_in + sum(terrain_factor(state, unit, name) * inches for name, inches in impaired)


def max_impaired_in(state: GameState, unit: Unit, terrain_name: str, *, open_in: float = 0.0) -> float:
    """How far the unit can still go through ``terrain_name`` after ``open_in`` of open ground
    (Example 2.1: Move 8, 2" open, then mud at double cost: 3")."""
    left = movement_left_in(state, unit) - open_in
    return max(0.0, left / terrain_factor(state, unit, terrain_name))


def _token_of(state: GameState, unit: Unit) -> tuple[Unit, ...]:
    """The unit and the members of its gun team standing exactly where it stands: one token on the
    table (only one of them needs a tag). Team members with tags of their own move on their own."""
    return tuple(m for m in state.team_of(unit)
                 if m.unit_id == unit.unit_id or (m.x_in, m.y_in, m.on_table) == (unit.x_in, unit.y_in, unit.on_table))


def _move_team(state: GameState, unit: Unit, *, alone: bool = False, **pose: float) -> tuple[GameState, tuple[int, ...]]:
    members = (unit,) if alone else _token_of(state, unit)
    ids = tuple(m.unit_id for m in members)
    return state.with_units(replace(m, **pose) for m in members), ids  # type: ignore[arg-type]  # pose is a dict[str, float] of field values: replace() cannot check keyword dicts


def apply_set_pose(state: GameState, action: SetPose) -> GameState:
    unit = state.unit(action.unit_id)
    moved, warnings = _pose_move(state, unit, action)
    team_moved = unit.moved_in + moved if unit.status is Status.ACTIVE else unit.moved_in
    state, ids = _move_team(state, unit, alone=action.alone, x_in=action.x_in, y_in=action.y_in,
                            heading_deg=action.heading_deg % 360.0)
    state = state.with_units(replace(state.unit(i), moved_in=max(state.unit(i).moved_in, team_moved),
                                     on_table=action.on_table) for i in ids)
    if unit.carrying is not None:
        state = state.update_unit(unit.carrying, x_in=action.x_in, y_in=action.y_in)
    if unit.is_remote:

        state, effects = apply_jamming_to_rpvs(state)
        warnings += effects
    if warnings:
        state = state.log("warning", " ".join(warnings), inputs=to_jsonable(action), warnings=tuple(warnings))
    return state


def apply_set_poses(state: GameState, action: SetPoses) -> GameState:
    """Each pose in turn, as :func:`apply_set_pose`; a unit that moves only itself (no gun team, carrying
    nobody, no vehicle or remote system whose operator or jamming the move involves) and draws no
    warning is changed in place, and the state rebuilt once for all of them rather than once per unit."""
    moved_alone: dict[int, Unit] = {}
    for pose in action.poses:
        unit = moved_alone.get(pose.unit_id) or state.unit(pose.unit_id)
        if unit.team is None and unit.carrying is None and not unit.is_vehicle and not unit.is_remote:
            moved, warnings = _pose_move(state, unit, pose)
            if not warnings:
                team_moved = unit.moved_in + moved if unit.status is Status.ACTIVE else unit.moved_in
                moved_alone[unit.unit_id] = replace(unit, x_in=pose.x_in, y_in=pose.y_in, heading_deg=pose.heading_deg % 360.0,
                                                    moved_in=max(unit.moved_in, team_moved), on_table=pose.on_table)
                continue
        if moved_alone:
            state, moved_alone = state.with_units(moved_alone.values()), {}
        state = apply_set_pose(state, pose)
    return state.with_units(moved_alone.values()) if moved_alone else state


def _pose_move(state: GameState, unit: Unit, action: SetPose) -> tuple[float, list[str]]:
    """How far a tracked pose moves the unit (inches of its Movement) and what the move breaks."""
    moved = action.moved_in if action.moved_in is not None else math.hypot(action.x_in - unit.x_in, action.y_in - unit.y_in)
    if not unit.on_table or not action.on_table:
        moved = 0.0  # lifting a unit off the table or putting it back is not a Move
    if state.setting_up:
        moved = 0.0  # units placed before the first turn: where they start, not a Move
    warnings = []
    allowance = movement_allowance_in(state, unit)
    total = unit.moved_in + moved
    if moved > EPS and unit.status is Status.ACTIVE:
        if unit.focused or unit.focus_until_own_turn:
            warnings.append(f"{unit.name} moved while Focusing ({unit.focused or 'a Reaction'}): a Focusing unit must not move")
        if unit.stay_still:
            warnings.append(f"{unit.name} moved while units got in or out the non-standard way: it must stay still this turn")
        if unit.carried_by is not None:
            warnings.append(f"{unit.name} is being carried and cannot move on its own")
        if no_operator := operator_problem(state, unit):
            warnings.append(f"{unit.name} moved with no living operator ({no_operator}): it does not move (4)")
        if total > allowance + 0.05 and unit.moved_in <= allowance + 0.05:
            warnings.append(f"{unit.name} has moved {total:.1f}\" this turn, more than its Movement of {allowance:g}\"")
    if moved > EPS and unit.status is not Status.ACTIVE and unit.carried_by is None:
        warnings.append(f"{unit.name} is {unit.status.value} and should not move on its own")
    return moved, warnings


def apply_move(state: GameState, action: MoveUnit) -> GameState:
    unit = state.unit(action.unit_id)
    straight = math.hypot(action.x_in - unit.x_in, action.y_in - unit.y_in)
    open_in = action.open_in if action.open_in is not None else max(0.0, straight - sum(i for _, i in action.impaired))
    cost = movement_cost_in(state, unit, open_in, action.impaired)
    left = movement_left_in(state, unit)
    if state.options.strict:
        if unit.status is not Status.ACTIVE:
            raise state.illegal(f"{unit.name} is {unit.status.value} and cannot move")
        if unit.focused or unit.focus_until_own_turn:
            raise state.illegal(f"{unit.name} is Focusing ({unit.focused or 'a Reaction'}) and must not move this turn")
        if unit.stay_still:
            raise state.illegal(f"{unit.name} must stay still this turn (units got in or out the non-standard way)")
        if no_operator := operator_problem(state, unit):
            raise state.illegal(f"{unit.name} has no living operator ({no_operator}): it does not move (4)")
        if cost > left + EPS:
            raise state.illegal(f"{unit.name} needs {cost:g}\" of Movement for that move but has {left:g}\" left "
                                f"(Movement {movement_allowance_in(state, unit):g}\"): move less far")
    heading = unit.heading_deg if action.heading_deg is None else action.heading_deg
    state, ids = _move_team(state, unit, x_in=action.x_in, y_in=action.y_in, heading_deg=heading % 360.0)
    state = state.with_units(replace(state.unit(i), moved_in=state.unit(i).moved_in + cost) for i in ids)
    impaired = ", ".join(f"{i:g}\" of {n} (x{terrain_factor(state, unit, n):g})" for n, i in action.impaired)
    text = f"{unit.name} moves {open_in:g}\" in the open" + (f" and {impaired}" if impaired else "") + \
        f", using {cost:g}\" of its Movement ({max(0.0, left - cost):g}\" left)."
    return state.log("move", text, inputs=to_jsonable(action), outcome={"cost_in": cost, "left_in": max(0.0, left - cost)})


def apply_sprint(state: GameState, action: Sprint) -> GameState:
    unit = state.unit(action.unit_id)
    if unit.is_vehicle:
        raise state.illegal(f"{unit.name} is a vehicle: vehicles cannot sprint (only troops may Move twice)")
    if unit.focused and state.options.strict:
        raise state.illegal(f"{unit.name} is Focusing ({unit.focused}) and cannot sprint")
    out_of_turn = action.reaction and state.in_turn and state.active_side != unit.side
    unit = spend_action(state, unit, "sprint", reaction=action.reaction)
    state = state.with_unit(replace(unit, sprinted=True, reaction_sprint_from_in=unit.moved_in if out_of_turn else None))
    how = "its Reaction" if action.reaction else "its Action"
    return state.log("sprint", f"{unit.name} spends {how} on a second Move of up to {state.movement_in(unit):g}\".",
                     inputs=to_jsonable(action))


def apply_carry(state: GameState, action: Carry) -> GameState:
    unit = state.unit(action.unit_id)
    if action.carried_id is None:
        if unit.carrying is None:
            raise state.illegal(f"{unit.name} is not carrying anyone")
        carried = state.unit(unit.carrying)
        state = state.with_units([replace(unit, carrying=None), replace(carried, carried_by=None)])
        return state.log("carry", f"{unit.name} puts {carried.name} down.", inputs=to_jsonable(action))
    carried = state.unit(action.carried_id)
    if unit.is_vehicle or carried.is_vehicle:
        raise state.illegal("one troop unit carries one other troop unit; vehicles carry units as passengers (Board)")
    if unit.carrying is not None or carried.carried_by is not None:
        raise state.illegal(f"{unit.name} already carries a unit, or {carried.name} is already carried")
    if far := out_of_reach(state, unit, carried, reach_in=TOUCH_IN, needs=f"touching {carried.name} to pick it up (2.3.1)"):
        raise state.illegal(far)
    state = state.with_units([replace(unit, carrying=carried.unit_id), replace(carried, carried_by=unit.unit_id)])
    return state.log("carry", f"{unit.name} picks up {carried.name}: both at half speed, neither may act.",
                     inputs=to_jsonable(action))


# -- Initiative, rounds and turns -------------------------------------------------------------------

def roll_initiative(state: GameState, dice: DiceSource) -> InitiativeResult:
    """Every player rolls 1d10, plus 1d4 after Enhanced Initiative; highest goes first. Ties are
    broken as ``state.options.initiative_tie_break`` says."""
    rolls: dict[str, SideRoll] = {}
    for side in state.sides:
        d10 = dice.roll(RollRequest(f"initiative of {side.name}", 1, 10)).dice_total
        d4 = dice.roll(RollRequest(f"Enhanced Initiative of {side.name}", 1, 4)).dice_total if side.enhanced_initiative else None
        rolls[side.name] = SideRoll(side.name, d10, d4)
    method = state.options.initiative_tie_break
    unresolved: tuple[str, ...] = ()
    for _ in range(50):
        totals: dict[int, list[str]] = {}
        for r in rolls.values():
            totals.setdefault(r.total, []).append(r.side)
        ties = [names for names in totals.values() if len(names) > 1]
        if not ties:
            break
        if method != "reroll":
            break
        for names in ties:
            for name in names:
                again = dice.roll(RollRequest(f"initiative re-roll of {name} (tie)", 1, 10)).dice_total
                r = rolls[name]
                rolls[name] = replace(r, rerolls=r.rerolls + (again,))
    age = {s.name: (s.age_rank if s.age_rank is not None else 999) for s in state.sides}

    def key(r: SideRoll) -> tuple[int, int, str]:
        return (-r.total, age[r.side] if method == "youngest" else 0, r.side)

    ordered = sorted(rolls.values(), key=key)
    groups: dict[int, list[str]] = {}
    for r in ordered:
        groups.setdefault(r.total, []).append(r.side)
    tied = [n for names in groups.values() if len(names) > 1 for n in names]
    if tied and (method == "players" or (method == "youngest" and any(age[n] == 999 for n in tied))):
        unresolved = tuple(tied)
    order = tuple(r.side for r in ordered)
    return InitiativeResult(state.round + 1, tuple(rolls[s.name] for s in state.sides), order, method, unresolved)


def apply_start_round(state: GameState, action: StartRound) -> GameState:

    result = action.initiative
    if state.in_turn:
        raise state.illegal(f"{possessive(state.active_side or '')} turn is not over: end it before the next round")
    order = action.order or result.order
    if sorted(order) != sorted(s.name for s in state.sides):
        raise state.illegal(f"turn order {list(order)} must name every side once: {[s.name for s in state.sides]}")
    if result.unresolved and not action.order:
        raise state.illegal(f"initiative tie between {', '.join(result.unresolved)}: the players settle it; "
                            "give the agreed turn order")
    sides = tuple(replace(s, enhanced_initiative=False) for s in state.sides)
    state = replace(state, round=result.round, order=tuple(order), turn_index=-1, in_turn=False, sides=sides)
    parts = []
    for r in result.rolls:
        text = f"{r.side} {r.d10}" + (f" + 1d4 {r.d4}" if r.d4 is not None else "")
        if r.rerolls:
            text += f" (tie, re-rolled {', '.join(map(str, r.rerolls))})"
        parts.append(text)
    return state.log("initiative", f"Round {result.round} initiative: {'; '.join(parts)}. {side_does(order[0], 'goes')} first.",
                     inputs={}, outcome=to_jsonable(result), rolls=initiative_rolls(result))


def apply_start_turn(state: GameState, action: StartTurn) -> GameState:
    if state.round == 0:
        raise state.illegal("roll initiative first: the first round has not started")
    if state.in_turn:
        raise state.illegal(f"{possessive(state.active_side or '')} turn is still going: end it first")
    index = state.turn_index + 1
    if index >= len(state.order):
        raise state.illegal(f"every player has had a turn in round {state.round}: roll initiative for round {state.round + 1}")
    side = state.order[index]
    units = []
    for u in state.units:
        changes: dict[str, object] = {}
        kept = tuple(s for s in u.suppressed if s.until_start_of != side)
        if kept != u.suppressed:
            changes["suppressed"] = kept
        if u.side == side:
            changes.update(moved_in=0.0, moved_last_turn_in=u.moved_in, action_used=None, focused=None, focus_until_own_turn=False,
                           reaction_ready=False, sprinted=False, reaction_sprint_from_in=None, stay_still=False, crew_actions_used=0,
                           disabled=False, weapons=tuple(replace(w, fired_this_turn=False) for w in u.weapons))
            if u.emission is not None and u.emission.until_start_of == side:
                changes["emission"] = None
        units.append(replace(u, **changes) if changes else u)  # type: ignore[arg-type]  # changes is a dict[str, object] of field values: replace() cannot check keyword dicts
    observations = tuple(o for o in state.observations if o.until_start_of != side)
    state = replace(state, units=tuple(units), observations=observations, turn_index=index, in_turn=True,
                    setting_up=False)
    return state.log("turn", f"Round {state.round}: {possessive(side)} turn begins.", inputs={"side": side})


def apply_end_turn(state: GameState, action: EndTurn) -> GameState:
    if not state.in_turn:
        raise state.illegal("no turn is going on: start one first")
    side = state.active_side
    assert side is not None
    units = []
    for u in state.units:
        changes: dict[str, object] = {}
        if u.main_effort:
            changes["main_effort"] = False
        if u.side == side and u.focused and not u.focus_until_own_turn:
            changes["focused"] = None
        units.append(replace(u, **changes) if changes else u)  # type: ignore[arg-type]  # changes is a dict[str, object] of field values: replace() cannot check keyword dicts
    areas = []
    lifted = []
    for a in state.areas:
        if a.created_by == side:
            a = replace(a, ends_remaining=a.ends_remaining - 1)
        if a.ends_remaining <= 0:
            lifted.append(a.kind)
        else:
            areas.append(a)
    state = replace(state, units=tuple(units), areas=tuple(areas), in_turn=False)
    state = state.with_side(replace(state.side(side), main_efforts_this_turn=0))

    state, released = release_uncontrolled(state, side)
    extra = (f" {', '.join(lifted)} lifts." if lifted else "") + (" " + " ".join(released) if released else "")
    return state.log("turn", f"Round {state.round}: {possessive(side)} turn ends.{extra}", inputs={"side": side})


# -- Non-attack actions (2.7) ---------------------------------------------------------------------

def skill_die_for(state: GameState, unit: Unit, task: str) -> Dice:
    """The unit's Skill die for ``task``: its specialty die when the task is its specialty (3.1);
    an RPV uses its operator's Skill (4.4)."""
    if unit.is_remote and unit.operator is not None:
        return skill_die_for(state, state.unit(unit.operator), task)
    if unit.specialty and unit.specialty_skill and unit.specialty.lower() in task.lower():
        return unit.specialty_skill
    return unit.skill


def assistant_problem(state: GameState, unit: Unit, helper: Unit, what: str, *, near: Unit | None = None) -> str:
    """Why ``helper`` cannot assist ``unit`` (2.6.3) in ``what`` now, '' if it can: it must be another
    unit of the same side, within reach (rules option ``assist_reach_in``) of ``unit`` or of ``near``
    (the patient of a treatment), and able to Focus with an Action to give."""
    if helper.unit_id == unit.unit_id:
        return f"{unit.name} cannot assist itself"
    if helper.side != unit.side:
        return f"{helper.name} is not on {unit.name}'s side and cannot assist"
    if state.options.strict:
        site = unit if near is None else min((unit, near), key=lambda s: gap_between_in(state, helper, s))
        where = f"at the site of the {what}" if near is not None else f"at {unit.name}'s side to help ({what})"
        if far := out_of_reach(state, helper, site, reach_in=state.options.assist_reach_in,
                               needs=f"{where} (2.6.3; rules option assist_reach_in)"):
            return far
    return action_refusal(state, helper, f"assist {unit.name}", needs_focus=True)


def check_assistants(state: GameState, unit: Unit, assistant_ids: Sequence[int], limit: int, what: str, *,
                     near: Unit | None = None) -> tuple[Unit, ...]:
    """Assistants for a roll (2.6.3): friendly, in the fight, within reach, not moved this turn (they
    Focus), each with an Action to give, at most ``limit`` of them."""
    if len(set(assistant_ids)) != len(assistant_ids):
        raise state.illegal("the same unit is listed twice as an assistant")
    if len(assistant_ids) > limit:
        raise state.illegal(f"{what} allows at most {limit} assistant{'s' if limit != 1 else ''}, "
                            f"{len(assistant_ids)} given" + (" (a rifleman gains nothing from help)" if limit == 0 else ""))
    helpers = []
    for aid in assistant_ids:
        helper = state.unit(aid)
        if problem := assistant_problem(state, unit, helper, what, near=near):
            raise state.illegal(problem)
        helpers.append(spend_action(state, helper, f"assist {unit.name}", needs_focus=True))
    return tuple(replace(h, focused=f"assisting {unit.name}") for h in helpers)


def resolve_task(state: GameState, unit_id: int, difficulty: int, dice: DiceSource, *, task: str,
                 assistants: Sequence[int] = (), focus: bool = False, advantages: Sequence[str] = (),
                 disadvantages: Sequence[str] = ()) -> TaskResult:
    """A non-attack action rolled against a Difficulty from Table 2-1 (Advantage/Disadvantage,
    assistance and automatic failure apply)."""
    unit = state.unit(unit_id)
    check_assistants(state, unit, assistants, state.catalog.task_max_assistants, task)
    mods = unit_modifiers(state, unit).plus(Modifiers(tuple(advantages), tuple(disadvantages)))
    die = skill_die_for(state, unit, task)
    roll = roll_skill(dice, die, mods, bonus=len(assistants), difficulty=difficulty,
                      label=f"Skill roll of {unit.name} ({task})", options=state.options)
    return TaskResult(unit.unit_id, unit.name, task, roll, tuple(assistants), focus)


def apply_task(state: GameState, action: RecordTask) -> GameState:
    result = action.result
    unit = state.unit(result.unit_id)
    helpers = check_assistants(state, unit, result.assistants, state.catalog.task_max_assistants, result.task)
    needs_focus = result.focus or bool(result.assistants)
    unit = spend_action(state, unit, result.task, needs_focus=needs_focus)
    if needs_focus:
        unit = replace(unit, focused=result.task)
    state = state.with_units([unit, *helpers])

    return state.log("task", " ".join(narrate_task(result)), inputs={"task": result.task},
                     outcome=to_jsonable(result), rolls=(skill_record(result.skill),))


__all__ = ["IllegalActionError", "roll_initiative", "resolve_task", "movement_cost_in", "max_impaired_in",
           "movement_left_in", "movement_allowance_in", "spend_action", "terrain_factor"]
