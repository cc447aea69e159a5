"""Turns, Moves and Actions (rules/downrange/turns.py): sprinting as a Reaction, and assistants."""
from __future__ import annotations

import pytest

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.turns import movement_left_in, roll_initiative
from rules.errors import IllegalActionError
from rules_helpers import game, unit


def start(state, *dice: int):  # type: ignore[no-untyped-def]
    state = state.apply(A.StartRound(roll_initiative(state, EnteredDice(list(dice)))))
    return state.apply(A.StartTurn())


def _enemy_turn_with_a_ready_reaction(moved_in_own_turn: float):  # type: ignore[no-untyped-def]
    s = start(game(unit(10, "Corpsman", "Blue", 0, 0), unit(20, "Enemy", "Red", 30, 0)), 10, 1)
    if moved_in_own_turn:
        s = s.apply(A.MoveUnit(10, 0.0, moved_in_own_turn))
    return s.apply(A.ReadyReaction(10)).apply(A.EndTurn()).apply(A.StartTurn())


@pytest.mark.parametrize("moved_in_own_turn", [0.0, 7.6])
def test_a_sprint_taken_as_a_reaction_in_the_enemys_turn_is_one_move_of_up_to_8_inches(moved_in_own_turn: float) -> None:
    # RB 6.5.2: "The corpsman uses his Reaction to sprint, dashing up to 8"" - whatever he moved in
    # his own turn; the Move he did not use then is not carried into the enemy's turn.
    s = _enemy_turn_with_a_ready_reaction(moved_in_own_turn).apply(A.Sprint(10, reaction=True))
    assert movement_left_in(s, s.unit(10)) == pytest.approx(8.0)
    with pytest.raises(IllegalActionError, match="has 8\" left"):
        s.apply(A.MoveUnit(10, 0.0, moved_in_own_turn + 15.0))
    s = s.apply(A.MoveUnit(10, 0.0, moved_in_own_turn + 8.0))
    assert movement_left_in(s, s.unit(10)) == pytest.approx(0.0)


def test_a_tracked_reaction_sprint_beyond_8_inches_is_flagged() -> None:
    s = _enemy_turn_with_a_ready_reaction(0.0).apply(A.Sprint(10, reaction=True))
    s = s.apply(A.SetPose(10, 0.0, 15.0, 90.0))
    assert "more than its Movement of 8\"" in s.events[-1].summary


def test_a_sprint_in_the_units_own_turn_still_doubles_its_move() -> None:
    s = start(game(unit(10, "Ann", "Blue", 0, 0), unit(20, "Bo", "Red", 40, 0)), 9, 1).apply(A.Sprint(10))
    assert movement_left_in(s, s.unit(10)) == 16.0


# -- assistants within reach (2.6.3, 2.8, 6.6.1) ------------------------------------------------------

from rules.downrange.attack import attack_odds, plan_attack  # noqa: E402
from rules.downrange.declarations import AttackSetup, TargetSpec  # noqa: E402
from rules.downrange.medicine import resolve_treatment  # noqa: E402
from rules.downrange.state import Status  # noqa: E402
from rules.downrange.turns import resolve_task  # noqa: E402


def _gun_and_helper(helper_x: float, helper_y: float):  # type: ignore[no-untyped-def]
    return start(game(unit(10, "Gunner", "Blue", 0, 0, weapons=["M240"]), unit(11, "Helper", "Blue", helper_x, helper_y),
                      unit(20, "Target", "Red", 30, 0)), 10, 1)


