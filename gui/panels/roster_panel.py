"""Every unit with side, type, weapons, ammunition and tokens; what the camera cannot see is edited by
hand (double-click a unit) in the form its rule system describes (gui/panels/hand_edit_dialogs.py:
Down Range's flags, Focus, movement, status, Suppressed tokens, emission token and ammunition; a Force
on Force figure and its unit; a generic counter's status level and identification).

A rule system whose units are several figures (Force on Force) gets its units in a table of their own
beside the figures -- figures, cohesion (who is astray), leader, ratings and turn state --, each
figure's unit in its row; one that keeps counters anonymous (the generic rules) a column saying what
the players know of each (hidden, identified, a dummy found out) and an Identify button."""
from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QDialog, QHBoxLayout, QLabel, QPushButton, QSplitter, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from appmodel.errors import UsageError
from gui.panels.base import SessionPanel
from gui.panels.hand_edit_dialogs import EditFormDialog
from gui.panels.tables import fit_wrapping_columns, read_only_table, set_cell, wrapping_columns
from rules.errors import RulesError
from rules.ruleset import edit_form, front_end

COLUMNS = ("Tag", "Unit", "Side", "Type", "Status", "Move left", "Weapons (ammo)", "Tokens")
#: The extra column of a ruleset whose units are several figures, and of one with hidden units.
GROUP_COLUMN, IDENTITY_COLUMN = "Fireteam", "Identity"
GROUP_COLUMNS = ("Unit", "Side", "Figures", "Cohesion", "Leader", "Ratings and turn")
class RosterPanel(SessionPanel):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        ruleset = session.ruleset
        self.grouped = ruleset.has_groups
        #: Hidden units and dummies (the generic rules): identified by the players.
        self.identifies = ruleset.has_hidden_units
        self.columns = COLUMNS + ((GROUP_COLUMN,) if self.grouped else ()) + ((IDENTITY_COLUMN,) if self.identifies else ())
        self.table = read_only_table(self.columns, select="row", stretch_last=True)
        self.look = front_end(ruleset)
        self.edit_button = QPushButton(self.look.edit_button)
        self.identify_button = QPushButton("Identify")
        self.identify_button.setToolTip("The selected counter is identified (a dummy is removed)")
        self.identify_button.setVisible(self.identifies)
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #ff6b6b")
        self.groups_table: QTableWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        if self.grouped:
            self.groups_table = read_only_table(GROUP_COLUMNS, select="row")
            # half the strip's width: sized to one-line text, the cohesion column left the ratings a sliver
            wrapping_columns(self.groups_table, stretch=(GROUP_COLUMNS.index("Ratings and turn"),))
            self.groups_table.itemSelectionChanged.connect(self._group_selected)
            self.groups_table.cellDoubleClicked.connect(lambda row, col: self.edit_selected())
            split = QSplitter(Qt.Orientation.Horizontal)
            split.addWidget(self.groups_table)
            split.addWidget(self.table)
            split.setStretchFactor(0, 1)
            split.setStretchFactor(1, 1)
            layout.addWidget(split)
        else:
            layout.addWidget(self.table)
        buttons = QHBoxLayout()
        buttons.addWidget(self.edit_button, 1)
        buttons.addWidget(self.identify_button)
        layout.addLayout(buttons)
        layout.addWidget(self.error_label)
        self._updating = False
        #: what each row shows (unit, texts, colours): a refresh sets only the rows that changed
        self._shown_rows: list[tuple[Any, ...]] = []
        #: True in a replay window: the game shown is a recording.
        self.read_only = False
        self.table.itemSelectionChanged.connect(self._selected)
        self.table.cellDoubleClicked.connect(lambda row, col: self.edit_selected())
        self.edit_button.clicked.connect(self.edit_selected)
        self.identify_button.clicked.connect(self.identify_selected)
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
            groups = self.session.groups() if self.grouped else ()
            group_tokens = {g.name: set(g.tokens) for g in groups}
            self.table.setRowCount(len(units))
            del self._shown_rows[len(units):]
            # A rule system that counts no movement allowance (Force on Force): the column would say
            # infinity on every row.
            self.table.setColumnHidden(COLUMNS.index("Move left"), bool(units) and all(math.isinf(u.move_in) for u in units))
            for row, u in enumerate(units):
                ammo = []
                # A unit the rules show without weapons (a hidden counter) is not given away here either.
                for w in snap.ruleset.weapons(snap.state, u.unit_id) if u.weapons else ():
                    ammo.append(w.name + (f" ({w.ammo_left})" if w.ammo_left is not None else ""))
                left = "∞" if math.isinf(u.move_left_in) else f'{u.move_left_in:.1f}" of {u.move_in:g}"'
                identity = u.identity if self.identifies else ""
                if u.counter_only:
                    left = "?"
                tokens, details = _token_texts(snap.ruleset, snap.state, u)
                if u.group is not None:  # the unit's own state is in the fireteams' table, once
                    tokens = ", ".join(t for t in u.tokens if t not in group_tokens.get(u.group, set()))
                values = (str(u.unit_id), u.name, u.side, u.type_name, u.status + ("" if u.on_table else ", off table"),
                          left, ", ".join(ammo), tokens)
                if self.grouped:
                    values += (u.group or "",)
                if self.identifies:
                    values += (identity,)
                shown = (u.unit_id, values, details, snap.color_of(u.side), u.status)
                # A row as it stands is left alone (a carried unit changes its own row only).
                # In that row, only the cells that changed (each change lays the table's columns out again).
                if not (row < len(self._shown_rows) and self._shown_rows[row] == shown and self.table.item(row, 0) is not None):
                    status_color = "#ff6b6b" if u.status != "active" else "#e0e0e0"
                    for col, text in enumerate(values):
                        item = set_cell(self.table, row, col, text, details if col == 7 else None,
                                        color=snap.color_of(u.side) if col == 2 else status_color if col == 4 else None)
                        if item.data(Qt.ItemDataRole.UserRole) != u.unit_id:
                            item.setData(Qt.ItemDataRole.UserRole, u.unit_id)
                    self._shown_rows[row:row + 1] = [shown]
                if u.unit_id == snap.selected_unit:
                    self.table.selectRow(row)
            if snap.selected_unit is None:
                self.table.clearSelection()
            if self.groups_table is not None:
                self._refresh_groups(snap, groups)
        finally:
            self._updating = False

    def _refresh_groups(self, snap: Any, groups: Any) -> None:
        """One row per fireteam: its figures (in play of all), cohesion with who is astray, its leader."""
        table = self.groups_table
        assert table is not None
        views = {u.unit_id: u for u in snap.units}
        table.setRowCount(len(groups))
        selected_group = next((g.group_id for g in groups if snap.selected_unit in g.member_ids), None)
        for row, g in enumerate(groups):
            members = [views[i] for i in g.member_ids if i in views]
            fighting = [m for m in members if m.status == "active" and m.on_table]
            astray = [views[i].name for i in g.astray_ids if i in views]
            if not any(m.on_table for m in members):
                cohesion = "off the table"
            elif g.status != "active":
                cohesion = g.status
            elif g.in_cohesion:
                cohesion = "in cohesion"
            else:
                cohesion = "OUT OF COHESION" + (f": {', '.join(astray)} astray" if astray else "")
            leader = g.leader_words
            rest = ", ".join(g.ratings if g.ratings is not None else [t for t in g.tokens if t != leader])
            figures = f"{len(fighting)} of {len(members)}"
            values = (g.name, g.side, figures, cohesion, leader, rest)
            for col, text in enumerate(values):
                item = table.item(row, col)
                if item is None:
                    item = QTableWidgetItem()
                    table.setItem(row, col, item)
                item.setText(text)
                item.setData(Qt.ItemDataRole.UserRole, g.group_id)
                item.setToolTip(", ".join(m.name for m in members) if col == 2 else text)
                if col == 1:
                    item.setForeground(QColor(snap.color_of(g.side)))
                elif col == 3:
                    item.setForeground(QColor("#7be3a0" if g.in_cohesion and g.status == "active" else "#ff6b6b"))
            if g.group_id == selected_group:
                table.selectRow(row)
        if selected_group is None:
            table.clearSelection()
        fit_wrapping_columns(table)

    def _group_selected(self) -> None:
        if self._updating or self.groups_table is None:
            return
        rows = self.groups_table.selectionModel().selectedRows()
        if rows:
            gid = self.groups_table.item(rows[0].row(), 0).data(Qt.ItemDataRole.UserRole)
            group = next((g for g in self.session.groups() if g.group_id == gid), None)
            selected = self.session.snapshot().selected_unit
            if group is not None and selected not in group.member_ids:
                self.session.select_unit(int(gid))

    def _selected(self) -> None:
        if self._updating:
            return
        rows = self.table.selectionModel().selectedRows()
        if rows:
            uid = self.table.item(rows[0].row(), 0).data(Qt.ItemDataRole.UserRole)
            if uid != self.session.snapshot().selected_unit:
                self.session.select_unit(int(uid))

    def edit_dialog(self, unit_id: int) -> EditFormDialog:
        """The hand-edit dialog of a unit: the form its rule system describes (rules.ruleset.EditForm)."""
        ruleset = self.session.ruleset
        return EditFormDialog(edit_form(ruleset, self.session.state, self.session.unit(unit_id)), ruleset, self)

    def identify_selected(self) -> None:
        """The players identify the selected counter (the generic rules: a dummy is removed)."""
        uid = self.session.snapshot().selected_unit
        if self.read_only:
            self.error_label.setText("a replay shows the game as it was: counters cannot be identified here")
            return
        if uid is None:
            self.error_label.setText("select a counter first")
            return
        ruleset = self.session.ruleset
        try:
            self.session.apply_rules(lambda state: ruleset.identify(state, uid), kind="edit")
            self.error_label.setText("")
        except (UsageError, RulesError, ValueError) as exc:
            self.error_label.setText(str(exc))

    def edit_selected(self, *, accept: bool | None = None, changes: dict[str, Any] | None = None,
                      group_changes: dict[str, Any] | None = None) -> None:
        """Open the edit dialog for the selected unit (tests pass ``changes`` -- and for a unit of several
        figures ``group_changes`` -- to skip the dialog)."""
        if self.read_only:
            self.error_label.setText("a replay shows the game as it was: tokens cannot be edited here")
            return
        uid = self.session.snapshot().selected_unit
        if uid is None:
            self.error_label.setText("select a unit first")
            return
        if changes is None and group_changes is None:
            dialog = self.edit_dialog(uid)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            edited = dialog.changes()
            changes, group_changes = dict(edited.unit), dict(edited.group)
        if not changes and not group_changes:
            return
        try:
            if changes:
                self.session.edit_unit(uid, changes)
            if group_changes:
                self.session.edit_group(uid, group_changes)
            self.error_label.setText("")
        except (UsageError, RulesError, ValueError) as exc:
            self.error_label.setText(str(exc))


def _token_texts(ruleset: Any, state: Any, view: Any) -> tuple[str, str]:
    """The Tokens cell and its tooltip: in the ruleset's words when it has its own (who suppresses the
    unit, why it emits, until when), else the tokens as listed."""
    return ruleset.token_texts(state, view)
