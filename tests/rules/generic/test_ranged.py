"""Ranged fire of the generic rules (rules/generic/ranged.py): the scatter cap."""
from __future__ import annotations

from collections import Counter

import pytest
from odds_sampling import assert_frequency

from rules.dice import SeededDice
from rules.generic.ranged import plan_shot
from rules.ruleset import AttackRequest, get_ruleset


def _mortar_and_target(*more: dict):  # type: ignore[no-untyped-def]
    return get_ruleset("generic").new_game(
        {"format": "sandtable-scenario", "version": 1, "ruleset": "generic", "sides": [{"name": "Blue"}, {"name": "Red"}],
         "units": [_u(10, "Mortars", "Blue", 0, "Mortar team", unit_name="M1", min_range_in=0),
                   _u(20, "T", "Red", 6.5, "Rifle section", unit_name="T"), *more]}, source="test")


def _u(t, n, s, x, ty, y=0.0, **k):  # type: ignore[no-untyped-def]
    return {"tag_id": t, "name": n, "side": s, "type": ty, "x_in": x, "y_in": y, **k}


def test_the_scatter_cap_is_half_the_range_to_the_intended_point_whether_aimed_at_the_unit_or_its_centre() -> None:
    # Generic rules: detonation "D6 units (but max. distance of range/2)"; docs: "range" = the distance
    # from the firer to the intended point. The band still comes from the base-to-base gap.
    s = _mortar_and_target()
    at_unit = plan_shot(s, 10, target_id=20)
    at_point = plan_shot(s, 10, aim_point=(6.5, 0.0))
    assert (at_unit.intended_x_in, at_unit.intended_y_in) == (at_point.intended_x_in, at_point.intended_y_in)
    assert at_unit.max_scatter_in == pytest.approx(at_point.max_scatter_in) == pytest.approx(3.0)
    assert at_unit.band == "Point Blank" and at_unit.distance_in == pytest.approx(5.5)


def test_shown_odds_of_a_close_mortar_shot_whose_scatter_is_capped_are_what_resolving_does() -> None:
    # The cap binds here (3" < the d6): the odds of who is caught after a miss must follow it.
    ruleset = get_ruleset("generic")
    state = _mortar_and_target(_u(21, "R", "Red", 9.0, "Rifle section", y=1.0, unit_name="R"))
    request = AttackRequest(10, "Mortar", (20,))
    odds = [o for o in ruleset.attack_odds(state, request) if o.unit_id >= 0]
    assert odds and all(o.allowed for o in odds), [o.reason for o in odds]
    seen: Counter[tuple[int, str]] = Counter()
    dice = SeededDice(2611)
    trials = 2000
    for _ in range(trials):
        for d in ruleset.resolve_attack(state, request, dice).result.damages:
            seen[(d.unit_id, "caught")] += 1
            seen[(d.unit_id, "loses a status level")] += d.applied >= 1
            seen[(d.unit_id, "destroyed")] += d.destroyed
    for o in odds:
        for label, p in o.outcomes:
            assert_frequency(p, seen[(o.unit_id, label)], trials, f"close mortar: {o.name} {label}")
