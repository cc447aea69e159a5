"""The contour interval the instructor picks in the window is kept: the next run's window opens with it
(in inches for a target without a scale, in metres for a map, each remembered apart), the recording
keeps the last one picked, and the debrief draws the target's contours at it unless
``--contour-interval`` says otherwise; a replay of the recording draws it too."""
from __future__ import annotations

import os
import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession  # noqa: E402
from sand_map_helpers import hill_scenario, map_session  # noqa: E402


def open_window(qtbot, session, store=None):
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import AppSettings, load_settings

    create_application()
    w = MainWindow(session, settings=load_settings(store) if store is not None else AppSettings(), store=store)
    qtbot.addWidget(w)
    return w


def pick(window, label: str) -> None:
    """Overlays > Contour interval > ``label``, as the instructor clicks it."""
    from PySide6.QtWidgets import QMenu

    menu = window.findChild(QMenu, "contour-interval-menu")
    menu.aboutToShow.emit()
    action = next(a for a in menu.actions() if a.text() == label)
    action.trigger()


def ticked(window) -> list[str]:
    from PySide6.QtWidgets import QMenu

    menu = window.findChild(QMenu, "contour-interval-menu")
    menu.aboutToShow.emit()
    return [a.text() for a in menu.actions() if a.isChecked()]


def test_the_interval_picked_is_where_the_next_run_starts(qtbot, tmp_path) -> None:
    from gui.settings import open_store

    store_path = tmp_path / "settings.ini"
    hill = hill_scenario(tmp_path)
    first = open_window(qtbot, GameSession.from_scenario_file(hill, seed=1), open_store(store_path))
    assert ticked(first) == ['0.3" (0.75 cm)']
    pick(first, '1"')
    first.close()
    second = open_window(qtbot, GameSession.from_scenario_file(hill, seed=1), open_store(store_path))
    assert ticked(second) == ['1"'] and second.session.sand.contour_interval_in == 1.0
    second.close()
    # a map with a scale: its metres are remembered apart, and the inches stay for the next bare target
    on_map = open_window(qtbot, map_session(), open_store(store_path))
    assert ticked(on_map) == ["25 m"]  # 1" is no choice on a map: its default
    pick(on_map, "50 m")
    on_map.close()
    again = open_window(qtbot, map_session(), open_store(store_path))
    assert ticked(again) == ["50 m"]
    again.close()
    bare = open_window(qtbot, GameSession.from_scenario_file(hill, seed=1), open_store(store_path))
    assert ticked(bare) == ['1"']


def test_the_debrief_draws_the_interval_picked_while_recording_unless_told_otherwise(qtbot, tmp_path) -> None:
    from debrief.facts import read_debrief_facts
    from debrief.plots import _contours, _pyplot

    window = open_window(qtbot, GameSession.from_scenario_file(hill_scenario(tmp_path), seed=1))
    pick(window, '0.5"')
    recording = tmp_path / "game.sqlite"
    window.session.start_recording(recording)
    pick(window, '1"')  # changed during the game: the last one picked is the instructor's
    window.session.stop_recording()
    facts = read_debrief_facts(recording)
    assert facts.contours is not None and facts.contours.interval_in == 1.0 and facts.contours.interval_m is None

    def line_heights(interval: float | None) -> set[float]:
        fig, ax = _pyplot().subplots()
        _contours(ax, facts, interval=interval)
        return {round(float(np.median(facts.relief.height_at(*line.get_data()))), 1) for line in ax.get_lines()}

    assert line_heights(None) == {1.0, 2.0}  # the cone's 3": every inch the window drew
    assert line_heights(0.5) >= {0.5, 1.0, 1.5, 2.0, 2.5}  # --contour-interval 0.5 still overrides


def test_a_replay_draws_the_interval_its_recording_says(qtbot, tmp_path) -> None:
    from appmodel.replay_model import ReplayModel
    from gui.main_window import MainWindow

    window = open_window(qtbot, GameSession.from_scenario_file(hill_scenario(tmp_path), seed=1))
    recording = tmp_path / "game.sqlite"
    window.session.start_recording(recording)
    pick(window, '0.2"')
    window.session.stop_recording()
    replay = ReplayModel(recording)
    try:
        shown = MainWindow(replay.session, replay=replay)
        qtbot.addWidget(shown)
        assert replay.session.sand.contour_interval_in == pytest.approx(0.2) and ticked(shown) == ['0.2"']
    finally:
        replay.close()
