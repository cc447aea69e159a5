"""What every attack panel shares, whatever the ruleset: the attacker and weapon drop-downs, the targets
table the geometry proposes (a tick box per target, the distance, the odds, why a unit may or may not
be attacked), the odds in detail, the dice (virtual or the players', :class:`~gui.panels.dice_choice.DiceChoice`),
the Resolve button and the message line -- and the way they follow the session.

A panel subclasses :class:`AttackPanelBase` and says only what its ruleset does differently: its own
columns and declarations, the layout, how a weapon and the odds read, what follows a resolved attack.
The tables come from :func:`gui.panels.tables.read_only_table`."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from PySide6.QtWidgets import (QCheckBox, QComboBox, QGridLayout, QLabel,
                               QLayout, QSizePolicy, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from appmodel.errors import UsageError
from gui.panels.base import SessionPanel
from gui.panels.dice_choice import DiceChoice
from gui.panels.tables import RIGHT_ALIGNED, set_cell
from rules.errors import RulesError

#: The columns every targets table starts with (the "why" column is the panel's ``why_column``).
COL_TARGET, COL_DIST, COL_HIT, COL_KILL = range(4)
ODDS_COLOR = "#ffe14d"
ERROR_COLOR = "#ff6b6b"
WARNING_COLOR = "#ffcc66"


def setup_grid(attacker: QComboBox, weapon: QComboBox, *, span: int = 1) -> QGridLayout:
    """The set-up grid's first two rows, "Attacker" and "Weapon", each drop-down ``span`` columns wide."""
    setup = QGridLayout()
    setup.setHorizontalSpacing(8)
    setup.setVerticalSpacing(4)
    setup.addWidget(QLabel("Attacker"), 0, 0)
    setup.addWidget(attacker, 0, 1, 1, span)
    setup.addWidget(QLabel("Weapon"), 1, 0)
    setup.addWidget(weapon, 1, 1, 1, span)
    return setup


def odds_cell(table: Any, row: int, col: int, text: str, tip: str | None = None) -> QTableWidgetItem:
    """A probability in the targets table: right-aligned, in the odds' colour (in the cell's own item)."""
    return set_cell(table, row, col, text, tip, color=ODDS_COLOR, align=RIGHT_ALIGNED)


