"""What every panel shares: a session subscription that ends when the panel is closed or destroyed,
and refreshes put off while units are carried (:meth:`SessionPanel.later`)."""
from __future__ import annotations

import time
import weakref
from typing import Any

from PySide6.QtWidgets import QWidget

from gui.frame_path import frame_path

#: While tracked moves flow, a panel's refresh runs at most once in this long (ms): four times a
#: second, as fast as a player reads a distance or Move left, and each frame's overlays keep the UI
#: thread to themselves between...
LATER_MS = 250
#: ...or at least this many times what the last one took: on a loaded machine the panels take at
#: most about a quarter of the UI thread, and the overlay's paints are never queued behind them.
LATER_COST_FACTOR = 3.0


class SessionPanel(QWidget):
    """A widget that follows a session; subclasses implement ``on_session_changed(kind)``."""

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        #: per refresh (by name): its single-shot timer, made once
        self._later_timers: dict[str, Any] = {}
        #: refreshes asked for while the panel was a hidden tab of a shown window: run when it is shown
        self._later_hidden: dict[str, Any] = {}
        #: per refresh (by name): what its last run took, ms (the next waits at least three times that)
        self._later_cost_ms: dict[str, float] = {}
        #: per refresh (by name): when it last ran (time.monotonic(), s)
        self._later_ran_at: dict[str, float] = {}
        self._disconnect = session.changed.connect(self._changed)
        self.destroyed.connect(lambda *_: self._disconnect())

    def _changed(self, kind: str) -> None:
        try:
            self.on_session_changed(kind)
        except RuntimeError:  # the C++ widget is gone (closing): stop listening
            self._disconnect()

    def on_session_changed(self, kind: str) -> None:
        pass

    def stop_following(self) -> None:
        """Stop following the session: a panel kept but never shown (a replay's live attack panel,
        which rebuilt its target rows at every tick of playback) costs nothing more."""
        self._disconnect()

    def later(self, what: Any, *, ms: int | None = None) -> None:
        """Run ``what`` soon, once for any number of requests: at once if it has not run for ``ms``
        (or three times its last cost, if longer), else when that much has passed since it last ran —
        and then only once the frame path is clear (:mod:`gui.frame_path`: every view has painted the
        newest overlays), or when the units stop moving. Tracked moves arrive every frame; a table
        refreshed four times a second reads the same while the view stays smooth, and the last
        request is always followed by a refresh. A panel behind another tab of a shown window is
        refreshed when it is shown instead. ``ms``: :data:`LATER_MS` unless given."""
        from PySide6.QtCore import QTimer

        name = what.__name__
        self._later_hidden[name] = what
        path = frame_path(self.session)
        me, key = weakref.ref(self), (id(self), name)
        path.on_settle(key, lambda: _run_later_of(me, name))
        timer = self._later_timers.get(name)
        if timer is not None and timer.isActive():
            return
        if timer is None:
            timer = QTimer(self)
            timer.setSingleShot(True)
            timer.timeout.connect(lambda: path.when_clear(key, lambda: _run_later_of(me, name)))
            self._later_timers[name] = timer
        every_ms = max(LATER_MS if ms is None else ms, LATER_COST_FACTOR * self._later_cost_ms.get(name, 0.0))
        ran_at = self._later_ran_at.get(name)
        wait_ms = 0.0 if ran_at is None else every_ms - (time.monotonic() - ran_at) * 1000.0
        timer.start(int(max(0.0, wait_ms)))

    def _run_later(self, name: str) -> None:
        what = self._later_hidden.get(name)
        if what is None:
            return
        try:
            window = self.window()
            if window is not self and window.isVisible() and not self.isVisible():
                return  # a hidden tab: kept in _later_hidden, run by showEvent
            del self._later_hidden[name]
            frame_path(self.session).on_settle((id(self), name), None)
            t0 = time.monotonic()
            self._later_ran_at[name] = t0
            what()
            self._later_cost_ms[name] = (time.monotonic() - t0) * 1000.0
        except RuntimeError:
            pass

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        for name in list(self._later_hidden):
            timer = self._later_timers.get(name)
            if timer is not None and not timer.isActive():
                timer.start(0)  # the refreshes skipped while hidden, once, after the show

    def closeEvent(self, event: Any) -> None:
        self._disconnect()
        super().closeEvent(event)


def _run_later_of(panel: Any, name: str) -> None:
    """``panel()._run_later(name)`` if the panel (a weak reference) is still there."""
    found = panel()
    if found is not None:
        found._run_later(name)
