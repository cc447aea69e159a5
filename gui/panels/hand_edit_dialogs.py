"""The hand-edit dialog of what the camera cannot see: one dialog for every rule system, drawn from the
form the rule system describes (:class:`rules.ruleset.EditForm`: sections of fields, each a check box,
a number box, a drop-down or free words, filled with the unit's current values). OK hands back the
values; :func:`rules.ruleset.form_changes` says what they change (only what the player changed)."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from gui.panels.fields import field_widget, widget_value
from rules.ruleset import EditChanges, EditField, EditForm, form_changes


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
