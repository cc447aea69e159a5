"""A form built from a ruleset's :class:`~rules.ruleset.Declaration` list: what the players declare for
an attack (Force on Force's test, dice and die shifts; the generic rules' range shift), one widget per
declaration -- a checkbox ("bool"), a drop-down ("choice"), a number ("int"; a declaration whose
default is None, such as "figures that see the target (blank: all)", starts at "all") or a tick box
per unit the table proposes ("units": Down Range's assistants, by name, each with why it may or may
not help). :func:`declaration_widget` builds one alone (the attack panel's per-target columns)."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGridLayout, QLabel, QSpinBox, QWidget

#: The words beside a unit the rules would not take now.
GREY = "#9a9a9a"
#: A "unit" declaration left empty.
NOBODY = "(nobody)"
#: The kinds of declaration a form draws.
FORM_KINDS = ("bool", "choice", "int", "units", "unit")

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


class UnitsBox(QWidget):
    """A tick box per proposed unit (:class:`rules.action_forms.ActionChoice`), the rules' reason
    beside it; those the rules would not take now are greyed and start unticked."""

    def __init__(self, choices: Sequence[Any], default: Any, changed: Callable[[], None]) -> None:
        super().__init__()
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setHorizontalSpacing(6)
        layout.setVerticalSpacing(1)
        self.boxes: dict[Any, QCheckBox] = {}
        self._reasons: dict[Any, QLabel] = {}
        for row, c in enumerate(choices):
            box = QCheckBox(c.label)
            box.setChecked(c.value in tuple(default or ()))
            box.toggled.connect(lambda _: changed())
            # The rules' reason beside it, wrapped: a narrow dock keeps its Resolve button in view.
            why = QLabel()
            why.setWordWrap(True)
            layout.addWidget(box, row, 0)
            layout.addWidget(why, row, 1)
            self.boxes[c.value] = box
            self._reasons[c.value] = why
        self.show_reasons(choices)
        layout.setColumnStretch(1, 1)
        if not choices:
            layout.addWidget(QLabel(f"<span style='color:{GREY}'>nobody proposed</span>"), 0, 0)

    def show_reasons(self, choices: Sequence[Any]) -> None:
        """The rules' reason beside each unit, greyed where they would not take it now (the same units,
        ticked as the players left them: a carried unit's distances change, not the form)."""
        for c in choices:
            text = f"<span style='color:{GREY if not c.eligible else '#b8d8b8'}'>{c.reason}</span>"
            why = self._reasons[c.value]
            if why.text() != text:
                why.setText(text)
                why.setToolTip(c.reason)
                self.boxes[c.value].setToolTip(c.reason)

    def value(self) -> tuple[Any, ...]:
        return tuple(v for v, box in self.boxes.items() if box.isChecked())

    def set_value(self, values: Any) -> None:
        for v, box in self.boxes.items():
            box.setChecked(v in tuple(values or ()))


def declaration_widget(d: Any, changed: Callable[[], None]) -> QWidget:
    """The widget of one declaration, reporting each change to ``changed``."""
    if d.kind == "bool":
        box = QCheckBox()
        box.toggled.connect(lambda _: changed())
        return box
    if d.kind == "choice":
        combo = QComboBox()
        combo.addItems([str(c) for c in d.choices])
        combo.currentIndexChanged.connect(lambda _: changed())
        return combo
    if d.kind == "units":
        return UnitsBox(d.proposals, d.default, changed)
    if d.kind == "unit":  # one of the units proposed, or nobody
        combo = QComboBox()
        combo.addItem(NOBODY, None)
        for c in d.proposals:
            combo.addItem(c.label + ("" if c.eligible else f"  ({c.reason})"), c.value)
            combo.setItemData(combo.count() - 1, c.reason, Qt.ItemDataRole.ToolTipRole)
        combo.currentIndexChanged.connect(lambda _: changed())
        return combo
    spin = QSpinBox()
    if d.default is None:
        spin.setRange(_NONE, 99)
        spin.setSpecialValueText(ALL)
    else:
        spin.setRange(getattr(d, "minimum", -12), getattr(d, "maximum", 12))
    spin.valueChanged.connect(lambda _: changed())
    return spin


