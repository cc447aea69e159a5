"""Every rule system gives the debrief's "every roll" table each recorded roll with its odds
(``recorded_rolls``): Force on Force's tests, initiative and reinforcements, the generic rules' to-hit,
scatter, damage and close combat -- the same odds the rule system shows before the roll."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rules.dice import SeededDice
from rules.events import RulesEvent
from rules.forceonforce.checks import p_pass
from rules.forceonforce.examples.patrol import load_scenario
from rules.forceonforce.initiative import initiative_odds, side_pools
from rules.generic.close_combat import close_combat_odds
from rules.generic.examples.solo import initial_state
from rules.ruleset import AttackRequest, get_ruleset

FOF = get_ruleset("force-on-force")
GENERIC = get_ruleset("generic")


def _rolls(ruleset, resolution):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    """The rolls of the last logged event, as a recording keeps it (JSON) and the debrief reads it."""
    event = RulesEvent.from_json(resolution.state.events[-1].to_json())
    return ruleset.recorded_rolls(event)


def test_force_on_force_fire_shows_each_sides_chance_to_win_the_opposed_test() -> None:
    state = FOF.new_game(load_scenario())
    request = AttackRequest(14, "Fire", (30,))
    (shown,) = FOF.attack_odds(state, request)
    bravo, cell = _rolls(FOF, FOF.resolve_attack(state, request, SeededDice(1)))
    assert (bravo.p_success, cell.p_success) == (dict(shown.outcomes)["Bravo wins"], dict(shown.outcomes)["Cell 1 wins"])
    assert bravo.odds_note == "wins the opposed test" and bravo.dice == "d8 (Troop Quality)" and bravo.needed.startswith("4+")
    assert {bravo.result, cell.result} <= {"wins", "loses", "nobody wins"} and bravo.faces and bravo.faces[0] >= 1


def test_force_on_force_tests_initiative_and_reinforcements_have_their_rolls() -> None:
    state = FOF.new_game(load_scenario())
    side = FOF.test_side(state, 30, "morale", modifier=-1)
    (check,) = _rolls(FOF, FOF.test(state, "morale test", side, SeededDice(3)))
    assert check.p_success == p_pass(side.sides, modifier=-1) and check.result in ("passes", "fails")
    turn2 = replace(state, round=1, initiative="US Army")
    shown = initiative_odds(side_pools(turn2), previous="US Army")
    rolls = _rolls(FOF, FOF.start_round(turn2, SeededDice(2)))
    assert {r.label.split(",")[0].removeprefix("initiative test of "): r.p_success for r in rolls} == shown
    (reinforcement,) = _rolls(FOF, FOF.reinforce(state, "Cell 3", SeededDice(2)))
    assert reinforcement.dice == "1d6" and reinforcement.result.startswith("Hot Spot") and reinforcement.p_success is None


def test_a_generic_shot_lists_to_hit_scatter_and_damage_with_their_odds() -> None:
    state = initial_state()
    miss = _rolls(GENERIC, GENERIC.resolve_attack(state, AttackRequest(12, "Mortar", (30,)), SeededDice(1)))
    assert [r.label for r in miss][:3] == ["to hit T1 at Very Long (6+)", "scatter distance",
                                           "scatter direction (2d6: row, column)"]
    assert miss[0].p_success == Fraction(1, 6) and miss[0].result == "miss"
    assert miss[1].p_success is None and miss[2].p_success is None  # where it lands is not a pass or a fail
    hit = _rolls(GENERIC, GENERIC.resolve_attack(state, AttackRequest(10, "Rifle", (31,)), SeededDice(0)))
    assert hit[0].p_success == Fraction(1, 2) and hit[0].result == "hit" and len(hit) == 2  # this seed hits
    for damage in hit[1:]:
        assert damage.label.startswith("damage to R1 (") and damage.odds_note == "loses a status level"
        assert damage.p_success is not None and 0 < damage.p_success <= 1


def test_close_combat_rounds_show_the_attackers_chance_to_win_each() -> None:
    state = initial_state()
    shown = close_combat_odds(state, 11, 33)
    first, second = _rolls(GENERIC, GENERIC.resolve_attack(state, AttackRequest(11, "Close combat", (33,)), SeededDice(5)))
    assert first.p_success == shown.p_defender_loses_round
    assert second.p_success == shown.p_attacker_loses_round
    assert first.label.startswith("close combat, I2 attacks R3") and second.label.startswith("close combat, R3 attacks I2")
