"""Hand edits of what the camera cannot see, for the rule systems besides Down Range (whose dialog is
in roster_panel.py): each dialog shows the fields its ruleset's edit action takes, filled with the
unit's current values, and hands back only what the player changed.

* Force on Force (:class:`FigureEditDialog`): the figure (``EditFigure``: status -- a casualty is the
  players' ruling after a fire --, on the table, the height of the ground under it, a leader's effect,
  remote contact and own dice) and its unit (``EditTeam``: defensive position, Supplies, Confidence,
  Troop Quality, Morale, Firepower, Regular or Irregular).
* The generic rules (:class:`CounterEditDialog`, ``EditUnit``): the status level, hidden and
  identified, shots left, on the table."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QGroupBox,
                               QLabel, QSpinBox, QVBoxLayout, QWidget)

#: What a Firepower spin box shows for "the unit's figures in play" (the rules' default, None).
FIGURES = "its figures"


def _combo(items: list[tuple[str, Any]], current: Any) -> QComboBox:
    combo = QComboBox()
    for text, data in items:
        combo.addItem(text, data)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    return combo


def _buttons(dialog: QDialog) -> QDialogButtonBox:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


class FigureEditDialog(QDialog):
    """A Force on Force figure and its unit: :meth:`changes` for ``EditFigure``, :meth:`group_changes`
    for ``EditTeam`` (empty when nothing of it changed)."""

    def __init__(self, state: Any, figure_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        fig = state.figure(figure_id)
        self.figure = fig
        self.team = state.team(fig.team) if fig.team is not None else None
        data = state.data
        self.setWindowTitle(f"Edit {fig.name}")
        dice = [(f"D{d}", d) for d in data.ladder]
        figure_box = QGroupBox(f"The figure: {fig.name}")
        form = QFormLayout(figure_box)
        self.status = _combo([(s, s) for s in ("active", "casualty", "removed")], fig.status.value)
        self.status.setToolTip("A casualty is the players' ruling after a fire (the excerpt stops before fire combat)")
        form.addRow("Status", self.status)
        self.on_table = QCheckBox()
        self.on_table.setChecked(fig.on_table)
        form.addRow("On the table", self.on_table)
        self.z_in = QDoubleSpinBox()
        self.z_in.setRange(0.0, 48.0)
        self.z_in.setDecimals(1)
        self.z_in.setSuffix('"')
        self.z_in.setValue(fig.z_in)
        self.z_in.setToolTip("The height of the ground under the figure (a rooftop): line of fire is at one elevation")
        form.addRow("Elevation", self.z_in)
        self.leader_effect: QComboBox | None = None
        self.remote_contact: QCheckBox | None = None
        self.own_morale: QComboBox | None = None
        self.own_quality: QComboBox | None = None
        if fig.is_leader:
            self.leader_effect = _combo([("+1 (positive)", 1), ("0", 0), ("-1 (negative)", -1)], fig.leader_effect)
            form.addRow("Leader effect", self.leader_effect)
            self.remote_contact = QCheckBox()
            self.remote_contact.setChecked(fig.remote_contact)
            self.remote_contact.setToolTip("Leads his unit from anywhere (radio), not only within cohesion distance")
            form.addRow("Remote contact", self.remote_contact)
            self.own_morale = _combo([("—", None), *dice], fig.morale)
            form.addRow("His Morale", self.own_morale)
            self.own_quality = _combo([("—", None), *dice], fig.quality)
            form.addRow("His Troop Quality", self.own_quality)
        layout = QVBoxLayout(self)
        layout.addWidget(figure_box)
        self.unit_box: QGroupBox | None = None
        if self.team is not None:
            t = self.team
            self.unit_box = QGroupBox(f"The unit: {t.name}")
            unit_form = QFormLayout(self.unit_box)
            self.defensive = QCheckBox()
            self.defensive.setChecked(t.defensive)
            self.defensive.setToolTip("Wholly occupies a defensive position (Regulars: 2\" cohesion)")
            unit_form.addRow("Defensive position", self.defensive)
            self.quality = _combo([(f"D{d} ({data.quality_name(d)})", d) for d in data.ladder], t.quality)
            unit_form.addRow("Troop Quality", self.quality)
            self.morale = _combo([(f"D{d} ({data.morale_name(d)})", d) for d in data.ladder], t.morale)
            unit_form.addRow("Morale", self.morale)
            self.confidence = _combo([(c.name, c.name) for c in data.confidences], t.confidence)
            unit_form.addRow("Confidence", self.confidence)
            self.supplies = _combo([(f"{s.name} ({s.firepower_dice:+d} Firepower)" if s.firepower_dice else s.name, s.name)
                                    for s in data.supplies_levels], t.supplies)
            unit_form.addRow("Supplies", self.supplies)
            self.firepower = QSpinBox()
            self.firepower.setRange(0, 30)
            self.firepower.setSpecialValueText(FIGURES)
            self.firepower.setValue(t.firepower or 0)
            self.firepower.setToolTip("Basic Firepower dice (blank: one per figure in play)")
            unit_form.addRow("Firepower", self.firepower)
            self.troop_type = _combo([("Regular", "regular"), ("Irregular", "irregular")], t.troop_type.value)
            unit_form.addRow("Troops", self.troop_type)
            layout.addWidget(self.unit_box)
        layout.addWidget(_buttons(self))

    def changes(self) -> dict[str, Any]:
        """The figure's fields the player changed (``EditFigure``)."""
        f = self.figure
        out: dict[str, Any] = {}
        if self.status.currentData() != f.status.value:
            out["status"] = self.status.currentData()
        if self.on_table.isChecked() != f.on_table:
            out["on_table"] = self.on_table.isChecked()
        if abs(self.z_in.value() - f.z_in) > 0.05:
            out["z_in"] = round(float(self.z_in.value()), 1)
        if self.leader_effect is not None and self.leader_effect.currentData() != f.leader_effect:
            out["leader_effect"] = int(self.leader_effect.currentData())
        if self.remote_contact is not None and self.remote_contact.isChecked() != f.remote_contact:
            out["remote_contact"] = self.remote_contact.isChecked()
        for key, combo in (("morale", self.own_morale), ("quality", self.own_quality)):
            if combo is not None and combo.currentData() != getattr(f, key):
                value = combo.currentData()
                out[key] = None if value is None else f"d{value}"
        return out

    def group_changes(self) -> dict[str, Any]:
        """The unit's fields the player changed (``EditTeam``)."""
        t = self.team
        if t is None:
            return {}
        out: dict[str, Any] = {}
        if self.defensive.isChecked() != t.defensive:
            out["defensive"] = self.defensive.isChecked()
        for key, combo in (("quality", self.quality), ("morale", self.morale)):
            if combo.currentData() != getattr(t, key):
                out[key] = f"d{combo.currentData()}"
        for key, combo in (("confidence", self.confidence), ("supplies", self.supplies), ("troop_type", self.troop_type)):
            current = getattr(t, key)
            if combo.currentData() != getattr(current, "value", current):
                out[key] = combo.currentData()
        firepower = self.firepower.value() or None
        if firepower != t.firepower:
            out["firepower"] = firepower
        return out


