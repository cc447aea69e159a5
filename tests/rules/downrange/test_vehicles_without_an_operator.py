"""A vehicle needs a living operator (Down Range 4): without one it does not move and an aircraft
crashes (2.9.1); an exposed occupant, such as a motorcycle's rider, can be shot on its own (4.3.1)."""
from __future__ import annotations

import pytest
from rules_helpers import game, unit

from rules.dice import EnteredDice, SeededDice
from rules.downrange import actions as A
from rules.downrange.attack import attack_odds
from rules.downrange.declarations import AttackSetup, TargetSpec
from rules.downrange.operators import has_living_operator
from rules.downrange.state import GameState, Status
from rules.errors import IllegalActionError
from rules.ruleset import AttackRequest, get_ruleset

DR = get_ruleset("down-range")


def _motorcycle() -> GameState:
    return game(unit(1, "Ann", "Blue", 0, 0, weapons=["M4/M16"]),
                unit(20, "Bike", "Red", 20, 0, type_="Motorcycle", operator=21),
                unit(21, "Rider", "Red", 20, 0, aboard=20, compartment="exposed"))


def _helicopter(compartment: str = "enclosed") -> GameState:
    return game(unit(1, "Ann", "Blue", 0, 0, weapons=["M4/M16"]),
                unit(20, "Huey", "Red", 20, 0, type_="Transport helicopter", operator=21),
                unit(21, "Pilot", "Red", 20, 0, aboard=20, compartment=compartment),
                unit(22, "Trooper", "Red", 20, 0, aboard=20))


def test_an_exposed_rider_can_be_shot_on_its_own_without_disadvantage() -> None:
    (odds,) = attack_odds(_motorcycle(), AttackSetup(1, "M4/M16", (TargetSpec(21),)))
    assert odds.allowed and odds.disadvantages == ()


def test_a_vehicle_whose_operator_is_dead_does_not_move() -> None:
    s = _motorcycle()
    assert has_living_operator(s, s.unit(20))
    s = s.apply(A.EditUnit(21, {"status": "down"}))
    assert not has_living_operator(s, s.unit(20))
    with pytest.raises(IllegalActionError, match="no living operator .*Rider is dead.*does not move"):
        s.apply(A.MoveUnit(20, 25.0, 0.0))
    moved = s.apply(A.SetPose(20, 25.0, 0.0, 0.0))  # the camera saw it move: logged, never refused
    assert "no living operator" in moved.events[-1].summary


def test_a_vehicle_with_all_its_crew_ruled_dead_does_not_move() -> None:
    s = game(unit(20, "Truck", "Red", 20, 0, type_="Military truck"))
    s.apply(A.MoveUnit(20, 25.0, 0.0))
    with pytest.raises(IllegalActionError, match="crew are all dead"):
        s.apply(A.EditUnit(20, {"crew": 0})).apply(A.MoveUnit(20, 25.0, 0.0))


@pytest.mark.parametrize("seed,destroyed", [(3, False), (6, True)])
def test_shooting_the_pilot_brings_the_aircraft_down_with_a_fall_roll(seed: int, destroyed: bool) -> None:
    s = _helicopter(compartment="exposed")
    res = DR.resolve_attack(s, AttackRequest(1, "M4/M16", (21,)), SeededDice(seed))
    after = res.state
    assert after.unit(21).status is Status.DOWN  # these seeds kill the pilot
    assert after.unit(20).crashed
    assert any(line.startswith("Crash: Huey has no living operator (its operator Pilot is dead) and crashes: "
                               "10\" before impact, Damage 1d8") for line in res.sentences)
    assert after.events[-1].kind == "crash"
    # Destroyed by the fall: everyone aboard dies with it (4.3); survived: it sits on the ground for good.
    assert (after.unit(20).status is Status.DOWN) is destroyed
    assert (after.unit(22).status is Status.DOWN) is destroyed


def test_an_aircraft_that_lost_its_pilot_otherwise_crashes_at_the_start_of_the_next_turn() -> None:
    s = _helicopter()
    s = DR.start_round(s, EnteredDice([5, 3])).state
    s = s.apply(A.EditUnit(21, {"status": "down"}))  # the players rule the pilot dead
    res = DR.start_turn(s, SeededDice(3))
    assert res.state.unit(20).crashed
    assert any("crashes" in line for line in res.sentences)
    again = DR.start_turn(DR.end_turn(res.state), SeededDice(4))
    assert not any("crashes" in line for line in again.sentences)  # it comes down once
