"""Each Force on Force action to its handler: the dispatcher behind ``state.apply(action)``.

The action value types live in :mod:`rules.forceonforce.actions`; the handlers live here, using the
fire, checks, cohesion, hot spots, initiative and leaders modules, which never import this one.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.action_registry import ActionRegistry, Handlers
from rules.errors import IllegalActionError, RulesError
from rules.forceonforce.actions import (FIGURE_EDITS, TEAM_EDITS, Action, DetachLeader, EditFigure, EditTeam, EndTurn,
                                        JoinLeader, Merge, NeutraliseHotSpot, RecordActivation, RecordFire,
                                        RecordReinforcement, RecordTest, SetPose, Split, StartRound, StartTurn)
from rules.forceonforce.checks import CheckResult, OpposedResult
from rules.forceonforce.cohesion import cohesion_of, merge_problems, merged_ratings
from rules.forceonforce.hotspots import neutralise_problems
from rules.forceonforce.leaders import join_problems
from rules.forceonforce.narration import (check_rolls, initiative_rolls, narrate_activation, narrate_fire,
                                          narrate_initiative, narrate_reinforcement, narrate_test)
from rules.forceonforce.pieces import FigureStatus, Team, TroopType
from rules.serialize import to_jsonable
from rules.side_words import side_does

if TYPE_CHECKING:
    from rules.forceonforce.state import FofState


# ---------------------------------------------------------------------------------------------
# Handlers


def _cohesion_note(state: FofState, team: Team) -> str:
    c = cohesion_of(state, team)
    if c.is_connected:
        return ""
    far = ", ".join(state.figure(i).name for i in sorted(c.stragglers))
    return (f" {team.name} is out of cohesion ({far} more than {c.link_in:g}\" from the rest): it must regroup "
            "in this activation.")


def _set_pose(state: FofState, a: SetPose) -> FofState:
    fig = state.figure(a.figure_id)
    step = math.hypot(a.x_in - fig.x_in, a.y_in - fig.y_in) if fig.on_table and a.on_table else 0.0
    # placed before the first turn: where the figure starts, not a move
    moved = 0.0 if state.setting_up else a.moved_in if a.moved_in is not None else step
    new = replace(fig, x_in=a.x_in, y_in=a.y_in, heading_deg=a.heading_deg % 360.0, on_table=a.on_table,
                  z_in=fig.z_in if a.z_in is None else a.z_in, moved_in=fig.moved_in + moved)
    after = state.with_figure(new)
    warnings = []
    team = state.team(fig.team) if fig.team is not None else None
    if team is not None and team.move_locked and moved > 0.25:
        warnings.append(f"{team.name} may only fire this turn (a leader joined it before it activated), but "
                        f"{fig.name} moved {moved:.1f}\"")
    if team is not None and team.arrived_at is not None and a.on_table:
        spot = next((h for h in state.hot_spots if h.number == team.arrived_at), None)
        limit = state.data.hot_spots.placement_in
        if spot is not None and not fig.on_table and math.hypot(a.x_in - spot.x_in, a.y_in - spot.y_in) > limit + 1e-9:
            warnings.append(f"{fig.name} arrives {math.hypot(a.x_in - spot.x_in, a.y_in - spot.y_in):.1f}\" from Hot "
                            f"Spot {spot.number}: place it within {limit:g}\"")
    if warnings:
        after = after.log("warning", warnings[0], inputs={"figure": fig.figure_id}, warnings=tuple(warnings))
    return after


def _edit_figure(state: FofState, a: EditFigure) -> FofState:
    fig = state.figure(a.figure_id)
    changes: dict[str, Any] = {}
    for key, value in a.changes.items():
        if key not in FIGURE_EDITS:
            raise RulesError(f"cannot edit {key!r} of a figure: edit one of {', '.join(FIGURE_EDITS)}")
        if key == "status":
            try:
                value = FigureStatus(value)
            except ValueError:
                raise RulesError(f"status {value!r}: use active, casualty or removed") from None
        if key in ("morale", "quality") and value is not None:
            value = state.data.morale(value) if key == "morale" else state.data.quality(value)
        changes[key] = value
    after = state.with_figure(replace(fig, **changes))
    words = ", ".join(f"{k} {getattr(v, 'value', v)}" for k, v in changes.items())
    return after.log("edit", f"{fig.name}: {words}.", inputs={"figure": fig.figure_id, "changes": to_jsonable(dict(a.changes))})


def _edit_team(state: FofState, a: EditTeam) -> FofState:
    team = state.team(a.team)
    data = state.data
    changes: dict[str, Any] = {}
    for key, value in a.changes.items():
        if key not in TEAM_EDITS:
            raise RulesError(f"cannot edit {key!r} of a unit: edit one of {', '.join(TEAM_EDITS)}")
        if key == "quality":
            value = data.quality(value)
        elif key == "morale":
            value = data.morale(value)
        elif key == "supplies":
            value = data.supplies(value).name
        elif key == "confidence":
            value = data.confidence(value)
        elif key == "troop_type":
            value = TroopType(value)
        changes[key] = value
    after = state.with_team(replace(team, **changes))
    words = ", ".join(f"{k} {getattr(v, 'value', v)}" for k, v in changes.items())
    return after.log("edit", f"{team.name}: {words}.", inputs={"team": team.name, "changes": to_jsonable(dict(a.changes))})


def _start_round(state: FofState, a: StartRound) -> FofState:
    r = a.initiative
    others = tuple(s.name for s in state.forces if s.name != r.holder)
    teams = tuple(replace(t, activated=False, move_locked=False, finished=False, fired=False) for t in state.teams)
    figures = tuple(replace(f, moved_in=0.0, finished=False) for f in state.figures)
    after = replace(state, round=r.turn, previous=state.initiative, initiative=r.holder, order=(r.holder, *others),
                    turn_index=-1, in_turn=False, teams=teams, figures=figures)
    lines = narrate_initiative(r)
    return after.log("initiative", " ".join(lines), inputs={"method": r.method}, outcome=to_jsonable(r),
                     rolls=initiative_rolls(r))


def _start_turn(state: FofState, a: StartTurn) -> FofState:
    if state.round == 0:
        raise IllegalActionError("the game has not started: start a round (the initiative) first")
    if state.in_turn:
        raise IllegalActionError(f"{side_does(str(state.active_side), 'is')} still acting: end its turn first")
    if state.turn_index + 1 >= len(state.order):
        raise IllegalActionError(f"every force has acted in turn {state.round}: start the next round")
    after = replace(state, turn_index=state.turn_index + 1, in_turn=True, setting_up=False)
    role = "the initiative force" if after.turn_index == 0 else "the non-initiative force"
    return after.log("turn", f"Turn {state.round}: {after.active_side} ({role}) activates its units.")


def _end_turn(state: FofState, a: EndTurn) -> FofState:
    if not state.in_turn:
        raise IllegalActionError("no force is acting: start a turn first")
    side = state.active_side
    after = replace(state, in_turn=False)
    loose = [t.name for t in state.teams_of(side or "") if not state.is_out_of_action(t)
             and not cohesion_of(state, t).is_connected]
    note = f" Out of cohesion: {', '.join(loose)} (regroup next activation)." if loose else ""
    return after.log("turn", f"{side} ends its turn.{note}")


def _activation(state: FofState, a: RecordActivation) -> FofState:
    r = a.result
    team = state.team(r.team)
    problems = []
    if team.activated:
        problems.append(f"{team.name} has already activated this turn")
    if team.finished:
        problems.append(f"{team.name} is finished for this turn")
    warnings = state.refuse_or_warn(problems, f"{team.name} cannot activate")
    after = state.with_team(replace(team, activated=True, finished=team.finished or not r.may_act))
    rolls = check_rolls(r.check)
    return after.log("activation", " ".join(narrate_activation(r)) + _cohesion_note(state, team),
                     inputs={"team": team.name}, outcome=to_jsonable(r), rolls=rolls, warnings=warnings)


def _fire(state: FofState, a: RecordFire) -> FofState:
    r = a.result
    team = state.team(r.check.firer)
    problems = []
    if team.finished:
        problems.append(f"{team.name} is finished for this turn")
    if team.fired:
        problems.append(f"{team.name} has already fired this turn")
    warnings = state.refuse_or_warn(problems, f"{team.name} cannot fire") + r.check.warnings
    after = state.with_team(replace(team, activated=True, fired=True))
    return after.log("fire", " ".join(narrate_fire(r)), inputs={"firer": r.check.firer, "target": r.check.target},
                     outcome=to_jsonable(r), rolls=check_rolls(r.test), warnings=warnings)


def _test(state: FofState, a: RecordTest) -> FofState:
    r = a.result
    return state.log("test", " ".join(narrate_test(r)), inputs={"about": r.about, "purpose": r.purpose},
                     outcome=to_jsonable(r), rolls=check_rolls(r.result))


def _reinforcement(state: FofState, a: RecordReinforcement) -> FofState:
    r = a.result
    team = state.team(r.team)
    after = state.with_team(replace(team, arrived_at=r.hot_spot))
    if r.lost:
        after = after.with_figures(replace(f, status=FigureStatus.REMOVED, on_table=False) for f in state.members(team))
    return after.log("reinforcement", " ".join(narrate_reinforcement(r)), inputs={"team": team.name},
                     outcome=to_jsonable(r))


def _split(state: FofState, a: Split) -> FofState:
    team = state.team(a.team)
    members = {f.figure_id for f in state.members(team)}
    name = a.new_name.strip()
    problems = []
    if not a.figure_ids:
        problems.append("name the figures that form the new element")
    outside = [i for i in a.figure_ids if i not in members]
    if outside:
        raise RulesError(f"figures {outside} are not in {team.name}: split off some of {sorted(members)}")
    if set(a.figure_ids) >= members:
        raise RulesError(f"splitting off every figure of {team.name} leaves nothing behind: keep at least one")
    if not name or state.has_team(name):
        raise RulesError(f"{a.new_name!r}: give the new element a name no other unit has")
    if team.activated:
        problems.append(f"{team.name} has already activated: units split at the start of their activation (A.5.2)")
    warnings = state.refuse_or_warn(problems, f"{team.name} cannot split")
    new = replace(team, name=name, split_from=team.name, leader=None, activated=True, finished=True, fired=False,
                  move_locked=False)
    after = replace(state, teams=state.teams + (new,))
    after = after.with_figures(replace(f, team=name) for f in state.members(team) if f.figure_id in a.figure_ids)
    names = ", ".join(state.figure(i).name for i in a.figure_ids)
    after = after.log("split", f"{team.name} splits: {names} form {name}. Only one element may move and fire this "
                      f"activation: {name} waits until next turn.", inputs={"team": team.name, "new": name,
                                                                             "figures": list(a.figure_ids)},
                      warnings=warnings)
    return after


def _merge(state: FofState, a: Merge) -> FofState:
    first, second = state.team(a.team), state.team(a.other)
    warnings = state.refuse_or_warn(merge_problems(state, first, second, at_hot_spot=a.at_hot_spot),
                                    f"{second.name} cannot merge into {first.name}")
    n1 = sum(1 for f in state.members(first) if f.status is FigureStatus.ACTIVE)
    n2 = sum(1 for f in state.members(second) if f.status is FigureStatus.ACTIVE)
    quality, morale = merged_ratings([(first.quality, first.morale, n1), (second.quality, second.morale, n2)])
    same_parent = first.split_from == second.name or second.split_from == first.name or \
        (first.split_from is not None and first.split_from == second.split_from)
    strength = max(first.strength, second.strength) if same_parent else first.strength + second.strength
    leader = first.leader if first.leader is not None else second.leader
    merged = replace(first, quality=quality, morale=morale, strength=strength, leader=leader,
                     split_from=None if same_parent and first.split_from == second.name else first.split_from)
    after = replace(state, teams=tuple(t for t in state.teams if t.name != second.name))
    after = after.with_team(merged)
    after = after.with_figures(replace(f, team=first.name) for f in state.members(second))
    where = f" at Hot Spot {a.at_hot_spot} (reinforcements, A.4.4)" if a.at_hot_spot is not None else ""
    return after.log("merge", f"{second.name} merges into {first.name}{where}: Troop Quality D{quality}, "
                     f"Morale D{morale} ({n1} + {n2} figures).", inputs={"team": first.name, "other": second.name},
                     outcome={"quality": quality, "morale": morale, "strength": strength}, warnings=warnings)


def _join(state: FofState, a: JoinLeader) -> FofState:
    leader, team = state.figure(a.leader_id), state.team(a.team)
    warnings = state.refuse_or_warn(join_problems(state, leader, team), f"{leader.name} cannot join {team.name}")
    teams = tuple(replace(t, leader=None) if t.leader == leader.figure_id else t for t in state.teams)
    after = replace(state, teams=teams)
    team = after.team(team.name)
    if team.activated:
        after = after.with_team(replace(team, leader=leader.figure_id, finished=True))
        after = after.with_figure(replace(leader, finished=True))
        words = f"{team.name} had already activated: the unit and {leader.name} are finished for the turn."
    else:
        after = after.with_team(replace(team, leader=leader.figure_id, move_locked=True))
        words = f"{team.name} may still activate this turn, but only to fire: the joining counts as its movement."
    return after.log("leader", f"{leader.name} joins {team.name}. {words}", inputs={"leader": leader.figure_id,
                                                                                   "team": team.name},
                     warnings=warnings)


def _detach(state: FofState, a: DetachLeader) -> FofState:
    leader = state.figure(a.leader_id)
    teams = tuple(replace(t, leader=None) if t.leader == leader.figure_id else t for t in state.teams)
    left = [t.name for t in state.teams if t.leader == leader.figure_id]
    after = replace(state, teams=teams)
    return after.log("leader", f"{leader.name} leaves {', '.join(left) or 'no unit'}.", inputs={"leader": leader.figure_id})


def _neutralise(state: FofState, a: NeutraliseHotSpot) -> FofState:
    team = state.team(a.team)
    warnings = state.refuse_or_warn(neutralise_problems(state, a.number, team), f"{team.name} cannot neutralise Hot Spot {a.number}")
    spots = tuple(replace(h, neutralised=True) if h.number == a.number else h for h in state.hot_spots)
    after = replace(state, hot_spots=spots)
    return after.log("hot spot", f"{team.name} neutralises Hot Spot {a.number}; the counter is removed.",
                     inputs={"team": team.name, "hot_spot": a.number}, warnings=warnings)


_HANDLERS: Handlers = {
    SetPose: _set_pose, EditFigure: _edit_figure, EditTeam: _edit_team, StartRound: _start_round,
    StartTurn: _start_turn, EndTurn: _end_turn, RecordActivation: _activation, RecordFire: _fire,
    RecordTest: _test, RecordReinforcement: _reinforcement, Split: _split, Merge: _merge, JoinLeader: _join,
    DetachLeader: _detach, NeutraliseHotSpot: _neutralise,
}


ACTIONS: ActionRegistry["FofState"] = ActionRegistry(Action, what="a Force on Force action", handlers=_HANDLERS)
apply_action = ACTIONS.apply


__all__ = ["Action", "CheckResult", "OpposedResult", "Team", "apply_action"]
