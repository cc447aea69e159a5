"""Ctrl+B's small dialog: an optional note and review topic for the bookmark.

The moment is the one Ctrl+B was pressed at, not when the dialog closes. Esc (or Cancel) still
bookmarks, without a note: the instructor pressed Ctrl+B because the moment mattered, and the dialog
must never cost the mark. The dialog is opened non-modally (``open``) so the game keeps running.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QWidget

NO_TOPIC = "(no topic)"


class BookmarkDialog(QDialog):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.at_s = float(session.now_s())
        self.setWindowTitle("Bookmark this moment")
        self.setMinimumWidth(440)  # a sentence of note fits without scrolling
        self.note = QLineEdit()
        self.note.setPlaceholderText("What to look at here (optional)")
        # The planned topics first; typing a new name attaches the bookmark to a topic of its own.
        self.topic = QComboBox()
        self.topic.setEditable(True)
        self.topic.addItems([NO_TOPIC, *(t.name for t in getattr(session, "review_topics", ()))])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("No note (Esc)")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Note", self.note)
        form.addRow("Topic", self.topic)
        form.addRow(buttons)
        self.finished.connect(self._bookmark)

    def _bookmark(self, result: int) -> None:
        if result == QDialog.DialogCode.Accepted:
            topic = self.topic.currentText().strip()
            self.session.bookmark(self.note.text(), "" if topic == NO_TOPIC else topic, at_s=self.at_s)
        else:
            self.session.bookmark(at_s=self.at_s)


def ask_bookmark(session: Any, parent: QWidget | None = None) -> BookmarkDialog:
    """Open the bookmark dialog for this moment (the bookmark is made when it closes, either way)."""
    dialog = BookmarkDialog(session, parent)
    dialog.open()
    return dialog
