"""Every unit with side, type, weapons, ammunition and tokens; tokens the camera cannot see are
edited by hand (double-click a unit): flags, Focus, movement, status, and in Down Range the
Suppressed tokens (by whom, until whose turn), the emission (Signal) token and ammunition left.

Force on Force: the fireteams (and vehicles) in a table of their own beside the figures -- figures,
cohesion (who is astray), leader, ratings and turn state --, each figure's fireteam in its row; the
hand edit takes a figure's and its unit's fields (gui/panels/hand_edit_dialogs.py). The generic
rules: each counter's identity (hidden, identified, a dummy found out) and an Identify button; the
hand edit takes the status level, hidden/identified, shots left."""
from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QGroupBox,
                               QHBoxLayout, QLabel, QPushButton, QSpinBox, QSplitter, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from appmodel.errors import UsageError
from gui.panels.base import SessionPanel
from gui.panels.hand_edit_dialogs import CounterEditDialog, FigureEditDialog
from gui.panels.tables import read_only_table
from rules.errors import RulesError
from rules.ruleset import GroupedRuleset, Identifies, TokenWords, front_end, ruleset_of

COLUMNS = ("Tag", "Unit", "Side", "Type", "Status", "Move left", "Weapons (ammo)", "Tokens")
#: The extra column of a ruleset whose units are several figures, and of one with hidden units.
GROUP_COLUMN, IDENTITY_COLUMN = "Fireteam", "Identity"
GROUP_COLUMNS = ("Unit", "Side", "Figures", "Cohesion", "Leader", "Ratings and turn")
#: Tokens a player sets by hand (Down Range's editable fields that are on/off flags).
FLAG_EDITS = (("injured", "Injured"), ("reaction_ready", "Reaction ready"), ("main_effort", "Main Effort"),
              ("on_fire", "On fire"), ("overburdened", "Overburdened"), ("overloaded", "Overloaded"),
              ("white_light_on", "White light on"), ("disabled", "Disabled"))
TOKEN_OF_FLAG = {"injured": ("injured", "damaged"), "reaction_ready": ("reaction ready",), "main_effort": ("main effort",),
                 "on_fire": ("on fire",), "overburdened": ("overburdened",), "overloaded": ("overloaded",),
                 "white_light_on": ("white light on",), "disabled": ("disabled",)}


