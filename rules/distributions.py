"""Exact probability mass functions of dice rolls, by convolution of outcome counts.

A :class:`Pmf` keeps integer counts of equally likely outcomes (``2d6`` has 36), so sums and
comparisons stay exact; :meth:`Pmf.prob` turns a count into a :class:`fractions.Fraction`.

>>> pmf = dice_sum_pmf(2, 6)
>>> pmf.prob(7), pmf.p_at_least(12)
(Fraction(1, 6), Fraction(1, 36))
>>> kept_die_pmf(6, "advantage").prob(6)
Fraction(11, 36)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

import numpy as np

KeepMode = Literal["normal", "advantage", "disadvantage"]


@dataclass(frozen=True, eq=False)
class Pmf:
    """Distribution of an integer roll: ``counts[i]`` outcomes give the value ``offset + i``.

    ``counts`` is an integer array (int64, or Python ints for huge pools); ``outcomes`` is their sum.
    """

    offset: int
    counts: np.ndarray
    outcomes: int

    @property
    def minimum(self) -> int:
        return self.offset

    @property
    def maximum(self) -> int:
        return self.offset + len(self.counts) - 1

    def count(self, value: int) -> int:
        i = value - self.offset
        return int(self.counts[i]) if 0 <= i < len(self.counts) else 0

    def prob(self, value: int) -> Fraction:
        return Fraction(self.count(value), self.outcomes)

    def count_at_least(self, value: int) -> int:
        i = max(0, value - self.offset)
        return int(self.counts[i:].sum()) if i < len(self.counts) else 0

    def p_at_least(self, value: int) -> Fraction:
        return Fraction(self.count_at_least(value), self.outcomes)

    def shifted(self, bonus: int) -> "Pmf":
        """The distribution of the roll plus a static ``bonus``."""
        return Pmf(self.offset + bonus, self.counts, self.outcomes)

    def as_fractions(self) -> dict[int, Fraction]:
        return {self.offset + i: Fraction(int(c), self.outcomes) for i, c in enumerate(self.counts) if c}


def static_pmf(value: int) -> Pmf:
    """A number that is not rolled."""
    return Pmf(value, np.ones(1, dtype=np.int64), 1)


@lru_cache(maxsize=256)
def dice_sum_pmf(count: int, sides: int) -> Pmf:
    """Sum of ``count`` dice with ``sides`` sides (``count`` >= 1).

    >>> dice_sum_pmf(2, 10).count(2), dice_sum_pmf(2, 10).outcomes
    (1, 100)
    """
    if count < 1 or sides < 1:
        raise ValueError(f"dice_sum_pmf needs at least one die with at least one side, got {count}d{sides}")
    # int64 holds sides**count exactly up to ~9.2e18; beyond that fall back to Python ints.
    dtype: type | str = np.int64 if count * np.log2(sides) < 62 else object
    one = np.ones(sides, dtype=dtype)
    counts = one
    for _ in range(count - 1):
        counts = np.convolve(counts, one)
    counts.setflags(write=False)
    return Pmf(count, counts, sides**count)


@lru_cache(maxsize=64)
def kept_die_pmf(sides: int, mode: KeepMode) -> Pmf:
    """One die, or the higher (Advantage) / lower (Disadvantage) of two.

    >>> kept_die_pmf(6, "disadvantage").prob(1)
    Fraction(11, 36)
    """
    faces = np.arange(1, sides + 1, dtype=np.int64)
    if mode == "normal":
        counts, outcomes = np.ones(sides, dtype=np.int64), sides
    elif mode == "advantage":
        counts, outcomes = 2 * faces - 1, sides * sides
    elif mode == "disadvantage":
        counts, outcomes = 2 * (sides - faces) + 1, sides * sides
    else:
        raise ValueError(f"unknown keep mode {mode!r}: use normal, advantage or disadvantage")
    counts.setflags(write=False)
    return Pmf(1, counts, outcomes)


@lru_cache(maxsize=256)
def successes_pmf(count: int, sides: int, threshold: int) -> Pmf:
    """How many of ``count`` dice with ``sides`` sides show ``threshold`` or more (a dice pool that
    counts successes, like Force on Force's 4+). ``count`` may be 0 (no dice: no successes).

    >>> pmf = successes_pmf(2, 6, 4)
    >>> pmf.prob(0), pmf.prob(1), pmf.prob(2)
    (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    """
    if count < 0 or sides < 1:
        raise ValueError(f"successes_pmf needs 0 or more dice with at least one side, got {count}d{sides}")
    good = max(0, min(sides, sides - threshold + 1))
    dtype: type | str = np.int64 if count * np.log2(sides) < 62 else object
    one = np.array([sides - good, good], dtype=dtype)
    counts = np.ones(1, dtype=dtype)
    for _ in range(count):
        counts = np.convolve(counts, one)
    counts.setflags(write=False)
    return Pmf(0, counts, sides**count)


def compare_pmfs(a: Pmf, b: Pmf) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (P(a > b), P(a == b), P(a < b)) for two independent rolls.

    >>> compare_pmfs(dice_sum_pmf(1, 6), dice_sum_pmf(1, 6))
    (Fraction(5, 12), Fraction(1, 6), Fraction(5, 12))
    """
    greater = equal = 0
    cumulative_b = [0]
    for i in range(len(b.counts)):
        cumulative_b.append(cumulative_b[-1] + int(b.counts[i]))
    for i, ca in enumerate(a.counts):
        value = a.offset + i
        below = min(max(value - b.offset, 0), len(b.counts))  # b values strictly under this one
        greater += int(ca) * cumulative_b[below]
        equal += int(ca) * b.count(value)
    total = a.outcomes * b.outcomes
    return Fraction(greater, total), Fraction(equal, total), Fraction(total - greater - equal, total)
