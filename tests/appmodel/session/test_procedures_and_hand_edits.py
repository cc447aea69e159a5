"""Rolls and hand edits as functions of a ruleset and a state, played on the tests' own rule system
(Pebbles): the entered-dice form learns each roll in turn, an attack that is not set up is refused in
words, and a ruleset without units of several figures refuses a unit edit naming the figure."""
from __future__ import annotations

import pytest
import toy_ruleset

from appmodel.errors import UsageError
from appmodel.session import hand_edits
from appmodel.session.attacks import AttackDraft, MissMarker, landing_point
from appmodel.session.procedures import dice_needed, run_rolls
from rules.dice import EnteredDice
from rules.ruleset import Ruleset

RULES = toy_ruleset.PebbleRules()
ANN, BOB = 1, 2


def new_state():
    return RULES.new_game(toy_ruleset.SCENARIO)


def test_the_form_asks_for_the_throw_then_has_enough() -> None:
    draft = AttackDraft(ANN, "Pebble", (BOB,))
    need = dice_needed(RULES, new_state(), "attack", [], draft=draft)
    assert need is not None and (need.label, need.count, need.sides) == ("Ann's pebble at Bob", 1, 6)
    assert dice_needed(RULES, new_state(), "attack", [5], draft=draft) is None


def test_the_players_throw_decides_the_attack() -> None:
    res = run_rolls(RULES, new_state(), "attack", EnteredDice([5]), draft=AttackDraft(ANN, "Pebble", (BOB,)))
    assert res.sentences == ('Ann throws a pebble at Bob (7.0"): 5 — Bob is knocked out.',)
    assert next(u for u in RULES.units(res.state) if u.unit_id == BOB).status == "down"


def test_an_attack_not_set_up_is_refused_saying_what_to_do() -> None:
    with pytest.raises(UsageError, match="choose an attacker, a weapon and targets"):
        run_rolls(RULES, new_state(), "attack", EnteredDice([]), draft=None)
    with pytest.raises(UsageError, match="tick at least one target"):
        run_rolls(RULES, new_state(), "attack", EnteredDice([]), draft=AttackDraft(ANN, "Pebble"))


def test_a_procedure_is_run_with_the_dice_given() -> None:
    res = run_rolls(RULES, new_state(), "initiative", EnteredDice([]))
    assert res.state.round == 1
    res = run_rolls(RULES, res.state, lambda state, dice: RULES.start_turn(state, dice), EnteredDice([]))
    assert res.sentences == ("Reds's turn.",)


def test_hand_edits_become_the_rulesets_own_action() -> None:
    action = hand_edits.unit_edit(RULES, BOB, {"status": "removed"})
    assert next(u for u in RULES.units(RULES.apply(new_state(), action)) if u.unit_id == BOB).status == "removed"


def test_a_ruleset_without_units_of_several_figures_refuses_a_unit_edit() -> None:
    assert hand_edits.groups(RULES, new_state()) == ()
    with pytest.raises(UsageError, match="Bob is not part of a unit of several figures: edit the figure itself"):
        hand_edits.group_edit(RULES, new_state(), BOB, "Bob", {"morale": "low"})


def test_a_ruleset_without_hand_edits_says_so() -> None:
    class Bare(Ruleset):
        name = "bare"

    with pytest.raises(UsageError, match="hand edits are not available for the bare ruleset"):
        hand_edits.unit_edit(Bare(), 1, {})


def test_a_missed_explosive_lands_only_within_its_miss_radius() -> None:
    miss = MissMarker((10.0, 10.0), 3.0, "Blue")
    assert landing_point(miss, (12, 12)) == (12.0, 12.0)
    with pytest.raises(UsageError, match=r'\(14.0, 10.0\) is 4.0" from the intended point; the round lands within 3" of \(10.0, 10.0\)'):
        landing_point(miss, (14, 10))
