"""The attack panel of a rule system with its own procedure (Force on Force, the generic rules), built
from what the ruleset declares and says of its odds -- Down Range's panel (attack_panel.py) knows its
declarations by heart; this one asks the ruleset.

* **Force on Force**: a unit (named by any of its figures) fires at one unit. Every other unit is
  listed with its line-of-fire verdict (friends in the line, firing over heads...); the declarations
  are the test and each side's die, die shifts and modifier, line of sight and how many figures see;
  the odds are the firing unit winning its test ("Wins": the excerpt stops before what a win does),
  with the three outcomes in detail; the line of sight and who stands in the 2" line of fire are
  listed under the targets.
* **The generic rules**: a unit's weapon (or close combat) at one unit, or an area weapon at an aim
  point (the blast tool, B); every unit's range band and to-hit number; "Caught" and "Destroyed" per
  unit the shot can reach (scatter included), or close combat's rounds; a shift of range levels.

The column titles and the odds labels on the table come from the ruleset's
:class:`~rules.ruleset.OddsLegend` (``Snapshot.odds_legend``). Dice: virtual, or the players' dice
typed in one roll at a time, each checked against its die (Down Range's :class:`DiceForm`)."""
from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QCheckBox, QGroupBox, QHBoxLayout, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from appmodel.errors import UsageError
from gui.panels.attack_common import (COL_HIT, COL_KILL, COL_TARGET, ODDS_COLOR, AttackPanelBase, odds_cell,
                                      setup_grid)
from gui.panels.tables import read_only_table
from gui.panels.declaration_form import DeclarationForm
from appmodel.game_session import AttackDraft
from rules.errors import RulesError
from rules.terrain_sight import GroundSightProposals

TARGET_COLUMNS = ("Target", "Dist.", "Hit", "Kill", "Geometry")
COL_WHY = TARGET_COLUMNS.index("Geometry")
ODDS_COLUMNS = ("Target", "Outcome", "Exact odds")


class CompactTable(QTableWidget):
    """A table that asks for no more height than its minimum: the panel's scroll area sizes the panel
    by its hint, so Qt's default (192 px per table) would push the dice and Resolve out of sight;
    the layout's stretch still gives the tables whatever room is left."""

    def sizeHint(self) -> Any:  # Qt's name
        hint = super().sizeHint()
        hint.setHeight(self.minimumHeight())
        return hint


def exact_text(p: Any) -> str:
    """A probability as players read it, with its exact fraction.

    >>> from fractions import Fraction
    >>> exact_text(Fraction(7, 16)), exact_text(Fraction(1)), exact_text(Fraction(0))
    ('43.8% (7/16)', '100%', '0%')
    """
    f = float(p)
    if f in (0.0, 1.0):
        return f"{f:.0%}"
    return f"{f:.1%} ({p})"


