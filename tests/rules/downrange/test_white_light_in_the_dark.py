"""A white light "ignores all Disadvantage due to darkness" (Table 3-3); pitch black is total
concealment (2.4.1.1.2), not a Disadvantage. Which way the engine reads it is an option."""
from __future__ import annotations

from typing import Any

from rules_helpers import game, unit

from rules.downrange.actions import EditUnit
from rules.downrange.attack import attack_odds
from rules.downrange.declarations import AttackSetup, TargetSpec


def _night(lighting: str, **rules: Any):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    s = game(unit(1, "Ann", "Blue", 0, 0, weapons=["M4/M16"], equipment=["White light"]),
             unit(2, "Bo", "Red", 20, 0), rules={"lighting": lighting, **rules})
    return s.apply(EditUnit(1, {"white_light_on": True}))


def _odds(state):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    (odds,) = attack_odds(state, AttackSetup(1, "M4/M16", (TargetSpec(2, stationary=False),)))
    return odds


def test_a_white_light_lifts_the_disadvantage_of_partial_darkness() -> None:
    odds = _odds(_night("partial darkness"))
    assert odds.allowed and "poor illumination" not in odds.disadvantages


def test_a_white_light_does_not_lift_pitch_black_total_concealment_by_default() -> None:
    odds = _odds(_night("pitch black"))
    assert not odds.allowed
    assert "total concealment" in odds.reason and "white light" in odds.reason


def test_a_table_may_rule_that_the_light_reveals_the_target() -> None:
    odds = _odds(_night("pitch black", white_light_in_pitch_black="lifts"))
    assert odds.allowed and odds.disadvantages == ()
