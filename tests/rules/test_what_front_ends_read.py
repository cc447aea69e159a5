"""What front ends read of any rule system comes through rules/ruleset.py, typed: every rule system's
game state is a RulesState (round, order, whose turn, sides, the log), and a rule system's turn box
offers only buttons its rules answer -- a procedure, an action, nothing to do, or one line saying
what to choose -- never an error a player cannot act on."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from rules.dice import SeededDice
from rules.errors import RulesError
from rules.downrange.examples import in_depth
from rules.forceonforce.examples import patrol
from rules.generic.examples import solo
from rules.ruleset import RulesState, TurnButton, TurnCommand, get_ruleset, last_event

sys.path.append(str(Path(__file__).resolve().parents[1]))
import toy_ruleset

GAMES = {"down-range": in_depth.initial_state, "force-on-force": patrol.initial_state, "generic": solo.initial_state}


def games() -> list[tuple[Any, Any]]:
    out = [(get_ruleset(name), start()) for name, start in GAMES.items()]
    rules = toy_ruleset.PebbleRules()
    return out + [(rules, rules.new_game(toy_ruleset.SCENARIO))]


@pytest.mark.parametrize("ruleset, state", games(), ids=[*GAMES, "pebbles"])
def test_every_rule_systems_state_says_round_order_whose_turn_and_its_log(ruleset: Any, state: Any) -> None:
    assert isinstance(state, RulesState) and state.ruleset_name == ruleset.name
    assert state.active_side is None  # between turns before the first round
    names = [s.name for s in state.sides]
    assert len(names) >= 2
    res = ruleset.start_round(state, SeededDice(3))
    started = ruleset.start_turn(res.state, SeededDice(4)).state
    assert isinstance(started.round, int) and started.round >= 1
    assert set(started.order) <= set(names) and started.active_side in names
    assert last_event(started, "initiative") is not None or last_event(started, "round") is not None \
        or started.events, "the log says what happened"
    assert started.to_json()["ruleset"] == ruleset.name


@pytest.mark.parametrize("ruleset, state", [g for g in games() if g[0].has_turn_box],
                         ids=[n for n, g in zip([*GAMES, "pebbles"], games()) if g[0].has_turn_box])
def test_every_button_of_a_turn_box_is_answered_by_its_rules(ruleset: Any, state: Any) -> None:
    box = ruleset.turn_box(state, {})
    keys = [f.key for f in box.fields()]
    assert len(keys) == len(set(keys)), "a field key twice in one box"
    values = {f.key: f.value for f in box.fields()}
    buttons = [item for s in box.sections for row in s.rows for item in row if isinstance(item, TurnButton)]
    for button in buttons:
        try:
            command = ruleset.turn_command(state, button.key, values)
        except RulesError as exc:
            assert str(exc), button.key
            continue
        assert command is None or isinstance(command, TurnCommand), button.key
        if command is not None:
            assert (command.run is None) != (command.action is None), button.key
            if command.run is not None:
                try:
                    result = command.run(state, SeededDice(1))
                except RulesError:
                    continue  # refused in this state, in the rules' words
                assert result.state.events != state.events, button.key
    assert [f.key for f in ruleset.turn_box(state, values).fields()] == keys, "the same fields after a refresh"
