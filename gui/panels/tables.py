"""The read-only tables of the panels (targets, odds, initiative rolls, automation decisions, roster):
the program fills them, the players read them and at most pick a row."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

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
