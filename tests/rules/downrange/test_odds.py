"""Exact odds: the reference table of down-range.md, brute-force enumeration of every dice outcome,
a 200,000-roll simulation, and the properties of Advantage/Disadvantage and dice Defense."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.dice import Dice, FixedDice, HighestDice, RecordingDice, SeededDice
from rules.downrange.modifiers import Modifiers, net_mode
from rules.downrange.odds import p_at_least_one, p_damage, p_skill, shot_odds
from rules.downrange.options import RulesOptions
from rules.downrange.rolls import roll_damage

D = Dice.parse
F = Fraction

# Case | skill sides, roll, bonus, difficulty | damage, defense | p_hit, p(Damage succeeds), p_kill
REFERENCE = [
    ("2.4a rifle", 6, "normal", 0, 3, "1d6", "4", F(2, 3), F(1, 2), F(1, 3)),
    ("2.4b missile at Disadvantage", 6, "disadvantage", 0, 6, None, None, F(1, 36), None, None),
    ("2.5a bayonet", 6, "normal", 0, 2, "1d6", "5", F(5, 6), F(1, 3), F(5, 18)),
    ("2.5b machine gun alone", 6, "normal", 0, 6, None, None, F(1, 6), None, None),
    ("2.5d machine gun +1", 6, "normal", 1, 6, None, None, F(1, 3), None, None),
    ("2.5e sniper vs UGV", 6, "normal", 0, 5, "1d8", "1d8", F(1, 3), F(35, 64), F(35, 192)),
    ("3.1 M240 +1", 6, "normal", 1, 5, "1d8", "4", F(1, 2), F(5, 8), F(5, 16)),
    ("6.4 60 mm mortar", 6, "normal", 1, 5, "2d8", "5", F(1, 2), F(29, 32), F(29, 64)),
    ("6.4 60 mm vs ZBL-09", 6, "normal", 1, 5, "2d8", "2d10", F(1, 2), F(0), F(0)),
    ("6.5.1 autocannon vs UTV", 6, "advantage", 1, 6, "2d8", "2d6", F(5, 9), F(139, 192), F(695, 1728)),
    ("6.5.1 autocannon vs mortar team", 6, "normal", 1, 6, "2d8", "5", F(1, 3), F(29, 32), F(29, 96)),
    ("6.5.2 M4", 6, "normal", 0, 3, "1d6", "5", F(2, 3), F(1, 3), F(2, 9)),
    ("6.5.3 AT missile", 6, "disadvantage", 0, 4, "2d10", "5", F(1, 4), F(47, 50), F(47, 200)),
    ("6.6 MAAWS vs ZBL-09", 6, "advantage", 0, 4, "2d10", "2d10", F(3, 4), F(2667, 5000), F(8001, 20000)),
    ("6.6.1 medic 1d8+1 reaching 9", 8, "normal", 1, 9, None, None, F(1, 8), None, None),
]


@pytest.mark.parametrize("row", REFERENCE, ids=[r[0] for r in REFERENCE])
def test_reference_odds_table_is_reproduced_exactly(row: tuple) -> None:  # type: ignore[type-arg]  # a parametrize row of mixed values
    _, sides, mode, bonus, difficulty, damage, defense, hit, dmg, kill = row
    assert p_skill(sides, mode, bonus, difficulty) == hit
    if damage is not None:
        odds = shot_odds(sides, mode, bonus, difficulty, D(damage), D(defense))
        assert (odds.p_hit, odds.p_damage, odds.p_kill) == (hit, dmg, kill)


def test_two_d10_against_two_d10_without_the_all_ones_refinements_is_5335_in_10000() -> None:
    plain = F(sum(1 for a, b, c, d in product(range(1, 11), repeat=4) if a + b >= c + d), 10**4)
    assert plain == F(5335, 10000)
    assert p_damage(D("2d10"), D("2d10")) == plain - F(1, 10000)


# -- brute force ----------------------------------------------------------------------------------

def brute_force(sides: int, adv: int, dis: int, bonus: int, difficulty: int, damage: Dice, defense: Dice,
                auto_rule: str, defense_ones_fail: bool) -> tuple[Fraction, Fraction, Fraction]:
    """Enumerate every face of every die, jointly, and apply the rules as the text words them."""
    mode = "advantage" if adv and not dis else "disadvantage" if dis and not adv else "normal"
    skill_rolls = list(product(range(1, sides + 1), repeat=1 if mode == "normal" else 2))
    dmg_rolls = [()] if damage.is_static else list(product(range(1, damage.sides + 1), repeat=damage.count))
    def_rolls = [()] if defense.is_static else list(product(range(1, defense.sides + 1), repeat=defense.count))
    gated = not defense.is_static and (damage.is_static or damage.sides < defense.sides)
    hits = kills = 0
    for faces in skill_rolls:
        kept = max(faces) if mode == "advantage" else min(faces) if mode == "disadvantage" else faces[0]
        auto = kept == 1 if auto_rule == "kept die" else all(f == 1 for f in faces)
        hit = not auto and kept + bonus >= difficulty
        hits += hit
        if not hit or gated:
            continue
        for df in dmg_rolls:
            d_total = sum(df) + damage.bonus
            d_auto = bool(df) and all(x == 1 for x in df)
            for ff in def_rolls:
                f_total = sum(ff) + defense.bonus
                f_auto = bool(ff) and defense_ones_fail and all(x == 1 for x in ff)
                kills += not d_auto and (f_auto or d_total >= f_total)
    n_skill = len(skill_rolls)
    n_all = n_skill * len(dmg_rolls) * len(def_rolls)
    p_hit = F(hits, n_skill)
    p_kill = F(kills, n_all)
    return p_hit, (p_kill / p_hit if p_hit else F(0)), p_kill


sides = st.sampled_from((4, 6, 8, 10))
dice = st.one_of(
    st.builds(lambda n: Dice.static(n), st.integers(0, 12)),
    st.builds(Dice, st.integers(1, 3), sides, st.integers(0, 3)),
)


@settings(max_examples=300, deadline=None)
@given(skill=sides, adv=st.integers(0, 3), dis=st.integers(0, 3), bonus=st.integers(0, 3),
       difficulty=st.integers(1, 13), damage=dice, defense=dice,
       auto_rule=st.sampled_from(("kept die", "both dice")), ones=st.booleans())
def test_exact_odds_equal_brute_force_enumeration(skill, adv, dis, bonus, difficulty, damage, defense, auto_rule, ones):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    size = (skill ** 2) * (damage.sides ** damage.count if damage.count else 1) * (defense.sides ** defense.count if defense.count else 1)
    assume(size <= 60_000)
    options = RulesOptions(auto_failure=auto_rule, defense_all_ones_fails=ones)
    mode = net_mode(adv, dis)
    odds = shot_odds(skill, mode, bonus, difficulty, damage, defense, options)
    hit, dmg_given_hit, kill = brute_force(skill, adv, dis, bonus, difficulty, damage, defense, auto_rule, ones)
    assert odds.p_hit == hit
    assert odds.p_kill == kill
    if hit:
        assert odds.p_damage == dmg_given_hit


# -- simulation -------------------------------------------------------------------------------------

def simulate(rng: np.random.Generator, n: int, sides: int, mode: str, bonus: int, difficulty: int,
             damage: Dice, defense: Dice) -> float:
    """Fraction of ``n`` vectorised random attacks that kill (kept-die automatic failure)."""
    pair = rng.integers(1, sides + 1, size=(n, 2))
    kept = pair.max(axis=1) if mode == "advantage" else pair.min(axis=1) if mode == "disadvantage" else pair[:, 0]
    hit = (kept != 1) & (kept + bonus >= difficulty)
    dmg = rng.integers(1, damage.sides + 1, size=(n, damage.count))
    d_total, d_auto = dmg.sum(axis=1) + damage.bonus, (dmg == 1).all(axis=1)
    if defense.is_static:
        f_total, f_auto = np.full(n, defense.bonus), np.zeros(n, dtype=bool)
    else:
        df = rng.integers(1, defense.sides + 1, size=(n, defense.count))
        f_total, f_auto = df.sum(axis=1) + defense.bonus, (df == 1).all(axis=1)
    kill = hit & ~d_auto & (f_auto | (d_total >= f_total))
    return float(kill.mean())


@pytest.mark.parametrize("config", [
    (6, "advantage", 1, 6, "2d8", "2d6"),
    (6, "disadvantage", 0, 4, "2d10", "5"),
    (6, "advantage", 0, 4, "2d10", "2d10"),
    (8, "normal", 2, 7, "3d8", "1d8+1"),
])
def test_exact_odds_match_a_200000_roll_simulation(config: tuple) -> None:  # type: ignore[type-arg]  # a parametrize row of mixed values
    sides_, mode, bonus, difficulty, damage, defense = config
    exact = float(shot_odds(sides_, mode, bonus, difficulty, D(damage), D(defense)).p_kill)
    n = 200_000
    simulated = simulate(np.random.default_rng(20261121), n, sides_, mode, bonus, difficulty, D(damage), D(defense))
    sigma = (exact * (1 - exact) / n) ** 0.5
    assert abs(simulated - exact) < 4.5 * sigma


# -- properties ------------------------------------------------------------------------------------

@given(adv=st.integers(1, 50), dis=st.integers(1, 50), skill=sides, bonus=st.integers(0, 3), difficulty=st.integers(1, 12))
def test_any_number_of_advantages_and_disadvantages_cancel_completely(adv, dis, skill, bonus, difficulty):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    mods = Modifiers(tuple(f"a{i}" for i in range(adv)), tuple(f"d{i}" for i in range(dis)))
    assert mods.mode() == "normal"
    assert p_skill(skill, mods.mode(), bonus, difficulty) == p_skill(skill, "normal", bonus, difficulty)


@given(count=st.integers(1, 60), skill=sides, bonus=st.integers(0, 3), difficulty=st.integers(1, 12))
def test_advantages_and_disadvantages_never_stack(count, skill, bonus, difficulty):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    assert Modifiers(tuple(map(str, range(count)))).mode() == "advantage"
    assert Modifiers((), tuple(map(str, range(count)))).mode() == "disadvantage"
    one = p_skill(skill, "advantage", bonus, difficulty)
    assert p_skill(skill, Modifiers(tuple(map(str, range(count)))).mode(), bonus, difficulty) == one


@given(dmg_count=st.integers(1, 6), dmg_sides=sides, dmg_bonus=st.integers(0, 10), def_count=st.integers(1, 4),
       def_sides=sides, def_bonus=st.integers(0, 3), seed=st.integers(0, 10**6))
def test_a_dice_defense_with_more_sides_than_the_damage_is_never_hurt(dmg_count, dmg_sides, dmg_bonus, def_count,  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
                                                                     def_sides, def_bonus, seed):
    assume(def_sides > dmg_sides)
    damage, defense = Dice(dmg_count, dmg_sides, dmg_bonus), Dice(def_count, def_sides, def_bonus)
    assert p_damage(damage, defense) == 0
    for source in (SeededDice(seed), HighestDice(), FixedDice(1)):
        recorded = RecordingDice(source)
        result = roll_damage(recorded, damage, defense, label="tank")
        assert not result.killed and not result.can_damage and recorded.rolls == []


def test_p_kill_over_several_shots_is_one_minus_all_missing() -> None:
    per_shot = shot_odds(6, "normal", 1, 5, D("1d8"), D("4")).p_kill
    assert p_at_least_one(per_shot, 4) == 1 - (1 - F(5, 16)) ** 4
    assert p_at_least_one(per_shot, 1) == per_shot


# -- the odds shown and the dice resolution implement the same rules --------------------------------

@settings(max_examples=15, deadline=None)
@given(weapon=st.sampled_from(["M4/M16", "Bayonet", "M7", "Sniper rifle", "M249 SAW"]),
       target=st.sampled_from(["average combatant", "substandard combatant", "UTV", "Motorcycle", "UGV"]),
       armor=st.booleans(), cover=st.booleans(), stationary=st.booleans(), untrained=st.booleans())
def test_the_odds_shown_equal_the_share_of_all_dice_outcomes_that_kill(weapon, target, armor, cover, stationary,  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
                                                                      untrained):
    from rules.dice import EnteredDice
    from rules.downrange.attack import attack_odds, resolve_attack
    from rules.downrange.declarations import AttackSetup, Level, TargetSpec
    from rules_helpers import game, unit

    s = game(unit(10, "Shooter", "Blue", 0, 0, weapons=[weapon]),
             unit(20, "Target", "Red", 1.2, 0, target, equipment=["body armor"] if armor else []))
    setup = AttackSetup(10, weapon, (TargetSpec(20, stationary=stationary,
                                                cover=Level.PARTIAL if cover else Level.NONE),), untrained=untrained)
    (odds,) = attack_odds(s, setup)
    w = s.catalog.weapon(weapon)
    defense = s.effective_defense(s.unit(20))
    skill_rolls = list(product(range(1, 7), repeat=1 if odds.roll == "normal" else 2))
    dmg_rolls = list(product(range(1, w.damage.sides + 1), repeat=w.damage.count))
    def_rolls = [()] if defense.is_static else list(product(range(1, defense.sides + 1), repeat=defense.count))
    kills = total = 0
    for sk in skill_rolls:
        for dm in dmg_rolls:
            for df in def_rolls:
                dice = [list(sk), list(dm)] + ([list(df)] if df else [])
                result = resolve_attack(s, setup, EnteredDice(dice))
                kills += bool(result.killed)
                total += 1
    assert odds.p_kill == F(kills, total)
