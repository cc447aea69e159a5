"""The generic rules' shots (direct, with scatter over a group, at a point) and close combat, resolved
thousands of times with seeded dice: how often each unit was caught, lost a status level or was
destroyed agrees with the odds the panel shows, within sampling error (tests/odds_sampling.py)."""
from __future__ import annotations

from collections import Counter

import pytest
from odds_sampling import assert_frequency

from rules.dice import SeededDice
from rules.generic.examples.solo import initial_state
from rules.ruleset import AttackRequest, get_ruleset

TRIALS = 2000
GENERIC = get_ruleset("generic")

SHOTS: dict[str, AttackRequest] = {
    "a rifle at a unit (no area)": AttackRequest(10, "Rifle", (31,)),
    "a mortar at a unit: scatter over a group": AttackRequest(12, "Mortar", (33,)),
    "a tank gun at a unit beside its HQ": AttackRequest(30, "Tank gun", (13,)),
    "a field gun, one range level worse": AttackRequest(32, "Field gun", (11,), declarations={"range_shift": 1}),
    "a mortar at a point": AttackRequest(12, "Mortar", (), aim_point=(30.0, 34.0)),
}


@pytest.mark.parametrize("name", sorted(SHOTS))
def test_a_shot_catches_damages_and_destroys_as_often_as_shown(name: str) -> None:
    state, request = initial_state(), SHOTS[name]
    odds = [o for o in GENERIC.attack_odds(state, request) if o.unit_id >= 0]
    assert odds and all(o.allowed for o in odds), [o.reason for o in odds]
    seen: Counter[tuple[int, str]] = Counter()
    dice = SeededDice(sum(map(ord, name)))
    # a rifle's shot hits a unit or not; a weapon with an area of effect catches every unit where it comes down
    reached = "caught" if state.unit(request.attacker_id).record.aoe_in > 0 else "hit"
    for _ in range(TRIALS):
        shot = GENERIC.resolve_attack(state, request, dice).result
        for d in shot.damages:
            seen[(d.unit_id, reached)] += 1
            seen[(d.unit_id, "loses a status level")] += d.applied >= 1
            seen[(d.unit_id, "destroyed")] += d.destroyed
    for o in odds:
        assert dict(o.outcomes).keys() == {reached, "loses a status level", "destroyed"}
        for label, p in o.outcomes:
            assert_frequency(p, seen[(o.unit_id, label)], TRIALS, f"{name}: {o.name} {label}")


@pytest.mark.parametrize("attacker,defender", [(11, 33), (33, 11)])
def test_close_combat_goes_as_often_as_shown(attacker: int, defender: int) -> None:
    state = initial_state()
    request = AttackRequest(attacker, "Close combat", (defender,))
    (odds,) = GENERIC.attack_odds(state, request)
    assert odds.allowed, odds.reason
    seen: Counter[str] = Counter()
    dice = SeededDice(attacker)
    for _ in range(TRIALS):
        cc = GENERIC.resolve_attack(state, request, dice).result
        first = cc.rounds[0]
        seen["defender loses the first round"] += first.loser == defender
        seen["defender destroyed"] += cc.defender_destroyed
        seen["attacker loses the return round"] += any(r.loser == attacker for r in cc.rounds[1:])
        seen["attacker destroyed"] += cc.attacker_destroyed
    labels = ("defender loses the first round", "defender destroyed", "attacker loses the return round",
              "attacker destroyed")
    assert len(odds.outcomes) == len(labels)
    for label, (shown_label, p) in zip(labels, odds.outcomes):
        assert_frequency(p, seen[label], TRIALS, f"close combat {attacker} on {defender}: {shown_label}")
