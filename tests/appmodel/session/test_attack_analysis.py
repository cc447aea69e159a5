"""The attack analysis a panel reads: a refused attack reports the refusal, not odds (audit D5)."""
from __future__ import annotations

from appmodel.session.attack_analysis import AttackAnalysis
from appmodel.session.attacks import AttackDraft
from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.turns import roll_initiative
from rules.ruleset import get_ruleset
from rules_helpers import game, unit


def _state():  # type: ignore[no-untyped-def]
    s = game(unit(10, "Rifleman", "Blue", 0, 0, weapons=["M4/M16"]), unit(20, "Enemy", "Red", 20, 0))
    return s.apply(A.StartRound(roll_initiative(s, EnteredDice([10, 1])))).apply(A.StartTurn())


def test_an_attack_whose_action_is_spent_shows_not_allowed_instead_of_odds() -> None:
    ruleset = get_ruleset("down-range")
    draft = AttackDraft(10, "M4/M16", (20,), target_declarations={20: {"stationary": "no"}})
    fresh = AttackAnalysis(ruleset, _state(), draft)
    assert fresh.error == "" and fresh.odds[0].allowed
    spent = ruleset.resolve_attack(_state(), draft.request(), EnteredDice([2])).state
    analysis = AttackAnalysis(ruleset, spent, draft)
    assert analysis.error == analysis.refusal == ("not allowed: Rifleman already used its Action this turn "
                                                  "(fire the M4/M16): one Action per turn")
    assert not analysis.odds[0].allowed and analysis.odds[0].p_hit == 0
