"""Session time: the tracker's frame time while tracking (or a replay's), else the wall clock since the start.

Log lines, recording rows and bookmarks are stamped with it, so a game played from a recorded video
keeps the video's times.

>>> c = SessionClock(lambda: 12.5)
>>> c.now_s()
12.5
>>> c.pin(3.0); c.now_s()
3.0
"""
from __future__ import annotations

import time
from collections.abc import Callable


def _since_start() -> Callable[[], float]:
    start = time.monotonic()
    return lambda: time.monotonic() - start


class SessionClock:
    """``clock()``: seconds since the game started (by default the wall clock's); :meth:`pin` overrides it."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self._clock = clock or _since_start()
        self._pinned_s: float | None = None

    def now_s(self) -> float:
        return self._pinned_s if self._pinned_s is not None else self._clock()

    def pin(self, t_s: float) -> None:
        """From now on the time is ``t_s`` (a tracked frame's, a replay's) until pinned again."""
        self._pinned_s = float(t_s)
