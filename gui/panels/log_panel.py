"""The log of everything resolved, in plain words; exportable, with bookmarks for the debrief."""
from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from gui.bookmark_dialog import ask_bookmark
from gui.panels.base import SessionPanel
from appmodel.session.game_log import clock_text

KIND_COLORS = {"rules": "#f0f0f0", "tracker": "#9fc9ff", "note": "#b0b0b0", "bookmark": "#ffe14d", "warning": "#ff9f6b"}


class LogPanel(SessionPanel):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        # Two lines at least, no more demanded: a short Log dock on a 768-pixel screen shrinks the
        # list, never the buttons (with the list's own larger minimum, the dock's scroll area cut them).
        self.list.setMinimumHeight(2 * self.list.fontMetrics().height() + 8)
        self.export_button = QPushButton("Export log…")
        self.bookmark_button = QPushButton("Bookmark (Ctrl+B)")
        buttons = QHBoxLayout()
        buttons.addWidget(self.bookmark_button)
        buttons.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        self.export_button.clicked.connect(self._export)
        self.bookmark_button.clicked.connect(lambda: ask_bookmark(self.session, self))
        self._shown = 0
        self.refresh()

    def on_session_changed(self, kind: str) -> None:
        if kind == "log":
            self.refresh()

    def refresh(self) -> None:
        log = self.session.log
        if len(log) < self._shown or (self._shown and self.list.count() != self._shown):
            self.list.clear()
            self._shown = 0
        for entry in log[self._shown:]:
            when = f" {entry.when}" if entry.when else ""
            item = QListWidgetItem(f"{clock_text(entry.t_s)}{when}  {entry.text}")
            item.setForeground(QColor(KIND_COLORS.get(entry.kind, "#f0f0f0")))
            self.list.addItem(item)
        self._shown = len(log)
        self.list.scrollToBottom()

    def lines(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the log", "game-log.txt", "Text (*.txt);;JSON Lines (*.jsonl)")
        if path:
            self.session.export_log(path)