class AttackPanelBase(SessionPanel):
    """Attacker, weapon, targets, odds, dice and Resolve, following the session.

    A subclass builds its own tables (``self.targets`` with :func:`~gui.panels.tables.read_only_table`, its first columns
    :data:`COL_TARGET` ... :data:`COL_KILL`, ``why_column`` the geometry's verdict; ``self.odds``) and
    layout around the widgets made here (``self.dice``, :func:`setup_grid`), connects its own
    widgets, then calls :meth:`start`. It implements ``draft()``, ``_fill_weapons()``,
    ``_rebuild_targets()``, ``_show_odds()`` and ``_resolved(result)``."""

    #: The targets table's column that says why a unit may (not) be attacked.
    why_column: int = 4
    #: Resolve with the players' dice when the rules ask for none yet (Down Range always asks first).
    resolve_without_dice = False

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self._building = False
        self._rows: list[int] = []
        self.attacker = QComboBox()
        self.weapon = QComboBox()
        for combo in (self.attacker, self.weapon):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(14)
        self.aim_label = QLabel("—")
        self.show_all = QCheckBox("List every unit")
        self.dice = DiceChoice()
        self.dice.resolve_button.setText("Resolve (Ctrl+Return)")
        self.virtual, self.entered = self.dice.virtual, self.dice.entered
        self.dice_form, self.resolve_button = self.dice.dice_form, self.dice.resolve_button
        self.message = QLabel()
        #: Called with the :class:`~appmodel.result_card.ResultCard` of every roll resolved here (the window
        #: shows it large over the map until dismissed).
        self.on_resolved: list[Any] = []
        self.message.setWordWrap(True)
        self.message.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

    def lay_out(self, *parts: Any, spacing: int) -> None:
        """The panel top to bottom: ``parts`` (layouts, widgets, or (widget, stretch)) in a scrolling
        area, then the dice box with Resolve and the message line pinned under it: on a 768-pixel
        laptop screen the setup scrolls, Resolve stays in view."""
        from PySide6.QtWidgets import QFrame, QScrollArea

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(spacing)
        self.initiative_note = QLabel("<b>No initiative rolled yet.</b> Roll initiative first (Game menu, or the "
                                      "Turn tab) so that this attack is in a turn of the game.")
        self.initiative_note.setWordWrap(True)
        self.initiative_note.setStyleSheet(f"QLabel {{ color: {WARNING_COLOR}; border: 1px solid {WARNING_COLOR}; "
                                           "border-radius: 4px; padding: 4px; }")
        self.initiative_note.hide()
        setup = QWidget()
        inner = QVBoxLayout(setup)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.setSpacing(spacing)
        for part in (self.initiative_note, *parts):
            if isinstance(part, QLayout):
                inner.addLayout(part)
            elif isinstance(part, tuple):
                inner.addWidget(*part)
            else:
                inner.addWidget(part)
        self.setup_scroll = QScrollArea()
        self.setup_scroll.setWidgetResizable(True)
        self.setup_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.setup_scroll.setWidget(setup)
        layout.addWidget(self.setup_scroll, 1)
        layout.addWidget(self.dice)
        layout.addWidget(self.message)

    def start(self) -> None:
        """Connect the shared widgets and fill the panel from the session (the last step of ``__init__``)."""
        self.attacker.currentIndexChanged.connect(self._attacker_changed)
        self.weapon.currentIndexChanged.connect(lambda _: self._setup_changed(rebuild=True))
        self.entered.toggled.connect(self._dice_mode_changed)
        self.resolve_button.clicked.connect(self.resolve)
        self._fill_attackers()
        self._setup_changed(rebuild=True)

    @contextlib.contextmanager
    def quietly(self) -> Iterator[None]:
        """Change widgets without each change drafting the attack again."""
        self._building = True
        try:
            yield
        finally:
            self._building = False

    def show_error(self, error: Any) -> None:
        self.message.setText(f"<span style='color:{ERROR_COLOR}'>{error}</span>")

    # -- following the session ------------------------------------------------------------------
    def on_session_changed(self, kind: str) -> None:
        if kind in ("state", "attack"):
            self._warn_before_initiative()
        if self._building:
            return
        if kind == "state":
            self._fill_attackers()
            self._setup_changed(rebuild=True)
        elif kind == "selection":
            snap = self.session.snapshot()
            wanted = self._attacker_of(snap.selected_unit) if snap.selected_unit is not None else None
            if wanted is not None and wanted != self.attacker.currentData():
                i = self.attacker.findData(wanted)
                if i >= 0:
                    self.attacker.setCurrentIndex(i)
            elif snap.blast_point != (self.session.draft.aim_point if self.session.draft else None):
                self._setup_changed()
        elif kind == "attack":
            self._show_odds()
            if self.session.pending is not None and self.entered.isChecked():
                self.dice_form.reset(self.session)  # placed on the map: the dice its landing brings
        elif kind == "poses":
            self.later(self._refresh_geometry)  # distances, who is in range, odds follow the moves

    def _warn_before_initiative(self) -> None:
        """An attack set up before the first initiative is allowed (players may be trying things out) but
        said plainly: it would be resolved outside any turn of the game."""
        note = getattr(self, "initiative_note", None)
        if note is not None:
            draft = self.session.draft
            set_up = draft is not None and bool(draft.target_ids or draft.aim_point is not None)
            note.setVisible(set_up and self.session.state.round == 0)

    def _refresh_geometry(self) -> None:
        """After tracked moves: the same rows (widgets kept) with new distances and reasons, unless
        other units came into range or left it."""
        snap = self.session.snapshot()
        shown = {p.unit_id: p for p in self._shown(snap.proposals)}
        # The same units, whatever order the distances now give them: each keeps its row (_rebuild_targets
        # would too, and redo every row's widgets and tips besides).
        if sorted(shown) != sorted(self._rows) or len(shown) != len(self._rows):
            self._rebuild_targets()
            return
        for row, uid in enumerate(self._rows):
            self._fill_geometry(row, shown[uid])
        self._show_odds()

    # -- attacker and weapon --------------------------------------------------------------------
    def _attacker_of(self, unit_id: int) -> int:
        """The id an attack names ``unit_id`` by (a unit's own tag unless the ruleset groups figures)."""
        return unit_id

    def _attackers(self) -> list[tuple[str, int]]:
        """(label, id) of every unit that can attack now: on the table, active, armed."""
        return [(f"{u.name} ({u.side})", u.unit_id) for u in self.session.units()
                if u.on_table and u.status == "active" and u.weapons]

    def _fill_attackers(self) -> None:
        with self.quietly():
            current = self.attacker.currentData()
            self.attacker.clear()
            for label, uid in self._attackers():
                self.attacker.addItem(label, uid)
            sel = self.session.snapshot().selected_unit
            for want in (current, self._attacker_of(sel) if sel is not None else None):
                i = self.attacker.findData(want) if want is not None else -1
                if i >= 0:
                    self.attacker.setCurrentIndex(i)
        self._fill_weapons()

    def _attacker_changed(self) -> None:
        if self._building:
            return
        self._fill_weapons()
        self._setup_changed(rebuild=True)

    def _fill_weapons(self) -> None:
        """The attacker's weapons, keeping the one picked (else the panel's fallback, else the first)."""
        with self.quietly():
            current = self.weapon.currentData()
            self.weapon.clear()
            uid = self.attacker.currentData()
            if uid is None:
                return
            for w in self.session.ruleset.weapons(self.session.state, uid):
                self.weapon.addItem(self.weapon_label(w), w.name)
            for want in (current, self._fallback_weapon()):
                i = self.weapon.findData(want) if want else -1
                if i >= 0:
                    self.weapon.setCurrentIndex(i)
                    return
            self.weapon.setCurrentIndex(0)

    def weapon_label(self, w: Any) -> str:
        """A weapon as the drop-down lists it."""
        raise NotImplementedError

    def _fallback_weapon(self) -> str | None:
        """The weapon to show when the one picked is not the attacker's (None: the first)."""
        return None

    def _weapon_view(self) -> Any:
        uid, name = self.attacker.currentData(), self.weapon.currentData()
        if uid is None or name is None:
            return None
        return next((w for w in self.session.ruleset.weapons(self.session.state, uid) if w.name == name), None)

    # -- the draft ------------------------------------------------------------------------------
    def ticked(self) -> list[int]:
        """The ids of the targets ticked, in the table's order."""
        out = []
        for row, uid in enumerate(self._rows):
            box = self.targets.cellWidget(row, COL_TARGET)
            if isinstance(box, QCheckBox) and box.isChecked():
                out.append(uid)
        return out

    def draft(self) -> Any:
        raise NotImplementedError

    def _setup_changed(self, *, rebuild: bool = False) -> None:
        if self._building:
            return
        try:
            draft = self.draft()
            with self.quietly():
                self.session.set_attack(draft)
            self.message.setText("")
        except (UsageError, RulesError, ValueError) as exc:
            self.show_error(exc)
            return
        if rebuild:
            self._rebuild_targets()
            if draft is not None and set(self.ticked()) != set(draft.target_ids):
                # a ticked target left the list (it went down, or another weapon cannot reach it)
                self._setup_changed()
                return
        self._setup_shown()
        aim = draft.aim_point if draft else None
        self.aim_label.setText("—" if aim is None else f"({aim[0]:.1f}, {aim[1]:.1f})")
        self._show_odds()
        if self.entered.isChecked():
            self.dice_form.reset(self.session)

    def _setup_shown(self) -> None:
        """What else follows a new draft (titles, what is visible); nothing here."""

    # -- the targets table ----------------------------------------------------------------------
    def _shown(self, proposals: Any) -> list[Any]:
        ticked = set(self.ticked())
        return [p for p in proposals if self.show_all.isChecked() or p.eligible or p.unit_id in ticked]

    def _geometry_words(self, p: Any) -> str:
        """The "why" column's words for proposal ``p``."""
        return "can be hit" if p.eligible else p.reason

    def _distance_tip(self) -> str | None:
        return None

    def _fill_geometry(self, row: int, p: Any) -> None:
        """A row's distance and reason, in the row's own items (made once: a tracked move changes the
        texts, not the table)."""
        set_cell(self.targets, row, COL_DIST, f'{p.distance_in:.1f}"', self._distance_tip(), align=RIGHT_ALIGNED)
        text = self._geometry_words(p)
        set_cell(self.targets, row, self.why_column, text, text, color="#7be3a0" if p.eligible else "#c0c0c0")

    def _clear_target_rows(self) -> None:
        """Take the rows' widgets out of the targets table before it is filled again."""
        for row in range(self.targets.rowCount()):
            for col in range(self.targets.columnCount()):
                old = self.targets.cellWidget(row, col)
                if old is not None:
                    old.hide()  # deleted later by Qt; never drawn over the new rows meanwhile
                    self.targets.removeCellWidget(row, col)

    def _target_box(self, label: str, tip: str, *, eligible: bool, ticked: bool, box: QCheckBox | None = None) -> QCheckBox:
        """A target row's tick box (greyed when the unit may not be attacked): ``box`` made to show it, or a
        new one. Its ``name`` property keeps the label whole (its text may break it into lines to fit)."""
        if box is None:
            box = QCheckBox(label)
        elif box.property("name") != label:
            box.setText(label)
        box.setProperty("name", label)
        box.setToolTip(tip)
        style = "" if eligible else "color: #a0a0a0"
        if box.styleSheet() != style:
            box.setStyleSheet(style)
        box.setChecked(ticked)
        return box

    def _untick_all(self) -> None:
        for row in range(self.targets.rowCount()):
            box = self.targets.cellWidget(row, COL_TARGET)
            if isinstance(box, QCheckBox):
                box.setChecked(False)

    def _rebuild_targets(self) -> None:
        raise NotImplementedError

    # -- odds -----------------------------------------------------------------------------------
    def _show_odds(self) -> None:
        raise NotImplementedError

    def odds_rows(self) -> list[list[str]]:
        """The odds in detail as shown, row by row."""
        return [[self.odds.item(r, c).text() for c in range(self.odds.columnCount())] for r in range(self.odds.rowCount())]

    # -- dice and resolving ---------------------------------------------------------------------
    def _dice_mode_changed(self, entered: bool) -> None:
        if entered:
            self.dice_form.reset(self.session)

    def _players_dice(self) -> list[Any]:
        """The dice typed so far, once the rules ask for no more."""
        if not self.dice_form.complete:
            need = self.dice_form.needed
            if need is not None:
                raise UsageError(f"enter the dice first: {need.label} ({need.count}d{need.sides}) is still needed")
            if not self.resolve_without_dice:
                raise UsageError("enter the dice first")
        return self.dice_form.entries

    def resolve(self) -> None:
        """Roll (or take the players' dice) and apply the attack; the outcome goes to the message line."""
        before = len(self.session.state.events)
        shown = self.session.snapshot()
        odds, legend = shown.odds, shown.odds_legend  # what the players saw before rolling
        try:
            if self.entered.isChecked():
                res = self.session.resolve_attack(self._players_dice())
            else:
                res = self.session.resolve_attack()
        except (UsageError, RulesError, ValueError) as exc:
            self.show_error(exc)
            return
        if res.pending:
            self.message.setText(f"<b>{res.pending}</b><br>Pick the landing point with the landing tool (L) on the table view.")
            self._pending_card = (before, odds, legend)  # the card waits for where the round lands
        else:
            self._pending_card = None  # a round placed on the map has landed with the players' dice
            self._resolved(res)
            from appmodel.result_card import result_card

            card = result_card(tuple(res.state.events[before:]), res.sentences, odds, legend)
            for callback in self.on_resolved:
                callback(card)
        if self.entered.isChecked():
            self.dice_form.reset(self.session)

    def landing_resolved(self, result: Any) -> None:
        """A missed explosive has landed (the table view's landing tool): its result card, with the odds
        shown before the first roll."""
        pending, self._pending_card = getattr(self, "_pending_card", None), None
        if pending is None or result is None or result.pending:
            return
        from appmodel.result_card import result_card

        before, odds, legend = pending
        card = result_card(tuple(result.state.events[before:]), result.sentences, odds, legend)
        for callback in self.on_resolved:
            callback(card)

    def _resolved(self, result: Any) -> None:
        raise NotImplementedError
