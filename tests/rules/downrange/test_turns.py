"""Turns, Moves and Actions (rules/downrange/turns.py): sprinting as a Reaction, and assistants."""
from __future__ import annotations

import pytest

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.turns import movement_left_in, roll_initiative
from rules.errors import IllegalActionError
from rules_helpers import game, unit


def start(state, *dice: int):  # type: ignore[no-untyped-def]
    state = state.apply(A.StartRound(roll_initiative(state, EnteredDice(list(dice)))))
    return state.apply(A.StartTurn())


def _enemy_turn_with_a_ready_reaction(moved_in_own_turn: float):  # type: ignore[no-untyped-def]
    s = start(game(unit(10, "Corpsman", "Blue", 0, 0), unit(20, "Enemy", "Red", 30, 0)), 10, 1)
    if moved_in_own_turn:
        s = s.apply(A.MoveUnit(10, 0.0, moved_in_own_turn))
    return s.apply(A.ReadyReaction(10)).apply(A.EndTurn()).apply(A.StartTurn())


@pytest.mark.parametrize("moved_in_own_turn", [0.0, 7.6])
def test_a_sprint_taken_as_a_reaction_in_the_enemys_turn_is_one_move_of_up_to_8_inches(moved_in_own_turn: float) -> None:
    # RB 6.5.2: "The corpsman uses his Reaction to sprint, dashing up to 8"" - whatever he moved in
    # his own turn; the Move he did not use then is not carried into the enemy's turn.
    s = _enemy_turn_with_a_ready_reaction(moved_in_own_turn).apply(A.Sprint(10, reaction=True))
    assert movement_left_in(s, s.unit(10)) == pytest.approx(8.0)
    with pytest.raises(IllegalActionError, match="has 8\" left"):
        s.apply(A.MoveUnit(10, 0.0, moved_in_own_turn + 15.0))
    s = s.apply(A.MoveUnit(10, 0.0, moved_in_own_turn + 8.0))
    assert movement_left_in(s, s.unit(10)) == pytest.approx(0.0)


def test_a_tracked_reaction_sprint_beyond_8_inches_is_flagged() -> None:
    s = _enemy_turn_with_a_ready_reaction(0.0).apply(A.Sprint(10, reaction=True))
    s = s.apply(A.SetPose(10, 0.0, 15.0, 90.0))
    assert "more than its Movement of 8\"" in s.events[-1].summary


def test_a_sprint_in_the_units_own_turn_still_doubles_its_move() -> None:
    s = start(game(unit(10, "Ann", "Blue", 0, 0), unit(20, "Bo", "Red", 40, 0)), 9, 1).apply(A.Sprint(10))
    assert movement_left_in(s, s.unit(10)) == 16.0
