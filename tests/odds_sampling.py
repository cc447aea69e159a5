"""Comparing how often something happened in seeded trials with the exact odds shown for it (not
collected as tests).

With ``n`` trials and a true chance ``p`` the count has standard deviation sqrt(n p (1 - p)); a count
further than 4 of those from n p happens about once in 16,000 honest checks, so a failure means the
odds and the engine disagree. The dice are seeded, so every run draws the same numbers.
"""
from __future__ import annotations

import math
from fractions import Fraction

SIGMAS = 4.0


def within_sampling_error(p: Fraction | float, count: int, n: int, *, sigmas: float = SIGMAS) -> bool:
    p = float(p)
    if p in (0.0, 1.0):
        return count == round(p * n)
    return abs(count - n * p) <= sigmas * math.sqrt(n * p * (1 - p))


def assert_frequency(p: Fraction | float, count: int, n: int, what: str) -> None:
    """``count`` of ``n`` trials agrees with the shown chance ``p`` (exactly, when p is 0 or 1)."""
    assert within_sampling_error(p, count, n), (
        f"{what}: shown {float(p):.4f}, happened {count}/{n} = {count / n:.4f} "
        f"(allowed +-{SIGMAS:g} sigma = {SIGMAS * math.sqrt(float(p) * (1 - float(p)) / n):.4f})")
