"""Advantages and Disadvantages of an attack (rules/downrange/modifiers.py)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.attack import attack_odds
from rules.downrange.declarations import AttackSetup, Level, TargetSpec
from rules.downrange.turns import roll_initiative
from rules_helpers import game, unit


def _mortar_on_sandbags(**declared: Level):  # type: ignore[no-untyped-def]
    s = game(unit(10, "Mortar", "Blue", 0, 0, weapons=["60 mm mortar"]), unit(20, "Sandbagged team", "Red", 30, 0))
    s = s.apply(A.StartRound(roll_initiative(s, EnteredDice([10, 1])))).apply(A.StartTurn())
    return attack_odds(s, AttackSetup(10, "60 mm mortar", (TargetSpec(20, stationary=False, head_on=True, **declared),)))[0]


@pytest.mark.parametrize("declared", [{"cover": Level.PARTIAL}, {"cover": Level.PARTIAL, "concealment": Level.PARTIAL}])
def test_head_on_indirect_fire_ignores_the_sandbags_cover_and_concealment(declared: dict[str, Level]) -> None:
    # RB 6.2: "the sandbags provide both cover and concealment ... enemies will have a Disadvantage to
    # hitting the protected Marines with direct-fire weapons and indirect-fire weapons that land
    # anywhere but head-on" - declared as the text says, the head-on mortar rolls normally.
    odds = _mortar_on_sandbags(**declared)
    assert odds.roll == "normal" and odds.disadvantages == ()
    assert odds.p_hit == Fraction(1, 3)
