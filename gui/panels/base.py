"""What every panel shares: a session subscription that ends when the panel is closed or destroyed."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget


class SessionPanel(QWidget):
    """A widget that follows a session; subclasses implement ``on_session_changed(kind)``."""

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
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

    def later(self, what: Any, *, ms: int = 150) -> None:
        """Run ``what`` once, ``ms`` from the first request: tracked moves arrive every frame, and a
        table refreshed a few times a second reads the same while the view stays smooth."""
        from PySide6.QtCore import QTimer

        pending = getattr(self, "_pending_later", None)
        if pending is None:
            pending = self._pending_later = {}
        if what.__name__ in pending:
            return
        timer = QTimer(self)
        timer.setSingleShot(True)

        def fire() -> None:
            pending.pop(what.__name__, None)
            try:
                what()
            except RuntimeError:
                pass
        timer.timeout.connect(fire)
        pending[what.__name__] = timer
        timer.start(ms)

    def closeEvent(self, event: Any) -> None:
        self._disconnect()
        super().closeEvent(event)
