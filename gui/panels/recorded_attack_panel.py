"""In a replay, the Attack dock shows the attack as it was recorded -- what the rules said and the odds
the players saw before rolling -- instead of the live attack panel, whose Resolve could do nothing."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel, QTableWidgetItem, QVBoxLayout, QWidget

from appmodel.recording.attacks import RecordedAttack, attack_at, recorded_attacks
from gui.panels.tables import read_only_table
from appmodel.game_session import _clock_text


class RecordedAttackPanel(QWidget):
    """Follows the replay's time: ``show_at(t_s)`` (the timeline calls it on every seek)."""

    def __init__(self, replay: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # read in the replay's one pass over the recording (its rules rows as a list held a 3-hour
        # game's every state: 1 GB), else from the rows, their states left unread
        attacks = getattr(replay, "attacks", None)
        self.attacks = tuple(attacks) if attacks is not None \
            else recorded_attacks(replay.reader.iter_rules_events(states_later=True))
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = read_only_table(("Target", "Dist.", "Hit", "Kill"), stretch=(0,), min_px=120)
        self.note = QLabel("Replay: the recorded game is shown as it was; nothing here changes it.")
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        for w in (self.heading, self.summary, self.table, self.note):
            layout.addWidget(w)
        layout.addStretch(1)
        self.shown: RecordedAttack | None = None
        self.show_at(0.0)

    def show_at(self, t_s: float) -> None:
        attack = attack_at(self.attacks, t_s)
        if attack is self.shown and self.heading.text():
            return
        self.shown = attack
        if attack is None:
            count = len(self.attacks)
            self.heading.setText("<b>No attack yet</b> at this moment of the recording"
                                 + (f" ({count} later: press . to jump to the next event)" if count else "."))
            self.summary.setText("")
            self.table.setRowCount(0)
            return
        n = self.attacks.index(attack) + 1
        rnd = f"round {attack.round}, " if attack.round else ""
        self.heading.setText(f"<b>Recorded attack {n} of {len(self.attacks)}</b> ({rnd}{_clock_text(attack.t_s)})")
        self.summary.setText(attack.summary)
        kill = attack.kill_word
        self.table.setHorizontalHeaderLabels(["Target", "Dist.", attack.hit_word.capitalize(),
                                              kill.capitalize() if kill else ""])
        self.table.setColumnHidden(3, kill is None)
        self.table.setRowCount(len(attack.odds))
        for row, o in enumerate(attack.odds):
            cells = [o.name, "" if o.distance_in is None else f'{o.distance_in:.1f}"']
            if o.allowed:
                cells += [f"{o.p_hit:.1%}", f"{o.p_kill_any:.1%}"]
            else:
                cells += ["not allowed", o.reason]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if not o.allowed and col >= 2:
                    item.setToolTip(o.reason)
                self.table.setItem(row, col, item)
