"""A shot the players' range shift pushes past Very Long: the message names the measured distance
and its band apart from the shift, not the shifted range as if it had been measured."""
from __future__ import annotations

import pytest

from rules.dice import SeededDice
from rules.errors import RulesError
from rules.generic.examples.solo import initial_state
from rules.generic.odds_table import shot_table
from rules.ruleset import AttackRequest, get_ruleset

GENERIC = get_ruleset("generic")
SHIFTED = AttackRequest(10, "Rifle", (31,), declarations={"range_shift": 3})


def test_the_refusal_says_the_measured_distance_and_band_and_the_shift() -> None:
    (odds,) = GENERIC.attack_odds(initial_state(), SHIFTED)
    assert not odds.allowed
    assert odds.reason == '9.2" measured is Medium for a Rifle; shifted +3 levels it is beyond Very Long: no fire'


def test_the_narration_gives_the_measured_band_then_the_shifted_one() -> None:
    res = GENERIC.resolve_attack(initial_state(), SHIFTED, SeededDice(1))
    assert res.sentences[0] == 'I1 fires the Rifle at R1, 9.2" away: Medium, shifted +3: beyond Very Long, hits on 7+.'
    one = GENERIC.resolve_attack(initial_state(), AttackRequest(10, "Rifle", (31,), declarations={"range_shift": 1}),
                                 SeededDice(1))
    assert one.sentences[0].startswith('I1 fires the Rifle at R1, 9.2" away: Medium, shifted +1: Long, hits on 5+')


def test_the_odds_command_tells_a_shift_too_far_from_a_distance_too_far() -> None:
    with pytest.raises(RulesError, match=r'^9.2" measured is Medium for a Rifle; shifted \+3 levels it is beyond'):
        shot_table("Rifle", 9.2, damage=1, defence=3, range_shift=3)
    with pytest.raises(RulesError, match=r'^99" is beyond Very Long for a Rifle'):
        shot_table("Rifle", 99, damage=1, defence=3)
