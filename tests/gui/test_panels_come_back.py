"""A panel closed with its x comes back from View > Panels (the newcomer's review, #16)."""
from __future__ import annotations

from gui_helpers import open_main_window

from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH


def test_a_closed_dock_comes_back_from_the_view_menu(qtbot, tmp_path):
    w = open_main_window(qtbot, tmp_path, GameSession.from_scenario_file(SCENARIO_PATH, seed=1))
    view_menu = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "View")
    panels = next(a.menu() for a in view_menu.actions() if a.menu() is not None and a.text() == "Panels")
    entries = {a.text(): a for a in panels.actions()}
    assert {"Attack", "Turn", "Log", "Roster"} <= set(entries)
    w.docks["Log"].close()
    qtbot.waitUntil(lambda: not w.docks["Log"].isVisible())
    assert not entries["Log"].isChecked()
    entries["Log"].trigger()
    qtbot.waitUntil(lambda: w.docks["Log"].isVisible())
    assert entries["Log"].isChecked()
