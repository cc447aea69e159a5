"""The contour interval and the tints from the window's Overlays menu: round metres of the map when
the target terrain has a scale (inches without one), the lines and their labels at that interval,
tints under them; the class view draws the window's choice."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession  # noqa: E402
from appmodel.overlays.registry import build_items  # noqa: E402
from rules.downrange.examples.in_depth import SCENARIO_PATH  # noqa: E402
from sand_map_helpers import map_session  # noqa: E402


def submenu(window, name: str):
    from PySide6.QtWidgets import QMenu

    menu = window.findChild(QMenu, name)
    assert menu is not None, f"no {name} in the menus"
    menu.aboutToShow.emit()
    return menu


@pytest.fixture
def window(qtbot, tmp_path):
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import AppSettings

    create_application()
    w = MainWindow(map_session(), settings=AppSettings(), store=None)
    qtbot.addWidget(w)
    w.set_overlay("contours", False)
    return w


def contour_labels(session: GameSession) -> list[str]:
    return [i.label for i in build_items(session.snapshot(), ("contours",)) if i.label]


def test_the_interval_is_picked_in_the_maps_metres_and_the_lines_follow(window) -> None:
    menu = submenu(window, "contour-interval-menu")
    offered = [a.text() for a in menu.actions()]
    assert "25 m" in offered and "100 m" in offered and all(t.endswith(" m") for t in offered)
    assert [a.text() for a in menu.actions() if a.isChecked()] == ["25 m"]
    next(a for a in menu.actions() if a.text() == "100 m").trigger()
    s = window.session
    assert s.sand.contour_interval_m == 100.0
    assert window.settings.overlays.contours                  # picking an interval shows the contours
    labels = contour_labels(s)
    assert labels and set(labels) <= {"200 m", "300 m", "400 m"}   # round hundreds of the map's elevation
    assert [a.text() for a in submenu(window, "contour-interval-menu").actions() if a.isChecked()] == ["100 m"]
    next(a for a in menu.actions() if a.text() == "50 m").trigger()
    assert len(contour_labels(s)) > len(labels) and "250 m" in contour_labels(s)


def test_tints_are_toggled_from_the_menu_and_the_class_view_draws_them(window) -> None:
    from classview.scene import SceneBuilder

    s = window.session
    scene = SceneBuilder(frozenset({"contours"}))
    rasters = lambda: [i for i in scene.items(s.snapshot()) if i.marker == "raster"]  # noqa: E731
    assert not rasters()
    window.actions_by_name["contour_tints"].trigger()
    assert s.sand.tints and rasters()                        # the class view follows the window's choice
    window.actions_by_name["contour_tints"].trigger()
    assert not s.sand.tints and not rasters()


def test_without_a_scale_the_interval_is_in_inches(qtbot) -> None:
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import AppSettings

    create_application()
    w = MainWindow(GameSession.from_scenario_file(SCENARIO_PATH, seed=1), settings=AppSettings(), store=None)
    qtbot.addWidget(w)
    offered = [a.text() for a in submenu(w, "contour-interval-menu").actions()]
    assert offered[0] == '0.1"' and '1"' in offered and not any(t.endswith(" m") for t in offered)
    next(a for a in submenu(w, "contour-interval-menu").actions() if a.text() == '0.5"').trigger()
    assert w.session.sand.contour_interval_in == 0.5 and w.session.sand.contour_interval_m is None
    source = submenu(w, "contour-source-menu")
    assert [a.isEnabled() for a in source.actions()] == [True, False]   # no target: only the scanned sand
