"""The attack at the table, for every rule system: one declaration panel built from what the ruleset
gives as data (:meth:`rules.ruleset.Ruleset.attack_form`, :class:`rules.ruleset.FrontEnd`,
:class:`rules.ruleset.OddsLegend`); it names no rule system.

Top to bottom: attacker and weapon (the attacker follows the selection on the map), the aim point of
an area weapon (the blast tool, B), the attacker's declarations (Down Range's mode, payload, the units
proposed by name as assistants from who stands within reach, crew, Reaction; Force on Force's test and
dice), the targets the geometry proposes -- each row with its distance, its exact odds, the target
declarations the ruleset shows as columns (Down Range's shots and cover) and why it may or may not be
attacked --, a box with the other declarations of the target picked (a click on its row picks it:
Down Range's concealment, darkness, unaware...; Force on Force's die and shifts), the odds in detail, and the dice (virtual or the players', typed in
one roll at a time, each checked against its die) with Resolve. With the relief scanned, a target
ticked starts with the line of sight and cover the ground proposes (untick "Sight from the ground" to
judge by eye). While units are carried across the table the distances, proposals and odds follow."""
from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QCheckBox, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from appmodel.errors import UsageError
from appmodel.game_session import AttackDraft
from gui.panels.attack_common import (COL_HIT, COL_KILL, COL_TARGET, ODDS_COLOR, AttackPanelBase, odds_cell, set_cell,
                                      setup_grid)
from gui.panels.declaration_form import (FORM_KINDS, DeclarationForm, declaration_widget, short_label, show_value,
                                        widget_value)
from gui.panels.tables import (column_widths, fit_to_rows, fit_to_title, read_only_table, title_px, words_and_line_px,
                               wrap_words, wrapped_lines)
from rules.errors import RulesError
from rules.ruleset import front_end
from rules.terrain_sight import GroundSightProposals

#: The odds in detail: one row per outcome of the procedure, or per target with its roll (shots per target).
OUTCOME_COLUMNS = ("Target", "Outcome", "Exact odds")
#: A wrapped reason's room besides its text in its cell (the cell's margins).
REASON_PADDING_PX = 8
#: A reason's lines at most (the whole of it in its tooltip): Force on Force's line-of-fire warning takes four,
#: "Damage 2d8 cannot hurt Defense 2d10" six in the narrow column beside every unit listed at 1366x768.
REASON_LINES = 7
#: The message line after Resolve.
RESOLVED_POINTER = "Resolved: the outcome is on the result card and in the Log."
SHOT_COLUMNS = ("Target", "Hit", "Kill / shot", "Kill (all shots)", "Roll")


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


def weapon_text(w: Any) -> str:
    """A weapon as the drop-down lists it: range, fan, area of effect, shots left, damage.

    >>> from rules.ruleset import WeaponView
    >>> weapon_text(WeaponView("Mortar", 36.0, None, "2", None, 3.0, 8))
    'Mortar  (R 36", AoE 3", 8 shots left, damage 2)'
    >>> weapon_text(WeaponView("Fire", float("inf"), 4, "Firepower 4"))
    'Fire  (Firepower 4)'
    >>> weapon_text(WeaponView("M249", 30.0, 6, "1d6", 3))
    'M249  (R 30", Fan 3, damage 1d6)'
    """
    parts = []
    if math.isfinite(w.range_in) and w.range_in > 0:
        parts.append(f'R {w.range_in:g}"')
    if w.fan:
        parts.append(f"Fan {w.fan}")
    if w.radius_in:
        parts.append(f'AoE {w.radius_in:g}"')
    if w.ammo_left is not None:
        parts.append(f"{w.ammo_left} shot{'s' if w.ammo_left != 1 else ''} left")
    if w.damage:
        parts.append(f"damage {w.damage}" if str(w.damage).isdigit() else str(w.damage))
    return w.name + (f"  ({', '.join(parts)})" if parts else "")


def _replaced(box: QGroupBox, old: DeclarationForm, declarations: tuple[Any, ...], changed: Any) -> DeclarationForm:
    """A new form for ``declarations`` in ``box``, where ``old`` was (deleted by Qt later, hidden now)."""
    box.layout().removeWidget(old)
    old.hide()
    old.deleteLater()
    form = DeclarationForm(declarations, changed=changed)
    box.layout().addWidget(form)
    if not box.isHidden():
        form.show()  # now: a layout shows a widget added to a shown box only later, and the box was painted blank meanwhile
    return form