class UnitEditDialog(QDialog):
    """Hand edits of one unit's tokens and status. ``state``: the Down Range game state, for the tokens
    that say more than on/off (suppression, emission, ammunition)."""

    def __init__(self, unit: Any, parent: QWidget | None = None, *, state: Any = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Edit {unit.name}")
        self.unit = unit
        self.rules_unit = state.unit(unit.unit_id) if state is not None else None
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
        self.suppression: SuppressionEditor | None = None
        self.emission: EmissionEditor | None = None
        self.ammunition: dict[str, QSpinBox] = {}
        if state is not None:
            self.suppression = SuppressionEditor(state, self.rules_unit)
            self.emission = EmissionEditor(state, self.rules_unit)
            layout.addWidget(self.suppression)
            layout.addWidget(self.emission)
            limited = [w for w in self.rules_unit.weapons if w.ammo_left is not None]
            if limited:
                ammo = QGroupBox("Ammunition left")
                ammo_form = QFormLayout(ammo)
                for w in limited:
                    spin = QSpinBox()
                    spin.setRange(0, 999)
                    spin.setValue(w.ammo_left)
                    spin.setToolTip("Uses left; 0 is out of ammunition")
                    self.ammunition[w.name] = spin
                    ammo_form.addRow(w.name, spin)
                layout.addWidget(ammo)
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
        if self.suppression is not None and self.suppression.changed():
            out["suppressed"] = self.suppression.value()
        if self.emission is not None and self.emission.changed():
            out["emission"] = self.emission.value()
        if self.rules_unit is not None:
            ammo = {name: spin.value() for name, spin in self.ammunition.items()
                    if spin.value() != self.rules_unit.weapon_state(name).ammo_left}
            if ammo:
                out["ammunition"] = ammo
        return out


class SuppressionEditor(QGroupBox):
    """The unit's Suppressed tokens: untick one to clear it; tick "Suppressed by" to add one, until the
    start of the suppressing unit's side's turn unless another side is chosen."""

    def __init__(self, state: Any, unit: Any, parent: QWidget | None = None) -> None:
        ruleset = ruleset_of(state)
        super().__init__("Suppressed", parent)
        self.state, self.unit = state, unit
        form = QFormLayout(self)
        self.kept: list[tuple[QCheckBox, Any]] = []
        for token in unit.suppressed:
            box = QCheckBox(ruleset.suppression_words(state, token))
            box.setChecked(True)
            box.setToolTip("Untick to remove this Suppressed token")
            self.kept.append((box, token))
            form.addRow(box)
        self.add = QCheckBox("Suppressed by")
        self.by = QComboBox()
        # Enemies first: a unit is suppressed by the other side's fire.
        others = sorted(state.units, key=lambda u: (u.side == unit.side, u.name))
        for u in others:
            if u.unit_id != unit.unit_id:
                self.by.addItem(f"{u.name} ({u.unit_id}, {u.side})", u.unit_id)
        self.until = QComboBox()
        for side in state.sides:
            self.until.addItem(ruleset.until_words(side.name), side.name)
        self.by.currentIndexChanged.connect(self._until_suppressors_turn)
        self._until_suppressors_turn()
        row = QHBoxLayout()
        row.addWidget(self.add)
        row.addWidget(self.by, 1)
        form.addRow(row)
        form.addRow("until", self.until)

    def _until_suppressors_turn(self) -> None:
        uid = self.by.currentData()
        if uid is not None:
            self.until.setCurrentIndex(max(0, self.until.findData(self.state.unit(uid).side)))

    def value(self) -> list[dict[str, Any]]:
        out = [{"by_unit": t.by_unit, "until_start_of": t.until_start_of} for box, t in self.kept if box.isChecked()]
        if self.add.isChecked() and self.by.currentData() is not None:
            out.append({"by_unit": int(self.by.currentData()), "until_start_of": str(self.until.currentData())})
        return out

    def changed(self) -> bool:
        return self.add.isChecked() or any(not box.isChecked() for box, _ in self.kept)


class EmissionEditor(QGroupBox):
    """The emission (Signal) token: whether the unit emits, why, until whose turn, and whether it jams."""

    def __init__(self, state: Any, unit: Any, parent: QWidget | None = None) -> None:
        ruleset = ruleset_of(state)
        super().__init__("Emission (Signal) token", parent)
        self.unit = unit
        token = unit.emission
        form = QFormLayout(self)
        self.emitting = QCheckBox()
        self.emitting.setChecked(token is not None)
        self.emitting.setToolTip("The unit used its radio: enemy SIGINT can locate it until the token lifts")
        form.addRow("Emitting", self.emitting)
        self.purpose = QComboBox()
        self.purpose.setEditable(True)
        purposes = ruleset.emission_purposes()
        self.purpose.addItems(list(purposes))
        self.purpose.setCurrentText(token.purpose if token is not None else purposes[0])
        form.addRow("Why", self.purpose)
        self.until = QComboBox()
        for side in state.sides:
            self.until.addItem(ruleset.until_words(side.name), side.name)
        self.until.setCurrentIndex(max(0, self.until.findData(token.until_start_of if token is not None else unit.side)))
        form.addRow("until", self.until)
        self.jamming = QCheckBox()
        self.jamming.setChecked(bool(token is not None and token.jamming))
        self.jamming.setToolTip("Jamming enemy radios within 36\" (EW units only)")
        form.addRow("Jamming", self.jamming)

    def value(self) -> dict[str, Any] | None:
        if not self.emitting.isChecked():
            return None
        return {"purpose": self.purpose.currentText().strip(), "until_start_of": str(self.until.currentData()),
                "jamming": self.jamming.isChecked()}

    def changed(self) -> bool:
        token = self.unit.emission
        now = self.value()
        if token is None or now is None:
            return (token is None) != (now is None)
        return (token.purpose, token.until_start_of, token.jamming) != (now["purpose"], now["until_start_of"], now["jamming"])


class RosterPanel(SessionPanel):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        ruleset = session.ruleset
        self.grouped = isinstance(ruleset, GroupedRuleset)
        #: Hidden units and dummies (the generic rules): identified by the players.
        self.identifies = isinstance(ruleset, Identifies)
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
            self.groups_table = read_only_table(GROUP_COLUMNS, select="row", stretch_last=True)
            self.groups_table.itemSelectionChanged.connect(self._group_selected)
            self.groups_table.cellDoubleClicked.connect(lambda row, col: self.edit_selected())
            split = QSplitter(Qt.Orientation.Horizontal)
            split.addWidget(self.groups_table)
            split.addWidget(self.table)
            split.setStretchFactor(0, 1)
            split.setStretchFactor(1, 1)
            layout.addWidget(split)
            # Force on Force counts no movement allowance: the column would say infinity on every row.
            self.table.setColumnHidden(COLUMNS.index("Move left"), True)
        else:
            layout.addWidget(self.table)
        buttons = QHBoxLayout()
        buttons.addWidget(self.edit_button, 1)
        buttons.addWidget(self.identify_button)
        layout.addLayout(buttons)
        layout.addWidget(self.error_label)
        self._updating = False
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
            for row, u in enumerate(units):
                ammo = []
                # A unit the rules show without weapons (a hidden counter) is not given away here either.
                for w in snap.ruleset.weapons(snap.state, u.unit_id) if u.weapons else ():
                    ammo.append(w.name + (f" ({w.ammo_left})" if w.ammo_left is not None else ""))
                left = "∞" if math.isinf(u.move_left_in) else f'{u.move_left_in:.1f}" of {u.move_in:g}"'
                identity = u.identity if self.identifies else ""
                if identity.startswith("hidden"):
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
                for col, text in enumerate(values):
                    item = self.table.item(row, col)
                    if item is None:
                        item = QTableWidgetItem()
                        self.table.setItem(row, col, item)
                    item.setText(text)
                    item.setData(Qt.ItemDataRole.UserRole, u.unit_id)
                    if col == 7:
                        item.setToolTip(details)
                    if col == 2:
                        item.setForeground(QColor(snap.color_of(u.side)))
                    elif col == 4:
                        item.setForeground(QColor("#ff6b6b" if u.status != "active" else "#e0e0e0"))
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
            astray = [m.name for m in members if "straggler" in m.tokens]
            if not any(m.on_table for m in members):
                cohesion = "off the table"
            elif g.status != "active":
                cohesion = g.status
            elif g.in_cohesion:
                cohesion = "in cohesion"
            else:
                cohesion = "OUT OF COHESION" + (f": {', '.join(astray)} astray" if astray else "")
            leader = next((t for t in g.tokens if t.startswith("led by ") or t.endswith(" out of cohesion")
                           and not t.startswith("out of")), "")
            rest = ", ".join(t for t in g.tokens if t != leader and t != "out of cohesion")
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

    def edit_dialog(self, unit_id: int) -> Any:
        """The hand-edit dialog for a unit in its ruleset's fields (Down Range's shows suppression,
        emission and ammunition too; Force on Force's the figure and its unit; the generic rules' the
        counter's status level and identification)."""
        form = front_end(self.session.ruleset).edit_form
        if form == "figure":
            return FigureEditDialog(self.session.state, unit_id, self)
        if form == "counter":
            return CounterEditDialog(self.session.state, unit_id, self)
        state = self.session.state if form == "tokens" else None
        return UnitEditDialog(self.session.unit(unit_id), self, state=state)

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
            changes = dialog.changes()
            group_changes = getattr(dialog, "group_changes", dict)()
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
    if isinstance(ruleset, TokenWords):
        return ruleset.token_texts(state, view)
    return ", ".join(view.tokens), ""