class CounterEditDialog(QDialog):
    """A generic-rules unit's counter (``EditUnit``): status level, hidden/identified, shots, on the table."""

    def __init__(self, state: Any, unit_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        u = state.unit(unit_id)
        self.unit = u
        self.ladder = tuple(state.data.status_ladder)
        self.setWindowTitle(f"Edit {u.short_id}")
        form = QFormLayout()
        if u.anonymous:
            note = QLabel("Anonymous: the other side sees only its counter until it is identified.")
            note.setWordWrap(True)
            form.addRow(note)
        self.status = _combo([(name, i) for i, name in enumerate(self.ladder)], u.status_level)
        self.status.setToolTip("The status ladder: the last level takes the unit out of the fight")
        form.addRow("Status", self.status)
        self.hidden = QCheckBox()
        self.hidden.setChecked(u.hidden)
        self.hidden.setToolTip("A hidden unit shows only its counter until it is identified")
        form.addRow("Hidden", self.hidden)
        self.identified = QCheckBox()
        self.identified.setChecked(u.identified)
        form.addRow("Identified", self.identified)
        self.shots: QSpinBox | None = None
        if u.shots_left is not None:
            self.shots = QSpinBox()
            self.shots.setRange(0, 999)
            self.shots.setValue(u.shots_left)
            form.addRow("Shots left", self.shots)
        self.on_table = QCheckBox()
        self.on_table.setChecked(u.on_table)
        form.addRow("On the table", self.on_table)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(_buttons(self))

    def changes(self) -> dict[str, Any]:
        u = self.unit
        out: dict[str, Any] = {}
        if self.status.currentData() != u.status_level:
            out["status"] = self.ladder[int(self.status.currentData())]
        if self.hidden.isChecked() != u.hidden:
            out["hidden"] = self.hidden.isChecked()
        if self.identified.isChecked() != u.identified:
            out["identified"] = self.identified.isChecked()
        if self.shots is not None and self.shots.value() != u.shots_left:
            out["shots_left"] = int(self.shots.value())
        if self.on_table.isChecked() != u.on_table:
            out["on_table"] = self.on_table.isChecked()
        return out

    def group_changes(self) -> dict[str, Any]:
        return {}
