"""Every unit with side, type, weapons, ammunition and tokens; tokens the camera cannot see are
edited by hand (double-click a unit)."""
from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFormLayout, QHeaderView, QLabel, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from gui.errors import UsageError
from gui.panels.base import SessionPanel
from rules.errors import RulesError

COLUMNS = ("Tag", "Unit", "Side", "Type", "Status", "Move left", "Weapons (ammo)", "Tokens")
#: Tokens a player sets by hand (Down Range's editable fields that are on/off flags).
FLAG_EDITS = (("injured", "Injured"), ("reaction_ready", "Reaction ready"), ("main_effort", "Main Effort"),
              ("on_fire", "On fire"), ("overburdened", "Overburdened"), ("overloaded", "Overloaded"),
              ("white_light_on", "White light on"), ("disabled", "Disabled"))
TOKEN_OF_FLAG = {"injured": ("injured", "damaged"), "reaction_ready": ("reaction ready",), "main_effort": ("main effort",),
                 "on_fire": ("on fire",), "overburdened": ("overburdened",), "overloaded": ("overloaded",),
                 "white_light_on": ("white light on",), "disabled": ("disabled",)}


class UnitEditDialog(QDialog):
    """Hand edits of one unit's tokens and status."""

    def __init__(self, unit: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Edit {unit.name}")
        self.unit = unit
        form = QFormLayout()
        self.boxes: dict[str, QCheckBox] = {}
        for key, label in FLAG_EDITS:
            box = QCheckBox()
            box.setChecked(any(t in unit.tokens for t in TOKEN_OF_FLAG[key]))
            self.boxes[key] = box
            form.addRow(label, box)
        self.focused = QCheckBox()
        self.focused.setChecked("focused" in unit.tokens)
        self.focused.setToolTip("Focusing on a task: it must not move this turn")
        form.addRow("Focused", self.focused)
        self.moved = QDoubleSpinBox()
        self.moved.setRange(0.0, 999.0)
        self.moved.setDecimals(1)
        self.moved.setSuffix('"')
        self.moved_was = next((float(t.split()[1].rstrip('"')) for t in unit.tokens if t.startswith("moved ")), 0.0)
        self.moved.setValue(self.moved_was)
        self.moved.setToolTip("Moved this turn (the tracker counts it; correct it for a move the camera missed)")
        form.addRow("Moved this turn", self.moved)
        self.status = QComboBox()
        self.status.addItems(["active", "down", "removed"])
        self.status.setCurrentText(unit.status)
        form.addRow("Status", self.status)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def changes(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, box in self.boxes.items():
            was = any(t in self.unit.tokens for t in TOKEN_OF_FLAG[key])
            if box.isChecked() != was:
                out[key] = box.isChecked()
        if self.focused.isChecked() != ("focused" in self.unit.tokens):
            out["focused"] = "set by hand" if self.focused.isChecked() else None
        if abs(self.moved.value() - self.moved_was) > 0.05:
            out["moved_in"] = float(self.moved.value())
        if self.status.currentText() != self.unit.status:
            out["status"] = self.status.currentText()
        return out


class RosterPanel(SessionPanel):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.edit_button = QPushButton("Edit tokens…")
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #ff6b6b")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.table)
        layout.addWidget(self.edit_button)
        layout.addWidget(self.error_label)
        self._updating = False
        #: True in a replay window: the game shown is a recording.
        self.read_only = False
        self.table.itemSelectionChanged.connect(self._selected)
        self.table.cellDoubleClicked.connect(lambda row, col: self.edit_selected())
        self.edit_button.clicked.connect(self.edit_selected)
        self.refresh()

    def on_session_changed(self, kind: str) -> None:
        if kind in ("state", "selection"):
            self.refresh()
        elif kind == "poses":
            self.later(self.refresh)  # Move left changes while units are carried

    def refresh(self) -> None:
        self._updating = True
        try:
            snap = self.session.snapshot()
            units = snap.units
            self.table.setRowCount(len(units))
            for row, u in enumerate(units):
                ammo = []
                for w in snap.ruleset.weapons(snap.state, u.unit_id):
                    ammo.append(w.name + (f" ({w.ammo_left})" if w.ammo_left is not None else ""))
                left = "∞" if math.isinf(u.move_left_in) else f'{u.move_left_in:.1f}" of {u.move_in:g}"'
                values = (str(u.unit_id), u.name, u.side, u.type_name, u.status + ("" if u.on_table else ", off table"),
                          left, ", ".join(ammo), ", ".join(u.tokens))
                for col, text in enumerate(values):
                    item = self.table.item(row, col)
                    if item is None:
                        item = QTableWidgetItem()
                        self.table.setItem(row, col, item)
                    item.setText(text)
                    item.setData(Qt.ItemDataRole.UserRole, u.unit_id)
                    if col == 2:
                        item.setForeground(QColor(snap.color_of(u.side)))
                    elif col == 4:
                        item.setForeground(QColor("#ff6b6b" if u.status != "active" else "#e0e0e0"))
                if u.unit_id == snap.selected_unit:
                    self.table.selectRow(row)
            if snap.selected_unit is None:
                self.table.clearSelection()
        finally:
            self._updating = False

    def _selected(self) -> None:
        if self._updating:
            return
        rows = self.table.selectionModel().selectedRows()
        if rows:
            uid = self.table.item(rows[0].row(), 0).data(Qt.ItemDataRole.UserRole)
            if uid != self.session.snapshot().selected_unit:
                self.session.select_unit(int(uid))

    def edit_selected(self, *, accept: bool | None = None, changes: dict[str, Any] | None = None) -> None:
        """Open the edit dialog for the selected unit (tests pass ``changes`` to skip the dialog)."""
        if self.read_only:
            self.error_label.setText("a replay shows the game as it was: tokens cannot be edited here")
            return
        uid = self.session.snapshot().selected_unit
        if uid is None:
            self.error_label.setText("select a unit first")
            return
        if changes is None:
            dialog = UnitEditDialog(self.session.unit(uid), self)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            changes = dialog.changes()
        if not changes:
            return
        try:
            self.session.edit_unit(uid, changes)
            self.error_label.setText("")
        except (UsageError, RulesError, ValueError) as exc:
            self.error_label.setText(str(exc))
