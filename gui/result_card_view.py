"""The large result card over the table view: a resolved roll stays in view, readable from across the
table, until a player closes it (its button or Esc), instead of only scrolling by as a log line."""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from appmodel.result_card import ResultCard


def card_body_html(card: ResultCard) -> str:
    """The card's dice, result and odds before the roll as the label's rich text (the replay's event
    list shows a recorded card the same way)."""
    parts = []
    if card.dice:
        parts.append("<b>Dice</b><br>" + "<br>".join(html.escape(d) for d in card.dice))
    if card.outcome:
        parts.append("<b>Result</b><br>" + "<br>".join(f"<span style='color:#ffe14d'>{html.escape(s)}</span>"
                                                     for s in card.outcome))
    if card.odds_before:
        parts.append("<b>Odds before the roll</b><br>" + "<br>".join(html.escape(o) for o in card.odds_before))
    return "<br><br>".join(parts)


class ResultCardView(QFrame):
    """Shown by :meth:`show_card`; hidden by its close button or :meth:`dismiss`."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("result-card")
        self.setStyleSheet("#result-card { background: rgba(14, 16, 20, 240); border: 2px solid #ffe14d; "
                           "border-radius: 10px; } QLabel { color: #f2f2f2; background: transparent; }")
        self.title = QLabel()
        self.title.setWordWrap(True)
        # The title is a sentence, not markup: shown as plain text (escaped, a title with no tag in it
        # was shown as plain text by Qt's guess, entities and all: '36.9&quot; centre to centre').
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setStyleSheet("font-size: 20px; font-weight: bold; color: #ffffff;")
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setStyleSheet("font-size: 15px;")
        self.close_button = QPushButton("Close (Esc)")
        self.close_button.clicked.connect(self.dismiss)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 14)
        layout.addLayout(head)
        # A blast's card (a die and a result per unit caught) can be taller than a laptop's view: its
        # body scrolls inside the card rather than running off its bottom edge.
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setStyleSheet("QScrollArea { background: transparent; }")
        self.scroll.viewport().setAutoFillBackground(False)
        self.scroll.setWidget(self.body)
        layout.addWidget(self.scroll, 1)
        self.card: ResultCard | None = None
        self.hide()

    def show_card(self, card: ResultCard) -> None:
        self.card = card
        self.title.setText(card.title)
        self.body.setText(card_body_html(card))
        self.place()
        self.show()
        self.raise_()

    def place(self) -> None:
        """Top right of the view, as wide as reads well from the table (at most half the view)."""
        parent = self.parentWidget()
        width = max(320, min(560, parent.width() // 2))
        self.setFixedWidth(width)
        layout = self.layout()
        layout.activate()
        margins = layout.contentsMargins()
        inner = width - margins.left() - margins.right()
        head = max(self.title.heightForWidth(inner - self.close_button.sizeHint().width() - layout.spacing()),
                   self.close_button.sizeHint().height())
        body = self.body.heightForWidth(inner - self.scroll.verticalScrollBar().sizeHint().width())
        wrapped = margins.top() + head + layout.spacing() + body + margins.bottom() + 4
        height = min(wrapped, parent.height() - 24)
        self.setGeometry(parent.width() - width - 12, 12, width, height)

    def dismiss(self) -> None:
        self.hide()
        self.card = None

    @property
    def showing(self) -> bool:
        return self.isVisible() and self.card is not None


__all__ = ["ResultCardView", "card_body_html"]
