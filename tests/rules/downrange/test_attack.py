"""The attack pipeline (rules/downrange/attack.py): what it refuses before any die is rolled."""
from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.attack import attack_odds, plan_attack, resolve_attack
from rules.downrange.declarations import AttackSetup, TargetSpec
from rules.downrange.turns import roll_initiative
from rules.errors import IllegalActionError
from rules_helpers import game, unit


def start(state):  # type: ignore[no-untyped-def]
    state = state.apply(A.StartRound(roll_initiative(state, EnteredDice([10] + [1] * (len(state.sides) - 1)))))
    return state.apply(A.StartTurn())


RIFLE = AttackSetup(10, "M4/M16", (TargetSpec(20, stationary=False),))


def _rifleman():  # type: ignore[no-untyped-def]
    return start(game(unit(10, "Rifleman", "Blue", 0, 0, weapons=["M4/M16"]), unit(20, "Enemy", "Red", 20, 0)))


def test_odds_are_refused_for_a_unit_that_already_used_its_action() -> None:
    # RB 2.2.2: one Action per turn. The refusal comes with the odds, in the words applying would use.
    s = _rifleman()
    assert attack_odds(s, RIFLE)[0].p_hit == Fraction(2, 3)
    s = s.apply(A.RecordAttack(resolve_attack(s, RIFLE, EnteredDice([2]))))
    odds = attack_odds(s, RIFLE)[0]
    assert (odds.allowed, odds.p_hit, odds.p_kill) == (False, 0, 0)
    assert odds.reason == "Rifleman already used its Action this turn (fire the M4/M16): one Action per turn"
    with pytest.raises(IllegalActionError, match="already used its Action"):
        resolve_attack(s, RIFLE, EnteredDice([6, 6]))  # no dice are asked for


def test_odds_are_refused_for_a_reaction_already_spent() -> None:
    # RB 2.2.2.1: a Reaction "can be done only once".
    s = _rifleman().apply(A.ReadyReaction(10)).apply(A.EndTurn()).apply(A.StartTurn())
    reaction = AttackSetup(10, "M4/M16", (TargetSpec(20, stationary=False),), reaction=True)
    assert attack_odds(s, reaction)[0].allowed
    s = s.apply(A.Sprint(10, reaction=True))
    odds = attack_odds(s, reaction)[0]
    assert not odds.allowed and odds.reason.startswith("Rifleman has no Reaction ready")


def test_odds_are_refused_in_the_enemys_turn_without_a_reaction() -> None:
    s = _rifleman().apply(A.EndTurn()).apply(A.StartTurn())
    odds = attack_odds(s, RIFLE)[0]
    assert not odds.allowed and "can only act in its own player's turn, or with a ready Reaction" in odds.reason


def _truck_that_moved():  # type: ignore[no-untyped-def]
    s = start(game(unit(10, "Truck", "Blue", 0, 0, "Military truck"), unit(20, "Enemy", "Red", 30, 0)))
    return s.apply(A.SetPose(10, 10.0, 0.0, 0.0))


def test_a_vehicle_that_moved_cannot_fire_a_focus_weapon() -> None:
    # RB 3.2: "if they move during the turn, they cannot fire that weapon"; the crew moved with the truck.
    s = _truck_that_moved()
    plan = plan_attack(s, AttackSetup(10, "M240", (TargetSpec(20, stationary=False),)))
    assert plan.weapon.focus
    assert plan.problems == ("Truck moved 10.0\" this turn: the M240 needs Focus, and a Focusing unit must not move",)
    assert not attack_odds(s, AttackSetup(10, "M240", (TargetSpec(20, stationary=False),)))[0].allowed


def test_a_vehicle_that_moved_cannot_take_crew_assistance() -> None:
    # RB 4.1: crew assist "using the same rules for crew-served weapons described in Section 2.6.3":
    # "Both the assisting and the assisted unit must Focus to do this, remaining still for the turn".
    s = _truck_that_moved()
    plan = plan_attack(s, AttackSetup(10, "M240", (TargetSpec(20, stationary=False),), crew_assistants=1))
    assert plan.problems and "must not move" in plan.problems[0]
    still = start(game(unit(10, "Truck", "Blue", 0, 0, "Military truck"), unit(20, "Enemy", "Red", 30, 0)))
    assert plan_attack(still, AttackSetup(10, "M240", (TargetSpec(20, stationary=False),), crew_assistants=1)).bonus == 1


def test_a_vehicle_that_fired_a_focus_weapon_must_not_move_after() -> None:
    still = start(game(unit(10, "Truck", "Blue", 0, 0, "Military truck"), unit(20, "Enemy", "Red", 30, 0)))
    s = still.apply(A.RecordAttack(resolve_attack(still, AttackSetup(10, "M240", (TargetSpec(20, stationary=False),)),
                                                  EnteredDice([1]))))
    with pytest.raises(IllegalActionError, match="Focusing"):
        s.apply(A.MoveUnit(10, 5.0, 0.0))


def test_a_target_just_beyond_range_is_not_said_to_be_at_the_range() -> None:
    # Audit C1: 36.04" was shown as "36.0\" away, beyond the Range of 36\"".
    s = game(unit(10, "Rifleman", "Blue", 0, 0, weapons=["M4/M16"]), unit(20, "Target", "Red", 37.04, 0))
    odds = attack_odds(s, RIFLE)[0]
    assert not odds.allowed and odds.reason == "Target is 36.04\" away, beyond the M4/M16's Range of 36\""
    assert attack_odds(game(unit(10, "Rifleman", "Blue", 0, 0, weapons=["M4/M16"]),
                            unit(20, "Target", "Red", 37.0, 0)), RIFLE)[0].allowed
