"""A clock a test moves by hand: given to a game session (and a replay) as its ``clock``, so recorded
times are the test's, not the machine's (nothing waits on the wall clock)."""
from __future__ import annotations


class HandClock:
    """``clock()`` reads ``t_s``; the test sets ``clock.t_s`` to move time on."""

    def __init__(self, t_s: float = 0.0) -> None:
        self.t_s = t_s

    def __call__(self) -> float:
        return self.t_s
