"""Exact odds of Down Range rolls, by enumeration and convolution (never by sampling).

``p_hit`` is the probability that the Skill roll succeeds; ``p_damage`` that Damage beats Defense
once hit; ``p_kill = p_hit * p_damage``. Advantage/Disadvantage, assistance, automatic failure (on
the kept die, or on both dice), the dice-sides gate and the all-ones Defense are all included.

>>> shot_odds(6, "normal", 0, 3, Dice.parse("1d6"), Dice.parse("4"))
ShotOdds(p_hit=Fraction(2, 3), p_damage=Fraction(1, 2), p_kill=Fraction(1, 3), can_damage=True)
>>> p_damage(Dice.parse("2d10"), Dice.parse("2d10"))
Fraction(2667, 5000)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from rules.dice import Dice
from rules.distributions import KeepMode, dice_sum_pmf, kept_die_pmf
from rules.downrange.options import RulesOptions
from rules.downrange.rolls import can_damage

DEFAULT = RulesOptions()


@dataclass(frozen=True)
class ShotOdds:
    """Exact odds of one attack on one target."""

    p_hit: Fraction
    p_damage: Fraction
    p_kill: Fraction
    can_damage: bool


@lru_cache(maxsize=4096)
def p_skill(sides: int, mode: KeepMode, bonus: int, difficulty: int | None, *,
            auto_failure: str = "kept die") -> Fraction:
    """Probability that a Skill roll (one die, or the kept one of two) plus ``bonus`` meets
    ``difficulty`` and is not an automatic failure.

    >>> p_skill(6, "disadvantage", 0, 6), p_skill(6, "normal", 1, 6), p_skill(8, "normal", 1, 9)
    (Fraction(1, 36), Fraction(1, 3), Fraction(1, 8))
    """
    pmf = kept_die_pmf(sides, mode)
    target = 2 if difficulty is None else difficulty
    count = 0
    for face in range(1, sides + 1):
        if face + bonus < target and difficulty is not None:
            continue
        n = pmf.count(face)
        if face == 1:
            if auto_failure == "both dice" and mode != "normal":
                n -= 1  # only the (1, 1) pair fails automatically; (1, x) keeps a plain 1
            else:
                n = 0
        count += n
    return Fraction(count, pmf.outcomes)


def _pmf_counts(dice: Dice) -> tuple[int, np.ndarray, int]:
    if dice.is_static:
        return dice.bonus, np.ones(1, dtype=np.int64), 1
    pmf = dice_sum_pmf(dice.count, dice.sides)
    return pmf.offset + dice.bonus, pmf.counts, pmf.outcomes


@lru_cache(maxsize=4096)
def p_damage(damage: Dice, defense: Dice, *, defense_all_ones_fails: bool = True) -> Fraction:
    """Probability that Damage kills once the attack hits (2.6.4, 2.6.4.1, 2.1.4.1).

    >>> p_damage(Dice.parse("2d8"), Dice.parse("2d10")), p_damage(Dice.parse("2d8"), Dice.parse("5"))
    (Fraction(0, 1), Fraction(29, 32))
    """
    if not can_damage(damage, defense):
        return Fraction(0)
    d_off, d_counts, d_n = _pmf_counts(damage)
    f_off, f_counts, f_n = _pmf_counts(defense)
    d_counts = d_counts.copy()
    if not damage.is_static:
        d_counts[0] = 0  # the lowest sum of a pool is exactly all ones: an automatic failure
    f_all_ones = 0
    if not defense.is_static and defense_all_ones_fails:
        f_all_ones = int(f_counts[0])
    # cum[k] = outcomes of Defense <= f_off + k
    cum = np.cumsum(f_counts)
    total = 0
    for i, n in enumerate(d_counts.tolist()):
        if not n:
            continue
        value = d_off + i
        k = value - f_off
        if k < 0:
            beaten = f_all_ones
        else:
            beaten = int(cum[min(k, len(cum) - 1)])
        total += n * beaten
    return Fraction(total, d_n * f_n)


def shot_odds(sides: int, mode: KeepMode, bonus: int, difficulty: int, damage: Dice, defense: Dice,
              options: RulesOptions = DEFAULT) -> ShotOdds:
    """Odds of one shot: the Skill roll hits, and then Damage kills."""
    hit = p_skill(sides, mode, bonus, difficulty, auto_failure=options.auto_failure)
    dmg = p_damage(damage, defense, defense_all_ones_fails=options.defense_all_ones_fails)
    return ShotOdds(hit, dmg, hit * dmg, can_damage(damage, defense))


def p_at_least_one(p: Fraction, tries: int) -> Fraction:
    """Probability that at least one of ``tries`` independent attempts succeeds.

    >>> p_at_least_one(Fraction(1, 2), 2)
    Fraction(3, 4)
    """
    return 1 - (1 - p) ** tries
