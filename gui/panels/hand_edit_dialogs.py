"""The hand-edit dialog of what the camera cannot see: one dialog for every rule system, drawn from the
form the rule system describes (:class:`rules.ruleset.EditForm`: sections of fields, each a check box,
a number box, a drop-down or free words, filled with the unit's current values). OK hands back the
values; :func:`rules.ruleset.form_changes` says what they change (only what the player changed)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QGroupBox,
                               QLabel, QSpinBox, QVBoxLayout, QWidget)

from rules.ruleset import EditChanges, EditField, EditForm, form_changes


def field_widget(f: EditField) -> QWidget:
    """The widget of one field, set to its current value."""
    if f.kind == "bool":
        box = QCheckBox(f.label if f.inline else "")
        box.setChecked(bool(f.value))
        widget: QWidget = box
    elif f.kind == "int":
        spin = QSpinBox()
        low = int(f.minimum)
        spin.setRange(low, int(f.maximum))
        if f.blank:
            spin.setSpecialValueText(f.blank)  # the lowest value shows the words and stands for None
        spin.setValue(low if f.value is None else int(f.value))
        widget = spin
    elif f.kind == "float":
        number = QDoubleSpinBox()
        number.setRange(float(f.minimum), float(f.maximum))
        number.setDecimals(f.decimals)
        number.setSuffix(f.suffix)
        number.setValue(float(f.value or 0.0))
        widget = number
    elif f.kind in ("choice", "text"):
        combo = QComboBox()
        for text, value in f.choices:
            combo.addItem(text, value)
        if f.kind == "text":
            combo.setEditable(True)
            combo.setCurrentText("" if f.value is None else str(f.value))
        else:
            combo.setCurrentIndex(max(0, combo.findData(f.value)))
        widget = combo
    else:
        raise ValueError(f"field {f.key!r}: no widget for kind {f.kind!r} (bool, int, float, choice or text)")
    if f.help:
        widget.setToolTip(f.help)
    return widget


def widget_value(f: EditField, widget: QWidget) -> Any:
    """What a field's widget holds now, as the form's value."""
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    if isinstance(widget, QSpinBox):
        return None if f.blank and widget.value() == widget.minimum() else int(widget.value())
    if isinstance(widget, QDoubleSpinBox):
        return round(float(widget.value()), f.decimals)
    if isinstance(widget, QComboBox):
        return widget.currentText().strip() if f.kind == "text" else widget.currentData()
    raise TypeError(f"field {f.key!r}: not a field widget")


class EditFormDialog(QDialog):
    """A rule system's hand-edit form: ``widgets`` by field key, ``sections`` the group boxes of the
    titled sections; :meth:`values` the fields as filled in, :meth:`changes` what they change."""

    def __init__(self, form: EditForm, ruleset: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.form, self.ruleset = form, ruleset
        self.setWindowTitle(form.title)
        self.widgets: dict[str, QWidget] = {}
        self.sections: list[QGroupBox] = []
        layout = QVBoxLayout(self)
        for section in form.sections:
            if section.title:
                box = QGroupBox(section.title)
                self.sections.append(box)
                rows = QFormLayout(box)
                layout.addWidget(box)
            else:
                rows = QFormLayout()
                layout.addLayout(rows)
            if section.note:
                note = QLabel(section.note)
                note.setWordWrap(True)
                rows.addRow(note)
            for f in section.fields:
                widget = field_widget(f)
                self.widgets[f.key] = widget
                if f.inline:
                    rows.addRow(widget)
                else:
                    rows.addRow(f.label, widget)
        for f in form.fields():
            if f.links:
                self._link(f)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _link(self, f: EditField) -> None:
        """Choosing a value of ``f`` sets the fields it names (their own choice stays free after)."""
        combo = self.widgets[f.key]
        assert isinstance(combo, QComboBox), f"field {f.key!r}: only a choice sets other fields"
        sets: dict[Any, list[tuple[str, Any]]] = {}
        for chosen, key, value in f.links:
            sets.setdefault(chosen, []).append((key, value))

        def chosen(_: int) -> None:
            for key, value in sets.get(combo.currentData(), ()):
                target = self.widgets.get(key)
                if isinstance(target, QComboBox):
                    target.setCurrentIndex(max(0, target.findData(value)))

        combo.currentIndexChanged.connect(chosen)

    def values(self) -> dict[str, Any]:
        return {f.key: widget_value(f, self.widgets[f.key]) for f in self.form.fields()}

    def changes(self) -> EditChanges:
        return form_changes(self.ruleset, self.form, self.values())


def edited_values(form: EditForm, values: Mapping[str, Any]) -> dict[str, Any]:
    """The form's starting values with ``values`` over them (a test filling in a few fields)."""
    return {**{f.key: f.value for f in form.fields()}, **values}
