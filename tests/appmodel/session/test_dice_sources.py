"""The dice a session hands the rules: the entered-dice form learns the next roll, a missed explosive's
rolls are fed again unchanged when it lands, and a die typed too many is refused."""
from __future__ import annotations

import pytest

from appmodel.session.dice_sources import CapturingDice, NeedDice, ProbeDice, ReplayThenDice, check_all_used, \
    entered_or
from rules.dice import EnteredDice, RollRequest, SeededDice
from rules.errors import RulesError

SKILL = RollRequest("Skill roll", 2, 6, each_die=True)
DAMAGE = RollRequest("Damage", 2, 8)


def test_the_probe_plays_the_entries_then_names_the_first_roll_they_lack() -> None:
    probe = ProbeDice([[6, 2]])
    assert probe.roll(SKILL).faces == (6, 2)
    with pytest.raises(NeedDice) as need:
        probe.roll(DAMAGE)
    assert need.value.request == DAMAGE
    assert probe.requests == [SKILL]


def test_captured_rolls_replayed_give_the_same_dice_then_the_next_source_takes_over() -> None:
    captured = CapturingDice(SeededDice(7))
    first = [captured.roll(SKILL), captured.roll(DAMAGE)]
    replay = ReplayThenDice(captured.entries, EnteredDice([5]))
    again = [replay.roll(SKILL), replay.roll(DAMAGE)]
    assert [(r.faces, r.dice_total) for r in again] == [(r.faces, r.dice_total) for r in first]
    assert replay.roll(RollRequest("Landing", 1, 10)).dice_total == 5, "rolls past the captured ones come from `then`"


def test_a_total_entered_for_several_dice_is_captured_as_that_total() -> None:
    captured = CapturingDice(EnteredDice([12]))
    captured.roll(DAMAGE)
    assert captured.entries == [12]


def test_entries_become_entered_dice_and_none_means_the_virtual_dice() -> None:
    virtual = SeededDice(1)
    assert entered_or(None, virtual) is virtual
    assert entered_or([4], virtual).roll(RollRequest("Morale", 1, 10)).dice_total == 4


def test_a_die_typed_too_many_is_refused_but_virtual_dice_are_never_checked() -> None:
    dice = entered_or([4, 9], SeededDice(1))
    dice.roll(RollRequest("Morale", 1, 10))
    with pytest.raises(RulesError):
        check_all_used([4, 9], dice)
    check_all_used(None, dice)  # the session's own dice: nothing was typed
