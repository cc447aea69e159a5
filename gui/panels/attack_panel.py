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

from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QSpinBox,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from appmodel.errors import UsageError
from gui.panels.attack_common import (COL_HIT, COL_KILL, COL_TARGET, AttackPanelBase, odds_cell,
                                      setup_grid)
from gui.panels.tables import read_only_table
from appmodel.game_session import AttackDraft

TARGET_COLUMNS = ("Target", "Dist.", "Hit", "Kill", "Shots", "Cover", "Conceal.", "Dark", "Unaw.", "Geometry")
COL_SHOTS, COL_COVER, COL_CONCEAL, COL_DARK, COL_UNAWARE, COL_WHY = range(COL_KILL + 1, len(TARGET_COLUMNS))
#: Darkness per target: "table" takes the table's lighting (the scenario's, or what the turn set).
DARKNESS = ("table", "none", "partial", "total")
ODDS_COLUMNS = ("Target", "Hit", "Kill / shot", "Kill (all shots)", "Roll")
LEVELS = ("none", "partial", "total")


def _pct(x: Any) -> str:
    return f"{float(x):.1%}"


class AttackPanel(AttackPanelBase):
    """Down Range's attack: mode, payload, crew and assisting units, the Reaction, and per target its
    shots, cover, concealment, darkness and whether it is unaware."""

    why_column = COL_WHY

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.mode = QComboBox()
        self.mode.addItems(["attack", "suppress"])
        self.payload = QComboBox()
        self.crew = QSpinBox()
        self.crew.setRange(0, 8)
        self.assistants = QLineEdit()
        self.assistants.setPlaceholderText("tag ids, e.g. 12")
        self.reaction = QCheckBox("Use the ready Reaction")
        self.untrained = QCheckBox("Not trained on the weapon")
        #: with the relief known: line of sight and partial cover proposed from the ground (untick to judge by eye)
        self.from_ground = QCheckBox("Sight from the ground")
        self.from_ground.setToolTip("The scanned relief proposes each target's line of sight and partial cover; "
                                    "untick to judge them by eye")
        self.from_ground.setChecked(True)
        self._ground_sight: dict[int, Any] = {}
        self.show_all.setToolTip("Off: only units the geometry allows as targets (and those ticked)")
        self.targets = read_only_table(TARGET_COLUMNS, row_px=28, stretch=(COL_WHY,), min_px=100)
        header = self.targets.horizontalHeader()
        header.setMinimumSectionSize(36)
        for col, width in ((COL_HIT, 54), (COL_KILL, 54), (COL_SHOTS, 48), (COL_COVER, 72), (COL_CONCEAL, 72),
                           (COL_DARK, 70), (COL_UNAWARE, 42)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(col, width)
        self.odds = read_only_table(ODDS_COLUMNS, row_px=22, select="cells", stretch_last=True, min_px=56)

        setup = setup_grid(self.attacker, self.weapon, span=3)
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
        # The title over its two tick boxes, not beside them: side by side they were wider than the panel
        # on a 1366x768 screen, which cut off the right-hand fields.
        targets_head = QVBoxLayout()
        # (Not word-wrapped: a wrapping label makes the scroll area lay the panel out at its preferred height.)
        targets_head.addWidget(QLabel("<b>Targets</b> — tick to attack; hit and kill are the exact odds"))
        targets_options = QHBoxLayout()
        targets_options.addWidget(self.from_ground)
        targets_options.addWidget(self.show_all)
        targets_options.addStretch(1)
        targets_head.addLayout(targets_options)
        self.lay_out(setup, targets_head, (self.targets, 4),
                     QLabel("<b>Odds</b> in detail (the roll, Advantages and Disadvantages)"), (self.odds, 2), spacing=6)

        for w in (self.mode, self.payload):
            w.currentIndexChanged.connect(lambda _: self._setup_changed())
        self.crew.valueChanged.connect(lambda _: self._setup_changed())
        self.assistants.editingFinished.connect(self._setup_changed)
        self.reaction.toggled.connect(lambda _: self._setup_changed())
        self.untrained.toggled.connect(lambda _: self._setup_changed())
        self.show_all.toggled.connect(self._show_all_changed)
        self.from_ground.toggled.connect(lambda _: self._setup_changed())
        self.targets.setColumnHidden(COL_WHY, True)  # only targets that can be hit are listed: all "can be hit"
        self.start()

    # -- attacker and weapon --------------------------------------------------------------------
    def weapon_label(self, w: Any) -> str:
        ammo = "" if w.ammo_left is None else f", ammo {w.ammo_left}"
        return (f"{w.name}  (R {w.range_in:g}\"{', Fan ' + str(w.fan) if w.fan else ''}"
                f"{', Radius ' + format(w.radius_in, 'g') + chr(34) if w.radius_in else ''}{ammo})")

    def _fallback_weapon(self) -> str | None:
        return self.session.snapshot().selected_weapon

    def _fill_weapons(self) -> None:
        super()._fill_weapons()
        with self.quietly():
            payloads = ()
            wv = self._weapon_view()
            if wv is not None:
                payloads = wv.payloads
            self.payload.clear()
            self.payload.addItems(list(payloads) or ["HE"])
            self.payload.setEnabled(bool(payloads))

    # -- the draft ------------------------------------------------------------------------------
    def set_target(self, unit_id: int, *, ticked: bool = True, shots: int | None = None, cover: str | None = None,
                   concealment: str | None = None, unaware: bool | None = None, darkness: str | None = None) -> None:
        """Set a target row as a player would (used by tests and keyboard shortcuts)."""
        if unit_id not in self._rows:
            raise UsageError(f"unit {unit_id} is not listed as a target of this weapon: "
                             f"{', '.join(str(r) for r in self._rows) or 'none is'} (tick 'List every unit' to see all)")
        row = self._rows.index(unit_id)
        with self.quietly():
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

    # -- the targets table ----------------------------------------------------------------------
    def _show_all_changed(self, on: bool) -> None:
        self.targets.setColumnHidden(COL_WHY, not on)  # why a unit cannot be hit, when those are listed
        self._rebuild_targets()

    def _rebuild_targets(self) -> None:
        snap = self.session.snapshot()
        keep = set(self.ticked())
        keep_decl = {uid: self._row_declarations(row) for row, uid in enumerate(self._rows)}
        shown = self._shown(snap.proposals)
        with self.quietly():
            self._clear_target_rows()
            self.targets.setRowCount(len(shown))
            self._rows = []
            for row, p in enumerate(shown):
                self._rows.append(p.unit_id)
                box = self._target_box(p.name, "can be hit" if p.eligible else p.reason, eligible=p.eligible,
                                       ticked=p.unit_id in keep)
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
                proposal = self._ground_proposal(p.unit_id)
                if old is None and proposal is not None and proposal.partly_hidden:
                    self.targets.cellWidget(row, COL_COVER).setCurrentText("partial")
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
        self._show_odds()

    def _ground_proposal(self, unit_id: int) -> Any:
        """What the ground says about the selected attacker seeing ``unit_id`` (None without a relief)."""
        ground = self.session.ground
        attacker = self.attacker.currentData()
        if ground is None or attacker is None or not self.from_ground.isChecked():
            return None
        from rules.terrain_sight import propose_sight

        try:
            a, t = self.session.unit(int(attacker)), self.session.unit(unit_id)
        except (KeyError, LookupError, ValueError, UsageError):
            return None
        if a is None or t is None:
            return None
        proposal = propose_sight(ground, (a.x_in, a.y_in), (t.x_in, t.y_in))
        self._ground_sight[unit_id] = proposal
        box = self.targets.cellWidget(self._rows.index(unit_id), COL_TARGET) if unit_id in self._rows else None
        if box is not None:
            box.setToolTip(f"{box.toolTip()}\nfrom the ground: {proposal.reason}".strip())
        return proposal

    def _row_declarations(self, row: int) -> dict[str, Any]:
        ground = self._ground_sight.get(self._rows[row]) if row < len(self._rows) and self.from_ground.isChecked() else None
        if ground is not None and not ground.line_of_sight:
            return {**self._row_core(row), "line_of_sight": False}
        return self._row_core(row)

    def _row_core(self, row: int) -> dict[str, Any]:
        return {"shots": self.targets.cellWidget(row, COL_SHOTS).value(),
                "cover": self.targets.cellWidget(row, COL_COVER).currentText(),
                "concealment": self.targets.cellWidget(row, COL_CONCEAL).currentText(),
                "darkness": self.targets.cellWidget(row, COL_DARK).currentText(),
                "unaware": self.targets.cellWidget(row, COL_UNAWARE).isChecked()}

    # -- odds -----------------------------------------------------------------------------------
    def _show_odds(self) -> None:
        snap = self.session.snapshot()
        if snap.odds_error:
            self.show_error(snap.odds_error)
        by_target = {o.unit_id: o for o in snap.odds}
        for row, uid in enumerate(self._rows):
            o = by_target.get(uid)
            hit = _pct(o.p_hit) if o is not None and o.allowed else ("no shot" if o is not None else "")
            kill = _pct(o.p_kill_any) if o is not None and o.allowed else ""
            tip = o.reason if o is not None and not o.allowed else None
            for col, text in ((COL_HIT, hit), (COL_KILL, kill)):
                self.targets.setItem(row, col, odds_cell(text, tip))
        self.odds.setRowCount(len(snap.odds))
        for row, o in enumerate(snap.odds):
            roll = o.roll + (f" ({', '.join(o.advantages + o.disadvantages)})" if o.advantages or o.disadvantages else "")
            if o.allowed:
                values = (o.name, _pct(o.p_hit), _pct(o.p_kill),
                          _pct(o.p_kill_any) + (f" ({o.shots} shots)" if o.shots > 1 else ""), roll)
            else:  # no odds to give: the rules refuse the shot (0.0% read as a shot with no chance)
                values = (o.name, "not allowed", "—", "—", o.reason)
            for col, text in enumerate(values):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.odds.setItem(row, col, item)

    # -- dice and resolving ---------------------------------------------------------------------
    def _resolved(self, result: Any) -> None:
        self.message.setText("<br>".join(result.sentences[-3:]))
        self._untick_all()  # each untick drafts the attack again, as a player's click would
