"""The widgets of a rule system's fields (:class:`rules.ruleset.EditField`), shared by the hand-edit
dialog and the turn panel's box: a check box, a number box, a drop-down, free words."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget

from rules.ruleset import EditField


def field_widget(f: EditField) -> QWidget:
    """The widget of one field, set to its current value."""
    widget: QWidget
    if f.kind == "bool":
        box = QCheckBox(f.label if f.inline else "")
        box.setChecked(bool(f.value))
        widget = box
    elif f.kind == "int":
        spin = QSpinBox()
        spin.setRange(int(f.minimum), int(f.maximum))
        if f.blank:
            spin.setSpecialValueText(f.blank)  # the lowest value shows the words and stands for None
        spin.setValue(int(f.minimum) if f.value is None else int(f.value))
        widget = spin
    elif f.kind == "float":
        number = QDoubleSpinBox()
        number.setRange(float(f.minimum), float(f.maximum))
        number.setDecimals(f.decimals)
        number.setSuffix(f.suffix)
        number.setValue(float(f.value or 0.0))
        widget = number
    elif f.kind == "text" and not f.choices:
        line = QLineEdit("" if f.value is None else str(f.value))
        line.setPlaceholderText(f.hint)
        widget = line
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
    if isinstance(widget, QLineEdit):
        return widget.text().strip()
    if isinstance(widget, QComboBox):
        return widget.currentText().strip() if f.kind == "text" else widget.currentData()
    raise TypeError(f"field {f.key!r}: not a field widget")


def update_choices(widget: QWidget, f: EditField) -> None:
    """A drop-down's entries and a number box's range as ``f`` has them now, keeping what the player
    chose while it is still there (the game moved on: a unit left, a Hot Spot was added)."""
    if isinstance(widget, QComboBox) and f.kind == "choice":
        items = list(f.choices)
        if [(widget.itemText(i), widget.itemData(i)) for i in range(widget.count())] == items:
            return
        current = widget.currentData()
        widget.blockSignals(True)
        try:
            widget.clear()
            for text, data in items:
                widget.addItem(text, data)
            widget.setCurrentIndex(max(0, widget.findData(current)))
        finally:
            widget.blockSignals(False)
    elif isinstance(widget, QSpinBox) and (widget.minimum(), widget.maximum()) != (int(f.minimum), int(f.maximum)):
        widget.blockSignals(True)
        try:
            widget.setRange(int(f.minimum), int(f.maximum))
        finally:
            widget.blockSignals(False)
