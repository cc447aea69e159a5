"""What a player reads in the attack panel of the real window is neither cut off nor said twice, in
every rule system, at a laptop's 1366x768 and at the docs' 1600x960: every outcome of the odds in
detail in view, column titles whole, every reason readable in its row, 6.5.1's targets table without
sideways scrolling, and one line (not six sentences again) after Resolve. Checked on the widgets'
geometry with the fonts' metrics."""
from __future__ import annotations

import os
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui_helpers import open_main_window
from gui_helpers import session_before as scripted_session_before

from appmodel.game_session import GameSession
from rules.dice import SeededDice
from rules.downrange.examples import in_depth
from rules.forceonforce.examples import patrol
from rules.generic.examples import solo
from rules.ruleset import get_ruleset

SIZES = [(1366, 768), (1600, 960)]
ALPHA, CELL_1 = 10, 30
ZBL, UTV, MORTAR_GUNNER = 40, 15, 11


def _settle(qtbot: Any) -> None:
    from PySide6.QtWidgets import QApplication

    for _ in range(5):
        QApplication.processEvents()
    qtbot.wait(1)


def _window(qtbot: Any, tmp_path: Any, session: GameSession, size: tuple[int, int]) -> Any:
    w = open_main_window(qtbot, tmp_path, session)
    w.resize(*size)
    w.docks["Attack"].raise_()
    _settle(qtbot)
    return w


def _before_autocannon() -> GameSession:
    steps = list(in_depth.STEPS)
    state = None
    for record in in_depth.play(steps[:[s.section for s in steps].index("6.5.1")]):
        state = record.state
    return GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(), dice=SeededDice(2))


def _alpha_at_cell_1(qtbot: Any, tmp_path: Any, size: tuple[int, int]) -> Any:
    session = scripted_session_before(patrol, "force-on-force", "Alpha fires")
    session.run_procedure("activation", lambda state, dice: session.ruleset.activate(state, "Alpha", dice), [])
    w = _window(qtbot, tmp_path, session, size)
    session.select_unit(ALPHA)
    w.attack.set_target(CELL_1)
    _settle(qtbot)
    return w


@pytest.mark.parametrize("size", SIZES)
def test_every_outcome_of_the_odds_in_detail_is_in_view_scrolled_to_the_bottom(qtbot, tmp_path, size) -> None:
    panel = _alpha_at_cell_1(qtbot, tmp_path, size).attack
    odds = panel.odds
    assert odds.rowCount() == 3  # the firing unit wins, the target wins, nobody wins
    bar = panel.setup_scroll.verticalScrollBar()
    bar.setValue(bar.maximum())
    _settle(qtbot)
    last = odds.rowCount() - 1
    assert odds.verticalScrollBar().maximum() == 0
    assert odds.rowViewportPosition(last) + odds.rowHeight(last) <= odds.viewport().height()


def test_the_odds_columns_are_as_wide_as_their_titles(qtbot, tmp_path) -> None:
    session = scripted_session_before(solo, "generic", "Mortar miss")
    w = _window(qtbot, tmp_path, session, (1366, 768))
    session.select_unit(solo.M1)
    w.attack.set_target(solo.T1)
    _settle(qtbot)
    table = w.attack.targets
    header = table.horizontalHeader()
    titles = {table.horizontalHeaderItem(c).text(): c for c in range(table.columnCount()) if not table.isColumnHidden(c)}
    assert "Destroyed" in titles  # the generic rules' word for a kill
    for title, col in titles.items():
        if title != "Geometry":  # the reason column stretches over the room left
            assert header.sectionSize(col) >= header.fontMetrics().horizontalAdvance(title) + 8, title


@pytest.mark.parametrize("size", SIZES)
def test_a_long_reason_wraps_in_its_row_and_is_read_whole(qtbot, tmp_path, size) -> None:
    panel = _alpha_at_cell_1(qtbot, tmp_path, size).attack
    table = panel.targets
    col = panel.why_column
    assert not table.isColumnHidden(col)
    metrics = table.fontMetrics()
    width = table.columnWidth(col) - 8
    reasons = [table.item(r, col).text() for r in range(table.rowCount())]
    assert any(r.startswith("civilians in the line of fire") for r in reasons)
    assert any(r.startswith("firing up 3.0") for r in reasons)
    assert width >= metrics.horizontalAdvance("civilians in the")  # the column keeps room to read in
    for row, text in enumerate(reasons):
        from PySide6.QtCore import QRect, Qt

        wrapped = metrics.boundingRect(QRect(0, 0, width, 10_000), int(Qt.TextFlag.TextWordWrap), text)
        assert wrapped.height() <= table.rowHeight(row), text
        # the table tall enough for its rows: none hidden under its own scroll bar
    assert table.verticalScrollBar().maximum() == 0


