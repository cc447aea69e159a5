"""The attack at the table: attacker and weapon, targets proposed by the geometry, what the players
declare, the exact odds, and the roll — with virtual dice, or with the dice the players rolled,
typed into a form that lists exactly which dice the rules need next and checks each one.

Laid out for a table-side screen: the set-up in a compact grid, then one targets table in which each
target carries its own odds (hit, kill over all its shots) next to the declarations that change them,
the odds in detail (roll, Advantages and Disadvantages), the dice and the Resolve button — readable at
1600x960 without scrolling. While units are carried across the table the distances and odds follow,
a few times a second."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QButtonGroup, QCheckBox, QComboBox, QGridLayout,
                               QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QRadioButton,
                               QSizePolicy, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from gui.errors import UsageError
from gui.panels.base import SessionPanel
from gui.panels.turn_panel import parse_dice_text
from gui.session import AttackDraft
from rules.errors import RulesError

TARGET_COLUMNS = ("Target", "Dist.", "Hit", "Kill", "Shots", "Cover", "Conceal.", "Dark", "Unaw.", "Geometry")
(COL_TARGET, COL_DIST, COL_HIT, COL_KILL, COL_SHOTS, COL_COVER, COL_CONCEAL, COL_DARK, COL_UNAWARE,
 COL_WHY) = range(len(TARGET_COLUMNS))
#: Darkness per target: "table" takes the table's lighting (the scenario's, or what the turn set).
DARKNESS = ("table", "none", "partial", "total")
ODDS_COLUMNS = ("Target", "Hit", "Kill / shot", "Kill (all shots)", "Roll")
LEVELS = ("none", "partial", "total")


def _pct(x: Any) -> str:
    return f"{float(x):.1%}"


class DiceForm(QWidget):
    """The dice the players rolled, one roll at a time as the rules ask for them (which rolls follow
    depends on the earlier ones: no Damage roll for a miss). Compact: the rolls entered so far on
    one line, then the one roll needed next with its own field."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.done = QLabel()
        self.done.setWordWrap(True)
        self.prompt = QLabel()
        self.edit = QLineEdit()
        self.edit.returnPressed.connect(lambda: self.enter(self.edit.text()))
        self.status = QLabel()
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.prompt)
        row.addWidget(self.edit, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.done)
        layout.addLayout(row)
        layout.addWidget(self.status)
        self.entries: list[Any] = []
        self.entered_text: list[str] = []
        self._need: Any = None
        self._session: Any = None

    @property
    def edits(self) -> list[QLineEdit]:
        return [self.edit]

    def reset(self, session: Any) -> None:
        """Start over for the attack set up in ``session``."""
        self._session = session
        self.entries, self.entered_text = [], []
        self.done.setToolTip("")
        self._advance()

    def _advance(self) -> None:
        self.done.setText("Entered: " + "  ·  ".join(self.entered_text) if self.entered_text else "")
        self.done.setVisible(bool(self.entered_text))
        try:
            need = self._session.dice_needed(self.entries) if self._session is not None else None
        except UsageError as exc:  # nothing to roll for yet (no target ticked): a hint, not an error
            self.status.setText(f"<span style='color:#b0b0b0'>{str(exc)[:1].upper()}{str(exc)[1:]}.</span>")
            self._need = None
            self._show_field(False)
            return
        except (RulesError, ValueError) as exc:
            self.status.setText(f"<span style='color:#ff6b6b'>{exc}</span>")
            self._need = None
            self._show_field(False)
            return
        self._need = need
        if need is None:
            self.status.setText("All dice entered: press Resolve." if self.entries else "")
            self._show_field(False)
            return
        self.status.setText("")
        hint = f"{need.count} dice, each 1-{need.sides}" if need.count > 1 else f"1-{need.sides}"
        if need.count > 1 and not need.each_die:
            hint += f" (or their total, {need.count}-{need.count * need.sides})"
        self.prompt.setText(f"Next: <b>{need.label}</b> ({need.count}d{need.sides})")
        self.edit.clear()
        self.edit.setPlaceholderText(hint)
        self._show_field(True)
        self.edit.setFocus()

    def _show_field(self, on: bool) -> None:
        self.prompt.setVisible(on)
        self.edit.setVisible(on)

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
        self.entered_text.append(f"<span title='{need.label}'>{text.strip()}</span>")
        self.done.setToolTip("\n".join(filter(None, [self.done.toolTip(), f"{need.label}: {text.strip()}"])))
        self.entries = trial
        self._advance()
        return True


