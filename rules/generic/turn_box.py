"""The generic rules' part of the turn panel, as data (:class:`rules.ruleset.TurnBox`): what the
automation tables decided for a side the table plays (B.8), shown to the solo player unit by unit --
whether it moves (the d6 against its Probability of movement), the route (the two route dice: advance,
outflank, retreat or a random direction; direct or easiest), where that takes it (the "automation
move" arrow on the table), and whether it fires and at whom (the range level and the d6 that decided).
The player then moves the counters and resolves the fire through the attack panel.
"""
from __future__ import annotations

from typing import Any

from rules.generic.automation import AutomationResult
from rules.generic.state import GenericState
from rules.ruleset import TurnBox, TurnSection, TurnTable

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


def turn_box(state: GenericState, result: AutomationResult | None) -> TurnBox:
    """The last decisions of the automation tables this round (``result``), one row per unit of the
    automated side; hidden when the table plays no side."""
    automated = [s.name for s in state.sides if s.automated]
    rows: tuple[tuple[str, ...], ...] = ()
    if result is None:
        summary = f"{' and '.join(automated)} {'is' if len(automated) == 1 else 'are'} played by the " \
                  "tables: they roll when its turn starts." if automated else ""
    else:
        summary = (f"Round {result.round}: what the tables decided for <b>{result.side}</b>. Move the counters as "
                   "suggested (the arrows on the table) and resolve the fire in the attack panel.")
        fires = {f.unit_id: f for f in result.fires}
        rows = tuple((m.name, *move_texts(m), fire_text(fires.get(m.unit_id))) for m in result.moves)
    table = TurnTable(COLUMNS, rows, stretch=(COLUMNS.index("Route"), COLUMNS.index("Fires?")), height="room", wrap=True)
    return TurnBox((TurnSection("automation", "The automation tables (B.8)", summary, table=table),), visible=bool(automated))
