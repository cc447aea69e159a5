"""The generic rules' part of the turn panel: what the automation tables decided for a side the table
plays (B.8), shown to the solo player unit by unit -- whether it moves (the d6 against its
Probability of movement), the route (the two route dice: advance, outflank, retreat or a random
direction; direct or easiest), where that takes it (the "automation move" arrow on the table), and
whether it fires and at whom (the range level and the d6 that decided). The player then moves the
counters and resolves the fire through the attack panel."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QGroupBox, QLabel, QTableWidgetItem, QVBoxLayout, QWidget

from gui.panels.tables import read_only_table

COLUMNS = ("Unit", "Moves?", "Route", "Suggested move", "Fires?")


def move_texts(m: Any) -> tuple[str, str, str]:
    """(moves?, route, suggested move) of one unit's movement decision, in words.

    >>> from rules.generic.automation import AutomatedMove
    >>> move_texts(AutomatedMove(30, "T1", 3, 4, True, (2, 6), "OfL Esy", "outflank left", "easiest route", "the objective",
    ...                          (), 135.0, 9.0, 23.6, 42.4))
    ('yes: 3 <= 4', 'OfL Esy (2, 6): outflank left, easiest route, toward the objective', '9" at 135° to (23.6, 42.4)')
    >>> move_texts(AutomatedMove(32, "G1", 1, 0, False))
    ('no: 1 > 0', '', '')
    """
    if not m.moves:
        return f"no: {m.move_face} > {m.probability}", "", ""
    route = f"{m.route} ({m.route_faces[0]}, {m.route_faces[1]})" if m.route_faces else m.route
    route += f": {m.manoeuvre}, {m.path}"
    if m.random_faces:
        route += " (direction " + "; ".join(f"{a}, {b}" for a, b in m.random_faces) + ")"
    if m.toward:
        route += f", toward {m.toward}"
    where = ""
    if m.to_x_in is not None and m.to_y_in is not None and m.bearing_deg is not None:
        where = f'{m.distance_in:g}" at {m.bearing_deg:.0f}° to ({m.to_x_in:.1f}, {m.to_y_in:.1f})'
    return f"yes: {m.move_face} <= {m.probability}", route, where


def fire_text(f: Any) -> str:
    """One unit's firing decision, in words."""
    if f is None:  # no decision (no weapon, or a dummy: saying which would give the dummy away)
        return "—"
    if f.close_combat:
        return f"close combat with {f.target_name}"
    if not f.fires:
        return f"holds fire ({f.reason})" if f.target_name is None else \
            f"holds fire at {f.target_name}, {f.level} ({f.reason})"
    return f"fires at {f.target_name}, {f.level} ({f.reason})"


class AutomationBox(QGroupBox):
    """The last decisions of the automation tables this round, one row per unit of the automated side."""

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__("The automation tables (B.8)", parent)
        self.session = session
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = read_only_table(COLUMNS, stretch=(COLUMNS.index("Route"), COLUMNS.index("Fires?")), min_px=160)
        self.table.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)
        self.refresh()

    def refresh(self) -> None:
        state = self.session.state
        automated = [s.name for s in state.sides if s.automated]
        self.setVisible(bool(automated))
        result = self.session.ruleset.last_automation(state)
        if result is None:
            self.summary.setText(f"{' and '.join(automated)} {'is' if len(automated) == 1 else 'are'} played by the "
                                 "tables: they roll when its turn starts." if automated else "")
            self.table.setRowCount(0)
            return
        self.summary.setText(f"Round {result.round}: what the tables decided for <b>{result.side}</b>. Move the "
                             "counters as suggested (the arrows on the table) and resolve the fire in the attack panel.")
        fires = {f.unit_id: f for f in result.fires}
        self.table.setRowCount(len(result.moves))
        for row, m in enumerate(result.moves):
            moves, route, where = move_texts(m)
            for col, text in enumerate((m.name, moves, route, where, fire_text(fires.get(m.unit_id)))):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(row, col, item)
        self.table.resizeRowsToContents()
        # Every decision in view without scrolling (the panel has the room; a side rarely has a dozen units).
        rows = sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        self.table.setMinimumHeight(min(420, max(160, rows + self.table.horizontalHeader().height() + 6)))
