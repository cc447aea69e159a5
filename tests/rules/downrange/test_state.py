"""The game state: changed only by actions, saved and loaded as versioned JSON, replayable."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.attack import resolve_attack
from rules.downrange.declarations import AttackSetup, TargetSpec
from rules.downrange.examples.in_depth import initial_state
from rules.downrange.state import STATE_VERSION, GameState, Status
from rules.downrange.turns import roll_initiative
from rules.errors import SaveFileError
from rules.serialize import to_jsonable


def _played() -> tuple[GameState, list[A.Action]]:
    s = initial_state()
    history: list[A.Action] = [A.StartRound(roll_initiative(s, EnteredDice([5, 3]))), A.StartTurn(),
                               A.SetPose(10, 19.0, 21.5, 10.0), A.ReadyReaction(10)]
    for action in history:
        s = s.apply(action)
    setup = AttackSetup(13, "Carl Gustaf / MAAWS", (TargetSpec(40),))
    result = resolve_attack(s, setup, EnteredDice([[5, 3], 14, 13, 3]))  # the blast also catches the automatic rifleman
    history.append(A.RecordAttack(result))
    s = s.apply(history[-1])
    return s, history


def test_a_state_saves_and_loads_back_exactly() -> None:
    s, _ = _played()
    text = s.dumps()
    data = json.loads(text)
    assert (data["format"], data["version"], data["ruleset"]) == ("sandtable-downrange-state", STATE_VERSION, "down-range")
    back = GameState.loads(text)
    assert back == s
    assert back.dumps() == text
    assert back.unit("MAAWS gunner").weapon_state("Carl Gustaf / MAAWS").ammo_left == 3


def test_replaying_the_recorded_actions_rebuilds_the_same_state() -> None:
    s, history = _played()
    replay = initial_state()
    for action in (A.action_from_json(json.loads(json.dumps(A.action_to_json(a)))) for a in history):
        replay = replay.apply(action)
    assert replay == s


def test_undo_is_the_previous_state_in_the_history() -> None:
    s0 = initial_state()
    s1 = s0.apply(A.SetPose(10, 30.0, 30.0, 0.0))
    assert s0.unit(10).x_in == 18.0 and s1.unit(10).x_in == 30.0  # states are values: the old one is intact


@pytest.mark.parametrize("mutate, fragment", [
    (lambda d: {**d, "format": "something else"}, "not a Down Range game state"),
    (lambda d: {**d, "version": 99}, "version 99 is not supported"),
    (lambda d: {**d, "round": "three"}, "state.round: expected a whole number"),
    (lambda d: {k: v for k, v in d.items() if k != "units"}, "missing its field 'units'"),
    (lambda d: {**d, "units": [{**d["units"][0], "status": "zombie"}] + d["units"][1:]}, "'zombie' is not one of"),
    (lambda d: {**d, "units": d["units"][:2] + [{**d["units"][2], "x_in": "far"}] + d["units"][3:]},
     "state.units[2].x_in: expected a number, got 'far'"),
])
def test_a_damaged_save_file_is_refused_with_a_clear_message(mutate, fragment: str) -> None:  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    data = initial_state().to_json()
    with pytest.raises(SaveFileError) as info:
        GameState.from_json(mutate(data))
    assert fragment in str(info.value)


def test_a_truncated_save_file_is_refused() -> None:
    with pytest.raises(SaveFileError, match="not valid JSON"):
        GameState.loads(initial_state().dumps()[:500])


def test_every_rules_decision_is_logged_with_its_data() -> None:
    s, _ = _played()
    kinds = [e.kind for e in s.events]
    assert kinds == ["initiative", "turn", "reaction", "attack"]
    attack = s.events[-1]
    assert attack.outcome["type"] == "AttackResult" and attack.outcome["weapon"] == "Carl Gustaf / MAAWS"
    assert json.loads(json.dumps(to_jsonable(attack))) == to_jsonable(attack)


def test_units_report_the_tokens_a_player_sees() -> None:
    s = initial_state()
    s = s.with_unit(replace(s.unit(10), reaction_ready=True, injured=True, moved_in=3.0))
    s = s.update_unit(40, status=Status.DOWN)
    assert s.unit(10).tokens() == ("injured", "reaction ready", 'moved 3.0"')
    assert s.unit(40).tokens() == ("destroyed",)
