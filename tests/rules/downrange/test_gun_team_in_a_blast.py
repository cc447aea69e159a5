"""A gun team on one token is one target in a blast: one Damage roll, and the odds shown are what
resolving does (Down Range 3.2.4, 4.3, 6.5.1)."""
from __future__ import annotations

from fractions import Fraction

from odds_sampling import assert_frequency
from rules_helpers import game, unit

from rules.dice import SeededDice
from rules.downrange.actions import RecordAttack
from rules.downrange.attack import attack_odds, resolve_attack
from rules.downrange.declarations import AttackSetup
from rules.downrange.state import Status


def _grenade_at_a_two_man_team():
    s = game(unit(1, "Thrower", "Blue", 0, 0, weapons=["Hand grenade"]),
             unit(2, "Gunner", "Red", 6, 0, team="mg"), unit(3, "Loader", "Red", 6, 0, team="mg"))
    return s, AttackSetup(1, "Hand grenade", aim_x_in=6.0, aim_y_in=0.0)


def test_a_gun_team_in_a_blast_is_one_target_with_the_odds_the_issue_quotes() -> None:
    s, setup = _grenade_at_a_two_man_team()
    odds = attack_odds(s, setup)
    assert [o.name for o in odds] == ["Gunner"]
    assert str(s.effective_defense(s.unit(2))) == "4"
    assert odds[0].p_kill == Fraction(5, 12)  # 2/3 to land on the aim point x 5/8 to beat Defense 4


def test_a_blast_rolls_damage_once_for_the_team_and_downs_both_members() -> None:
    s, setup = _grenade_at_a_two_man_team()
    dice = SeededDice(7)
    for _ in range(40):
        result = resolve_attack(s, setup, dice, landing=(6.0, 2.0))
        assert [t.unit_id for t in result.targets] in ([2], [])  # a miss 2" away still catches the team
        for t in result.targets:
            assert len(t.shots) == 1 and t.shots[0].damage is not None
            if t.killed:
                assert set(t.went_down) == {2, 3}
                after = s.apply(RecordAttack(result))
                assert {after.unit(2).status, after.unit(3).status} == {Status.DOWN}


def test_the_shown_kill_chance_is_how_often_resolving_downs_the_team() -> None:
    s, setup = _grenade_at_a_two_man_team()
    (odds,) = attack_odds(s, setup)
    dice = SeededDice(2026)
    trials = 3000
    downed = 0
    for _ in range(trials):
        result = resolve_attack(s, setup, dice, landing=(6.0, 2.0))
        # The shown p(kill) is for the blast where it was aimed; a miss lands where a player puts it.
        downed += result.miss is None and any(t.killed for t in result.targets)
    assert_frequency(odds.p_kill, downed, trials, "hand grenade at a two-man team: p(kill)")
