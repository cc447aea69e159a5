"""Force on Force's fire, tests and initiative, resolved thousands of times with seeded dice: how often
each outcome happened agrees with the odds the panels show (the attack panel's ``outcomes``, the turn
panel's test and initiative odds), within sampling error (tests/odds_sampling.py)."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from odds_sampling import assert_frequency

from rules.dice import SeededDice
from rules.forceonforce.checks import OpposedResult, opposed_odds, p_pass
from rules.forceonforce.examples.patrol import load_scenario
from rules.forceonforce.initiative import initiative_odds, resolve_initiative, side_pools
from rules.forceonforce.state import FofState
from rules.ruleset import AttackRequest, get_ruleset

TRIALS = 2000
FOF = get_ruleset("force-on-force")


def _patrol() -> FofState:
    return FOF.new_game(load_scenario())


FIRES: dict[str, AttackRequest] = {
    "opposed Troop Quality, d8 against d6": AttackRequest(14, "Fire", (30,)),
    "opposed with a die shift and modifiers": AttackRequest(
        14, "Fire", (30,), declarations={"firer_shift": -1, "firer_modifier": 1},
        target_declarations={30: {"target_shift": 1, "target_modifier": -1}}),
    "opposed Morale against Troop Quality": AttackRequest(
        30, "Fire", (35,), declarations={"firer_die": "morale"}),
    "unopposed": AttackRequest(44, "Fire", (10,), declarations={"test": "unopposed", "firer_modifier": -1}),
}


def _fire_outcome(result: Any) -> str:
    rolled = result.test
    if isinstance(rolled, OpposedResult):
        return f"{rolled.winner} wins" if rolled.winner else "nobody wins"
    return "passes" if rolled.passed else "fails"


@pytest.mark.parametrize("name", sorted(FIRES))
def test_fire_outcomes_happen_as_often_as_shown(name: str) -> None:
    state, request = _patrol(), FIRES[name]
    (odds,) = FOF.attack_odds(state, request)
    assert odds.allowed, odds.reason
    dice = SeededDice(sum(map(ord, name)))
    seen = Counter(_fire_outcome(FOF.resolve_attack(state, request, dice).result) for _ in range(TRIALS))
    assert set(seen) <= {label for label, _ in odds.outcomes}
    for label, p in odds.outcomes:
        assert_frequency(p, seen[label], TRIALS, f"{name}: {label}")
    assert_frequency(odds.p_hit, seen[odds.outcomes[0][0]], TRIALS, f"{name}: the firer's odds")


@pytest.mark.parametrize("what,shift,modifier", [("troop quality", 0, 0), ("morale", 1, -1), ("troop quality", -1, 2)])
def test_an_unopposed_test_passes_as_often_as_shown(what: str, shift: int, modifier: int) -> None:
    state = _patrol()
    side = FOF.test_side(state, 30, what, shift=shift, modifier=modifier)
    shown = p_pass(side.sides, modifier=side.modifier, target=state.data.success)
    dice = SeededDice(11 + shift)
    passed = sum(FOF.test(state, "morale test", side, dice).result.result.passed for _ in range(TRIALS))
    assert_frequency(shown, passed, TRIALS, f"{what} test (d{side.sides}{side.modifier:+d})")


def test_an_opposed_test_is_won_as_often_as_shown() -> None:
    state = _patrol()
    first = FOF.test_side(state, 14, "troop quality", modifier=1)
    second = FOF.test_side(state, 35, "morale")
    shown = opposed_odds(first.sides, second.sides, first_modifier=first.modifier, second_modifier=second.modifier,
                         target=state.data.success)
    dice = SeededDice(5)
    winners = Counter(FOF.test(state, "close assault", first, dice, second=second).result.result.winner
                      for _ in range(TRIALS))
    assert_frequency(shown.p_first, winners[first.name], TRIALS, "the first side wins")
    assert_frequency(shown.p_second, winners[second.name], TRIALS, "the second side wins")
    assert_frequency(shown.p_nobody, winners[None], TRIALS, "nobody wins")


@pytest.mark.parametrize("previous", ["US Army", "Insurgents", None])
def test_initiative_goes_to_each_force_as_often_as_shown(previous: str | None) -> None:
    # Turn 2: the scenario settles turn 1; from then on the test decides (a tie keeps it, or is re-rolled).
    state = replace(_patrol(), round=1, initiative=previous)
    shown = initiative_odds(side_pools(state), previous=previous, success=state.data.success)
    dice = SeededDice(len(previous or ""))
    holders = Counter()
    for _ in range(TRIALS):
        result = resolve_initiative(state, dice)
        assert result.method == "test"
        holders[result.holder] += 1
    for force, p in shown.items():
        assert_frequency(p, holders[force], TRIALS, f"initiative to {force} (last held by {previous})")