class AttackPanel(SessionPanel):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.attacker = QComboBox()
        self.weapon = QComboBox()
        for combo in (self.attacker, self.weapon):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(14)
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
        self.show_all = QCheckBox("List every unit")
        self.show_all.setToolTip("Off: only units the geometry allows as targets (and those ticked)")
        self.targets = QTableWidget(0, len(TARGET_COLUMNS))
        self.targets.setHorizontalHeaderLabels(TARGET_COLUMNS)
        self.targets.verticalHeader().setVisible(False)
        self.targets.verticalHeader().setDefaultSectionSize(28)
        self.targets.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.targets.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.targets.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_WHY, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(36)
        for col, width in ((COL_HIT, 54), (COL_KILL, 54), (COL_SHOTS, 48), (COL_COVER, 72), (COL_CONCEAL, 72),
                           (COL_DARK, 70), (COL_UNAWARE, 42)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(col, width)
        self.targets.setMinimumHeight(150)
        self.odds = QTableWidget(0, len(ODDS_COLUMNS))
        self.odds.setHorizontalHeaderLabels(ODDS_COLUMNS)
        self.odds.verticalHeader().setVisible(False)
        self.odds.verticalHeader().setDefaultSectionSize(22)
        self.odds.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.odds.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.odds.horizontalHeader().setStretchLastSection(True)
        self.odds.setMinimumHeight(70)
        self.virtual = QRadioButton("Virtual dice")
        self.entered = QRadioButton("Players' dice")
        self.virtual.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.virtual)
        group.addButton(self.entered)
        self.dice_form = DiceForm()
        self.dice_form.setVisible(False)
        self.resolve_button = QPushButton("Resolve (Ctrl+Return)")
        self.resolve_button.setMinimumHeight(32)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

        setup = QGridLayout()
        setup.setHorizontalSpacing(8)
        setup.setVerticalSpacing(4)
        setup.addWidget(QLabel("Attacker"), 0, 0)
        setup.addWidget(self.attacker, 0, 1, 1, 3)
        setup.addWidget(QLabel("Weapon"), 1, 0)
        setup.addWidget(self.weapon, 1, 1, 1, 3)
        setup.addWidget(QLabel("Mode"), 2, 0)
        setup.addWidget(self.mode, 2, 1)
        setup.addWidget(QLabel("Payload"), 2, 2)
        setup.addWidget(self.payload, 2, 3)
        setup.addWidget(QLabel("Crew assisting"), 3, 0)
        setup.addWidget(self.crew, 3, 1)
        setup.addWidget(QLabel("Assisting units"), 3, 2)
        setup.addWidget(self.assistants, 3, 3)
        setup.addWidget(self.reaction, 4, 0, 1, 2)
        setup.addWidget(self.untrained, 4, 2, 1, 2)
        setup.addWidget(QLabel("Aim point (B, blast tool)"), 5, 0, 1, 2)
        setup.addWidget(self.aim_label, 5, 2, 1, 2)
        setup.setColumnStretch(1, 1)
        setup.setColumnStretch(3, 1)
        targets_head = QHBoxLayout()
        targets_head.addWidget(QLabel("<b>Targets</b> — tick to attack; hit and kill are the exact odds"))
        targets_head.addStretch(1)
        targets_head.addWidget(self.show_all)
        dice_box = QGroupBox("Dice")
        dice_layout = QVBoxLayout(dice_box)
        dice_layout.setContentsMargins(6, 4, 6, 4)
        row = QHBoxLayout()
        row.addWidget(self.virtual)
        row.addWidget(self.entered)
        row.addStretch(1)
        row.addWidget(self.resolve_button)
        dice_layout.addLayout(row)
        dice_layout.addWidget(self.dice_form)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(6)
        layout.addLayout(setup)
        layout.addLayout(targets_head)
        layout.addWidget(self.targets, 4)
        layout.addWidget(QLabel("<b>Odds</b> in detail (the roll, Advantages and Disadvantages)"))
        layout.addWidget(self.odds, 2)
        layout.addWidget(dice_box)
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
        self.show_all.toggled.connect(self._show_all_changed)
        self.targets.setColumnHidden(COL_WHY, True)  # only targets that can be hit are listed: all "can be hit"
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
        elif kind == "poses":
            self.later(self._refresh_geometry)  # distances, who is in range, odds follow the moves

    def _refresh_geometry(self) -> None:
        """After tracked moves: the same rows (widgets kept) with new distances and reasons, unless
        other units came into range or left it."""
        snap = self.session.snapshot()
        shown = self._shown(snap.proposals)
        if [p.unit_id for p in shown] != self._rows:
            self._rebuild_targets()
        else:
            for row, p in enumerate(shown):
                self._fill_geometry(row, p)
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
            box = self.targets.cellWidget(row, COL_TARGET)
            if isinstance(box, QCheckBox) and box.isChecked():
                out.append(uid)
        return out

    def set_target(self, unit_id: int, *, ticked: bool = True, shots: int | None = None, cover: str | None = None,
                   concealment: str | None = None, unaware: bool | None = None, darkness: str | None = None) -> None:
        """Set a target row as a player would (used by tests and keyboard shortcuts)."""
        if unit_id not in self._rows:
            raise UsageError(f"unit {unit_id} is not listed as a target of this weapon: "
                             f"{', '.join(str(r) for r in self._rows) or 'none is'} (tick 'List every unit' to see all)")
        row = self._rows.index(unit_id)
        self._building = True
        try:
            self.targets.cellWidget(row, COL_TARGET).setChecked(ticked)
            if shots is not None:
                self.targets.cellWidget(row, COL_SHOTS).setValue(shots)
            if cover is not None:
                self.targets.cellWidget(row, COL_COVER).setCurrentText(cover)
            if concealment is not None:
                self.targets.cellWidget(row, COL_CONCEAL).setCurrentText(concealment)
            if unaware is not None:
                self.targets.cellWidget(row, COL_UNAWARE).setChecked(unaware)
            if darkness is not None:
                self.targets.cellWidget(row, COL_DARK).setCurrentText(darkness)
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
            per[tid] = self._row_declarations(row)
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
            if draft is not None and set(self.ticked()) != set(draft.target_ids):
                # a ticked target left the list (it went down, or another weapon cannot reach it)
                self._setup_changed()
                return
        aim = draft.aim_point if draft else None
        self.aim_label.setText("—" if aim is None else f"({aim[0]:.1f}, {aim[1]:.1f})")
        self._show_odds()
        if self.entered.isChecked():
            self.dice_form.reset(self.session)

    def _shown(self, proposals: Any) -> list[Any]:
        ticked = set(self.ticked())
        return [p for p in proposals if self.show_all.isChecked() or p.eligible or p.unit_id in ticked]

    def _show_all_changed(self, on: bool) -> None:
        self.targets.setColumnHidden(COL_WHY, not on)  # why a unit cannot be hit, when those are listed
        self._rebuild_targets()

    def _fill_geometry(self, row: int, p: Any) -> None:
        dist = QTableWidgetItem(f'{p.distance_in:.1f}"')
        dist.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        why = QTableWidgetItem("can be hit" if p.eligible else p.reason)
        why.setForeground(QColor("#7be3a0" if p.eligible else "#c0c0c0"))
        why.setToolTip("can be hit" if p.eligible else p.reason)
        self.targets.setItem(row, COL_DIST, dist)
        self.targets.setItem(row, COL_WHY, why)

    def _rebuild_targets(self) -> None:
        snap = self.session.snapshot()
        keep = set(self.ticked())
        keep_decl = {uid: self._row_declarations(row) for row, uid in enumerate(self._rows)}
        shown = self._shown(snap.proposals)
        self._building = True
        try:
            for row in range(self.targets.rowCount()):
                for col in range(self.targets.columnCount()):
                    old_widget = self.targets.cellWidget(row, col)
                    if old_widget is not None:
                        old_widget.hide()  # deleted later by Qt; never drawn over the new rows meanwhile
                        self.targets.removeCellWidget(row, col)
            self.targets.setRowCount(len(shown))
            self._rows = []
            for row, p in enumerate(shown):
                self._rows.append(p.unit_id)
                box = QCheckBox(p.name)
                box.setToolTip("can be hit" if p.eligible else p.reason)
                if not p.eligible:
                    box.setStyleSheet("color: #a0a0a0")
                box.setChecked(p.unit_id in keep)
                box.toggled.connect(lambda _: self._setup_changed())
                self.targets.setCellWidget(row, COL_TARGET, box)
                self._fill_geometry(row, p)
                for col in (COL_HIT, COL_KILL):
                    self.targets.setItem(row, col, QTableWidgetItem(""))
                shots = QSpinBox()
                shots.setRange(1, 12)
                self.targets.setCellWidget(row, COL_SHOTS, shots)
                for col in (COL_COVER, COL_CONCEAL, COL_DARK):
                    combo = QComboBox()
                    combo.addItems(DARKNESS if col == COL_DARK else LEVELS)
                    self.targets.setCellWidget(row, col, combo)
                unaware = QCheckBox()
                self.targets.setCellWidget(row, COL_UNAWARE, unaware)
                old = keep_decl.get(p.unit_id)
                if old is not None:
                    shots.setValue(old["shots"])
                    self.targets.cellWidget(row, COL_COVER).setCurrentText(old["cover"])
                    self.targets.cellWidget(row, COL_CONCEAL).setCurrentText(old["concealment"])
                    self.targets.cellWidget(row, COL_DARK).setCurrentText(old["darkness"])
                    unaware.setChecked(old["unaware"])
                shots.valueChanged.connect(lambda _: self._setup_changed())
                for col in (COL_COVER, COL_CONCEAL, COL_DARK):
                    self.targets.cellWidget(row, col).currentIndexChanged.connect(lambda _: self._setup_changed())
                unaware.toggled.connect(lambda _: self._setup_changed())
        finally:
            self._building = False
        self._show_odds()

    def _row_declarations(self, row: int) -> dict[str, Any]:
        return {"shots": self.targets.cellWidget(row, COL_SHOTS).value(),
                "cover": self.targets.cellWidget(row, COL_COVER).currentText(),
                "concealment": self.targets.cellWidget(row, COL_CONCEAL).currentText(),
                "darkness": self.targets.cellWidget(row, COL_DARK).currentText(),
                "unaware": self.targets.cellWidget(row, COL_UNAWARE).isChecked()}

    def _show_odds(self) -> None:
        snap = self.session.snapshot()
        if snap.odds_error:
            self.message.setText(f"<span style='color:#ff6b6b'>{snap.odds_error}</span>")
        by_target = {o.unit_id: o for o in snap.odds}
        for row, uid in enumerate(self._rows):
            o = by_target.get(uid)
            hit = _pct(o.p_hit) if o is not None and o.allowed else ("no shot" if o is not None else "")
            kill = _pct(o.p_kill_any) if o is not None and o.allowed else ""
            for col, text in ((COL_HIT, hit), (COL_KILL, kill)):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                item.setForeground(QColor("#ffe14d"))
                if o is not None and not o.allowed:
                    item.setToolTip(o.reason)
                self.targets.setItem(row, col, item)
        self.odds.setRowCount(len(snap.odds))
        for row, o in enumerate(snap.odds):
            roll = o.roll + (f" ({', '.join(o.advantages + o.disadvantages)})" if o.advantages or o.disadvantages else "")
            values = (o.name, _pct(o.p_hit), _pct(o.p_kill), _pct(o.p_kill_any) + (f" ({o.shots} shots)" if o.shots > 1 else ""),
                      roll if o.allowed else f"not allowed: {o.reason}")
            for col, text in enumerate(values):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.odds.setItem(row, col, item)

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
                box = self.targets.cellWidget(row, COL_TARGET)
                if isinstance(box, QCheckBox):
                    box.setChecked(False)
        if self.entered.isChecked():
            self.dice_form.reset(self.session)
