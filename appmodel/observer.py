"""A tiny observer for the Qt-free models: the session emits, widgets subscribe and disconnect on close.

Models must not own a ``QObject`` (they run headless in the demo and the tests), so they announce
changes through a :class:`Signal`; ``connect`` returns the function that disconnects again.

>>> changed = Signal(); seen = []
>>> disconnect = changed.connect(seen.append)
>>> changed.emit("state"); disconnect(); changed.emit("log")
>>> seen
['state']
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Signal:
    """Call every connected function, in connection order, with the emitted arguments."""

    def __init__(self) -> None:
        self._slots: list[Callable[..., Any]] = []

    def connect(self, slot: Callable[..., Any]) -> Callable[[], None]:
        """Add ``slot``; returns the function that removes it again (call it when a view closes)."""
        self._slots.append(slot)

        def disconnect() -> None:
            if slot in self._slots:
                self._slots.remove(slot)

        return disconnect

    def emit(self, *args: Any) -> None:
        for slot in list(self._slots):
            slot(*args)

    @property
    def connections(self) -> int:
        return len(self._slots)