def widget_value(d: Any, w: QWidget) -> Any:
    """Declaration ``d``'s value as ``w`` shows it, as the ruleset takes it (None for a number left blank)."""
    if isinstance(w, UnitsBox):
        return w.value()
    if isinstance(w, QCheckBox):
        return w.isChecked()
    if isinstance(w, QComboBox):
        return w.currentData() if d.kind == "unit" else w.currentText()
    assert isinstance(w, QSpinBox)
    if d.default is None and w.value() == _NONE:
        return None
    return int(w.value())


def show_value(d: Any, w: QWidget, value: Any, *, strict: bool = False) -> None:
    """Set ``w`` to ``value`` (``strict``: a choice that is not offered is refused, saying the choices)."""
    if isinstance(w, UnitsBox):
        w.set_value(value)
    elif isinstance(w, QCheckBox):
        w.setChecked(bool(value))
    elif isinstance(w, QComboBox):
        i = (w.findData(value) if value is not None else 0) if d.kind == "unit" else w.findText(str(value))
        if i < 0 and strict:
            raise ValueError(f"{d.key} = {value!r}: choose one of {', '.join(w.itemText(k) for k in range(w.count()))}")
        w.setCurrentIndex(max(0, i))
    elif isinstance(w, QSpinBox):
        w.setValue(_NONE if value is None else int(value))


def _shape(d: Any) -> Any:
    """What a declaration's widget is made from, the reasons beside a "units" declaration's proposals and
    their order (by distance, which a carried unit changes) left out: the rows stay where the players
    saw them, as the targets' rows do."""
    if d.kind != "units":
        return d
    return replace(d, proposals=frozenset((c.value, c.label) for c in d.proposals))


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
        # A long row (the units proposed as assistants, each with its reason) goes under its label.
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        for d in self.declarations:
            widget = declaration_widget(d, self._changed)
            tip = d.label + (f"\n{d.help}" if d.help else "")
            widget.setToolTip(tip)
            if d.kind in ("choice", "unit"):
                widget.setMinimumWidth(112)
                widget.setMaximumWidth(140)
            elif d.kind == "int":
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

    def _changed(self) -> None:
        if not self._quiet:
            self.changed()

    def follow(self, declarations: Sequence[Any]) -> bool:
        """Show ``declarations`` in this form's widgets if they are this form's with only the reasons
        beside its proposed units changed (distances follow a carried unit; the players' ticks stay);
        False, changing nothing, if they differ otherwise (a new form is needed)."""
        declarations = tuple(declarations)
        if tuple(map(_shape, declarations)) != tuple(map(_shape, self.declarations)):
            return False
        for d in declarations:
            widget = self.widgets[d.key]
            if d.kind == "units" and isinstance(widget, UnitsBox):
                widget.show_reasons(d.proposals)
        self.declarations = declarations
        return True

    def value(self, key: str) -> Any:
        """The declaration's value as the ruleset takes it (None for a number left blank)."""
        d = next(x for x in self.declarations if x.key == key)
        return widget_value(d, self.widgets[key])

    def values(self) -> dict[str, Any]:
        """Every declaration a player set away from its default."""
        out = {}
        for d in self.declarations:
            v = self.value(d.key)
            if v != d.default and not (d.kind == "int" and d.default is None and v is None) \
                    and not (d.kind == "units" and not v and not d.default):
                out[d.key] = v
        return out

    def set_values(self, values: Mapping[str, Any]) -> None:
        """Show ``values`` (defaults for the keys left out) without reporting a change."""
        self._quiet = True
        try:
            for d in self.declarations:
                show_value(d, self.widgets[d.key], values.get(d.key, d.default))
        finally:
            self._quiet = False

    def set_value(self, key: str, value: Any) -> None:
        """Set one declaration as a player would (the change is reported)."""
        if key not in self.widgets:
            raise KeyError(f"no declaration {key!r}: the form has {', '.join(self.widgets)}")
        d = next(x for x in self.declarations if x.key == key)
        show_value(d, self.widgets[key], value, strict=True)
