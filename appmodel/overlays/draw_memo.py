"""Values computed from frozen inputs, remembered while they are still drawn (Qt-free).

The overlay builders turn a snapshot into draw items every time the game changes; while one unit
moves, almost everything they compute is the same as one frame before: the other 39 units' bases,
the fan's outline, which units stand in it, the comms groups' hulls. A :class:`Memo` keeps each such
value under a key made of the frozen inputs it was computed from (``UnitView``, ``Cone``, ``Reach``
and footprints are frozen dataclasses), so a builder pays only for what changed. Calling a pure
rules function through the memo is caching by inputs, not a second copy of the rule.

Entries live for one build pass after their last use: :meth:`Memo.sweep` at the end of a pass drops
whatever the pass did not ask for (a unit that moved leaves its old entries behind), so the memo
holds about one frame's worth of values.

>>> memo = Memo(); calls = []
>>> square = lambda x: memo.get(("square", x), lambda: calls.append(x) or x * x)
>>> square(3), square(3), calls
(9, 9, [3])
>>> memo.sweep(); _ = square(3); memo.sweep(); memo.sweep(); _ = square(3); calls
[3, 3]
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
_MISSING = object()


class Memo:
    """Remembers ``compute()`` results by key for as long as they are used (mutable; one per view)."""

    def __init__(self) -> None:
        self._previous: dict[Hashable, Any] = {}
        self._current: dict[Hashable, Any] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value remembered under ``key``, else ``compute()`` (remembered from now on)."""
        value = self._current.get(key, _MISSING)
        if value is _MISSING:
            value = self._previous.pop(key, _MISSING)
            if value is _MISSING:
                value = compute()
                self.misses += 1
            else:
                self.hits += 1
            self._current[key] = value
        else:
            self.hits += 1
        return value

    def sweep(self) -> None:
        """End of a build pass: forget what this pass did not use."""
        self._previous, self._current = self._current, {}

    def clear(self) -> None:
        self._previous.clear()
        self._current.clear()

    def __len__(self) -> int:
        return len(self._previous) + len(self._current)


class NoMemo:
    """Computes every time (a one-off build, and the bench's naive case)."""

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        return compute()

    def sweep(self) -> None:
        pass


__all__ = ["DrawMemo", "Memo", "NoMemo"]


#: What a builder takes as its memo: a view's own :class:`Memo`, or :data:`~appmodel.overlays.draw_item.NO_MEMO`.
DrawMemo = Memo | NoMemo