@pytest.mark.parametrize("size", SIZES)
def test_the_autocannon_s_targets_table_fits_without_scrolling_sideways(qtbot, tmp_path, size) -> None:
    w = _window(qtbot, tmp_path, _before_autocannon(), size)
    w.session.select_unit(ZBL, weapon="Autocannon")
    panel = w.attack
    panel.weapon.setCurrentIndex(panel.weapon.findData("Autocannon"))
    panel.set_target(UTV, shots=2)
    panel.set_target(MORTAR_GUNNER, shots=2, cover="partial")
    _settle(qtbot)
    table = panel.targets
    assert table.horizontalScrollBar().maximum() == 0
    shown = [c for c in range(table.columnCount()) if not table.isColumnHidden(c)]
    titles = [table.horizontalHeaderItem(c).text() for c in shown]
    assert "Cover" in titles and "Shots" in titles
    right = max(table.columnViewportPosition(c) + table.columnWidth(c) for c in shown)
    assert right <= table.viewport().width()
    # every row's Cover widget whole on screen
    cover = shown[titles.index("Cover")]
    for row in range(table.rowCount()):
        widget = table.cellWidget(row, cover)
        assert widget.geometry().right() <= table.viewport().width(), row


def test_after_resolve_the_message_line_is_one_line_pointing_to_the_card_and_the_log(qtbot, tmp_path) -> None:
    w = _window(qtbot, tmp_path, _before_autocannon(), (1366, 768))
    w.session.select_unit(ZBL, weapon="Autocannon")
    panel = w.attack
    panel.weapon.setCurrentIndex(panel.weapon.findData("Autocannon"))
    panel.set_target(UTV, shots=2)
    _settle(qtbot)
    before = panel.setup_scroll.viewport().height()
    panel.resolve()
    _settle(qtbot)
    assert w.result_card.showing and w.result_card.card.outcome  # the outcome is on the card
    text = panel.message.text()
    assert "<br>" not in text and "result card" in text and "Log" in text
    metrics = panel.message.fontMetrics()
    assert metrics.horizontalAdvance(text) <= panel.message.width()  # one line, no wrapping
    assert panel.message.height() < 2 * metrics.lineSpacing() + 8
    assert panel.setup_scroll.viewport().height() >= before - metrics.lineSpacing()  # the setup keeps its room


@pytest.mark.parametrize("size", SIZES)
def test_every_unit_listed_fits_with_its_geometry_wrapped_not_scrolled_sideways(qtbot, tmp_path, size) -> None:
    from PySide6.QtCore import QRect, Qt

    from gui_helpers import save_layout_shot

    session = GameSession.from_scenario_file(in_depth.SCENARIO_PATH, seed=1)
    w = _window(qtbot, tmp_path, session, size)
    session.select_unit(MORTAR_GUNNER)
    panel = w.attack
    panel.show_all.setChecked(True)  # "List every unit": friends and units out of range with their reasons
    _settle(qtbot)
    save_layout_shot(w, f"attack-every-unit-{size[0]}x{size[1]}")
    table = panel.targets
    assert table.rowCount() >= 8 and not table.isColumnHidden(panel.why_column)
    assert table.horizontalScrollBar().maximum() == 0
    shown = [c for c in range(table.columnCount()) if not table.isColumnHidden(c)]
    assert max(table.columnViewportPosition(c) + table.columnWidth(c) for c in shown) <= table.viewport().width()
    metrics = table.fontMetrics()
    col = panel.why_column
    reasons = [table.item(r, col).text() for r in range(table.rowCount())]
    longest_word = max((metrics.horizontalAdvance(word) for r in reasons for word in r.split()), default=0)
    # the Geometry column keeps room for its longest word (a 36-pixel sliver broke them), and each reason
    # wraps whole in its row
    assert any(len(r.split()) > 3 for r in reasons) and table.columnWidth(col) - 8 >= longest_word
    for row, text in enumerate(reasons):
        wrapped = metrics.boundingRect(QRect(0, 0, table.columnWidth(col) - 8, 10_000), int(Qt.TextFlag.TextWordWrap), text)
        assert wrapped.height() <= table.rowHeight(row), text
    # every name whole in the Target column, broken into lines where it is long, and its row as tall
    boxes = [table.cellWidget(r, 0) for r in range(table.rowCount())]
    assert all(b.sizeHint().width() <= table.columnWidth(0) and b.sizeHint().height() <= table.rowHeight(r)
               for r, b in enumerate(boxes))
    assert {panel.target_cells(uid)["Target"] for uid in panel._rows} >= {"Automatic rifleman", "Rifleman 3"}
