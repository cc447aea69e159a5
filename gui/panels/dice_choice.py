"""The dice of a roll at the table, for every panel that resolves one (an attack, any other action):
virtual dice or the players', the Resolve button on the same line, and under them the form that asks
for the players' dice one roll at a time (:class:`DiceForm`)."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (QButtonGroup, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QRadioButton,
                               QVBoxLayout, QWidget)

from appmodel.errors import UsageError
from gui.panels.turn_panel import parse_dice_text
from rules.errors import RulesError


class DiceForm(QWidget):
    """The dice the players rolled, one roll at a time as the rules ask for them (which rolls follow
    depends on the earlier ones: no Damage roll for a miss). Compact: the rolls entered so far on
    one line, then the one roll needed next with its own field."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.done = QLabel()
        self.done.setWordWrap(True)
        # The prompt names the roll in full ("Skill roll of Sergeant with the M4/M16 at Rifleman 3
        # (advantage: two dice)"): it wraps on its own line, and the field takes the line under it at
        # the dock's full width. Side by side, a long prompt pushed the field and Resolve out of a
        # 1366-pixel screen's dock.
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.edit = QLineEdit()
        self.edit.setMinimumWidth(80)
        self.edit.returnPressed.connect(lambda: self.enter(self.edit.text()))
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.done)
        layout.addWidget(self.prompt)
        layout.addWidget(self.edit)
        layout.addWidget(self.status)
        self.entries: list[Any] = []
        self.entered_text: list[str] = []
        self._need: Any = None
        self._session: Any = None

    @property
    def edits(self) -> list[QLineEdit]:
        return [self.edit]

    def reset(self, session: Any) -> None:
        """Start over for the attack set up in ``session``."""
        self._session = session
        self.entries, self.entered_text = [], []
        self.done.setToolTip("")
        self._advance()

    def _advance(self) -> None:
        self.done.setText("Entered: " + "  ·  ".join(self.entered_text) if self.entered_text else "")
        self.done.setVisible(bool(self.entered_text))
        try:
            need = self._session.dice_needed(self.entries) if self._session is not None else None
        except UsageError as exc:  # nothing to roll for yet (no target ticked): a hint, not an error
            self.status.setText(f"<span style='color:#b0b0b0'>{str(exc)[:1].upper()}{str(exc)[1:]}.</span>")
            self._need = None
            self._show_field(False)
            return
        except (RulesError, ValueError) as exc:
            self.status.setText(f"<span style='color:#ff6b6b'>{exc}</span>")
            self._need = None
            self._show_field(False)
            return
        self._need = need
        if need is None:
            self.status.setText("All dice entered: press Resolve." if self.entries else "")
            self._show_field(False)
            return
        self.status.setText("")
        hint = f"{need.count} dice, each 1-{need.sides}" if need.count > 1 else f"1-{need.sides}"
        if need.count > 1 and not need.each_die:
            hint += f" (or their total, {need.count}-{need.count * need.sides})"
        self.prompt.setText(f"Next: <b>{need.label}</b> ({need.count}d{need.sides})")
        self.edit.clear()
        self.edit.setPlaceholderText(hint)
        self._show_field(True)
        self.edit.setFocus()

    def _show_field(self, on: bool) -> None:
        self.prompt.setVisible(on)
        self.edit.setVisible(on)

    @property
    def complete(self) -> bool:
        return self._session is not None and self._need is None and bool(self.entries)

    @property
    def needed(self) -> Any:
        return self._need

    def enter(self, text: str, *, edit: QLineEdit | None = None) -> bool:
        """Enter the next roll (as typed: "6 2", "[6 2]" or a total); False with the reason if refused."""
        if self._need is None:
            self.status.setText("No more dice are needed: press Resolve.")
            return False
        try:
            values = parse_dice_text(text)
            need = self._need
            if need.count > 1 and len(values) == need.count and all(isinstance(v, int) for v in values):
                values = [values]
            if len(values) != 1:
                raise UsageError(f"{text!r}: enter one roll for {need.label} ({need.count}d{need.sides})")
            trial = self.entries + values
            self._session.dice_needed(trial)  # validates the value against the die it belongs to
        except (UsageError, RulesError, ValueError) as exc:
            self.status.setText(f"<span style='color:#ff6b6b'>{exc}</span>")
            return False
        self.entered_text.append(f"<span title='{need.label}'>{text.strip()}</span>")
        self.done.setToolTip("\n".join(filter(None, [self.done.toolTip(), f"{need.label}: {text.strip()}"])))
        self.entries = trial
        self._advance()
        return True




class DiceChoice(QGroupBox):
    """"Dice": ``virtual`` / ``entered`` radio buttons, ``resolve_button``, ``dice_form`` (shown only
    for the players' dice). The panel connects ``entered.toggled`` and ``resolve_button.clicked``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Dice", parent)
        self.virtual = QRadioButton("Virtual dice")
        self.entered = QRadioButton("Players' dice")
        self.virtual.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.virtual)
        group.addButton(self.entered)
        self.dice_form = DiceForm()
        self.dice_form.setVisible(False)
        self.resolve_button = QPushButton("Resolve")
        self.resolve_button.setMinimumHeight(32)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        row = QHBoxLayout()
        row.addWidget(self.virtual)
        row.addWidget(self.entered)
        row.addStretch(1)
        row.addWidget(self.resolve_button)
        layout.addLayout(row)
        layout.addWidget(self.dice_form)
        self.entered.toggled.connect(self.dice_form.setVisible)

    def set_rolls(self, rolls: bool) -> None:
        """An action without dice: no choice of dice to make, only Resolve (a greyed "Players' dice"
        still ticked from the last roll read as if dice were wanted)."""
        self.virtual.setVisible(rolls)
        self.entered.setVisible(rolls)
        self.dice_form.setVisible(rolls and self.entered.isChecked())
        self.setTitle("Dice" if rolls else "No dice")


__all__ = ["DiceChoice", "DiceForm"]
