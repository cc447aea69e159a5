"""Game > Open a scenario: another game of any rule system opens in the window's place (its panels and
overlay menus those of the new rule system, a recording in progress closed cleanly, remembered for the
next start); a file with a mistake is refused in one line and the game on the table goes on untouched."""
from __future__ import annotations

import os
import sqlite3

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui_helpers import open_main_window

from appmodel.game_session import GameSession
from appmodel.scenarios import find_shipped
from rules.downrange.examples.in_depth import SCENARIO_PATH


def _window(qtbot, tmp_path):
    return open_main_window(qtbot, tmp_path, GameSession.from_scenario_file(SCENARIO_PATH, seed=1))


def test_the_game_menu_offers_every_shipped_scenario_of_every_rule_system(qtbot, tmp_path) -> None:
    window = _window(qtbot, tmp_path)
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Game")
    sub = next(a.menu() for a in menu.actions() if a.text() == "Open a scenario")
    texts = [a.text() for a in sub.actions()]
    for rules in ("down-range", "force-on-force", "generic"):
        assert any(f"({rules} rules)" in t for t in texts), texts
    assert "Open a scenario file…" in texts
    assert window.actions_by_name["open_scenario"].shortcut().toString() == "Ctrl+Shift+O"


def test_a_force_on_force_scenario_replaces_a_down_range_game_and_closes_its_recording(qtbot, tmp_path) -> None:
    from gui.scenario_opening import open_scenario
    from gui.settings import load_settings, open_store

    window = _window(qtbot, tmp_path)
    recording = tmp_path / "before.sqlite"
    window.session.start_recording(recording)
    patrol = find_shipped("patrol").path
    new = open_scenario(window, patrol)
    assert new is not None
    qtbot.addWidget(new)
    assert new.session.ruleset.name == "force-on-force" and not window.isVisible() and new.isVisible()
    overlays = [a.text() for a in next(a.menu() for a in new.menuBar().actions() if a.text() == "&Overlays").actions()]
    assert "Unit cohesion and leaders" in overlays and "Fan of fire" not in overlays
    assert "Force on Force" in new.last_message and str(recording) in new.last_message
    with sqlite3.connect(recording) as db:  # closed cleanly: a recording the debrief can read
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert window.session.recording_path is None
    # The next `sandtable gui` opens it.
    assert load_settings(open_store(tmp_path / "settings.ini")).scenario_path == str(patrol.resolve())


def test_a_scenario_with_a_mistake_is_refused_in_one_line_and_the_game_goes_on(qtbot, tmp_path) -> None:
    from gui.scenario_opening import open_scenario

    window = _window(qtbot, tmp_path)
    window.session.select_unit(10)
    state, log = window.session.state, list(window.session.log)
    broken = tmp_path / "broken.toml"
    broken.write_text(SCENARIO_PATH.read_text(encoding="utf-8").replace('ruleset = "down-range"', 'ruleset = "down-rnage"'),
                      encoding="utf-8")
    for path in (broken, tmp_path / "missing.toml"):
        assert open_scenario(window, path) is None
        said = window.last_message
        assert path.name in said and "\n" not in said and "Traceback" not in said, said
        assert window.isVisible() and window.replaced_by is None
        assert window.session.state is state and window.session.log == log
        assert window.session.snapshot().selected_unit == 10
    assert "down-rnage" in open_scenario_message(window, broken)


def open_scenario_message(window, path) -> str:
    from gui.scenario_opening import open_scenario

    open_scenario(window, path)
    return window.last_message
