"""Remotely piloted systems under jamming (rules/downrange/unmanned.py, 5.1.2)."""
from __future__ import annotations

import pytest

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.environment import resolve_crashes
from rules.downrange.state import Status
from rules.downrange.turns import roll_initiative
from rules_helpers import game, unit


def _jammed_drone():  # type: ignore[no-untyped-def]
    s = game(unit(10, "Pilot", "Blue", 0, 0, equipment=["radio"]), unit(11, "Drone", "Blue", 0, 0, "Small UAS", on_table=False),
             unit(20, "EW", "Red", 30, 0, equipment=["EW equipment"]))
    s = s.apply(A.StartRound(roll_initiative(s, EnteredDice([10, 1])))).apply(A.StartTurn())
    s = s.apply(A.ControlRpv(10, 11, launch=True)).apply(A.SetPose(11, 20, 0, 0)).apply(A.EndTurn()).apply(A.StartTurn())
    return s.apply(A.Jam(20))


@pytest.mark.parametrize("die, survives", [(1, True), (2, True), (3, False), (8, False)])
def test_a_jammed_drone_gets_the_crash_roll_an_aircraft_losing_its_pilot_gets(die: int, survives: bool) -> None:
    # RB 5.1.2 jammed remote systems: "flying ones will crash"; 2.9.1 crashing vehicles roll a fall:
    # 1d8 (10" fall, its static Defense 3 read on a d8) against Defense 3.
    s = _jammed_drone()
    assert s.unit(11).status is Status.ACTIVE and s.unit(11).operator is None
    s, crashes = resolve_crashes(s, EnteredDice([die]))
    assert [c.cause for c in crashes] == ["crash"] and "jammed" in crashes[0].detail
    assert (s.unit(11).status is Status.ACTIVE) == survives
    assert s.unit(11).crashed  # down on the ground either way: it does not fly on
    assert resolve_crashes(s, EnteredDice([]))[1] == ()  # rolled once
