"""What every panel shares: a session subscription that ends when the panel is closed or destroyed."""
from __future__ import annotations

import time
from typing import Any

from PySide6.QtWidgets import QWidget

#: A panel refresh after tracked moves waits at least this long after the last one...
LATER_MS = 150
#: ...and at least this many times what the last one took: on a loaded machine the panels take at
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

    def later(self, what: Any, *, ms: int = LATER_MS) -> None:
        """Run ``what`` once, ``ms`` from the first request (or three times its last cost, if longer):
        tracked moves arrive every frame, and a table refreshed a few times a second reads the same
        while the view stays smooth. A panel behind another tab of a shown window is refreshed when it
        is shown instead."""
        from PySide6.QtCore import QTimer

        name = what.__name__
        timer = self._later_timers.get(name)
        if timer is not None and timer.isActive():
            return
        if timer is None:
            timer = QTimer(self)
            timer.setSingleShot(True)
            timer.timeout.connect(lambda: self._run_later(name))
            self._later_timers[name] = timer
        self._later_hidden[name] = what
        cost_ms = self._later_cost_ms.get(name, 0.0)
        timer.start(int(max(ms, LATER_COST_FACTOR * cost_ms)))

    def _run_later(self, name: str) -> None:
        what = self._later_hidden.get(name)
        if what is None:
            return
        try:
            window = self.window()
            if window is not self and window.isVisible() and not self.isVisible():
                return  # a hidden tab: kept in _later_hidden, run by showEvent
            del self._later_hidden[name]
            t0 = time.perf_counter()
            what()
            self._later_cost_ms[name] = (time.perf_counter() - t0) * 1000.0
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