def test_an_assistant_must_stand_at_the_weapon_it_helps_operate() -> None:
    # RB 2.6.3: assistants "help operate the weapon". Bases of 1" at 40" apart: refused before any die,
    # in one sentence naming the distance and the reach; at the gunner's side: +1.
    setup = AttackSetup(10, "M240", (TargetSpec(20, stationary=False),), assistants=(11,))
    far = plan_attack(_gun_and_helper(0, 40), setup)
    assert far.problems == ('Helper is 39.0" from Gunner, beyond the reach of 1": it must be at Gunner\'s side to help '
                            '(the M240) (2.6.3; rules option assist_reach_in)',)
    odds = attack_odds(_gun_and_helper(0, 40), setup)[0]
    assert not odds.allowed and odds.p_hit == 0 and "beyond the reach of 1\"" in odds.reason
    near = plan_attack(_gun_and_helper(0, 1.5), setup)
    assert near.problems == () and near.bonus == 1


def test_the_reach_of_an_assistant_is_a_rules_option() -> None:
    s = start(game(unit(10, "Gunner", "Blue", 0, 0, weapons=["M240"]), unit(11, "Helper", "Blue", 0, 4),
                   unit(20, "Target", "Red", 30, 0), rules={"assist_reach_in": 3.5}), 10, 1)
    assert plan_attack(s, AttackSetup(10, "M240", (TargetSpec(20, stationary=False),), assistants=(11,))).problems == ()


def _treatment(helper_at: tuple[float, float]):  # type: ignore[no-untyped-def]
    s = start(game(unit(10, "Corpsman", "Blue", 0, 0, equipment=["medical kit"]), unit(11, "Patient", "Blue", 1, 0),
                   unit(12, "Sergeant", "Blue", *helper_at), unit(20, "Enemy", "Red", 40, 0)), 10, 1)
    return s.update_unit(11, status=Status.DOWN)


def test_a_treatment_assistant_must_be_at_the_site_of_the_treatment() -> None:
    # RB 6.6.1: "the sergeant moves to the site of the treatment. The next turn sees the sergeant Focus
    # to assist the corpsman": next to the patient (or the medic) counts.
    with pytest.raises(IllegalActionError, match=r'Sergeant is 29\.0" from Patient, beyond the reach of 1": it must be '
                                                 r'at the site of the medicine'):
        resolve_treatment(_treatment((1, 30)), 10, 11, EnteredDice([5]), assistants=(12,))
    result = resolve_treatment(_treatment((2, 0)), 10, 11, EnteredDice([5]), assistants=(12,))
    assert result.skill.total == 6


@pytest.mark.parametrize("helper_y, refusal", [(20.0, 'Helper is 19.0" from Breacher, beyond the reach of 1"'), (1.5, None)])
def test_a_task_assistant_must_be_at_the_unit_doing_the_task(helper_y: float, refusal: str | None) -> None:
    s = start(game(unit(10, "Breacher", "Blue", 0, 0), unit(11, "Helper", "Blue", 0, helper_y),
                   unit(20, "Enemy", "Red", 40, 0)), 10, 1)
    if refusal:
        with pytest.raises(IllegalActionError, match=refusal.replace(".", r"\.")):
            resolve_task(s, 10, 4, EnteredDice([3]), task="breach the door", assistants=(11,))
    else:
        assert resolve_task(s, 10, 4, EnteredDice([3]), task="breach the door", assistants=(11,)).skill.total == 4


def test_a_medic_must_touch_the_patient_and_a_boarder_its_vehicle_and_the_refusal_names_the_reach() -> None:
    s = _treatment((10, 10)).update_unit(10, x_in=-5.0)
    with pytest.raises(IllegalActionError, match=r'Corpsman is 5\.0" from Patient, beyond the reach of 0\.5": it must be '
                                                 r'touching Patient \(2\.8\)'):
        resolve_treatment(s, 10, 11, EnteredDice([5]))
    v = start(game(unit(10, "Rifleman", "Blue", 0, 0), unit(20, "Truck", "Blue", 10, 0, "Military truck"),
                   unit(30, "Enemy", "Red", 40, 40)), 10, 1)
    with pytest.raises(IllegalActionError, match=r'Rifleman is [0-9.]+" from Truck, beyond the reach of 0\.5": it must be '
                                                 r'touching Truck to board it'):
        v.apply(A.Board(10, 20))
