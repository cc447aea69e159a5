"""Round, initiative, whose turn, reactions available; starting and ending turns as the rules say.

The players' dice (one field; empty: virtual dice) go to whatever rolls next: the initiative, the
automation tables at the start of an automated side's turn, a Force on Force activation or test. The
field says which roll comes first. A rule system's own part sits below, drawn from the box it describes
(turn_box.py): Force on Force's initiative test and procedures, the generic rules' automation tables."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (QFormLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget)

from appmodel.errors import UsageError
from gui.flow_layout import FlowLayout
from gui.panels.base import SessionPanel
from gui.panels.turn_box import TurnBoxView
from rules.errors import RulesError
from rules.ruleset import RulesState, front_end, last_event, set_up_words


def parse_dice_text(text: str) -> list[Any]:
    """Dice typed by players: numbers separated by spaces or commas; a group in brackets or joined by
    '+' is one roll of several dice ("[6 2]" or "6+2").

    >>> parse_dice_text("7 4"), parse_dice_text("[6, 2] 12"), parse_dice_text("6+2")
    ([7, 4], [[6, 2], 12], [[6, 2]])
    """
    out: list[Any] = []
    text = text.replace(",", " ")
    group: list[int] | None = None
    for raw in text.replace("[", " [ ").replace("]", " ] ").split():
        if raw == "[":
            group = []
        elif raw == "]":
            if group is not None:
                out.append(group)
            group = None
        else:
            parts = raw.split("+")
            try:
                values = [int(p) for p in parts]
            except ValueError:
                raise UsageError(f"{raw!r} is not a die: type the numbers the dice show, like 6 or [6 2]") from None
            value: Any = values if len(values) > 1 else values[0]
            (group.extend(values) if group is not None else out.append(value))
    return out


class TurnPanel(SessionPanel):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.round_label = QLabel()
        self.turn_label = QLabel()
        self.order_label = QLabel()
        self.initiative_label = QLabel()
        self.initiative_label.setWordWrap(True)
        self.reactions_label = QLabel()
        self.reactions_label.setWordWrap(True)
        self.initiative_dice = QLineEdit()
        look = front_end(session.ruleset)
        self.initiative_dice.setPlaceholderText(look.dice_hint)
        self.next_roll = QLabel()
        self.next_roll.setWordWrap(True)
        self.next_roll.setStyleSheet("color: #b0b0b0")
        self.roll_button = QPushButton("Roll initiative (Ctrl+I)")
        self.start_button = QPushButton("Start turn (Ctrl+T)")
        self.end_button = QPushButton("End turn (Ctrl+E)")
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #ff6b6b")
        self.error_label.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Round", self.round_label)
        form.addRow("Turn", self.turn_label)
        form.addRow("Order", self.order_label)
        self.initiative_rolls = look.initiative_rolls
        #: (the row's words, the token it lists units by), or None (FrontEnd.ready).
        self.ready = look.ready
        if self.initiative_rolls:  # a ruleset with a test of its own shows it in its box below
            form.addRow("Initiative rolls", self.initiative_label)
        if self.ready is not None:
            form.addRow(self.ready[0], self.reactions_label)
        self.roll_button.setText(f"{look.round_button} (Ctrl+I)")
        form.addRow("Players' dice", self.initiative_dice)
        form.addRow("", self.next_roll)
        buttons = FlowLayout()  # three buttons wrap onto two lines in a 1366-pixel screen's dock
        for b in (self.roll_button, self.start_button, self.end_button):
            buttons.add_widget(b, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.error_label)
        #: The rule system's own part (its initiative test and procedures, the solo tables' decisions).
        self.extra: TurnBoxView | None = None
        if session.ruleset.has_turn_box:
            self.extra = TurnBoxView(session, self.press)
        if self.extra is not None:
            layout.addWidget(self.extra)
        layout.addStretch(1)
        self.roll_button.clicked.connect(self.roll_initiative)
        self.start_button.clicked.connect(self.start_turn)
        self.end_button.clicked.connect(self.end_turn)
        self.refresh()

    def on_session_changed(self, kind: str) -> None:
        if kind == "state":
            self.refresh()

    def refresh(self) -> None:
        state: RulesState = self.session.state
        self.round_label.setText(set_up_words(state) or str(state.round))
        self.turn_label.setText(state.active_side or "between turns")
        self.order_label.setText(" → ".join(state.order) or "roll initiative")
        rolled = last_event(state, "initiative")
        self.initiative_label.setText(rolled.summary if rolled is not None else "not rolled yet")
        if self.ready is not None:
            ready = [u.name for u in self.session.units() if self.ready[1] in u.tokens]
            self.reactions_label.setText(", ".join(ready) or "none")
        self.next_roll.setText(self._next_rolls())
        if self.extra is not None:
            self.extra.refresh()

    def _next_rolls(self) -> str:
        """Which dice the initiative and the start of the next turn ask for first (what to type)."""
        out = []
        for what, button in (("initiative", "Roll initiative"), ("turn", "Start turn")):
            try:
                need = self.session.dice_needed([], what=what)
            except Exception:  # not possible now, e.g. a turn still running: nothing to ask
                continue
            if need is not None:
                dice = f"{need.count}d{need.sides}"
                out.append(f"{button} asks first for {need.label}" + ("" if dice in need.label.lower() else f" ({dice})"))
        return "; ".join(out)

    def _run(self, fn: Any) -> bool:
        """Do ``fn``; what the rules or the typing refuse goes to the error line (False)."""
        try:
            fn()
            self.error_label.setText("")
            return True
        except (UsageError, RulesError, ValueError) as exc:
            self.error_label.setText(str(exc))
            return False

    def _entered(self) -> list[Any] | None:
        text = self.initiative_dice.text().strip()
        return parse_dice_text(text) if text else None

    def roll_initiative(self) -> None:
        def go() -> None:
            self.session.start_round(self._entered())
            self.initiative_dice.clear()
        self._run(go)

    def start_turn(self) -> None:
        def go() -> None:
            self.session.start_turn(self._entered())
            self.initiative_dice.clear()
        self._run(go)

    def press(self, button: str, values: dict[str, Any]) -> bool:
        """A button of the rule system's box: its procedure (an activation, a test...) with the players'
        dice or virtual ones, or its plain action (a leader joining, a split...); what the rules or the
        typing refuse is shown. True when it went through."""
        def go() -> None:
            command = self.session.ruleset.turn_command(self.session.state, button, values)
            if command is None:
                return
            if command.run is not None:
                self.session.run_procedure(command.kind, command.run, self._entered())
                self.initiative_dice.clear()
            else:
                self.session.apply_action(command.action, kind=command.kind)
        return self._run(go)

    def end_turn(self) -> None:
        self._run(self.session.end_turn)
