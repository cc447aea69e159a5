"""The panels' wrapping tables show their text whole at a laptop's 1366x768 and at 1920x1080: the
generic rules' automation tables (a long Route, a long Fires?, beside a Suggested move that wants its
one line) and Force on Force's fireteams in the roster (Cohesion and Ratings side by side in half the
strip). A column is never narrower than its longest word (narrower, the word breaks and is cut), a
header's title fits its section, and each row is as tall as its wrapped text. Checked on the real
window's widgets; ``SANDTABLE_LAYOUT_SHOTS=folder`` also saves what each test looked at."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QTableWidget

from gui_helpers import open_main_window, save_layout_shot as _shot, session_before, settle as _settle

from gui.panels.tables import column_widths

SIZES = [(1366, 768), (1920, 1080)]
#: Qt's cell padding is a few pixels a side; a word needs at least its own width inside it.
CELL_PAD_PX = 6


def _cut_text(table: QTableWidget) -> list[str]:
    """What of ``table`` a player could not read whole: headers wider than their column, words wider
    than their column, cells whose wrapped text is taller than their row."""
    cells, heads = QFontMetrics(table.font()), QFontMetrics(table.horizontalHeader().font())
    cut = []
    for col in range(table.columnCount()):
        width = table.columnWidth(col)
        title = table.horizontalHeaderItem(col).text()
        if heads.horizontalAdvance(title) > width - CELL_PAD_PX:
            cut.append(f"header {title!r} ({heads.horizontalAdvance(title)} px) in {width} px")
        for row in range(table.rowCount()):
            text = table.item(row, col).text()
            long = [w for w in text.split() if cells.horizontalAdvance(w) > width - CELL_PAD_PX]
            if long:
                cut.append(f"{title!r} row {row}: {long} wider than the column's {width} px")
            tall = cells.boundingRect(QRect(0, 0, width - CELL_PAD_PX, 10_000), int(Qt.TextFlag.TextWordWrap), text).height()
            if tall > table.rowHeight(row):
                cut.append(f"{title!r} row {row}: {text!r} needs {tall} px of its row's {table.rowHeight(row)}")
    return cut


def test_columns_share_the_room_no_narrower_than_a_word_no_wider_than_a_line():
    assert column_widths([40, 80, 60], [40, 300, 200], 400, stretch=(1,)) == [40, 215, 145]
    assert column_widths([40, 80], [40, 100], 300, stretch=(1,)) == [40, 260]  # the room left to the stretched
    assert column_widths([40, 80], [40, 100], 100, stretch=(1,)) == [40, 80]  # too little room: words whole, it scrolls


@pytest.mark.parametrize("size", SIZES)
def test_the_automation_tables_decisions_are_read_whole(qtbot, tmp_path, size):
    from rules.generic.examples import solo

    w = open_main_window(qtbot, tmp_path, session_before(solo, "generic", "The tables play Red"))
    w.resize(*size)
    w.docks["Turn"].raise_()
    w.turn.initiative_dice.setText("3 [2 6] 2 [4 1] 1 6 1 [6 3] [3 3] [1 2] 6 5")
    w.turn.start_turn()
    _settle()
    _shot(w, f"generic-turn-{size[0]}x{size[1]}")
    table = w.turn.extra.tables["automation"]
    assert table.rowCount() >= 3 and any("outflank" in table.item(r, 2).text() for r in range(table.rowCount()))
    assert not _cut_text(table)
    assert sum(table.columnWidth(c) for c in range(table.columnCount())) <= table.viewport().width()


@pytest.mark.parametrize("size", SIZES)
def test_the_fireteams_ratings_are_read_whole_in_the_roster(qtbot, tmp_path, size):
    from rules.forceonforce.examples import patrol

    w = open_main_window(qtbot, tmp_path, session_before(patrol, "force-on-force", "Alpha fires"))
    w.resize(*size)
    _settle()
    _shot(w, f"fof-roster-{size[0]}x{size[1]}")
    table = w.roster.groups_table
    assert table is not None and table.rowCount() >= 2
    ratings = [table.item(r, table.columnCount() - 1).text() for r in range(table.rowCount())]
    assert any("Morale" in text for text in ratings)
    assert not _cut_text(table)
    assert sum(table.columnWidth(c) for c in range(table.columnCount())) <= table.viewport().width()
