"""The class view's address in the window: the link to open, a QR code to scan with a phone, and how
many are watching (the server itself is Qt-free: :mod:`classview.live`). When the class view takes the
instructor's bookmarks (:mod:`classview.instructor`), the instructor's own link too: copyable, its QR
code only when asked (the window may be on a screen the class sees), and a line saying what it is for
and that the students must not get it."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPixmap, QTextOption
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

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
        self.instructor: InstructorLink | None = None
        if getattr(view, "takes_bookmarks", False):
            rule = QFrame()
            rule.setFrameShape(QFrame.Shape.HLine)
            column.addWidget(rule)
            self.instructor = InstructorLink(view.instructor_url, loopback=view.server.token is None)
            column.addWidget(self.instructor)
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
        extra = self.instructor.sizeHint().height() if self.instructor is not None else 0
        return QSize(max(300, self.qr.pixmap().width() + 24), self.qr.pixmap().height() + 160 + extra)


#: What the instructor's link is for and who must not get it (shown under it).
INSTRUCTOR_NOTE = ("For you alone: bookmarks and notes from your phone, into this game's recording. "
                   "Do not give it to the students or show it on the projector: anyone with it can add bookmarks.")


class InstructorLink(QWidget):
    """The instructor's address (``url``), a Copy button and its QR code behind a button."""

    def __init__(self, url: str, *, loopback: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.url = url
        title = QLabel("<b>Instructor's link</b> — bookmarks and notes from a phone")
        title.setWordWrap(True)
        # Read-only text, not a label: it wraps anywhere in a narrow dock, and selecting and copying
        # gives the address exactly (a label wraps only where marks were put into the text).
        self.field = QPlainTextEdit(url)
        self.field.setReadOnly(True)
        self.field.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
        self.field.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.field.setFixedHeight(self.field.fontMetrics().lineSpacing() * 3 + 12)
        self.field.setToolTip("The instructor's link: select it or press Copy")
        self.copy_button = QPushButton("Copy link")
        self.copy_button.clicked.connect(self.copy)
        self.qr_button = QPushButton("Show QR code")
        self.qr_button.setCheckable(True)
        self.qr_button.setToolTip("A code for your phone's camera; hidden again when pressed again")
        self.qr_button.toggled.connect(self.show_qr)
        self.qr = QLabel()
        self.qr.setVisible(False)
        self.qr.setToolTip("Scan with your phone to open the instructor's page")
        where = (" Only this computer can open it: to use it from a phone, serve the network "
                 "(--serve 0.0.0.0:PORT)." if loopback else "")
        self.note = QLabel(INSTRUCTOR_NOTE + where)
        self.note.setWordWrap(True)
        self.copied = QLabel()
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.qr_button)
        buttons.addWidget(self.copied, 1)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(title)
        column.addWidget(self.field)
        column.addLayout(buttons)
        column.addWidget(self.qr, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.note)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.url)
        self.copied.setText("copied")

    def show_qr(self, on: bool) -> None:
        if on and self.qr.pixmap().isNull():
            self.qr.setPixmap(QPixmap.fromImage(qr_image(self.url)))
        self.qr.setVisible(on)
        self.qr_button.setText("Hide QR code" if on else "Show QR code")
