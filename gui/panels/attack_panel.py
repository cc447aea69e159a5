"""The attack at the table: attacker and weapon, targets proposed by the geometry, what the players
declare, the exact odds, and the roll — with virtual dice, or with the dice the players rolled,
typed into a form that lists exactly which dice the rules need next and checks each one."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QButtonGroup, QCheckBox, QComboBox, QFormLayout, QGroupBox,
                               QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QRadioButton, QSpinBox,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from gui.errors import UsageError
from gui.panels.base import SessionPanel
from gui.panels.turn_panel import parse_dice_text
from gui.session import AttackDraft
from rules.errors import RulesError

TARGET_COLUMNS = ("Target", "Distance", "Geometry", "Shots", "Cover", "Concealment", "Unaware")
ODDS_COLUMNS = ("Target", "Hit", "Kill / shot", "Kill (all shots)", "Roll")
LEVELS = ("none", "partial", "total")


def _pct(x: Any) -> str:
    return f"{float(x):.1%}"


class DiceForm(QWidget):
    """The dice the players rolled: one row per roll the rules ask for, added as the earlier ones are
    entered (which rolls follow depends on them: no Damage roll for a miss)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.edits: list[QLineEdit] = []
        self.entries: list[Any] = []
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.form.addRow(self.status)
        self._need: Any = None
        self._session: Any = None

    def reset(self, session: Any) -> None:
        """Start over for the attack set up in ``session``."""
        self._session = session
        while self.form.rowCount() > 1:
            self.form.removeRow(1)
        self.edits, self.entries = [], []
        self._advance()

    def _advance(self) -> None:
        try:
            need = self._session.dice_needed(self.entries) if self._session is not None else None
        except (UsageError, RulesError, ValueError) as exc:
            self.status.setText(f"<span style='color:#ff6b6b'>{exc}</span>")
            self._need = None
            return
        self._need = need
        if need is None:
            self.status.setText("All dice entered: press Resolve." if self.entries else "")
            return
        self.status.setText(f"Next: {need.label}")
        edit = QLineEdit()
        hint = f"{need.count} dice, each 1-{need.sides}" if need.count > 1 else f"1-{need.sides}"
        if need.count > 1 and not need.each_die:
            hint += f" (or their total, {need.count}-{need.count * need.sides})"
        edit.setPlaceholderText(hint)
        edit.returnPressed.connect(lambda e=edit: self.enter(e.text(), edit=e))
        self.form.addRow(QLabel(f"{need.label} ({need.count}d{need.sides})"), edit)
        self.edits.append(edit)
        edit.setFocus()

    @property
    def complete(self) -> bool:
        return self._session is not None and self._need is None and bool(self.entries)

    @property
    def needed(self) -> Any:
        return self._need

    def enter(self, text: str, *, edit: QLineEdit | None = None) -> bool:
        """Enter the next roll (as typed: "6 2", "[6 2]" or a total); False with the reason if refused."""
        if self._need is None:
            self.status.setText("No more dice are needed: press Resolve.")
            return False
        edit = edit or self.edits[-1]
        try:
            values = parse_dice_text(text)
            need = self._need
            if need.count > 1 and len(values) == need.count and all(isinstance(v, int) for v in values):
                values = [values]
            if len(values) != 1:
                raise UsageError(f"{text!r}: enter one roll for {need.label} ({need.count}d{need.sides})")
            trial = self.entries + values
            self._session.dice_needed(trial)  # validates the value against the die it belongs to
        except (UsageError, RulesError, ValueError) as exc:
            self.status.setText(f"<span style='color:#ff6b6b'>{exc}</span>")
            return False
        edit.setText(text)
        edit.setReadOnly(True)
        self.entries = trial
        self._advance()
        return True


