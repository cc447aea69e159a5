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

    def closeEvent(self, event: Any) -> None:  # noqa: N802
        self._disconnect()
        super().closeEvent(event)
