"""A unit carried across the table (new poses, the same targets) updates the attack panel's and the
roster's rows where they stand: the same tick boxes and cells, showing the new distance and move
left. (Rebuilding the rows' widgets every few frames was what kept the overlay's paint waiting.)"""
from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from rules.downrange.examples import in_depth
from rules.dice import SeededDice
from rules.ruleset import get_ruleset
from tracker.unit_pose import UnitPose, UnitState

ZBL, UTV = 40, 15


def session_before_autocannon() -> GameSession:
    steps = list(in_depth.STEPS)
    index = [s.section for s in steps].index("6.5.1")
    state = None
    for record in in_depth.play(steps[:index]):
        state = record.state
    return GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(), dice=SeededDice(2))


def carry(session: GameSession, unit_id: int, dx_in: float, t_s: float) -> None:
    u = session.unit(unit_id)
    session.apply_poses([UnitPose(unit_id, u.name, u.side, u.x_in + dx_in, u.y_in, 1.0, u.heading_deg,
                                  UnitState.SEEN, t_s, abs(dx_in))], t_s=t_s)


def autocannon_at_the_utv(session: GameSession, qtbot) -> Any:
    """The attack panel of 6.5.1 being set up: the ZBL-09's autocannon with the UTV ticked."""
    from gui.panels.attack_panel import AttackPanel

    panel = AttackPanel(session)
    qtbot.addWidget(panel)
    session.select_unit(ZBL)
    panel.weapon.setCurrentIndex(panel.weapon.findData("Autocannon"))
    panel.set_target(UTV)
    return panel


def test_a_carried_target_keeps_its_row_widgets_and_shows_its_new_distance(qtbot):
    from gui.panels.attack_common import COL_DIST, COL_TARGET
    from gui.panels.roster_panel import RosterPanel

    session = session_before_autocannon()
    roster = RosterPanel(session)
    qtbot.addWidget(roster)
    panel = autocannon_at_the_utv(session, qtbot)
    rows = list(panel._rows)
    row = rows.index(UTV)
    box, dist = panel.targets.cellWidget(row, COL_TARGET), panel.targets.item(row, COL_DIST)
    before = dist.text()
    roster_row = next(r for r in range(roster.table.rowCount()) if roster.table.item(r, 0).text() == str(UTV))
    roster_item = roster.table.item(roster_row, 1)
    left_before = roster.table.item(roster_row, roster.columns.index("Move left")).text()

    for k in range(1, 6):  # the UTV carried half an inch away from the ZBL, a few frames (the rows keep their order)
        carry(session, UTV, -0.03 * k, t_s=k / 30)

    def distance_shown() -> str:
        return next(p for p in session.snapshot().proposals if p.unit_id == UTV).distance_in.__format__(".1f") + '"'

    qtbot.waitUntil(lambda: dist.text() == distance_shown() and dist.text() != before, timeout=10000)
    assert panel._rows == rows  # the same targets
    assert panel.targets.cellWidget(row, COL_TARGET) is box and box.isChecked()  # the same tick box, still ticked
    assert panel.targets.item(row, COL_DIST) is dist  # the same cell, its text changed
    assert panel.target_cells(UTV)["Dist."] == distance_shown()
    assert session.draft is not None and session.draft.target_ids == (UTV,)
    move_col = roster.columns.index("Move left")
    left_item = roster.table.item(roster_row, move_col)

    def move_left_now() -> str:
        u = next(v for v in session.snapshot().units if v.unit_id == UTV)
        return f'{u.move_left_in:.1f}" of {u.move_in:g}"'

    assert left_before != move_left_now()  # the carry spent some of the UTV's move
    qtbot.waitUntil(lambda: roster.table.item(roster_row, move_col).text() == move_left_now(), timeout=10000)
    assert roster.table.item(roster_row, move_col) is left_item and roster.table.item(roster_row, 1) is roster_item


def test_a_target_carried_past_another_keeps_its_row_so_a_tick_lands_on_the_unit_the_player_saw(qtbot):
    from gui.panels.attack_common import COL_DIST, COL_TARGET

    session = session_before_autocannon()
    panel = autocannon_at_the_utv(session, qtbot)
    rows = list(panel._rows)
    row = rows.index(UTV)
    assert row > 0  # a nearer target listed above it
    top = rows[0]
    boxes = [panel.targets.cellWidget(r, COL_TARGET) for r in range(len(rows))]
    before = panel.targets.item(row, COL_DIST).text()

    carry(session, UTV, 3.0, t_s=1 / 30)  # toward the ZBL: now the nearest
    nearest = min((p for p in session.snapshot().proposals if p.unit_id in rows), key=lambda p: p.distance_in)
    assert nearest.unit_id == UTV  # a fresh sort would put it on top
    qtbot.waitUntil(lambda: panel.targets.item(row, COL_DIST).text() != before, timeout=10000)
    assert panel._rows == rows  # nobody slid under the pointer
    assert [panel.targets.cellWidget(r, COL_TARGET) for r in range(len(rows))] == boxes  # the same tick boxes
    assert panel.ticked() == [UTV]
    assert panel.target_cells(UTV)["Target"] == "UTV"
    panel.targets.cellWidget(0, COL_TARGET).setChecked(True)  # the player ticks the top row they saw
    assert top in panel.ticked()
    panel.targets.cellWidget(row, COL_TARGET).setChecked(False)  # and unticks the UTV's row
    assert session.draft is not None and UTV not in session.draft.target_ids
