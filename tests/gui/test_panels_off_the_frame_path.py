"""While a unit is carried the panels a player reads (the targets' distances, the roster's Move left)
follow at a reader's pace, not every frame, and never between a frame's overlays and their paint; when
the carry ends they show where the unit stopped, and a player's own click shows at once."""
from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from gui.frame_path import FramePath, frame_path
from tests.gui.test_panels_follow_moves_in_place import UTV, ZBL, autocannon_at_the_utv, carry, session_before_autocannon


def roster_move_left(roster: Any, unit_id: int) -> str:
    row = next(r for r in range(roster.table.rowCount()) if roster.table.item(r, 0).text() == str(unit_id))
    return roster.table.item(row, roster.columns.index("Move left")).text()


def move_left_now(session: Any, unit_id: int) -> str:
    u = next(v for v in session.snapshot().units if v.unit_id == unit_id)
    return f'{u.move_left_in:.1f}" of {u.move_in:g}"'


def distance_now(session: Any, unit_id: int) -> str:
    return f'{next(p for p in session.snapshot().proposals if p.unit_id == unit_id).distance_in:.1f}"'


@pytest.fixture
def panels(qtbot):
    from gui.panels.roster_panel import RosterPanel

    session = session_before_autocannon()
    roster = RosterPanel(session)
    qtbot.addWidget(roster)
    attack = autocannon_at_the_utv(session, qtbot)
    return session, roster, attack


def test_after_a_carry_ends_the_panels_show_where_the_unit_stopped(qtbot, panels):
    session, roster, attack = panels
    before = attack.target_cells(UTV)["Dist."]
    for k in range(1, 21):  # two thirds of a second of frames, faster than any refresh
        carry(session, UTV, -0.05 * k, t_s=k / 30)
    qtbot.waitUntil(lambda: attack.target_cells(UTV)["Dist."] == distance_now(session, UTV)
                    and roster_move_left(roster, UTV) == move_left_now(session, UTV), timeout=10000)
    assert attack.target_cells(UTV)["Dist."] != before


def test_while_carried_a_panel_refreshes_at_most_once_per_interval_and_at_once_when_put_down(qtbot, panels, monkeypatch):
    from gui.panels import base

    session, roster, attack = panels
    monkeypatch.setattr(base, "LATER_MS", 60_000)  # one refresh a minute: nothing here depends on how fast the machine is
    runs: list[str] = []
    refresh = roster.refresh

    def counted() -> None:
        runs.append(roster_move_left(roster, UTV))
        refresh()
    monkeypatch.setattr(roster, "refresh", counted)
    counted.__name__ = "refresh"

    carry(session, UTV, -0.05, t_s=1 / 30)
    qtbot.waitUntil(lambda: len(runs) == 1, timeout=10000)  # the first move after a quiet spell: at once
    first = roster_move_left(roster, UTV)
    assert first == move_left_now(session, UTV)
    for k in range(2, 12):
        carry(session, UTV, -0.05 * k, t_s=k / 30)
        qtbot.wait(5)
    assert len(runs) == 1 and roster_move_left(roster, UTV) == first  # the carry goes on: not yet again

    frame_path(session).settle()  # the live loop saw the unit put down
    qtbot.waitUntil(lambda: roster_move_left(roster, UTV) == move_left_now(session, UTV), timeout=10000)
    assert len(runs) == 2 and roster_move_left(roster, UTV) != first


def test_a_click_during_a_carry_updates_the_panels_at_once(qtbot, panels, monkeypatch):
    from gui.panels import base

    session, roster, attack = panels
    monkeypatch.setattr(base, "LATER_MS", 60_000)
    for k in range(1, 6):
        carry(session, UTV, -0.05 * k, t_s=k / 30)
    other = next(attack.attacker.itemData(i) for i in range(attack.attacker.count()) if attack.attacker.itemData(i) != ZBL)
    session.select_unit(other)  # the player clicks another unit on the map: no waiting for the next refresh
    selected = roster.table.selectionModel().selectedRows()
    assert [roster.table.item(i.row(), 0).text() for i in selected] == [str(other)]
    assert attack.attacker.currentData() == other  # the attack is now set up for the unit clicked
    target = next(p.unit_id for p in session.snapshot().proposals if p.eligible)
    assert attack.target_cells(target)["Dist."] == distance_now(session, target)  # measured from the new attacker


class _View:
    def __init__(self) -> None:
        self.pending = True

    def frame_pending(self) -> bool:
        return self.pending

    def preview_pending(self) -> bool:
        return False


def test_put_off_work_waits_for_the_views_paint(qtbot, monkeypatch):
    from gui import frame_path as fp

    monkeypatch.setattr(fp, "MAX_WAIT_MS", 60_000)
    path, view, ran = FramePath(), _View(), []
    path.add_view(view)
    path.when_clear("panel", lambda: ran.append("refresh"))
    qtbot.wait(50)
    assert ran == []  # a new overlay image waits for its paint: the refresh does not go first
    view.pending = False
    path.painted()
    qtbot.waitUntil(lambda: ran == ["refresh"], timeout=10000)
    path.when_clear("panel", lambda: ran.append("again"))
    assert ran == ["refresh", "again"]  # nothing waiting on the path: at once


def test_put_off_work_runs_in_the_end_when_the_views_never_rest(qtbot, monkeypatch):
    from gui import frame_path as fp

    monkeypatch.setattr(fp, "MAX_WAIT_MS", 30)
    path, view, ran = FramePath(), _View(), []
    path.add_view(view)
    path.when_clear("panel", lambda: ran.append("refresh"))
    qtbot.waitUntil(lambda: ran == ["refresh"], timeout=10000)  # late, never lost


def test_a_carried_attackers_assistants_follow_in_the_same_form(qtbot, panels):
    """The ZBL-09 carried: the distances beside its proposed assistants change in the form the players
    are filling in (the same tick boxes, as they left them), not in a new one."""
    from gui.panels.declaration_form import UnitsBox

    session, roster, attack = panels
    form = attack.declared
    box = form.widgets["assistants"]
    assert isinstance(box, UnitsBox) and box.boxes
    tick = next(iter(box.boxes.values()))  # the nearest, ticked by the players
    tick.setChecked(True)
    helper = list(box.boxes)[-1]  # a farther one, whose distance the move changes
    before = box._reasons[helper].text()
    for k in range(1, 11):
        carry(session, ZBL, -0.02 * k, t_s=k / 30)  # a fifth of an inch: the same units proposed
    qtbot.waitUntil(lambda: box._reasons[helper].text() != before, timeout=10000)
    assert attack.declared is form and form.widgets["assistants"] is box and tick.isChecked()
    shown = next(c for c in session.ruleset.attack_form(session.state, ZBL, "Autocannon") if c.key == "assistants")
    assert box._reasons[helper].toolTip() == next(c.reason for c in shown.proposals if c.value == helper)


def test_a_form_made_anew_during_a_carry_is_shown_at_once(qtbot, panels):
    """Other units proposed as assistants (the ZBL-09 carried away from them): the new form is there in the
    very refresh that makes it, never a blank box until Qt shows it later."""
    session, roster, attack = panels
    attack.show()
    qtbot.waitExposed(attack)
    form = attack.declared
    for k in range(1, 11):
        carry(session, ZBL, -0.2 * k, t_s=k / 30)  # two inches: the Automatic rifleman is out of reach
    attack._refresh_geometry()  # the refresh itself, with no event handled after it
    assert attack.declared is not form and attack.declared.isVisible()
    assert attack.declared.widgets["assistants"].isVisible()
