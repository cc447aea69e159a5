"""A form built from a ruleset's :class:`~rules.ruleset.Declaration` list: what the players declare for
an attack (Force on Force's test, dice and die shifts; the generic rules' range shift), one widget per
declaration -- a checkbox ("bool"), a drop-down ("choice") or a number ("int"; a declaration whose
default is None, such as "figures that see the target (blank: all)", starts at "all")."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QSpinBox, QWidget

#: What a number declaration whose default is None shows while it is left at that default.
ALL = "all"
#: The spin box value that stands for None (below every value a player can mean).
_NONE = -1


def short_label(label: str) -> str:
    """A declaration's label without its "(blank: ...)" note (the widget shows the blank itself).

    >>> short_label("Figures of the target that are visible (blank: all)")
    'Figures of the target that are visible'
    """
    head, sep, tail = label.rpartition(" (blank:")
    return head if sep and tail.endswith(")") else label


class DeclarationForm(QWidget):
    """Widgets for ``declarations``; :meth:`values` gives those set away from their defaults, keyed as
    the ruleset takes them, and ``changed`` is called after every change a player makes."""

    def __init__(self, declarations: Sequence[Any], parent: QWidget | None = None, *,
                 changed: Callable[[], None] | None = None) -> None:
        super().__init__(parent)
        self.declarations = tuple(declarations)
        self.changed = changed or (lambda: None)
        self.widgets: dict[str, QWidget] = {}
        self._quiet = False
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setVerticalSpacing(2)
        for d in self.declarations:
            widget = self._widget(d)
            tip = d.label + (f"\n{d.help}" if d.help else "")
            widget.setToolTip(tip)
            if d.kind == "choice":
                widget.setMinimumWidth(112)
                widget.setMaximumWidth(140)
            elif d.kind != "bool":
                widget.setMaximumWidth(64)  # the label, not the number, needs the room
            self.widgets[d.key] = widget
            # One line each (the ruleset's short words; the full label and its help in the tooltip):
            # wrapped labels would make the attack panel taller than a table-side screen.
            text = d.short or short_label(d.label)
            if d.kind == "bool":
                assert isinstance(widget, QCheckBox)
                widget.setText(text)
                form.addRow(widget)
            else:
                label = QLabel(text)
                label.setToolTip(tip)
                form.addRow(label, widget)
        self.set_values({})

    def _widget(self, d: Any) -> QWidget:
        if d.kind == "bool":
            box = QCheckBox()
            box.toggled.connect(lambda _: self._changed())
            return box
        if d.kind == "choice":
            combo = QComboBox()
            combo.addItems([str(c) for c in d.choices])
            combo.currentIndexChanged.connect(lambda _: self._changed())
            return combo
        spin = QSpinBox()
        if d.default is None:
            spin.setRange(_NONE, 99)
            spin.setSpecialValueText(ALL)
        else:
            spin.setRange(-12, 12)
        spin.valueChanged.connect(lambda _: self._changed())
        return spin

    def _changed(self) -> None:
        if not self._quiet:
            self.changed()

    def value(self, key: str) -> Any:
        """The declaration's value as the ruleset takes it (None for a number left blank)."""
        d = next(x for x in self.declarations if x.key == key)
        w = self.widgets[key]
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QComboBox):
            return w.currentText()
        assert isinstance(w, QSpinBox)
        if d.default is None and w.value() == _NONE:
            return None
        return int(w.value())

    def values(self) -> dict[str, Any]:
        """Every declaration a player set away from its default."""
        out = {}
        for d in self.declarations:
            v = self.value(d.key)
            if v != d.default and not (d.kind == "int" and d.default is None and v is None):
                out[d.key] = v
        return out

    def set_values(self, values: Mapping[str, Any]) -> None:
        """Show ``values`` (defaults for the keys left out) without reporting a change."""
        self._quiet = True
        try:
            for d in self.declarations:
                v = values.get(d.key, d.default)
                w = self.widgets[d.key]
                if isinstance(w, QCheckBox):
                    w.setChecked(bool(v))
                elif isinstance(w, QComboBox):
                    w.setCurrentIndex(max(0, w.findText(str(v))))
                elif isinstance(w, QSpinBox):
                    w.setValue(_NONE if v is None else int(v))
        finally:
            self._quiet = False

    def set_value(self, key: str, value: Any) -> None:
        """Set one declaration as a player would (the change is reported)."""
        if key not in self.widgets:
            raise KeyError(f"no declaration {key!r}: the form has {', '.join(self.widgets)}")
        w = self.widgets[key]
        if isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QComboBox):
            i = w.findText(str(value))
            if i < 0:
                raise ValueError(f"{key} = {value!r}: choose one of {', '.join(w.itemText(k) for k in range(w.count()))}")
            w.setCurrentIndex(i)
        elif isinstance(w, QSpinBox):
            w.setValue(_NONE if value is None else int(value))
