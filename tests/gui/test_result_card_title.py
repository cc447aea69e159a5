"""A result card's title reads as the sentence it is: an inch mark is a quote, not '&quot;'
(the newcomer's review, #7)."""
from __future__ import annotations

from PySide6.QtWidgets import QWidget

from appmodel.result_card import ResultCard
from gui.result_card_view import ResultCardView


def test_the_title_shows_inch_marks_and_angle_brackets_as_typed(qtbot):
    parent = QWidget()
    qtbot.addWidget(parent)
    view = ResultCardView(parent)
    card = ResultCard('Alpha fires at RPG team (36.9" centre to centre, Firepower 4) <3 shots>', (), (), ())
    view.show_card(card)
    shown = view.title.text()
    assert '36.9"' in shown and "&quot;" not in shown and "<3 shots>" in shown
    # and it is drawn as plain text, so nothing in it is read as markup
    assert view.title.textFormat().name == "PlainText"
