"""Command and signal (rules/downrange/command.py): who situational awareness reaches."""
from __future__ import annotations

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.command import information_reaches
from rules.downrange.turns import roll_initiative
from rules_helpers import game, unit


def _signalling():  # type: ignore[no-untyped-def]
    s = game(unit(10, "Observer", "Blue", 0, 0, equipment=["radio"]),
             unit(20, "Truck", "Blue", 30, 0, "Military truck"),
             unit(21, "Passenger", "Blue", 30, 0, aboard=20, equipment=["radio"]),
             unit(22, "On foot", "Blue", 60, 0, equipment=["radio"]),
             unit(23, "No radio", "Blue", 90, 0),
             unit(30, "Enemy", "Red", 0, 30))
    s = s.apply(A.StartRound(roll_initiative(s, EnteredDice([10, 1])))).apply(A.StartTurn())
    return s.apply(A.Signal(10, "situational awareness"))


def test_a_passenger_with_a_radio_receives_situational_awareness() -> None:
    # RB 5.1: situational awareness lets a unit "communicate to all other friendly units with radios";
    # a passenger's radio is as good as a walker's (and Main Effort already reached it by radio).
    s = _signalling()
    assert information_reaches(s, s.unit(10), s.unit(21)) == (True, "situational awareness by radio from Observer")
    assert information_reaches(s, s.unit(10), s.unit(22)) == (True, "situational awareness by radio from Observer")


def test_the_refusal_does_not_deny_a_signal_that_is_being_made() -> None:
    s = _signalling()
    reached, why = information_reaches(s, s.unit(10), s.unit(23))
    assert not reached
    assert "is not Signalling" not in why
    assert why == ("No radio is not in Observer's voice chain, and neither has a working radio nor hears a unit with one: "
                   "Observer's situational awareness by radio does not reach it")
