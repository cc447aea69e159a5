"""Force on Force's part of the turn panel: the initiative test and the procedures of a force's turn.

* **Initiative** (A.4): each force's dice for the next test -- one per two infantry units and per
  vehicle, capped, and the bonus dice, each named -- with the exact chance of each force taking
  initiative; after the test, the dice each force threw, how many showed 4+, and who holds the
  initiative and why (the test, a tie kept by last turn's holder, the scenario, Regulars against
  Irregulars, a Fog of War card). "Declare…" gives it from a card or a scenario event instead.
* **A force's turn**: activate a unit (an Irregular unit without its leader tests Troop Quality
  first), bring on reinforcements at a Hot Spot, and any test the players call for -- Troop Quality
  or Morale (with a leader's Morale where he lends it), die shifts and a modifier, unopposed or
  opposed by another unit -- with the exact odds before the roll.
* **The unit itself**: a leader joins it or leaves, it splits off figures (by tag) as a new element,
  it merges another element back in, it neutralises a Hot Spot.

The dice come from the turn panel's "Players' dice" field (empty: virtual dice)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (QComboBox, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from gui.panels.tables import read_only_table

ROLL_COLUMNS = ("Force", "Dice", "From", "Rolled", "4+")
NOBODY = "nobody (unopposed)"


def pool_text(pool: Any) -> tuple[str, str]:
    """A force's initiative dice ("3D8") and where they come from, in words."""
    basic = f"{pool.infantry_units} infantry unit{'s' if pool.infantry_units != 1 else ''}"
    if pool.vehicles:
        basic += f", {pool.vehicles} vehicle{'s' if pool.vehicles != 1 else ''}"
    basic += f": {pool.basic} {'die' if pool.basic == 1 else 'dice'}" + (f", capped to {pool.capped}" if pool.capped != pool.basic else "")
    bonus = "".join(f"; +{n} {why}" for why, n in pool.bonuses)
    return f"{pool.dice}D{pool.sides}", basic + bonus


def holder_text(result: Any) -> str:
    """Who holds the initiative this turn and why."""
    why = {"scenario": "as the scenario says for the first turn", "fixed": "the scenario fixes it for the whole game",
           "regulars": "Regulars against an entirely Irregular force", "declared": result.reason}.get(result.method)
    if why is None:
        if result.kept:
            why = "a tie (or no 4+): last turn's holder keeps it"
        else:
            counts = sorted((r.successes for r in result.rolls), reverse=True)
            why = "the test: " + " against ".join(str(c) for c in counts) + " at 4+"
    return f"Turn {result.turn}: <b>{result.holder}</b> holds the initiative ({why})."


