"""The window fits a 1366x768 laptop as well as a 1920x1080 screen: its first size follows the screen
(not a fixed 1600x960), the map gets most of the width, the Resolve button, the log and the roster are
on screen; F11 toggles full screen and Esc leaves it; the F1 list fits the view however long it is."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH


@pytest.fixture
def make_window(qtbot, tmp_path):
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    create_application()

    def make(w: int, h: int):
        store = open_store(tmp_path / f"settings-{w}.ini")
        window = MainWindow(GameSession.from_scenario_file(SCENARIO_PATH), settings=load_settings(store), store=store)
        qtbot.addWidget(window)
        window.resize(w, h)
        window.show()
        qtbot.waitExposed(window)
        window.fit_docks()
        qtbot.wait(50)
        return window

    return make


def test_the_first_size_follows_the_screen():
    from PySide6.QtCore import QSize

    from gui.main_window import first_window_size

    assert first_window_size(QSize(1366, 738)) == (1366, 738)
    assert first_window_size(QSize(1920, 1050)) == (1600, 960)
    # the window manager's frame comes off the work area: a title bar of 30 px leaves 738 inside
    assert first_window_size(QSize(1366, 768), frame_px=(2, 30)) == (1364, 738)
    assert first_window_size(QSize(1920, 1080), frame_px=(2, 30)) == (1600, 960)


def on_screen(window, widget) -> bool:
    """The widget is shown and not scrolled or cut off out of the window."""
    from PySide6.QtCore import QRect

    if not widget.isVisible() or widget.visibleRegion().isEmpty():
        return False
    top_left = widget.mapTo(window, widget.rect().topLeft())
    return QRect(0, 0, window.width(), window.height()).contains(QRect(top_left, widget.size()))


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_map_gets_most_of_the_width_and_the_controls_are_on_screen(make_window, qtbot, size):
    window = make_window(*size)
    # The busiest panel a player meets: the mortar set up at an aim point, before initiative (the
    # warning shows too), three targets listed.
    panel = window.attack
    panel.attacker.setCurrentIndex(panel.attacker.findData(11))
    window.session.set_blast_point((44.0, 30.0))
    qtbot.waitUntil(lambda: panel.targets.rowCount() >= 3 and panel.initiative_note.isVisible(), timeout=5000)
    qtbot.wait(100)
    assert window.view.width() >= 0.55 * window.width(), (window.view.width(), window.width())
    assert on_screen(window, window.attack.resolve_button)
    assert on_screen(window, window.roster.table)
    assert window.log_panel.visibleRegion().boundingRect().height() >= 40


def test_f11_toggles_full_screen_and_esc_leaves_it(make_window, qtbot):
    window = make_window(1366, 768)
    window.actions_by_name["full_screen"].trigger()
    assert window.isFullScreen()
    window.actions_by_name["select_tool"].trigger()  # Esc
    assert not window.isFullScreen()


def test_the_f1_list_fits_the_view_at_1366x768(make_window):
    from PySide6.QtGui import QColor

    window = make_window(1366, 768)
    window.actions_by_name["help"].trigger()
    image = window.view.grab().toImage()
    yellow = QColor("#ffe14d")

    def yellow_in_row(y: int) -> int:
        return sum(1 for x in range(0, image.width(), 3)
                   if abs(image.pixelColor(x, y).red() - yellow.red()) < 30
                   and abs(image.pixelColor(x, y).green() - yellow.green()) < 30
                   and image.pixelColor(x, y).blue() < 140)

    edges = [y for y in range(image.height()) if yellow_in_row(y) > image.width() / 3 / 4]
    assert edges, "the help box's frame is not drawn"
    # Its top and bottom edges are both inside the view: nothing of the list is cut off.
    assert max(edges) - min(edges) > 100 and max(edges) < image.height() - 2
    assert len(window.help_lines()) > 30  # a long list, yet it fits


def test_every_f1_line_is_on_screen_at_1366x768(make_window):
    window = make_window(1366, 768)
    window.actions_by_name["help"].trigger()
    window.view.grab()
    every = [line for line in window.help_lines()[1:] if line.strip()]
    shown = [line for line in window.view.help_lines_shown if line.strip()]
    assert shown == every and every[-1].startswith("Mouse:")  # down to the last line, nothing to scroll


def test_where_the_f1_list_cannot_fit_it_scrolls_to_its_last_line(make_window, qtbot, tmp_path):
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    window = make_window(1366, 768)
    window.actions_by_name["help"].trigger()
    view = window.view
    view.resize(480, 320)  # the smallest the map gets: even small type in columns does not hold the list
    view.grab()
    last = window.help_lines()[-1]
    assert last not in view.help_lines_shown and view.help_lines_shown
    first_shown = list(view.help_lines_shown)
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    view.grab()
    assert view.help_lines_shown != first_shown  # a page further on
    qtbot.keyClick(view, Qt.Key.Key_End)
    view.grab()
    assert last in view.help_lines_shown
    qtbot.keyClick(view, Qt.Key.Key_Home)
    view.grab()
    assert view.help_lines_shown == first_shown
    centre = QPointF(view.width() / 2, view.height() / 2)
    for _ in range(40):  # the wheel over the list scrolls it rather than zooming the map
        QApplication.sendEvent(view, QWheelEvent(centre, view.mapToGlobal(centre), QPoint(0, 0), QPoint(0, -120),
                                                 Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                                                 Qt.ScrollPhase.NoScrollPhase, False))
    view.grab()
    assert last in view.help_lines_shown
    view.grab().save(str(tmp_path / "help-scrolled.png"))


def assert_whole_in_attack_dock(window, widgets) -> None:
    from PySide6.QtCore import QPoint, QRect

    dock_view = window.docks["Attack"].widget().viewport()  # what the dock shows of the panel
    setup_view = window.attack.setup_scroll.viewport()  # what the panel's own scrolling area shows
    for widget in widgets:
        for viewport in (v for v in (dock_view, setup_view) if v.isAncestorOf(widget)):
            where = QRect(widget.mapTo(viewport, QPoint(0, 0)), widget.size())
            assert viewport.rect().contains(where), f"{widget.objectName() or type(widget).__name__} {where} cut off by {viewport.rect()}"
        assert widget.width() >= widget.minimumSizeHint().width()  # not squeezed either: its text is whole


def test_the_attack_panels_right_hand_fields_are_whole_on_a_1366x768_screen(make_window, tmp_path):
    window = make_window(1366, 768)
    panel = window.attack
    window.grab().save(str(tmp_path / "attack-1366.png"))
    declared = panel.declared.widgets
    assert "assistants" in declared and "untrained" in declared  # the attacker's form, from the ruleset
    assert_whole_in_attack_dock(window, (*declared.values(), panel.from_ground, panel.show_all))


def test_another_rulesets_attack_panel_is_whole_on_a_1366x768_screen(qtbot, tmp_path):
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store
    from rules.generic.examples.solo import SCENARIO_PATH as SOLO

    create_application()
    store = open_store(tmp_path / "settings.ini")
    window = MainWindow(GameSession.from_scenario_file(SOLO), settings=load_settings(store), store=store)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.fit_docks()
    qtbot.wait(50)
    assert_whole_in_attack_dock(window, (window.attack.show_all, window.attack.resolve_button))
