"""The read-only tables of the panels (targets, odds, initiative rolls, automation decisions, roster):
the program fills them, the players read them and at most pick a row."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

#: A header title's room besides its text: the style's margins either side and the section's divider.
TITLE_PADDING_PX = 14
#: What a click selects: nothing, cells (Qt's default), or one whole row.
SELECT_MODES = ("none", "cells", "row")


def read_only_table(columns: Sequence[str], *, cls: type[QTableWidget] = QTableWidget, row_px: int | None = None,
                    select: str = "none", stretch: Sequence[int] = (), stretch_last: bool = False,
                    min_px: int | None = None) -> QTableWidget:
    """A table with titled columns sized to their contents (those in ``stretch``, or the last, take the
    room left), no row numbers, no editing, rows ``row_px`` tall, at least ``min_px`` high."""
    if select not in SELECT_MODES:
        raise ValueError(f"select {select!r}: one of {', '.join(SELECT_MODES)}")
    table = cls(0, len(columns))
    table.setHorizontalHeaderLabels(list(columns))
    table.verticalHeader().setVisible(False)
    if row_px is not None:
        table.verticalHeader().setDefaultSectionSize(row_px)
    if select == "none":
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    elif select == "row":
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    for col in stretch:
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
    header.setStretchLastSection(stretch_last)
    if min_px is not None:
        table.setMinimumHeight(min_px)
    return table


def title_px(table: QTableWidget, col: int) -> int:
    """The width column ``col``'s title needs in ``table``'s header font, with the header's padding."""
    item = table.horizontalHeaderItem(col)
    text = item.text() if item is not None else ""
    return table.horizontalHeader().fontMetrics().horizontalAdvance(text) + TITLE_PADDING_PX


def fit_to_title(table: QTableWidget, col: int, min_px: int) -> None:
    """A fixed-width column at least as wide as its title (and ``min_px``)."""
    want = max(min_px, title_px(table, col))
    header = table.horizontalHeader()
    if header.sectionSize(col) != want and not table.isColumnHidden(col):
        header.resizeSection(col, want)


def fit_to_rows(table: QTableWidget, rows: int, *, at_most: int = 8) -> None:
    """A table tall enough for its ``rows`` (up to ``at_most``; one at least) without scrolling."""
    header = table.horizontalHeader().sizeHint().height()
    row_px = table.verticalHeader().defaultSectionSize()
    frame = 2 * table.frameWidth()
    scrollbar = table.horizontalScrollBar().sizeHint().height() if table.horizontalScrollBar().isVisible() else 0
    table.setMinimumHeight(header + max(1, min(rows, at_most)) * row_px + frame + scrollbar + 2)


def wrapped_lines(metrics: QFontMetrics, text: str, width_px: int) -> int:
    """How many lines ``text`` takes wrapped at word boundaries in ``width_px`` (as a table cell wraps it)."""
    if not text:
        return 1
    rect = metrics.boundingRect(QRect(0, 0, max(1, width_px), 100_000), int(Qt.TextFlag.TextWordWrap), text)
    return max(1, round(rect.height() / metrics.lineSpacing()))