class ForceOnForceTurnBox(QWidget):
    """The initiative test and a force's procedures; ``run(kind, procedure)`` commits them with the
    turn panel's dice (the session's ``run_procedure``), ``report(error)`` shows what went wrong."""

    def __init__(self, session: Any, run: Callable[[str, Callable[[Any, Any], Any]], None],
                 parent: QWidget | None = None, *, act: Callable[[Any], None] | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.ruleset = session.ruleset
        self.run = run
        #: Applies one of the rules' plain actions, or the action a function makes (the turn panel's: it
        #: shows what the rules or the typing refuse).
        self.act = act or (lambda action: session.apply_action(action() if callable(action) else action, kind="action"))
        initiative = QGroupBox("Initiative test (A.4)")
        self.next_label = QLabel()
        self.next_label.setWordWrap(True)
        self.rolls = read_only_table(ROLL_COLUMNS, stretch=(2,))
        self.holder_label = QLabel()
        self.holder_label.setWordWrap(True)
        self.declare_side = QComboBox()
        self.declare_reason = QLineEdit()
        self.declare_reason.setPlaceholderText("why: a Fog of War card, a scenario event")
        self.declare_button = QPushButton("Declare initiative")
        self.declare_button.setToolTip("Give the next turn's initiative to a force without the test")
        box = QVBoxLayout(initiative)
        box.addWidget(self.next_label)
        box.addWidget(QLabel("Last test"))
        box.addWidget(self.rolls)
        box.addWidget(self.holder_label)
        row = QHBoxLayout()
        row.addWidget(self.declare_side)
        row.addWidget(self.declare_reason, 1)
        row.addWidget(self.declare_button)
        box.addLayout(row)

        procedures = QGroupBox("The force's turn")
        self.unit = QComboBox()
        self.activate_button = QPushButton("Activate")
        self.activate_button.setToolTip("An Irregular unit without its leader first passes a Troop Quality check")
        self.reinforce_button = QPushButton("Bring on (Hot Spot roll)")
        self.purpose = QLineEdit("Morale test")
        self.test_die = QComboBox()
        self.test_die.addItems(["morale", "troop quality"])
        self.test_shift = QSpinBox()
        self.test_shift.setRange(-3, 3)
        self.test_shift.setToolTip("Die shifts: +1 one die type up, -1 down")
        self.test_modifier = QSpinBox()
        self.test_modifier.setRange(-6, 6)
        self.against = QComboBox()
        self.test_button = QPushButton("Roll the test")
        self.test_odds = QLabel()
        self.test_odds.setWordWrap(True)
        grid = QGridLayout(procedures)
        grid.addWidget(QLabel("Unit"), 0, 0)
        grid.addWidget(self.unit, 0, 1, 1, 3)
        buttons = QHBoxLayout()
        buttons.addWidget(self.activate_button)
        buttons.addWidget(self.reinforce_button)
        grid.addLayout(buttons, 1, 0, 1, 4)
        grid.addWidget(QLabel("Test"), 2, 0)
        grid.addWidget(self.purpose, 2, 1)
        grid.addWidget(self.test_die, 2, 2)
        grid.addWidget(QLabel("shift"), 3, 0)
        grid.addWidget(self.test_shift, 3, 1)
        grid.addWidget(QLabel("modifier"), 3, 2)
        grid.addWidget(self.test_modifier, 3, 3)
        grid.addWidget(QLabel("against"), 4, 0)
        grid.addWidget(self.against, 4, 1, 1, 2)
        grid.addWidget(self.test_button, 4, 3)
        grid.addWidget(self.test_odds, 5, 0, 1, 4)
        grid.setColumnStretch(1, 1)
        unit_box = QGroupBox("The unit")
        self.leader = QComboBox()
        self.join_button = QPushButton("Joins")
        self.join_button.setToolTip("The leader joins the unit (within cohesion distance; it may then fire, not move)")
        self.leave_button = QPushButton("Leaves")
        self.merge_with = QComboBox()
        self.merge_button = QPushButton("Merge into the unit")
        self.merge_button.setToolTip("At the beginning of a turn: an element at half strength or less joins the unit")
        self.split_figures = QLineEdit()
        self.split_figures.setPlaceholderText("tags, e.g. 12 13")
        self.split_name = QLineEdit()
        self.split_name.setPlaceholderText("new element's name")
        self.split_button = QPushButton("Split off")
        self.hot_spot = QSpinBox()
        self.hot_spot.setRange(1, 9)
        self.neutralise_button = QPushButton("Neutralises Hot Spot")
        units = QGridLayout(unit_box)
        units.addWidget(QLabel("Leader"), 0, 0)
        units.addWidget(self.leader, 0, 1, 1, 2)
        units.addWidget(self.join_button, 0, 3)
        units.addWidget(self.leave_button, 0, 4)
        units.addWidget(QLabel("Element"), 1, 0)
        units.addWidget(self.merge_with, 1, 1, 1, 2)
        units.addWidget(self.merge_button, 1, 3, 1, 2)
        units.addWidget(QLabel("Figures"), 2, 0)
        units.addWidget(self.split_figures, 2, 1)
        units.addWidget(self.split_name, 2, 2)
        units.addWidget(self.split_button, 2, 3, 1, 2)
        units.addWidget(QLabel("Hot Spot"), 3, 0)
        units.addWidget(self.hot_spot, 3, 1)
        units.addWidget(self.neutralise_button, 3, 3, 1, 2)
        units.setColumnStretch(1, 1)
        units.setColumnStretch(2, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(initiative)
        layout.addWidget(procedures)
        layout.addWidget(unit_box)
        self.declare_button.clicked.connect(self.declare)
        self.activate_button.clicked.connect(self.activate)
        self.reinforce_button.clicked.connect(self.reinforce)
        self.test_button.clicked.connect(self.roll_test)
        self.join_button.clicked.connect(self.join)
        self.leave_button.clicked.connect(self.leave)
        self.merge_button.clicked.connect(self.merge)
        self.split_button.clicked.connect(self.split)
        self.neutralise_button.clicked.connect(self.neutralise)
        for w in (self.unit, self.test_die, self.against):
            w.currentIndexChanged.connect(lambda _: self._show_test_odds())
        for spin in (self.test_shift, self.test_modifier):
            spin.valueChanged.connect(lambda _: self._show_test_odds())
        self.refresh()

    # -- what it shows ----------------------------------------------------------------------------
    def refresh(self) -> None:
        state = self.session.state
        self._refresh_next(state)
        last = self.ruleset.last_initiative(state)
        rolls = tuple(last.rolls) if last is not None else ()
        self.rolls.setRowCount(len(rolls))
        for row, r in enumerate(rolls):
            dice, where = pool_text(r.pool)
            faces = ", ".join(str(f) for f in r.faces) or "no dice"
            for col, text in enumerate((r.pool.side, dice, where, faces, str(r.successes))):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.rolls.setItem(row, col, item)
        self.rolls.setVisible(bool(rolls))
        self.rolls.resizeRowsToContents()
        self.rolls.setFixedHeight(self.rolls.horizontalHeader().height() + 4
                                  + sum(self.rolls.rowHeight(r) for r in range(self.rolls.rowCount())))
        if last is None:
            self.holder_label.setText("No initiative yet: roll it (Ctrl+I) to start the first turn.")
        else:
            extra = f" After {len(last.rerolls)} tied roll{'s' if len(last.rerolls) != 1 else ''} with nobody " \
                    "holding it before." if last.rerolls else ""
            self.holder_label.setText(holder_text(last) + extra)
        forces = [s.name for s in state.forces]
        _refill(self.declare_side, [(f, f) for f in forces])
        teams = [t for t in state.teams if not state.is_out_of_action(t) or t.reinforcement]
        teams.sort(key=lambda t: (t.side != state.active_side, t.side, t.name))
        _refill(self.unit, [(f"{t.name} ({t.side})", t.name) for t in teams])
        _refill(self.against, [(NOBODY, None)] + [(f"{t.name} ({t.side})", t.name) for t in teams])
        _refill(self.merge_with, [(f"{t.name} ({t.side})", t.name) for t in teams])
        _refill(self.leader, [(f"{f.name} ({f.side}, {f.leader_level})", f.figure_id) for f in state.leaders()])
        self.hot_spot.setRange(1, max(1, len(state.hot_spots)))
        self._show_test_odds()

    def _refresh_next(self, state: Any) -> None:
        """The dice each force would throw for the next turn's initiative, and the exact odds."""
        try:
            need = self.session.dice_needed([], what="initiative")
        except Exception:  # noqa: BLE001 (a state the rules cannot start a turn from: nothing to preview)
            self.next_label.setText("")
            return
        if need is None:
            self.next_label.setText(f"Turn {state.round + 1}: no test -- the initiative is given (the scenario, or "
                                    "Regulars against an entirely Irregular force).")
            return
        pools, odds = self.ruleset.initiative_preview(state)
        parts = [f"<b>{p.side}</b> {pool_text(p)[0]} ({pool_text(p)[1]})" for p in pools]
        chances = ", ".join(f"{side} {float(p):.1%}" for side, p in odds.items())
        self.next_label.setText(f"Next test (turn {state.round + 1}): " + " against ".join(parts)
                                + f". Chance of initiative, exactly: {chances}.")

    def _test_sides(self) -> tuple[Any, Any] | None:
        team, other = self.unit.currentData(), self.against.currentData()
        if team is None:
            return None
        state = self.session.state
        first = self.ruleset.test_side(state, team, self.test_die.currentText(), shift=self.test_shift.value(),
                                       modifier=self.test_modifier.value())
        second = self.ruleset.test_side(state, other, self.test_die.currentText()) if other else None
        return first, second

    def _show_test_odds(self) -> None:
        try:
            sides = self._test_sides()
        except ValueError as exc:
            self.test_odds.setText(f"<span style='color:#ff6b6b'>{exc}</span>")
            return
        if sides is None:
            self.test_odds.setText("")
            return
        first, second = sides
        state = self.session.state
        if second is None:
            p = self.ruleset.pass_odds(state, first)
            self.test_odds.setText(f"{first.name} on D{first.sides} ({first.what}): passes {float(p):.1%} ({p})")
            return
        o = self.ruleset.opposed_test_odds(state, first, second)
        self.test_odds.setText(f"{first.name} D{first.sides} against {second.name} D{second.sides}: "
                               f"{first.name} wins {float(o.p_first):.1%}, {second.name} wins {float(o.p_second):.1%}, "
                               f"nobody {float(o.p_nobody):.1%}")

    # -- what it does ---------------------------------------------------------------------------
    def declare(self) -> None:
        side, reason = self.declare_side.currentData(), self.declare_reason.text()
        self.run("initiative", lambda state, dice: self.ruleset.declare_initiative(state, side, reason))
        self.declare_reason.clear()

    def activate(self) -> None:
        team = self.unit.currentData()
        self.run("activation", lambda state, dice: self.ruleset.activate(state, team, dice))

    def reinforce(self) -> None:
        team = self.unit.currentData()
        self.run("reinforcement", lambda state, dice: self.ruleset.reinforce(state, team, dice))

    def join(self) -> None:
        if self.leader.currentData() is not None and self.unit.currentData():
            self.act(self.ruleset.join_leader_action(int(self.leader.currentData()), str(self.unit.currentData())))

    def leave(self) -> None:
        if self.leader.currentData() is not None:
            self.act(self.ruleset.detach_leader_action(int(self.leader.currentData())))

    def merge(self) -> None:
        """The element chosen under "Element" merges into the unit chosen above."""
        if self.unit.currentData() and self.merge_with.currentData():
            self.act(self.ruleset.merge_action(str(self.unit.currentData()), str(self.merge_with.currentData())))

    def split(self) -> None:
        """The figures typed (tags) leave the unit as a new element with the name typed."""
        from appmodel.errors import UsageError

        typed, team, name = self.split_figures.text(), str(self.unit.currentData()), self.split_name.text()

        def action() -> Any:
            try:
                figures = tuple(int(t) for t in typed.replace(",", " ").split())
            except ValueError:
                raise UsageError(f"figures {typed!r}: type the tags of the figures that split off, like 12 13") from None
            return self.ruleset.split_action(team, figures, name)

        self.act(action)  # a typing mistake is shown like a refusal of the rules
        if self.session.state.has_team(name.strip()):
            self.split_figures.clear()
            self.split_name.clear()

    def neutralise(self) -> None:
        if self.unit.currentData():
            self.act(self.ruleset.neutralise_action(int(self.hot_spot.value()), str(self.unit.currentData())))

    def roll_test(self) -> None:
        sides = self._test_sides()
        if sides is None:
            return
        first, second = sides
        purpose = self.purpose.text().strip() or "Test"
        about = self.unit.currentData()
        self.run("test", lambda state, dice: self.ruleset.test(state, purpose, first, dice, second=second, about=about))


def _refill(combo: QComboBox, items: list[tuple[str, Any]]) -> None:
    """Replace a drop-down's entries, keeping the choice when it is still there."""
    if [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())] == items:
        return
    current = combo.currentData()
    combo.blockSignals(True)
    try:
        combo.clear()
        for text, data in items:
            combo.addItem(text, data)
        combo.setCurrentIndex(max(0, combo.findData(current)))
    finally:
        combo.blockSignals(False)
