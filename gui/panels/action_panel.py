"""The declaration panel for every action besides attacks: pick the acting unit (it follows the selection
on the map or in the roster), pick the action from the list the ruleset gives, set its fields -- the
patients, assistants, vehicles and targets the rules propose from the tracked geometry, each with why
it may or may not be chosen --, read the odds before the roll, roll with virtual or the players' dice,
and see the result as a card.

Everything it shows comes from the ruleset as data (:class:`rules.ruleset.ActionForm`): the panel names
no rule system, and it plays a declaration through the session's one path
(:meth:`appmodel.game_session.GameSession.resolve_action`), as ``sandtable resolve`` and the demo do.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget)

from appmodel.errors import UsageError
from gui.panels.attack_common import ERROR_COLOR, ODDS_COLOR
from gui.panels.declaration_form import GREY, UnitsBox
from gui.panels.dice_choice import DiceChoice
from gui.panels.base import SessionPanel
from rules.errors import RulesError
from rules.ruleset import ActionField, ActionForm, ActionRequest


class _ActionDice:
    """What the dice form asks the session, for the declared action instead of the attack set up."""

    def __init__(self, session: Any, request: ActionRequest) -> None:
        self.session = session
        self.request = request

    def dice_needed(self, entries: Sequence[Any]) -> Any:
        return self.session.dice_needed(entries, what=self.request)


class ActionPanel(SessionPanel):
    """Unit, action, its fields, odds, dice, Resolve; ``on_resolved`` callbacks get the result card."""

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self._building = False
        self.forms: tuple[ActionForm, ...] = ()
        self.widgets: dict[str, Any] = {}
        #: The x and y boxes of each "point" field, by key.
        self._point_spins: dict[str, list[QDoubleSpinBox]] = {}
        #: Called with the :class:`~appmodel.result_card.ResultCard` of every action resolved here.
        self.on_resolved: list[Any] = []
        self.unit = QComboBox()
        self.action = QComboBox()
        for combo in (self.unit, self.action):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(18)
        self.help = QLabel()
        self.help.setWordWrap(True)
        self.help.setMinimumWidth(200)
        self.fields_box = QGroupBox("Declaration")
        self.fields_layout = QFormLayout(self.fields_box)
        self.fields_layout.setContentsMargins(6, 4, 6, 4)
        self.fields_layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.odds = QLabel()
        self.odds.setWordWrap(True)
        self.odds.setTextFormat(Qt.TextFormat.RichText)
        self.dice = DiceChoice()
        self.virtual, self.entered = self.dice.virtual, self.dice.entered
        self.dice_form, self.resolve_button = self.dice.dice_form, self.dice.resolve_button
        self.message = QLabel()
        self.message.setWordWrap(True)

        top = QFormLayout()
        top.addRow("Acting unit", self.unit)
        top.addRow("Action", self.action)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addWidget(self.help)
        layout.addWidget(self.fields_box)
        layout.addWidget(self.notes)
        layout.addWidget(self.odds)
        layout.addStretch(1)
        layout.addWidget(self.dice)
        layout.addWidget(self.message)

        self.unit.currentIndexChanged.connect(lambda _: self._unit_changed())
        self.action.currentIndexChanged.connect(lambda _: self._action_changed())
        self.entered.toggled.connect(self._dice_mode_changed)
        self.resolve_button.clicked.connect(self.resolve)
        self._fill_units()

    # -- following the session ------------------------------------------------------------------
    def on_session_changed(self, kind: str) -> None:
        if self._building:
            return
        if kind == "selection":
            uid = self.session.snapshot().selected_unit
            i = self.unit.findData(uid) if uid is not None else -1
            if i >= 0 and i != self.unit.currentIndex():
                self.unit.setCurrentIndex(i)
        elif kind == "state":
            self._fill_units()
        elif kind == "poses":
            self.later(self._refresh)  # who touches whom changes as the figures move

    def _refresh(self) -> None:
        uid = self.unit.currentData()
        if uid is not None and self.session.actions_for(uid) == self.forms:
            # The moves changed nothing this unit may declare: the same fields (widgets kept, as the
            # player left them), the odds as the table now stands.
            self._declaration_changed()
            return
        values = self.values()
        self._unit_changed(keep=self.action.currentData(), values=values)

    def _fill_units(self) -> None:
        keep = self.unit.currentData()
        self._building = True
        try:
            self.unit.clear()
            for v in self.session.units():
                if v.status != "removed":
                    self.unit.addItem(f"{v.name} ({v.side})", v.unit_id)
            i = self.unit.findData(keep)
            if i < 0 and self.session.snapshot().selected_unit is not None:
                i = self.unit.findData(self.session.snapshot().selected_unit)
            self.unit.setCurrentIndex(max(0, i))
        finally:
            self._building = False
        self._unit_changed(keep=self.action.currentData())

    def _unit_changed(self, *, keep: str | None = None, values: dict[str, Any] | None = None) -> None:
        uid = self.unit.currentData()
        self.forms = self.session.actions_for(uid) if uid is not None else ()
        self._building = True
        try:
            self.action.clear()
            model = self.action.model()
            for k, form in enumerate(self.forms):
                self.action.addItem(form.label + ("" if form.allowed else "  (not now)"), form.key)
                self.action.setItemData(k, form.reason or form.help, Qt.ItemDataRole.ToolTipRole)
                if not form.allowed and isinstance(model, QStandardItemModel):
                    item = model.item(k)
                    if item is not None:
                        item.setForeground(Qt.GlobalColor.gray)
            i = self.action.findData(keep) if keep is not None else -1
            if i < 0:
                i = next((k for k, f in enumerate(self.forms) if f.allowed), 0)
            self.action.setCurrentIndex(i)
        finally:
            self._building = False
        self._action_changed(values=values)

    @property
    def form(self) -> ActionForm | None:
        key = self.action.currentData()
        return next((f for f in self.forms if f.key == key), None)

    # -- the fields ------------------------------------------------------------------------------
    def _action_changed(self, *, values: dict[str, Any] | None = None) -> None:
        if self._building:
            return
        while self.fields_layout.rowCount():
            self.fields_layout.removeRow(0)
        self.widgets = {}
        self._point_spins = {}
        form = self.form
        self.fields_box.setVisible(bool(form and form.fields))
        if form is None:
            self.help.setText("Nothing this unit can declare besides attacks." if self.unit.count() else "")
            self.notes.setText("")
            self.odds.setText("")
            return
        self.help.setText(form.help if form.allowed else f"<span style='color:{ERROR_COLOR}'>Not now: {form.reason}</span>")
        for f in form.fields:
            widget = self._widget(f)
            self.widgets[f.key] = widget
            label = QLabel(f.label)
            label.setToolTip(f.help)
            widget.setToolTip(f.help)
            self.fields_layout.addRow(label, widget)
        if values:
            for key, value in values.items():
                if key in self.widgets:
                    self.set_value(key, value, quiet=True)
        self.notes.setText("<br>".join(form.notes))
        self.notes.setVisible(bool(form.notes))
        self.dice.set_rolls(form.rolls)
        self._declaration_changed()

    def _widget(self, f: ActionField) -> Any:
        if f.kind == "units":
            return UnitsBox(f.choices, f.default, self._declaration_changed)
        if f.kind in ("unit", "choice"):
            combo = QComboBox()
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(16)
            for k, c in enumerate(f.choices):
                combo.addItem(c.label + (f"  ({c.reason})" if c.reason else ""), c.value)
                if not c.eligible:
                    combo.setItemData(k, c.reason, Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(max(0, combo.findData(f.default)))
            combo.currentIndexChanged.connect(lambda _: self._declaration_changed())
            return combo
        if f.kind == "bool":
            box = QCheckBox()
            box.setChecked(bool(f.default))
            box.toggled.connect(lambda _: self._declaration_changed())
            return box
        if f.kind == "int":
            spin = QSpinBox()
            spin.setRange(int(f.minimum), int(f.maximum))
            spin.setValue(int(f.default or 0))
            spin.valueChanged.connect(lambda _: self._declaration_changed())
            return spin
        if f.kind == "float":
            dspin = QDoubleSpinBox()
            dspin.setRange(f.minimum, f.maximum)
            dspin.setDecimals(1)
            dspin.setSuffix(f.suffix)
            dspin.setValue(float(f.default or 0.0))
            dspin.valueChanged.connect(lambda _: self._declaration_changed())
            return dspin
        if f.kind == "point":
            holder = QWidget()
            row = QHBoxLayout(holder)
            row.setContentsMargins(0, 0, 0, 0)
            spins = []
            for axis, v in zip(("x", "y"), f.default or (0.0, 0.0)):
                s = QDoubleSpinBox()
                s.setRange(-999, 999)
                s.setDecimals(1)
                s.setPrefix(f"{axis} ")
                s.setSuffix('"')
                s.setValue(float(v))
                s.valueChanged.connect(lambda _: self._declaration_changed())
                row.addWidget(s)
                spins.append(s)
            self._point_spins[f.key] = spins
            return holder
        raise ValueError(f"field kind {f.kind!r}")

    def value(self, key: str) -> Any:
        w = self.widgets[key]
        if isinstance(w, UnitsBox):
            return w.value()
        if isinstance(w, QComboBox):
            return w.currentData()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, (QSpinBox, QDoubleSpinBox)):
            return w.value()
        spins = self._point_spins[key]
        return (spins[0].value(), spins[1].value())

    def values(self) -> dict[str, Any]:
        return {key: self.value(key) for key in self.widgets}

    def set_value(self, key: str, value: Any, *, quiet: bool = False) -> None:
        """Set a field as a player would (a unit by tag id, units as a list of tag ids)."""
        if key not in self.widgets:
            raise KeyError(f"no field {key!r}: the form has {', '.join(self.widgets) or 'none'}")
        w = self.widgets[key]
        self._building = quiet
        try:
            if isinstance(w, UnitsBox):
                for v, box in w.boxes.items():
                    box.setChecked(v in tuple(value))
            elif isinstance(w, QComboBox):
                i = w.findData(value)
                if i < 0:
                    raise ValueError(f"{key} = {value!r} is not among the choices")
                w.setCurrentIndex(i)
            elif isinstance(w, QCheckBox):
                w.setChecked(bool(value))
            elif isinstance(w, (QSpinBox, QDoubleSpinBox)):
                w.setValue(value)
            else:
                for s, v in zip(self._point_spins[key], value):
                    s.setValue(float(v))
        finally:
            self._building = False
        if not quiet:
            self._declaration_changed()

    def select_action(self, key: str) -> None:
        i = self.action.findData(key)
        if i < 0:
            raise ValueError(f"no action {key!r} for this unit: {', '.join(f.key for f in self.forms) or 'none'}")
        self.action.setCurrentIndex(i)

    def select_unit(self, unit_id: int) -> None:
        i = self.unit.findData(unit_id)
        if i < 0:
            raise ValueError(f"no unit {unit_id} in the list")
        self.unit.setCurrentIndex(i)

    def request(self) -> ActionRequest | None:
        form = self.form
        if form is None:
            return None
        return ActionRequest(form.key, form.unit_id, self.values())

    # -- odds and dice ---------------------------------------------------------------------------
    def _declaration_changed(self) -> None:
        if self._building:
            return
        self.message.setText("")
        request = self.request()
        form = self.form
        if request is None or form is None:
            return
        if not form.rolls:
            self.odds.setText(f"<span style='color:{GREY}'>No dice: the rules apply it as declared.</span>")
        else:
            try:
                odds = self.session.action_odds(request)
                legend = self.session.ruleset.action_legend(self.session.state, request)
            except (RulesError, UsageError, ValueError, KeyError) as exc:
                self.odds.setText(f"<span style='color:{ERROR_COLOR}'>{exc}</span>")
            else:
                self.odds.setText(odds_html(odds, legend))
        if self.entered.isChecked():
            self.dice_form.reset(_ActionDice(self.session, request))

    def _dice_mode_changed(self, entered: bool) -> None:
        request = self.request()
        if entered and request is not None:
            self.dice_form.reset(_ActionDice(self.session, request))

    def resolve(self) -> None:
        """Play the declared action (virtual dice, or the players' once the rules ask for no more); its
        card goes to ``on_resolved``, its words to the message line."""
        request = self.request()
        if request is None:
            self.message.setText(f"<span style='color:{ERROR_COLOR}'>Choose a unit and an action first.</span>")
            return
        form = self.form
        try:
            entries: list[Any] | None = None
            if form is not None and form.rolls and self.entered.isChecked():
                need = self.dice_form.needed
                if need is not None or not self.dice_form.entries:
                    raise UsageError(f"enter the dice first: {need.label} ({need.count}d{need.sides}) is still needed"
                                     if need is not None else "enter the dice first")
                entries = list(self.dice_form.entries)
            elif form is not None and not form.rolls:
                entries = []
            res = self.session.resolve_action(request, entries)
        except (UsageError, RulesError, ValueError, KeyError) as exc:
            self.message.setText(f"<span style='color:{ERROR_COLOR}'>{exc}</span>")
            return
        self.message.setText("<br>".join(res.sentences))
        card = self.session.last_card
        for callback in self.on_resolved:
            callback(card)


def odds_html(odds: Sequence[Any], legend: Any) -> str:
    """The odds before the roll, one line per unit, in the rules' words."""
    if not odds:
        return ""
    lines = []
    for o in odds:
        if not o.allowed:
            lines.append(f"{o.name}: {legend.refused} ({o.reason})")
            continue
        main = ", ".join(f"{word} <b>{float(p):.1%}</b>" for word, p in legend.values(o))
        table = ", ".join(f"{label} {float(p):.1%}" for label, p in o.outcomes)
        lines.append(f"{o.name}: {main}" + (f"<br><span style='color:{GREY}'>&nbsp;&nbsp;{table}</span>" if table else ""))
    return f"<span style='color:{ODDS_COLOR}'>Odds before the roll</span><br>" + "<br>".join(lines)


__all__ = ["ActionPanel", "odds_html"]