class AttackPanel(SessionPanel):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.attacker = QComboBox()
        self.weapon = QComboBox()
        self.mode = QComboBox()
        self.mode.addItems(["attack", "suppress"])
        self.payload = QComboBox()
        self.crew = QSpinBox()
        self.crew.setRange(0, 8)
        self.assistants = QLineEdit()
        self.assistants.setPlaceholderText("tag ids, e.g. 12")
        self.reaction = QCheckBox("Use the ready Reaction")
        self.untrained = QCheckBox("Not trained on the weapon")
        self.aim_label = QLabel("—")
        self.targets = QTableWidget(0, len(TARGET_COLUMNS))
        self.targets.setHorizontalHeaderLabels(TARGET_COLUMNS)
        self.targets.verticalHeader().setVisible(False)
        self.targets.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.targets.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.odds = QTableWidget(0, len(ODDS_COLUMNS))
        self.odds.setHorizontalHeaderLabels(ODDS_COLUMNS)
        self.odds.verticalHeader().setVisible(False)
        self.odds.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.odds.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.virtual = QRadioButton("Virtual dice")
        self.entered = QRadioButton("Players' dice")
        self.virtual.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.virtual)
        group.addButton(self.entered)
        self.dice_form = DiceForm()
        self.dice_form.setVisible(False)
        self.resolve_button = QPushButton("Resolve (Ctrl+Return)")
        self.message = QLabel()
        self.message.setWordWrap(True)

        setup = QFormLayout()
        setup.addRow("Attacker", self.attacker)
        setup.addRow("Weapon", self.weapon)
        setup.addRow("Mode", self.mode)
        setup.addRow("Payload", self.payload)
        setup.addRow("Crew assisting", self.crew)
        setup.addRow("Assisting units", self.assistants)
        setup.addRow(self.reaction)
        setup.addRow(self.untrained)
        setup.addRow("Aim point (blast tool)", self.aim_label)
        dice_box = QGroupBox("Dice")
        dice_layout = QVBoxLayout(dice_box)
        row = QHBoxLayout()
        row.addWidget(self.virtual)
        row.addWidget(self.entered)
        dice_layout.addLayout(row)
        dice_layout.addWidget(self.dice_form)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(setup)
        layout.addWidget(QLabel("Targets (tick to attack; the geometry says who can be hit)"))
        layout.addWidget(self.targets, 2)
        layout.addWidget(QLabel("Odds"))
        layout.addWidget(self.odds, 1)
        layout.addWidget(dice_box)
        layout.addWidget(self.resolve_button)
        layout.addWidget(self.message)

        self._building = False
        self._rows: list[int] = []
        self.attacker.currentIndexChanged.connect(self._attacker_changed)
        self.weapon.currentIndexChanged.connect(lambda _: self._setup_changed(rebuild=True))
        for w in (self.mode, self.payload):
            w.currentIndexChanged.connect(lambda _: self._setup_changed())
        self.crew.valueChanged.connect(lambda _: self._setup_changed())
        self.assistants.editingFinished.connect(self._setup_changed)
        self.reaction.toggled.connect(lambda _: self._setup_changed())
        self.untrained.toggled.connect(lambda _: self._setup_changed())
        self.entered.toggled.connect(self._dice_mode_changed)
        self.resolve_button.clicked.connect(self.resolve)
        self._fill_attackers()
        self._setup_changed(rebuild=True)

    # -- following the session ------------------------------------------------------------------
    def on_session_changed(self, kind: str) -> None:
        if self._building:
            return
        if kind == "state":
            self._fill_attackers()
            self._setup_changed(rebuild=True)
        elif kind == "selection":
            snap = self.session.snapshot()
            if snap.selected_unit is not None and snap.selected_unit != self.attacker.currentData():
                i = self.attacker.findData(snap.selected_unit)
                if i >= 0:
                    self.attacker.setCurrentIndex(i)
            elif snap.blast_point != (self.session.draft.aim_point if self.session.draft else None):
                self._setup_changed()
        elif kind == "attack":
            self._show_odds()

    def _fill_attackers(self) -> None:
        self._building = True
        try:
            current = self.attacker.currentData()
            self.attacker.clear()
            for u in self.session.units():
                if u.on_table and u.status == "active" and u.weapons:
                    self.attacker.addItem(f"{u.name} ({u.side})", u.unit_id)
            sel = self.session.snapshot().selected_unit
            for want in (current, sel):
                i = self.attacker.findData(want) if want is not None else -1
                if i >= 0:
                    self.attacker.setCurrentIndex(i)
        finally:
            self._building = False
        self._fill_weapons()

    def _attacker_changed(self) -> None:
        if self._building:
            return
        self._fill_weapons()
        self._setup_changed(rebuild=True)

    def _fill_weapons(self) -> None:
        self._building = True
        try:
            current = self.weapon.currentText()
            self.weapon.clear()
            uid = self.attacker.currentData()
            if uid is not None:
                for w in self.session.ruleset.weapons(self.session.state, uid):
                    ammo = "" if w.ammo_left is None else f", ammo {w.ammo_left}"
                    self.weapon.addItem(f"{w.name}  (R {w.range_in:g}\"{', Fan ' + str(w.fan) if w.fan else ''}"
                                        f"{', Radius ' + format(w.radius_in, 'g') + chr(34) if w.radius_in else ''}{ammo})", w.name)
                i = self.weapon.findData(current) if current else -1
                snap_weapon = self.session.snapshot().selected_weapon
                j = self.weapon.findData(snap_weapon) if snap_weapon else -1
                self.weapon.setCurrentIndex(i if i >= 0 else max(j, 0))
            payloads = ()
            wv = self._weapon_view()
            if wv is not None:
                payloads = wv.payloads
            self.payload.clear()
            self.payload.addItems(list(payloads) or ["HE"])
            self.payload.setEnabled(bool(payloads))
        finally:
            self._building = False

    def _weapon_view(self) -> Any:
        uid, name = self.attacker.currentData(), self.weapon.currentData()
        if uid is None or name is None:
            return None
        return next((w for w in self.session.ruleset.weapons(self.session.state, uid) if w.name == name), None)

    # -- the draft ------------------------------------------------------------------------------
    def ticked(self) -> list[int]:
        out = []
        for row, uid in enumerate(self._rows):
            box = self.targets.cellWidget(row, 0)
            if isinstance(box, QCheckBox) and box.isChecked():
                out.append(uid)
        return out

    def set_target(self, unit_id: int, *, ticked: bool = True, shots: int | None = None, cover: str | None = None,
                   concealment: str | None = None, unaware: bool | None = None) -> None:
        """Set a target row as a player would (used by tests and keyboard shortcuts)."""
        row = self._rows.index(unit_id)
        self._building = True
        try:
            self.targets.cellWidget(row, 0).setChecked(ticked)
            if shots is not None:
                self.targets.cellWidget(row, 3).setValue(shots)
            if cover is not None:
                self.targets.cellWidget(row, 4).setCurrentText(cover)
            if concealment is not None:
                self.targets.cellWidget(row, 5).setCurrentText(concealment)
            if unaware is not None:
                self.targets.cellWidget(row, 6).setChecked(unaware)
        finally:
            self._building = False
        self._setup_changed()

    def draft(self) -> AttackDraft | None:
        uid, name = self.attacker.currentData(), self.weapon.currentData()
        if uid is None or name is None:
            return None
        decl: dict[str, Any] = {"mode": self.mode.currentText()}
        wv = self._weapon_view()
        if wv is not None and wv.payloads:
            decl["payload"] = self.payload.currentText()
        if self.crew.value():
            decl["crew_assistants"] = self.crew.value()
        text = self.assistants.text().replace(",", " ").split()
        if text:
            try:
                decl["assistants"] = [int(t) for t in text]
            except ValueError:
                raise UsageError(f"assisting units {self.assistants.text()!r}: type tag ids like 12 14") from None
        if self.reaction.isChecked():
            decl["reaction"] = True
        if self.untrained.isChecked():
            decl["untrained"] = True
        targets = self.ticked()
        per: dict[int, dict[str, Any]] = {}
        for row, tid in enumerate(self._rows):
            if tid not in targets:
                continue
            per[tid] = {"shots": self.targets.cellWidget(row, 3).value(),
                        "cover": self.targets.cellWidget(row, 4).currentText(),
                        "concealment": self.targets.cellWidget(row, 5).currentText(),
                        "unaware": self.targets.cellWidget(row, 6).isChecked()}
        aim = self.session.snapshot().blast_point if (wv is not None and wv.radius_in) else None
        return AttackDraft(int(uid), str(name), tuple(targets), decl, per, aim)

    def _setup_changed(self, *, rebuild: bool = False) -> None:
        if self._building:
            return
        try:
            draft = self.draft()
            self._building = True
            try:
                self.session.set_attack(draft)
            finally:
                self._building = False
            self.message.setText("")
        except (UsageError, RulesError, ValueError) as exc:
            self.message.setText(f"<span style='color:#ff6b6b'>{exc}</span>")
            return
        if rebuild:
            self._rebuild_targets()
        aim = draft.aim_point if draft else None
        self.aim_label.setText("—" if aim is None else f"({aim[0]:.1f}, {aim[1]:.1f})")
        self._show_odds()
        if self.entered.isChecked():
            self.dice_form.reset(self.session)

    def _rebuild_targets(self) -> None:
        snap = self.session.snapshot()
        keep = set(self.ticked())
        self._building = True
        try:
            self.targets.setRowCount(len(snap.proposals))
            self._rows = []
            for row, p in enumerate(snap.proposals):
                self._rows.append(p.unit_id)
                box = QCheckBox(p.name)
                box.setChecked(p.unit_id in keep)
                box.toggled.connect(lambda _: self._setup_changed())
                self.targets.setCellWidget(row, 0, box)
                dist = QTableWidgetItem(f'{p.distance_in:.1f}"')
                why = QTableWidgetItem("can be hit" if p.eligible else p.reason)
                why.setForeground(QColor("#7be3a0" if p.eligible else "#c0c0c0"))
                self.targets.setItem(row, 1, dist)
                self.targets.setItem(row, 2, why)
                shots = QSpinBox()
                shots.setRange(1, 12)
                shots.valueChanged.connect(lambda _: self._setup_changed())
                self.targets.setCellWidget(row, 3, shots)
                for col in (4, 5):
                    combo = QComboBox()
                    combo.addItems(LEVELS)
                    combo.currentIndexChanged.connect(lambda _: self._setup_changed())
                    self.targets.setCellWidget(row, col, combo)
                unaware = QCheckBox()
                unaware.toggled.connect(lambda _: self._setup_changed())
                self.targets.setCellWidget(row, 6, unaware)
        finally:
            self._building = False

    def _show_odds(self) -> None:
        snap = self.session.snapshot()
        if snap.odds_error:
            self.message.setText(f"<span style='color:#ff6b6b'>{snap.odds_error}</span>")
        self.odds.setRowCount(len(snap.odds))
        for row, o in enumerate(snap.odds):
            roll = o.roll + (f" ({', '.join(o.advantages + o.disadvantages)})" if o.advantages or o.disadvantages else "")
            values = (o.name, _pct(o.p_hit), _pct(o.p_kill), _pct(o.p_kill_any) + (f" ({o.shots} shots)" if o.shots > 1 else ""),
                      roll if o.allowed else f"not allowed: {o.reason}")
            for col, text in enumerate(values):
                self.odds.setItem(row, col, QTableWidgetItem(text))

    def odds_rows(self) -> list[list[str]]:
        return [[self.odds.item(r, c).text() for c in range(self.odds.columnCount())] for r in range(self.odds.rowCount())]

    # -- dice and resolving ---------------------------------------------------------------------
    def _dice_mode_changed(self, entered: bool) -> None:
        self.dice_form.setVisible(entered)
        if entered:
            self.dice_form.reset(self.session)

    def resolve(self) -> None:
        try:
            if self.entered.isChecked():
                if not self.dice_form.complete:
                    need = self.dice_form.needed
                    raise UsageError(f"enter the dice first: {need.label} ({need.count}d{need.sides}) is still needed"
                                     if need is not None else "enter the dice first")
                res = self.session.resolve_attack(self.dice_form.entries)
            else:
                res = self.session.resolve_attack()
        except (UsageError, RulesError, ValueError) as exc:
            self.message.setText(f"<span style='color:#ff6b6b'>{exc}</span>")
            return
        if res.pending:
            self.message.setText(f"<b>{res.pending}</b><br>Pick the landing point with the landing tool (L) on the table view.")
        else:
            self.message.setText("<br>".join(res.sentences[-3:]))
            for row in range(self.targets.rowCount()):
                box = self.targets.cellWidget(row, 0)
                if isinstance(box, QCheckBox):
                    box.setChecked(False)
        if self.entered.isChecked():
            self.dice_form.reset(self.session)