class AttackPanel(AttackPanelBase):
    """The attack set up for any ruleset: attacker, weapon, the declarations its form gives, the
    targets the geometry proposes with their odds, the odds in detail, the dice."""

    resolve_without_dice = True

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        ruleset = session.ruleset
        self.grouped = ruleset.has_groups
        self.look = front_end(ruleset)
        target_decls = [d for d in ruleset.declarations() if d.scope == "target"]
        self.column_decls = tuple(next(d for d in target_decls if d.key == k) for k in self.look.target_columns)
        self.box_decls = tuple(d for d in target_decls if d.key not in self.look.target_columns and d.kind in FORM_KINDS)
        self._defaults = {d.key: d.default for d in target_decls}
        self.titles = ("Target", "Dist.", "Hit", "Kill", *(d.short or short_label(d.label) for d in self.column_decls),
                       "Geometry")
        self.why_column = len(self.titles) - 1
        self._first_column = COL_KILL + 1
        #: The fixed columns' narrowest widths (what they show, and their titles).
        self._column_px: dict[int, int] = {}

        self.declared_box = QGroupBox("The attacker")
        self.declared_box.setToolTip(f"What {ruleset.title} lets the players declare for the attacker")
        QVBoxLayout(self.declared_box).setContentsMargins(6, 2, 6, 2)
        self.declared = DeclarationForm((), changed=self._setup_changed)
        self.declared_box.layout().addWidget(self.declared)
        self.target_form = DeclarationForm(self.box_decls, changed=self._target_declared)
        self.target_box = QGroupBox("The target")
        QVBoxLayout(self.target_box).addWidget(self.target_form)
        self.target_box.layout().setContentsMargins(6, 2, 6, 2)
        self.target_box.setVisible(False)
        self.aim_title = QLabel("Aim point (B)")
        self.aim_label.setToolTip("Pick it with the blast tool (B) on the table view")
        #: with the relief known: line of sight and partial cover proposed from the ground (untick to judge by eye)
        self.from_ground = QCheckBox("Sight from the ground")
        self.from_ground.setToolTip("The scanned relief proposes each target's line of sight and cover; "
                                    "untick to judge them by eye")
        self.from_ground.setChecked(True)
        self.from_ground.setVisible(isinstance(ruleset, GroundSightProposals))
        self.show_all.setToolTip("Off: only units that may be attacked (and those ticked)")
        self.targets = read_only_table(self.titles, cls=CompactTable, row_px=26 if self.column_decls else 22,
                                       stretch=(self.why_column,), min_px=88)
        header = self.targets.horizontalHeader()
        header.setMinimumSectionSize(36)
        header.setSectionResizeMode(COL_TARGET, QHeaderView.ResizeMode.Fixed)  # sized with the reasons: _fit_names
        # Every column as narrow as what it shows allows, so that the reason column keeps room and the
        # table never scrolls sideways on a laptop's panel (Cover was cut off at 1366x768).
        for col, d in enumerate(self.column_decls, start=self._first_column):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
            sample = declaration_widget(d, lambda: None)
            self._column_px[col] = max(sample.sizeHint().width(), title_px(self.targets, col))
            sample.deleteLater()
            header.resizeSection(col, self._column_px[col])
        odds_px = self.targets.fontMetrics().horizontalAdvance("88.8%") + 10
        for col in (COL_HIT, COL_KILL):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
            self._column_px[col] = odds_px
            header.resizeSection(col, odds_px)
        # A long reason wraps in its row (the row grows to its lines) rather than ending in "...".
        self.targets.setWordWrap(True)
        self.targets.setTextElideMode(Qt.TextElideMode.ElideNone)
        header.sectionResized.connect(lambda col, _old, _new: self._fit_reasons() if col == self.why_column else None)
        self.geometry_label = QLabel()
        self.geometry_label.setWordWrap(True)
        self.odds = read_only_table(OUTCOME_COLUMNS, cls=CompactTable, row_px=22, select="cells", stretch_last=True,
                                    min_px=70)

        setup = setup_grid(self.attacker, self.weapon)
        setup.addWidget(self.aim_title, 2, 0)
        setup.addWidget(self.aim_label, 2, 1)
        setup.setColumnStretch(1, 1)
        self.targets_title = QLabel()
        # The tick boxes under the title, not beside it: side by side they were wider than the panel on a
        # 1366x768 screen, which cut them off.
        targets_head = QVBoxLayout()
        targets_head.addWidget(self.targets_title)
        options = QHBoxLayout()
        options.addWidget(self.from_ground)
        options.addWidget(self.show_all)
        options.addStretch(1)
        targets_head.addLayout(options)
        self.lay_out(setup, self.declared_box, targets_head, (self.targets, 3), self.geometry_label, self.target_box,
                     QLabel("<b>Odds</b> in detail: every outcome, exactly"), (self.odds, 2), spacing=4)

        #: What the players declared per target, every key they were shown (kept while it stays listed).
        self._target_decl: dict[int, dict[str, Any]] = {}
        #: What the relief proposed per target, and why.
        self._ground_decl: dict[int, dict[str, Any]] = {}
        self._ground_why: dict[int, str] = {}
        #: The ticked target whose declarations the target box shows.
        self._focus: int | None = None
        #: The attacker and weapon the attacker's form was built for, and its proposals.
        self._form_for: tuple[Any, ...] = ()
        self.show_all.toggled.connect(lambda _: self._rebuild_targets())
        self.targets.cellClicked.connect(lambda row, _col: self._focus_on(self._rows[row]) if row < len(self._rows) else None)
        self.from_ground.toggled.connect(lambda _: self._ground_toggled())
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

    def _fallback_weapon(self) -> str | None:
        return self.session.snapshot().selected_weapon

    def _fill_weapons(self) -> None:
        super()._fill_weapons()
        self._refresh_form()

    def _refresh_form(self) -> None:
        """The attacker's declarations for the attacker and weapon picked, from the ruleset (choices and
        proposals follow the table: the weapon's payloads, who stands within reach), keeping what the
        players set that is still offered."""
        uid, name = self.attacker.currentData(), self.weapon.currentData()
        form: tuple[Any, ...] = ()
        if uid is not None and name is not None:
            try:
                form = self.session.ruleset.attack_form(self.session.state, int(uid), str(name))
            except (RulesError, KeyError, ValueError, LookupError):
                form = ()
        decls = tuple(d for d in form if d.scope == "attack")
        box = tuple(d for d in form if d.scope == "target" and d.key not in self.look.target_columns
                    and d.kind in FORM_KINDS)
        if box and box != self.box_decls:  # the target box as the ruleset gives it (its proposals follow the table)
            self.box_decls = box
            if not self.target_form.follow(box):
                self.target_form = _replaced(self.target_box, self.target_form, box, self._target_declared)
                if self._focus is not None:
                    self.target_form.set_values({**self._defaults, **self._declared_for(self._focus)})
        key = (uid, name, decls)
        if key == self._form_for:
            return
        if self._form_for[:2] == (uid, name) and self.declared.follow(decls):
            # The same declarations, the assistants' distances changed (a carried unit): the same
            # widgets, as the players left them (a new form flickered in blank four times a second).
            self._form_for = key
            return
        kept = self.declared.values() if self._form_for[:2] == (uid, name) else {}
        self._form_for = key
        self.declared = _replaced(self.declared_box, self.declared, decls, self._setup_changed)
        offered = {d.key: d for d in decls}
        still = {}
        for k, v in kept.items():
            d = offered.get(k)
            if d is None or (d.kind == "choice" and str(v) not in d.choices):
                continue
            if d.kind == "units":
                v = tuple(x for x in v if x in {c.value for c in d.proposals})
            still[k] = v
        self.declared.set_values(still)
        self.declared_box.setVisible(bool(decls))

    # -- the draft ------------------------------------------------------------------------------
    def draft(self) -> AttackDraft | None:
        uid, name = self.attacker.currentData(), self.weapon.currentData()
        if uid is None or name is None:
            return None
        targets = self.ticked()
        wv = self._weapon_view()
        area = wv is not None and bool(wv.radius_in)
        # An area weapon is aimed at the blast point (with targets too, where the ruleset says so).
        aim = self.session.snapshot().blast_point if area and (self.look.aim_with_targets or not targets) else None
        per = {tid: self._declared_for(tid) for tid in targets}
        return AttackDraft(int(uid), str(name), tuple(targets), self.declared.values(), per, aim)

    def _declared_for(self, unit_id: int) -> dict[str, Any]:
        """A target's declarations: the ground's proposal (while "Sight from the ground" is ticked), then
        what the players set; those left at their defaults are left out."""
        merged = {**(self._ground_decl.get(unit_id, {}) if self.from_ground.isChecked() else {}),
                  **self._target_decl.get(unit_id, {})}
        return {k: v for k, v in merged.items() if v != self._defaults.get(k, object())}

    def set_target(self, unit_id: int, *, ticked: bool = True, **declarations: Any) -> None:
        """Tick (or untick) a target row and set its declarations as a player would (tests, shortcuts)."""
        if unit_id not in self._rows:
            raise UsageError(f"unit {unit_id} is not listed as a target: "
                             f"{', '.join(str(r) for r in self._rows) or 'none is'} (tick 'List every unit' to see all)")
        box = self.targets.cellWidget(self._rows.index(unit_id), COL_TARGET)
        box.setChecked(ticked)
        if ticked and self._focus != unit_id:
            self._focus_on(unit_id)
        for key, value in declarations.items():
            column = next((c for c, d in enumerate(self.column_decls, start=self._first_column) if d.key == key), None)
            if column is not None:
                d = self.column_decls[column - self._first_column]
                show_value(d, self.targets.cellWidget(self._rows.index(unit_id), column), value, strict=True)
            else:
                self.target_form.set_value(key, value)

    def _setup_changed(self, *, rebuild: bool = False) -> None:
        if not self._building and rebuild:
            self._refresh_form()
        super()._setup_changed(rebuild=rebuild)

    def _setup_shown(self) -> None:
        name = self.attacker.currentText().split(" (")[0]
        self.declared_box.setTitle(f"The attacker: {name}" if name else "The attacker")
        wv = self._weapon_view()
        area = wv is not None and bool(wv.radius_in)
        self.aim_title.setVisible(area)
        self.aim_label.setVisible(area)

    def _refresh_geometry(self) -> None:
        self._refresh_form()  # who stands within reach to assist follows the moves
        super()._refresh_geometry()
        self._fit_reasons()  # a reason changed by the move may take more lines, or fewer

    # -- the targets table ----------------------------------------------------------------------
    def _distance_tip(self) -> str:
        return self.look.measured

    def _geometry_words(self, p: Any) -> str:
        return p.reason or ("clear" if p.eligible else "cannot be attacked")

    def _rebuild_targets(self) -> None:
        snap = self.session.snapshot()
        keep = set(self.ticked())
        shown = self._shown(snap.proposals)
        names = {u.unit_id: u.name for u in snap.units}
        # The same units listed: each keeps its row and widgets, whatever the distances now say (a carried
        # unit passing another must not slide a different unit under the player's pointer as they tick:
        # the newcomer's review shot the wrong man so); sorted afresh only when the units listed change.
        reuse = sorted(p.unit_id for p in shown) == sorted(self._rows) and self.targets.rowCount() == len(shown)
        if reuse:
            shown.sort(key=lambda p: self._rows.index(p.unit_id))
        with self.quietly():
            if not reuse:
                self._clear_target_rows()
                self.targets.setRowCount(len(shown))
            self._rows = []
            for row, p in enumerate(shown):
                self._rows.append(p.unit_id)
                label = p.name + (f" ({len(p.members)} figures)" if len(p.members) > 1 else "")
                tip = p.reason or ("may be attacked" if p.eligible else "")
                if p.members:
                    tip += ("\n" if tip else "") + "Figures: " + ", ".join(names.get(m, str(m)) for m in p.members)
                if p.unit_id in self._ground_why and self.from_ground.isChecked():
                    tip += f"\nfrom the ground: {self._ground_why[p.unit_id]}"
                old = self.targets.cellWidget(row, COL_TARGET) if reuse else None
                if isinstance(old, QCheckBox):
                    self._target_box(label, tip.strip(), eligible=p.eligible, ticked=p.unit_id in keep, box=old)
                else:
                    box = self._target_box(label, tip.strip(), eligible=p.eligible, ticked=p.unit_id in keep)
                    # the row's unit looked up when ticked: a kept box may show another unit by then
                    box.toggled.connect(lambda on, b=box: self._ticked(self._unit_in(COL_TARGET, b), on))
                    self.targets.setCellWidget(row, COL_TARGET, box)
                self._fill_geometry(row, p)
                for col in (COL_HIT, COL_KILL):
                    set_cell(self.targets, row, col, "")
                self._fill_columns(row, p.unit_id)
        for uid in list(self._target_decl):
            if uid not in self._rows:
                del self._target_decl[uid]
        # The verdict column when it says something: every unit listed, or a reason besides "clear".
        self.targets.setColumnHidden(self.why_column, not self.show_all.isChecked() and all(p.eligible and not p.reason
                                                                                             for p in shown))
        self._fit_reasons()
        if self._focus not in self.ticked():
            self._focus = next(iter(self.ticked()), None)
        self._show_target_box()
        self._show_odds()

    def _fit_reasons(self) -> None:
        """Each row as tall as its reason wrapped in the reason column (up to REASON_LINES lines), and the table
        tall enough for up to ten rows (the panel scrolls on a short screen): a blast's five targets were
        read through a three-row slit, and a table scrolling inside the scrolling panel hid its last rows
        behind its own scroll bar, which also narrowed it past its Cover column."""
        self._fit_names()
        table, col = self.targets, self.why_column
        row_px = table.verticalHeader().defaultSectionSize()
        width = table.columnWidth(col) - REASON_PADDING_PX
        metrics = table.fontMetrics()
        total = 0
        for row in range(table.rowCount()):
            item = table.item(row, col)
            want = row_px
            if item is not None and not table.isColumnHidden(col) and width > 0:
                lines = wrapped_lines(metrics, item.text(), width)
                want = max(row_px, min(lines, REASON_LINES) * metrics.lineSpacing() + REASON_PADDING_PX)
            box = table.cellWidget(row, COL_TARGET)
            if isinstance(box, QCheckBox) and "\n" in box.text():  # a name broken into lines
                want = max(want, box.sizeHint().height() + REASON_PADDING_PX // 2)
            if table.rowHeight(row) != want:
                table.setRowHeight(row, want)
            if row < 10:
                total += want
        header = table.horizontalHeader().sizeHint().height()
        table.setMinimumHeight(max(88, total + header + 2 * table.frameWidth() + 4))

    def _fit_names(self) -> None:
        """The Target column and the Geometry column share the room the other columns leave (each at
        least its longest word, then toward its whole line: :func:`~gui.panels.tables.column_widths`),
        a long name breaking into lines in its tick box: with every unit listed the reasons stay
        readable and the table never scrolls sideways (Geometry was a 36-pixel sliver at 1366x768)."""
        table, why = self.targets, self.why_column
        boxes = [b for r in range(table.rowCount()) if isinstance(b := table.cellWidget(r, COL_TARGET), QCheckBox)]
        if not boxes:
            return
        metrics = boxes[0].fontMetrics()
        names = [str(b.property("name") or b.text()) for b in boxes]
        # the tick box's indicator and spacing besides its text
        chrome = max(b.sizeHint().width() - max(metrics.horizontalAdvance(t) for t in b.text().split("\n")) for b in boxes)
        word, line = words_and_line_px(metrics, names)
        words, lines = [max(title_px(table, COL_TARGET), chrome + word)], [max(title_px(table, COL_TARGET), chrome + line)]
        if not table.isColumnHidden(why):
            reasons = [i.text() for r in range(table.rowCount()) if (i := table.item(r, why)) is not None]
            word, line = words_and_line_px(table.fontMetrics(), reasons)
            words.append(max(title_px(table, why), word + REASON_PADDING_PX))
            lines.append(max(title_px(table, why), line + REASON_PADDING_PX))
        others = sum(table.columnWidth(c) for c in range(table.columnCount())
                     if c not in (COL_TARGET, why) and not table.isColumnHidden(c))
        room = table.viewport().width() - others
        width = column_widths(words, lines, room, stretch=(len(words) - 1,))[0]
        width = min(width, lines[0])  # the room past the whole name goes to the reasons
        header = table.horizontalHeader()
        if header.sectionSize(COL_TARGET) != width:
            header.resizeSection(COL_TARGET, width)
        for box, name in zip(boxes, names):
            text = wrap_words(metrics, name, width - chrome)
            if box.text() != text:
                box.setText(text)

    def _fill_columns(self, row: int, unit_id: int) -> None:
        """A row's declaration widgets (the ruleset's target columns), showing what is declared for it."""
        declared = {**self._defaults, **(self._ground_decl.get(unit_id, {}) if self.from_ground.isChecked() else {}),
                    **self._target_decl.get(unit_id, {})}
        for col, d in enumerate(self.column_decls, start=self._first_column):
            widget = self.targets.cellWidget(row, col)
            if widget is None:
                made: list[QWidget] = []
                # the row's unit looked up when changed: the widget is kept when the rows are reordered
                widget = declaration_widget(d, lambda key=d.key, c=col, w=made: self._column_changed(
                    self._unit_in(c, w[0]), key, c))
                made.append(widget)
                widget.setToolTip(d.label + (f"\n{d.help}" if d.help else ""))
                self.targets.setCellWidget(row, col, widget)
            show_value(d, widget, declared.get(d.key, d.default))

    def _unit_in(self, col: int, widget: QWidget) -> int | None:
        """The unit of the row whose cell ``col`` holds ``widget`` (None: no longer listed)."""
        for row, uid in enumerate(self._rows):
            if self.targets.cellWidget(row, col) is widget:
                return uid
        return None

    def _column_changed(self, unit_id: int | None, key: str, col: int) -> None:
        if self._building or unit_id is None or unit_id not in self._rows:
            return
        d = self.column_decls[col - self._first_column]
        value = widget_value(d, self.targets.cellWidget(self._rows.index(unit_id), col))
        self._target_decl.setdefault(unit_id, {})[key] = value
        self._setup_changed()

    def _ticked(self, unit_id: int | None, on: bool) -> None:
        if self._building or unit_id is None:
            return
        note = ""
        if on:
            limit = self.session.snapshot().odds_legend.max_targets
            if limit == 1:  # one target per attack: ticking another moves the attack to it
                with self.quietly():
                    for row, uid in enumerate(self._rows):
                        box = self.targets.cellWidget(row, COL_TARGET)
                        if uid != unit_id and isinstance(box, QCheckBox) and box.isChecked():
                            box.setChecked(False)
            self._focus = unit_id
            if unit_id not in self._ground_decl:
                self._propose_from_ground(unit_id)
            if unit_id in self._ground_why and self.from_ground.isChecked():
                note = (f"From the ground: {self._ground_why[unit_id]} (proposed; change it if the table says "
                        "otherwise)")
                row = self._rows.index(unit_id)
                box = self.targets.cellWidget(row, COL_TARGET)
                box.setToolTip(f"{box.toolTip()}\nfrom the ground: {self._ground_why[unit_id]}".strip())
                with self.quietly():
                    self._fill_columns(row, unit_id)
        elif self._focus == unit_id:
            self._focus = next(iter(self.ticked()), None)
        self._show_target_box()
        self._setup_changed()
        if note:
            self.message.setText(note)  # after the refresh, which clears the message line

    def _propose_from_ground(self, unit_id: int) -> None:
        """With the relief known, what the ground says of a newly ticked target's line of sight and
        cover (kept apart from what the players set: their word stands)."""
        ground = self.session.ground
        ruleset = self.session.ruleset
        attacker = self.attacker.currentData()
        if ground is None or attacker is None or not isinstance(ruleset, GroundSightProposals):
            return
        try:
            proposal = ruleset.propose_from_ground(self.session.state, AttackDraft(int(attacker), "", (unit_id,)).request(),
                                                   ground)
        except (KeyError, ValueError, LookupError, RulesError):
            return
        values = {k: v for k, v in proposal.targets.get(unit_id, {}).items() if k in self._defaults}
        if values:
            self._ground_decl[unit_id] = values
            self._ground_why[unit_id] = proposal.reasons.get(unit_id, "")

    def _ground_toggled(self) -> None:
        self._rebuild_targets()
        self._show_target_box()
        self._setup_changed()

    def _focus_on(self, unit_id: int) -> None:
        """Show a ticked target's declarations in the target box (a click on its row)."""
        if unit_id in self.ticked():
            self._focus = unit_id
            self._show_target_box()

    def _show_target_box(self) -> None:
        on = bool(self.target_form.declarations) and self._focus is not None
        self.target_box.setVisible(on)
        if on and self._focus is not None:
            name = next((p.name for p in self.session.snapshot().proposals if p.unit_id == self._focus), str(self._focus))
            self.target_box.setTitle(f"The target: {name}")
            self.target_form.set_values({**self._defaults, **self._declared_for(self._focus)})

    def _target_declared(self) -> None:
        if self._focus is not None:
            mine = self._target_decl.setdefault(self._focus, {})
            mine.update({d.key: self.target_form.value(d.key) for d in self.box_decls})
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
            item = self.targets.horizontalHeaderItem(col)
            title = (word or "").capitalize()
            if item is None or item.text() != title or item.toolTip() != help_text:  # a new one relays the header out
                item = QTableWidgetItem(title)
                item.setToolTip(help_text)
                self.targets.setHorizontalHeaderItem(col, item)
        self.targets.setColumnHidden(COL_KILL, legend.kill is None)
        for col in (COL_HIT, COL_KILL):  # at least as wide as its title ("Destroyed" read "estroye")
            fit_to_title(self.targets, col, self._column_px[col])
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
                odds_cell(self.targets, row, col, text, o.reason if o is not None and not o.allowed else
                          (legend.hit_help if col == COL_HIT else legend.kill_help))
        columns, rows = self._odds_detail(snap.odds, legend)
        if self.odds.columnCount() != len(columns) or self.odds.horizontalHeaderItem(1).text() != columns[1]:
            self.odds.setColumnCount(len(columns))
            self.odds.setHorizontalHeaderLabels(list(columns))
        self.odds.setRowCount(len(rows))
        fit_to_rows(self.odds, len(rows))
        for r, (values, tip) in enumerate(rows):
            for col, text in enumerate(values):
                item = set_cell(self.odds, r, col, text, tip or text)
                if col == 2 and columns is OUTCOME_COLUMNS:
                    item.setForeground(QColor(ODDS_COLOR))
        self.geometry_label.setText(self._geometry_text(snap))

    @staticmethod
    def _odds_detail(odds: Any, legend: Any) -> tuple[tuple[str, ...], list[tuple[tuple[str, ...], str]]]:
        """The odds-in-detail table: per target its hit, kill and roll where targets take shots; else one
        row per outcome of the procedure."""
        rows: list[tuple[tuple[str, ...], str]] = []
        if legend.shots:
            for o in odds:
                roll = o.roll + (f" ({', '.join(o.advantages + o.disadvantages)})" if o.advantages or o.disadvantages else "")
                if o.allowed:
                    rows.append(((o.name, f"{float(o.p_hit):.1%}", f"{float(o.p_kill):.1%}",
                                  f"{float(o.p_kill_any):.1%}" + (f" ({o.shots} shots)" if o.shots > 1 else ""), roll), ""))
                else:  # no odds to give: the rules refuse the shot (0.0% would read as a shot with no chance)
                    rows.append(((o.name, "not allowed", "—", "—", o.reason), o.reason))
            return SHOT_COLUMNS, rows
        for o in odds:
            if not o.allowed:
                rows.append(((o.name, legend.refused, o.reason), o.reason))
                continue
            for label, p in (o.outcomes or tuple(legend.values(o))):
                rows.append(((o.name, label, exact_text(p)), o.reason))
        return OUTCOME_COLUMNS, rows

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
            out[title] = str(widget.property("name") or widget.text()) if isinstance(widget, QCheckBox) else \
                (item.text() if item is not None else "")
        return out

    # -- dice and resolving ---------------------------------------------------------------------
    def _resolved(self, result: Any) -> None:
        with self.quietly():
            self._untick_all()
        self._focus = None
        self._show_target_box()
        self._setup_changed()  # the odds were for before the roll
        # One line: every sentence is on the result card and in the Log already; six of them here
        # squeezed the setup above to four rows.
        self.message.setText(RESOLVED_POINTER)


__all__ = ["RESOLVED_POINTER", "AttackPanel", "exact_text", "weapon_text"]