class RulesetAttackPanel(AttackPanelBase):
    """The attack set up for one ruleset's own procedure: attacker, weapon, the declarations the
    ruleset offers, the targets the geometry proposes with their odds, the odds in detail, the dice."""

    why_column = COL_WHY
    resolve_without_dice = True

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        ruleset = session.ruleset
        self.grouped = ruleset.has_groups
        declarations = ruleset.declarations()
        self.declared = DeclarationForm([d for d in declarations if d.scope == "attack"], changed=self._setup_changed)
        self.target_form = DeclarationForm([d for d in declarations if d.scope == "target"],
                                           changed=self._target_declared)
        self.target_box = QGroupBox("The target")
        QVBoxLayout(self.target_box).addWidget(self.target_form)
        self.target_box.setVisible(False)
        for box in (self.target_box,):
            box.layout().setContentsMargins(6, 2, 6, 2)
        self.aim_title = QLabel("Aim point (B)")
        self.show_all.setToolTip("Off: only units that may be attacked (and those ticked)")
        self.targets = read_only_table(TARGET_COLUMNS, cls=CompactTable, row_px=22, stretch=(COL_WHY,), min_px=88)
        self.geometry_label = QLabel()
        self.geometry_label.setWordWrap(True)
        self.odds = read_only_table(ODDS_COLUMNS, cls=CompactTable, row_px=22, select="cells", stretch_last=True,
                                    min_px=70)

        setup = setup_grid(self.attacker, self.weapon)
        setup.addWidget(self.aim_title, 2, 0)
        setup.addWidget(self.aim_label, 2, 1)
        self.aim_label.setToolTip("Pick it with the blast tool (B) on the table view; it is used when no target "
                                  "is ticked")
        setup.setColumnStretch(1, 1)
        declared_box = QGroupBox("The attacker")
        declared_box.setToolTip(f"What {ruleset.title} lets the players declare for the attacker")
        QVBoxLayout(declared_box).addWidget(self.declared)
        declared_box.layout().setContentsMargins(6, 2, 6, 2)
        declared_box.setVisible(bool(self.declared.declarations))
        self.declared_box = declared_box
        # The attacker's and the target's declarations side by side (an opposed test reads across).
        declarations = QHBoxLayout()
        declarations.addWidget(declared_box, 1)
        declarations.addWidget(self.target_box, 1)
        self.targets_title = QLabel()
        # The tick box under the title, not beside it: side by side they were wider than the panel on a
        # 1366x768 screen, which cut the box off.
        targets_head = QVBoxLayout()
        targets_head.addWidget(self.targets_title)
        show_all_row = QHBoxLayout()
        show_all_row.addWidget(self.show_all)
        show_all_row.addStretch(1)
        targets_head.addLayout(show_all_row)
        self.lay_out(setup, targets_head, (self.targets, 2), self.geometry_label, declarations,
                     QLabel("<b>Odds</b> in detail: every outcome of the procedure, exactly"), (self.odds, 2), spacing=4)

        #: What the players declared per target (kept while the target stays listed).
        self._target_decl: dict[int, dict[str, Any]] = {}
        #: What the relief proposed for the target just ticked (shown after the refresh), or "".
        self._ground_note = ""
        #: The ticked target whose declarations the target box shows.
        self._focus: int | None = None
        self.show_all.toggled.connect(lambda _: self._rebuild_targets())
        self.start()

    # -- attacker and weapon --------------------------------------------------------------------
    def _attacker_of(self, unit_id: int) -> int:
        """The id an attack names ``unit_id``'s unit by (a fireteam's lowest tag; the tag itself otherwise)."""
        group = self.session.group_of(unit_id) if self.grouped else None
        return group.group_id if group is not None else unit_id

    def _attackers(self) -> list[tuple[str, int]]:
        if not self.grouped:
            return super()._attackers()
        fighting = {u.unit_id for u in self.session.units() if u.on_table and u.status == "active" and u.weapons}
        return [(f"{g.name} ({g.side}, {len(g.member_ids)} figure{'s' if len(g.member_ids) != 1 else ''})", g.group_id)
                for g in self.session.groups() if g.status == "active" and fighting & set(g.member_ids)]

    def weapon_label(self, w: Any) -> str:
        return weapon_text(w)

    # -- the draft ------------------------------------------------------------------------------
    def draft(self) -> AttackDraft | None:
        uid, name = self.attacker.currentData(), self.weapon.currentData()
        if uid is None or name is None:
            return None
        targets = self.ticked()
        wv = self._weapon_view()
        # An area weapon is aimed at the blast point only when no unit is ticked as its target.
        aim = self.session.snapshot().blast_point if (wv is not None and wv.radius_in and not targets) else None
        per = {tid: dict(self._target_decl.get(tid, {})) for tid in targets}
        return AttackDraft(int(uid), str(name), tuple(targets), self.declared.values(), per, aim)

    def set_target(self, unit_id: int, *, ticked: bool = True, **declarations: Any) -> None:
        """Tick (or untick) a target row and set its declarations as a player would (tests, shortcuts)."""
        if unit_id not in self._rows:
            raise UsageError(f"unit {unit_id} is not listed as a target: "
                             f"{', '.join(str(r) for r in self._rows) or 'none is'} (tick 'List every unit' to see all)")
        box = self.targets.cellWidget(self._rows.index(unit_id), COL_TARGET)
        box.setChecked(ticked)
        for key, value in declarations.items():
            self.target_form.set_value(key, value)

    def _setup_shown(self) -> None:
        name = self.attacker.currentText().split(" (")[0]
        self.declared_box.setTitle(f"The attacker: {name}" if name else "The attacker")
        wv = self._weapon_view()
        area = wv is not None and bool(wv.radius_in)
        self.aim_title.setVisible(area)
        self.aim_label.setVisible(area)

    def _distance_tip(self) -> str:
        return "centre to centre" if self.grouped else "base to base"

    def _geometry_words(self, p: Any) -> str:
        return p.reason or ("clear" if p.eligible else "cannot be attacked")

    def _rebuild_targets(self) -> None:
        snap = self.session.snapshot()
        keep = set(self.ticked())
        shown = self._shown(snap.proposals)
        names = {u.unit_id: u.name for u in snap.units}
        with self.quietly():
            self._clear_target_rows()
            self.targets.setRowCount(len(shown))
            self._rows = []
            for row, p in enumerate(shown):
                self._rows.append(p.unit_id)
                label = p.name + (f" ({len(p.members)} figures)" if len(p.members) > 1 else "")
                tip = p.reason or ("may be attacked" if p.eligible else "")
                if p.members:
                    tip += ("\n" if tip else "") + "Figures: " + ", ".join(names.get(m, str(m)) for m in p.members)
                box = self._target_box(label, tip, eligible=p.eligible, ticked=p.unit_id in keep)
                box.toggled.connect(lambda on, uid=p.unit_id: self._ticked(uid, on))
                self.targets.setCellWidget(row, COL_TARGET, box)
                self._fill_geometry(row, p)
                for col in (COL_HIT, COL_KILL):
                    self.targets.setItem(row, col, QTableWidgetItem(""))
        for uid in list(self._target_decl):
            if uid not in self._rows:
                del self._target_decl[uid]
        if self._focus not in self.ticked():
            self._focus = next(iter(self.ticked()), None)
        self._show_target_box()
        self._show_odds()

    def _ticked(self, unit_id: int, on: bool) -> None:
        if self._building:
            return
        if on:
            limit = self.session.snapshot().odds_legend.max_targets
            if limit == 1:  # one target per attack: ticking another moves the attack to it
                with self.quietly():
                    for row, uid in enumerate(self._rows):
                        box = self.targets.cellWidget(row, COL_TARGET)
                        if uid != unit_id and isinstance(box, QCheckBox) and box.isChecked():
                            box.setChecked(False)
            self._focus = unit_id
            self._ground_note = ""
            if unit_id not in self._target_decl:
                self._propose_from_ground(unit_id)
        elif self._focus == unit_id:
            self._focus = next(iter(self.ticked()), None)
        self._show_target_box()
        self._setup_changed()
        if on and self._ground_note:
            self.message.setText(self._ground_note)  # after the refresh, which clears the message line

    def _propose_from_ground(self, unit_id: int) -> None:
        """With the relief known, a newly ticked target's line-of-sight declarations start at what the
        ground says (players confirm or change them in the form); the reason goes in the status line."""
        ground = self.session.ground
        ruleset = self.session.ruleset
        attacker = self.attacker.currentData()
        if ground is None or attacker is None or not isinstance(ruleset, GroundSightProposals):
            return
        from appmodel.game_session import AttackDraft

        try:
            proposal = ruleset.propose_from_ground(self.session.state, AttackDraft(int(attacker), "", (unit_id,)).request(), ground)
        except (KeyError, ValueError, LookupError):
            return
        keys = {d.key for d in self.target_form.declarations}
        values = {k: v for k, v in proposal.targets.get(unit_id, {}).items() if k in keys}
        if values:
            self._target_decl[unit_id] = values
            self._ground_note = f"From the ground: {proposal.reasons.get(unit_id, '')} (proposed; change it if the table says otherwise)"

    def _show_target_box(self) -> None:
        on = bool(self.target_form.declarations) and self._focus is not None
        self.target_box.setVisible(on)
        if on and self._focus is not None:
            name = next((p.name for p in self.session.snapshot().proposals if p.unit_id == self._focus), str(self._focus))
            self.target_box.setTitle(f"The target: {name}")
            self.target_form.set_values(self._target_decl.get(self._focus, {}))

    def _target_declared(self) -> None:
        if self._focus is not None:
            self._target_decl[self._focus] = self.target_form.values()
            self._setup_changed()

    # -- odds -----------------------------------------------------------------------------------
    def _show_odds(self) -> None:
        snap = self.session.snapshot()
        legend = snap.odds_legend
        if snap.odds_error:
            self.show_error(snap.odds_error)
        one = "tick one to attack" if legend.max_targets == 1 else "tick to attack"
        kill = f" and {legend.kill}" if legend.kill else ""
        self.targets_title.setText(f"<b>Targets</b> — {one}; {legend.hit}{kill}: the exact odds")
        for col, word, help_text in ((COL_HIT, legend.hit, legend.hit_help), (COL_KILL, legend.kill, legend.kill_help)):
            item = QTableWidgetItem((word or "").capitalize())
            item.setToolTip(help_text)
            self.targets.setHorizontalHeaderItem(col, item)
        self.targets.setColumnHidden(COL_KILL, legend.kill is None)
        by_target = {o.unit_id: o for o in snap.odds}
        for row, uid in enumerate(self._rows):
            o = by_target.get(uid)
            values = dict(legend.values(o)) if o is not None and o.allowed else {}
            for col, word in ((COL_HIT, legend.hit), (COL_KILL, legend.kill)):
                if o is None:
                    text = ""
                elif not o.allowed:
                    text = legend.refused if col == COL_HIT else ""
                else:
                    text = f"{float(values[word]):.1%}" if word in values else ""
                self.targets.setItem(row, col, odds_cell(text, o.reason if o is not None and not o.allowed else
                                                         (legend.hit_help if col == COL_HIT else legend.kill_help)))
        rows: list[tuple[str, str, str, str]] = []
        for o in snap.odds:
            if not o.allowed:
                rows.append((o.name, legend.refused, o.reason, o.reason))
                continue
            outcomes = o.outcomes or tuple((word, p) for word, p in legend.values(o))
            for label, p in outcomes:
                rows.append((o.name, label, exact_text(p), o.reason))
        self.odds.setRowCount(len(rows))
        for r, values in enumerate(rows):
            for col, text in enumerate(values[:3]):
                item = QTableWidgetItem(text)
                item.setToolTip(values[3] or text)
                if col == 2:
                    item.setForeground(QColor(ODDS_COLOR))
                self.odds.setItem(r, col, item)
        self.geometry_label.setText(self._geometry_text(snap))

    def _geometry_text(self, snap: Any) -> str:
        """The drafted attack's shapes in words: line of sight, who is in the line of fire, the area of
        effect and where a miss may land (drawn on the table by the "other shapes" overlay)."""
        ruleset, draft = snap.ruleset, snap.draft
        if draft is None or not (draft.target_ids or draft.aim_point):
            return ""
        try:
            shapes = ruleset.attack_overlays(snap.state, draft.request())
        except (RulesError, ValueError):
            return ""
        lines = []
        for o in shapes:
            label = o.label if o.label.lower().startswith(o.kind) else f"{o.kind}: {o.label}"
            lines.append(label[:1].upper() + label[1:])
        return "<br>".join(lines)

    def target_cells(self, unit_id: int) -> dict[str, str]:
        """A target row as shown, by column title (the odds columns under the ruleset's words)."""
        row = self._rows.index(unit_id)
        out = {}
        for col in range(self.targets.columnCount()):
            if self.targets.isColumnHidden(col):
                continue
            title = self.targets.horizontalHeaderItem(col).text()
            widget = self.targets.cellWidget(row, col)
            item = self.targets.item(row, col)
            out[title] = widget.text() if isinstance(widget, QCheckBox) else (item.text() if item is not None else "")
        return out

    # -- dice and resolving ---------------------------------------------------------------------
    def _resolved(self, result: Any) -> None:
        with self.quietly():
            self._untick_all()
        self._focus = None
        self._show_target_box()
        self._setup_changed()  # the odds were for before the roll; the outcome is in the message and the log
        self.message.setText("<br>".join(result.sentences[-6:]))


def weapon_text(w: Any) -> str:
    """A weapon as the drop-down lists it: range, area of effect, shots left, damage.

    >>> from rules.ruleset import WeaponView
    >>> weapon_text(WeaponView("Mortar", 36.0, None, "2", None, 3.0, 8))
    'Mortar  (R 36", AoE 3", 8 shots left, damage 2)'
    >>> weapon_text(WeaponView("Fire", float("inf"), 4, "Firepower 4"))
    'Fire  (Firepower 4)'
    """
    import math

    parts = []
    if math.isfinite(w.range_in) and w.range_in > 0:
        parts.append(f'R {w.range_in:g}"')
    if w.radius_in:
        parts.append(f'AoE {w.radius_in:g}"')
    if w.ammo_left is not None:
        parts.append(f"{w.ammo_left} shot{'s' if w.ammo_left != 1 else ''} left")
    if w.damage:
        parts.append(f"damage {w.damage}" if str(w.damage).isdigit() else str(w.damage))
    return w.name + (f"  ({', '.join(parts)})" if parts else "")
