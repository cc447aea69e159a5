"""The frame path of a session: from a tracked frame's poses in the session to the paints that show
their overlays, in every view of it. What the UI thread can put off while units are carried (a panel
a player reads: the targets' distances, Move left, who touches whom) waits until the path is clear —
no view with a new overlay image still to paint, none whose worker is making one — so it never stands
between a frame's overlays and their paint, nor takes the worker's turn at the interpreter meanwhile.

It waits a bounded time (:data:`MAX_WAIT_MS`): on a machine too busy for the views to ever be idle,
the panels still follow, late, rather than never. ``settle()`` (the live loop, when the units stopped
moving) lets what waits run as soon as the path is clear, not at its next turn.
"""
from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QTimer

from appmodel.tracking.frame_gate import LIVE_FRAMES

#: Work put off for the frame path runs at the latest this long after it was due (ms).
MAX_WAIT_MS = 120
#: How often a wait checks the path again when no paint tells it (ms): a view hidden meanwhile.
RECHECK_MS = 15


class FrameView(Protocol):
    """A view on the frame path (:class:`gui.overlay_worker.ViewRenderer`)."""

    def frame_pending(self) -> bool:
        """Whether this view has overlays of a newer game version being made or waiting to be painted."""
        ...

    def preview_pending(self) -> bool:
        """Whether a tracked move waits for this view's paint of the carried units' preview."""
        ...


class FramePath:
    """The views of one session, and the work waiting for them (one object per session: :func:`frame_path`)."""

    def __init__(self) -> None:
        self._views: weakref.WeakSet[Any] = weakref.WeakSet()
        #: what waits, by key: (due at, s; the callable)
        self._waiting: dict[Any, tuple[float, Callable[[], None]]] = {}
        #: per key, what should run at once once the path is clear (settle())
        self._settle: dict[Any, Callable[[], None]] = {}
        self._timer: QTimer | None = None

    def add_view(self, view: FrameView) -> None:
        self._views.add(view)

    def clear(self) -> bool:
        """No view has a new picture on its way or waiting for its paint."""
        for view in list(self._views):
            try:
                if view.frame_pending():
                    return False
            except RuntimeError:  # its widget is gone
                self._views.discard(view)
        return True

    def when_clear(self, key: Any, what: Callable[[], None]) -> None:
        """Run ``what`` as soon as the path is clear (at once if it is), at the latest after
        :data:`MAX_WAIT_MS`; a later request under the same ``key`` replaces one still waiting."""
        if self.clear():
            self._waiting.pop(key, None)
            what()
            return
        due = self._waiting[key][0] if key in self._waiting else time.monotonic() + MAX_WAIT_MS / 1000.0
        self._waiting[key] = (due, what)
        self._arm()

    def on_settle(self, key: Any, what: Callable[[], None] | None) -> None:
        """``what`` runs (once the path is clear) when :meth:`settle` is called; None forgets it."""
        if what is None:
            self._settle.pop(key, None)
        else:
            self._settle[key] = what

    def settle(self) -> None:
        """The units stopped moving: what asked to know runs now (once the path is clear)."""
        pending, self._settle = self._settle, {}
        for key, what in pending.items():
            self.when_clear(key, what)

    def painted(self) -> None:
        """A view painted: what waits runs, if the path is clear then, once the paint is over; the
        live feed's frame is shown once no view has its preview still to paint."""
        self.frame_shown_if_painted()
        if self._waiting:
            self._arm(0)

    def frame_shown_if_painted(self) -> None:
        """Tell the live feed's gate (:mod:`appmodel.tracking.frame_gate`) the newest frame is on the
        screen, if every view has painted what it moved (or it moved nothing)."""
        for view in list(self._views):
            try:
                if view.preview_pending():
                    return
            except RuntimeError:  # its widget is gone
                self._views.discard(view)
        LIVE_FRAMES.frame_shown()

    def _arm(self, ms: int = RECHECK_MS) -> None:
        if self._timer is None:
            self._timer = QTimer()
            self._timer.setSingleShot(True)
            self._timer.timeout.connect(self._run_due)
        if not self._timer.isActive() or ms < self._timer.remainingTime():
            self._timer.start(ms)

    def _run_due(self) -> None:
        clear = self.clear()
        now = time.monotonic()
        for key, (due, what) in list(self._waiting.items()):
            if clear or now >= due:
                if self._waiting.get(key, (None, None))[1] is what:
                    del self._waiting[key]
                what()
        if self._waiting:
            self._arm()


_PATHS: weakref.WeakKeyDictionary[Any, FramePath] = weakref.WeakKeyDictionary()


def frame_path(session: Any) -> FramePath:
    """The frame path of ``session`` (made on first use, gone with the session)."""
    path = _PATHS.get(session)
    if path is None:
        path = _PATHS[session] = FramePath()
    return path


__all__ = ["FramePath", "FrameView", "MAX_WAIT_MS", "frame_path"]
