"""Boarding vehicles (rules/downrange/vehicles.py, 4.3)."""
from __future__ import annotations

import pytest

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.state import Compartment
from rules.downrange.turns import roll_initiative
from rules.errors import IllegalActionError
from rules_helpers import game, unit


def _car_with_three_aboard():  # type: ignore[no-untyped-def]
    s = game(unit(10, "Car", "Blue", 0, 0, "Civilian car"), *[unit(11 + i, f"P{i}", "Blue", 0, 1.5) for i in range(4)],
             unit(30, "Enemy", "Red", 40, 40))
    s = s.apply(A.StartRound(roll_initiative(s, EnteredDice([10, 1])))).apply(A.StartTurn())
    for i in range(s.unit(10).capacity):
        s = s.apply(A.Board(11 + i, 10))
    return s


def test_squeezing_into_an_overcrowded_enclosed_vehicle_is_a_non_standard_boarding() -> None:
    # RB 4.3.2: "Use the rules for nonstandard embarking/disembarking of vehicles if a vehicle is
    # overcrowded internally": the unit Focuses (its Action) and the vehicle must stay still.
    s = _car_with_three_aboard()
    extra = 11 + s.unit(10).capacity
    s = s.apply(A.Board(extra, 10, overload=True))
    assert s.unit(extra).focused and s.unit(extra).action_used is not None
    assert s.unit(10).stay_still and s.unit(10).overloaded
    assert "overcrowded inside (4.3.2" in s.events[-1].summary
    with pytest.raises(IllegalActionError, match="must stay still"):
        s.apply(A.MoveUnit(10, 5.0, 0.0))


def test_an_overcrowded_boarding_is_refused_after_the_vehicle_moved() -> None:
    s = _car_with_three_aboard().apply(A.MoveUnit(10, 0.0, 0.5))
    with pytest.raises(IllegalActionError, match="moved this turn: for a non-standard boarding it must stay still"):
        s.apply(A.Board(11 + s.unit(10).capacity, 10, overload=True))


def test_riding_on_the_outside_beyond_capacity_stays_a_standard_boarding() -> None:
    s = _car_with_three_aboard()
    extra = 11 + s.unit(10).capacity
    s = s.apply(A.Board(extra, 10, overload=True, compartment=Compartment.EXPOSED))
    assert s.unit(extra).action_used is None and not s.unit(10).stay_still
