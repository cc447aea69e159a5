"""2.9.2's optional ruling for disabling effects (tear gas): in a turn the effect's Damage beats a
unit's Defense, the unit is slowed and cannot act -- or, as the table rules, acts at Disadvantage."""
from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import game, unit

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.attack import attack_odds
from rules.downrange.declarations import AttackSetup, TargetSpec
from rules.downrange.environment import resolve_hazard
from rules.downrange.turns import movement_allowance_in


def _gassed(**rules: Any):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    s = game(unit(10, "Ann", "Blue", 0, 0, weapons=["M4/M16"]), unit(20, "Bo", "Red", 20, 0), rules=rules)
    return s.apply(A.RecordDamage(resolve_hazard(s, "tear gas", [10], EnteredDice([4]))))


def test_tear_gas_slows_the_unit_and_stops_it_acting_by_default() -> None:
    s = _gassed()
    ann = s.unit(10)
    assert ann.disabled
    assert movement_allowance_in(s, ann) == ann.move_in / 2
    assert "disabled by a hazard" in s.halving_reasons(ann)
    (odds,) = attack_odds(s, AttackSetup(10, "M4/M16", (TargetSpec(20),)))
    assert not odds.allowed and "disabled by a hazard" in odds.reason


def test_the_table_may_rule_disadvantage_instead_and_no_slowing() -> None:
    s = _gassed(disabling_hazard="disadvantage", disabling_hazard_slows=False)
    ann = s.unit(10)
    assert ann.disabled and movement_allowance_in(s, ann) == ann.move_in
    (odds,) = attack_odds(s, AttackSetup(10, "M4/M16", (TargetSpec(20),)))
    assert odds.allowed and "disabled by a hazard" in odds.disadvantages


@pytest.mark.parametrize("value", ["slowed", 1])
def test_an_unknown_reading_is_refused_with_the_choices(value: Any) -> None:
    with pytest.raises(Exception, match="disabling_hazard = .*use one of 'cannot act', 'disadvantage'"):
        game(unit(10, "Ann", "Blue", 0, 0), rules={"disabling_hazard": value})
