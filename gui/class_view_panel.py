"""The class view's address in the window: the link to open, a QR code to scan with a phone, and how
many are watching (the server itself is Qt-free: :mod:`classview.live`)."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

#: Pixels per QR module (a 33-module code with its quiet zone is about 160 px: easy to scan from a seat).
QR_MODULE_PX = 4


def qr_image(text: str, *, module_px: int = QR_MODULE_PX) -> QImage:
    """``text`` as a QR code (black on white, with the standard four-module quiet zone)."""
    import segno

    rows = list(segno.make(text, error="m").matrix_iter(scale=1, border=4))
    n = len(rows)
    image = QImage(n * module_px, n * module_px, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    try:
        for y, row in enumerate(rows):
            for x, dark in enumerate(row):
                if dark:
                    p.fillRect(x * module_px, y * module_px, module_px, module_px, QColor("black"))
    finally:
        p.end()
    return image


class ClassViewPanel(QWidget):
    """Shows where the class view is served; ``view`` is a :class:`classview.live.LiveClassView`."""

    def __init__(self, view: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.setObjectName("classViewPanel")
        self.link = QLabel()
        self.link.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.link.setWordWrap(True)
        self.watching = QLabel()
        self.qr = QLabel()
        self.qr.setPixmap(QPixmap.fromImage(qr_image(view.url)))
        self.qr.setToolTip("Scan with a phone to open the class view")
        title = QLabel("<b>Class view</b> — the table, the last roll and the log in a browser (read-only)")
        title.setWordWrap(True)
        who = ("only this computer can open it" if view.server.token is None
               else "anyone on the network with this address can watch; the key in it keeps others out")
        note = QLabel(who)
        note.setWordWrap(True)
        # One column: the dock is narrow beside the table; the code goes right under the title.
        column = QVBoxLayout(self)
        column.addWidget(title)
        column.addWidget(self.qr, 0, Qt.AlignmentFlag.AlignLeft)
        for w in (self.link, note, self.watching):
            column.addWidget(w)
        column.addStretch(1)
        self.refresh()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(1000)

    def refresh(self) -> None:
        # A zero-width space after each slash lets the long address wrap in a narrow dock.
        shown = self.view.url.replace("/", "/\u200b")
        self.link.setText(f'<a href="{self.view.url}">{shown}</a>')
        self.link.setOpenExternalLinks(True)
        n = self.view.viewers
        self.watching.setText("nobody is watching yet" if n == 0 else f"{n} watching")

    def sizeHint(self) -> QSize:
        return QSize(max(300, self.qr.pixmap().width() + 24), self.qr.pixmap().height() + 160)
