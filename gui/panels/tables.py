"""The read-only tables of the panels (targets, odds, initiative rolls, automation decisions, roster):
the program fills them, the players read them and at most pick a row."""
from __future__ import annotations

from collections.abc import Sequence

from typing import Any

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QTableWidget, QTableWidgetItem

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


#: A number's place in its cell.
RIGHT_ALIGNED = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def set_cell(table: Any, row: int, col: int, text: str, tip: str | None = None, *, color: str | None = None,
             align: Any = None) -> QTableWidgetItem:
    """Show ``text`` (and ``tip``, in ``color``, aligned ``align``) in a table's cell, in the item
    already there if any, setting only what differs: each change of an item makes the table lay out
    its columns again (sized to their contents), a quarter of a millisecond each in a 40-row roster,
    while the panels follow a carried unit."""
    item = table.item(row, col)
    if item is None:
        item = QTableWidgetItem(text)
        table.setItem(row, col, item)
    elif item.text() != text:
        item.setText(text)
    if tip is not None and item.toolTip() != tip:
        item.setToolTip(tip)
    if color is not None:
        brush, want = item.foreground(), QColor(color)
        if brush.style() == Qt.BrushStyle.NoBrush or brush.color() != want:
            item.setForeground(want)
    if align is not None and item.textAlignment() != int(align):
        item.setTextAlignment(align)
    return item


def title_px(table: QTableWidget, col: int) -> int:
    """The width column ``col``'s title needs: the header's own measure of its section (the title in
    the header's font with the style's margins), whether the column is shown or hidden."""
    header = table.horizontalHeader()
    hint = header.sectionSizeHint(col)
    if hint >= 0:
        return hint
    item = table.horizontalHeaderItem(col)  # a hidden section has no hint: its text and the style's margins
    text = item.text() if item is not None else ""
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    return header.fontMetrics().horizontalAdvance(text) + 2 * margin + 2


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


def words_and_line_px(metrics: QFontMetrics, texts: Sequence[str]) -> tuple[int, int]:
    """How wide the longest word and the longest line of ``texts`` are (a wrapping column's narrowest
    and widest useful widths, before its cell's margins)."""
    word = max((metrics.horizontalAdvance(w) for t in texts for w in t.split()), default=0)
    line = max((metrics.horizontalAdvance(t) for t in texts), default=0)
    return word, max(word, line)


def wrap_words(metrics: QFontMetrics, text: str, width_px: int) -> str:
    """``text`` broken into lines at word boundaries so each fits ``width_px`` (a word wider stays whole
    on its own line): for a widget that does not wrap by itself, a tick box's name.

    >>> from gui.compositor import ensure_qt_app
    >>> from PySide6.QtGui import QFont
    >>> _ = ensure_qt_app()
    >>> m = QFontMetrics(QFont())
    >>> wrap_words(m, "Automatic rifleman", m.horizontalAdvance("Automatic")), wrap_words(m, "Rifleman 3", 500)
    ('Automatic\\nrifleman', 'Rifleman 3')
    """
    lines: list[str] = []
    for word in text.split():
        if lines and metrics.horizontalAdvance(f"{lines[-1]} {word}") <= width_px:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


def wrapped_lines(metrics: QFontMetrics, text: str, width_px: int) -> int:
    """How many lines ``text`` takes wrapped at word boundaries in ``width_px`` (as a table cell wraps it)."""
    if not text:
        return 1
    rect = metrics.boundingRect(QRect(0, 0, max(1, width_px), 100_000), int(Qt.TextFlag.TextWordWrap), text)
    return max(1, round(rect.height() / metrics.lineSpacing()))


def column_widths(words_px: Sequence[int], lines_px: Sequence[int], room_px: int, stretch: Sequence[int]) -> list[int]:
    """How wide each column of a wrapping table is: never narrower than its longest word
    (``words_px``: a narrower one breaks a word and cuts it), no wider than its longest line
    (``lines_px``) until every column has its line; the room between the two is shared in proportion
    to what each still needs, and any room left goes to the ``stretch`` columns (else the last).

    >>> column_widths([40, 80, 60], [40, 300, 200], 400, stretch=(1,))
    [40, 215, 145]
    >>> column_widths([40, 80], [40, 100], 300, stretch=(1,))
    [40, 260]
    >>> column_widths([40, 80], [40, 100], 100, stretch=(1,))
    [40, 80]
    """
    widths = [max(w, 1) for w in words_px]
    lines = [max(line, w) for line, w in zip(lines_px, widths)]
    extra = room_px - sum(widths)
    need = [line - w for line, w in zip(lines, widths)]
    if extra > 0 and sum(need):
        share = min(1.0, extra / sum(need))
        grown = [int(n * share) for n in need]
        widths = [w + g for w, g in zip(widths, grown)]
        extra -= sum(grown)
    if extra > 0 and widths:
        takers = [c for c in stretch if 0 <= c < len(widths)] or [len(widths) - 1]
        for n, col in enumerate(takers):
            widths[col] += extra // len(takers) + (1 if n < extra % len(takers) else 0)
    return widths


class _WrapColumns(QObject):
    """Keeps a wrapping table's columns fitted (:func:`column_widths`) as its viewport resizes."""

    def __init__(self, table: QTableWidget, stretch: Sequence[int]) -> None:
        super().__init__(table)
        self.table, self.stretch = table, tuple(stretch)
        table.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt's name
        if event.type() == QEvent.Type.Resize:
            fit_wrapping_columns(self.table)
        return False


def wrapping_columns(table: QTableWidget, stretch: Sequence[int]) -> None:
    """``table``'s long cells wrap at word boundaries and its columns are fitted to their words and
    lines (:func:`column_widths`) whenever it is filled (:func:`fit_wrapping_columns`) or resized."""
    table.setWordWrap(True)
    table.setTextElideMode(Qt.TextElideMode.ElideNone)
    header = table.horizontalHeader()
    header.setStretchLastSection(False)
    for col in range(table.columnCount()):
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
    _WrapColumns(table, stretch)


def fit_wrapping_columns(table: QTableWidget) -> None:
    """Fit the columns of a table made by :func:`wrapping_columns` to what it holds now."""
    fitter = table.findChild(_WrapColumns)
    if fitter is None:
        return
    header = table.horizontalHeader()
    cell_fm = QFontMetrics(table.font())
    # Qt's cell text margin (the focus frame's and a pixel, each side), and two pixels of slack
    pad = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1) + 2
    words, lines = [], []
    for col in range(table.columnCount()):
        cells = [cell.text() if (cell := table.item(row, col)) is not None else "" for row in range(table.rowCount())]
        word, line = words_and_line_px(cell_fm, cells)
        title = title_px(table, col)  # the title whole
        words.append(max(word + pad, title))
        lines.append(max(line + pad, title))
    widths = column_widths(words, lines, table.viewport().width(), fitter.stretch)
    for col, width in enumerate(widths):
        if header.sectionSize(col) != width:
            header.resizeSection(col, width)
    table.resizeRowsToContents()
