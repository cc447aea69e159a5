"""The rule system's own part of the turn panel, drawn from the box it describes
(:class:`rules.ruleset.TurnBox`): for each section a group box with its text, a table, the text after
it, rows of fields and buttons, and a note (the odds of what is set up). A button runs what the rule
system says (:meth:`rules.ruleset.Ruleset.turn_command`) through the turn panel, with its dice.

The widgets are built once from the first box; every refresh (the game changed, a field changed) asks
the rule system again with the fields as the players set them, and updates texts, tables and choices
in place -- what a player chose stays chosen while it is still offered."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QGridLayout, QGroupBox, QLabel, QLineEdit,
                               QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from gui.panels.fields import field_widget, update_choices, widget_value
from gui.panels.tables import fit_wrapping_columns, read_only_table, wrapping_columns
from gui.flow_layout import FlowLayout
from rules.ruleset import EditField, TurnBox, TurnButton, TurnSection, TurnTable


class TurnBoxView(QWidget):
    """``texts``, ``tables``, ``afters`` and ``notes`` by section key; ``widgets`` and ``buttons`` by
    field and button key. ``press(key)`` is what a button does: ``on_button(key, values)`` (the turn
    panel's), then the fields the button clears are emptied if it went through."""

    def __init__(self, session: Any, on_button: Callable[[str, dict[str, Any]], bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.ruleset = session.ruleset
        self.on_button = on_button
        self.texts: dict[str, QLabel] = {}
        self.tables: dict[str, QTableWidget] = {}
        self.afters: dict[str, QLabel] = {}
        self.notes: dict[str, QLabel] = {}
        self.widgets: dict[str, QWidget] = {}
        self.buttons: dict[str, QPushButton] = {}
        self._fields: dict[str, EditField] = {}
        self._clears: dict[str, tuple[str, ...]] = {}
        self._refreshing = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        box: TurnBox = self.ruleset.turn_box(session.state, {})
        for section in box.sections:
            layout.addWidget(self._section(section))
        self.refresh(box)

    # -- building -------------------------------------------------------------------------------
    def _section(self, section: TurnSection) -> QGroupBox:
        group = QGroupBox(section.title)
        rows = QVBoxLayout(group)
        text = self.texts[section.key] = _label()
        rows.addWidget(text)
        if section.table is not None:
            if section.caption:
                rows.addWidget(QLabel(section.caption))
            self.tables[section.key] = table = read_only_table(section.table.columns, stretch=section.table.stretch,
                                                                min_px=160 if section.table.height == "room" else None)
            if section.table.wrap:  # columns fitted to their words and lines, not to one-line text
                wrapping_columns(table, section.table.stretch)
            rows.addWidget(table)
        after = self.afters[section.key] = _label()
        rows.addWidget(after)
        if section.rows:
            grid = QGridLayout()
            for r, items in enumerate(section.rows):
                self._row(grid, r, items)
            grid.setColumnStretch(1, 1)
            rows.addLayout(grid)
        note = self.notes[section.key] = _label()
        rows.addWidget(note)
        return group

    def _row(self, grid: QGridLayout, r: int, items: tuple[EditField | TurnButton, ...]) -> None:
        """One row: its first field's label in the first column (so the rows' fields line up), the rest
        after it; a text field, or else the row's first field, takes the room left."""
        rest = list(items)
        line = FlowLayout()  # wraps in a narrow dock instead of pushing its last items out of view
        first = rest[0]
        if isinstance(first, EditField) and first.label:
            grid.addWidget(QLabel(first.label), r, 0)
            grid.addLayout(line, r, 1)
        else:
            grid.addLayout(line, r, 0, 1, 2)
        typed = any(isinstance(i, EditField) and i.kind == "text" and not i.choices for i in items)
        for n, item in enumerate(rest):
            if isinstance(item, TurnButton):
                button = self.buttons[item.key] = QPushButton(item.label)
                button.setToolTip(item.help)
                button.clicked.connect(lambda _=False, key=item.key: self.press(key))
                self._clears[item.key] = item.clears
                line.add_widget(button, 1 if all(isinstance(i, TurnButton) for i in items) else 0)
                continue
            if item.label and n > 0:
                line.add_widget(QLabel(item.label))
            widget = self.widgets[item.key] = field_widget(item)
            self._fields[item.key] = item
            self._watch(widget)
            wide = isinstance(widget, QLineEdit) if typed else n == 0
            line.add_widget(widget, 1 if wide else 0)

    def _watch(self, widget: QWidget) -> None:
        """A change of a drop-down or a number refreshes what depends on it (the odds of a test)."""
        if isinstance(widget, QComboBox):
            widget.currentIndexChanged.connect(lambda _: self.refresh())
        elif isinstance(widget, (QSpinBox, QDoubleSpinBox)):
            widget.valueChanged.connect(lambda _: self.refresh())

    # -- what it shows --------------------------------------------------------------------------
    def values(self) -> dict[str, Any]:
        return {key: widget_value(self._fields[key], w) for key, w in self.widgets.items()}

    def refresh(self, box: TurnBox | None = None) -> None:
        if self._refreshing:
            return
        self._refreshing = True
        try:
            box = box if box is not None else self.ruleset.turn_box(self.session.state, self.values())
            if self.parentWidget() is not None:  # (shown without a parent, it would open as a window of its own)
                self.setVisible(box.visible)
            for section in box.sections:
                _set_text(self.texts.get(section.key), section.text)
                _set_text(self.afters.get(section.key), section.after)
                _set_text(self.notes.get(section.key), section.note)
                if section.table is not None and section.key in self.tables:
                    _fill(self.tables[section.key], section.table)
                for items in section.rows:
                    for item in items:
                        if isinstance(item, EditField) and item.key in self.widgets:
                            self._fields[item.key] = item
                            update_choices(self.widgets[item.key], item)
        finally:
            self._refreshing = False

    # -- what it does ---------------------------------------------------------------------------
    def press(self, key: str) -> None:
        if self.on_button(key, self.values()):
            for field_key in self._clears.get(key, ()):
                widget = self.widgets.get(field_key)
                if isinstance(widget, QLineEdit):
                    widget.clear()


def _label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setVisible(False)
    return label


def _set_text(label: QLabel | None, text: str) -> None:
    if label is not None:
        label.setText(text)
        label.setVisible(bool(text))


def _fill(table: QTableWidget, data: TurnTable) -> None:
    table.setRowCount(len(data.rows))
    for row, cells in enumerate(data.rows):
        for col, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            table.setItem(row, col, item)
    table.setVisible(bool(data.rows) or not data.hide_empty)
    fit_wrapping_columns(table)
    table.resizeRowsToContents()
    rows_px = sum(table.rowHeight(r) for r in range(table.rowCount()))
    if data.height == "rows":
        table.setFixedHeight(table.horizontalHeader().height() + 4 + rows_px)
    else:  # every row in view without scrolling (the panel has the room; a side rarely has a dozen units)
        table.setMinimumHeight(min(420, max(160, rows_px + table.horizontalHeader().height() + 6)))
