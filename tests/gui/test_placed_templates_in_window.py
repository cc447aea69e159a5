"""Players place templates in the window and keep them: a circle dropped by a unit snaps onto it and is
drawn where the inches say, with the units it touches counted; it is dragged, pinned (then it stays),
a fan is turned with R, a tape gets waypoints, Delete removes one; the projector shows them only when
the instructor turns them on."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH
from gui_helpers import open_main_window

PURPLE = (0xB3, 0x88, 0xFF)


@pytest.fixture
def window(qtbot, tmp_path):
    return open_main_window(qtbot, tmp_path, GameSession.from_scenario_file(SCENARIO_PATH))


def device(window, x_in, y_in):
    from PySide6.QtCore import QPoint

    x, y = window.view.transform().device_from_table(np.array([[x_in, y_in]]))[0]
    return QPoint(int(round(x)), int(round(y)))


def purple_on_circle(image, window, centre, radius_in) -> float:
    hits = inside = 0
    for a in np.radians(np.arange(0, 360, 12)):
        p = device(window, centre[0] + radius_in * math.cos(a), centre[1] + radius_in * math.sin(a))
        if not (2 <= p.x() < image.width() - 2 and 2 <= p.y() < image.height() - 2):
            continue
        inside += 1
        hits += any(max(abs(image.pixelColor(p.x() + dx, p.y() + dy).red() - PURPLE[0]),
                        abs(image.pixelColor(p.x() + dx, p.y() + dy).green() - PURPLE[1]),
                        abs(image.pixelColor(p.x() + dx, p.y() + dy).blue() - PURPLE[2])) < 45
                    for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2))
    return hits / max(1, inside)


def test_drop_snap_drag_pin_and_remove_a_circle(window, qtbot):
    from PySide6.QtCore import Qt

    officer = window.session.unit(30)
    window.actions_by_name["circle_template"].trigger()
    qtbot.mouseClick(window.view, Qt.MouseButton.LeftButton, pos=device(window, officer.x_in + 0.6, officer.y_in + 0.4))
    board = window.session.templates
    circle = board.templates[-1]
    assert circle.points_in[0] == (officer.x_in, officer.y_in)  # snapped onto the officer
    # Drawn by the overlay worker: on screen once its picture arrives, however busy the machine.
    qtbot.waitUntil(lambda: purple_on_circle(window.view.grab().toImage(), window, circle.points_in[0], 3.0) > 0.6)
    labels = [i.label for i in window.view.renderer.compositor.items(window.session.snapshot(), window.view.toggles)
              if i.layer == "templates" and i.label]
    assert any(text.startswith('Circle 3": ') and "inside" in text for text in labels), labels
    # Drag it 6" to the left with the select tool (pressing inside the circle, off any unit).
    window.actions_by_name["select_tool"].trigger()
    grab = (officer.x_in + 2.0, officer.y_in - 1.5)
    assert window.session.unit_at(*grab) is None
    qtbot.mousePress(window.view, Qt.MouseButton.LeftButton, pos=device(window, *grab))
    qtbot.mouseMove(window.view, device(window, grab[0] - 6.0, grab[1]))
    qtbot.mouseRelease(window.view, Qt.MouseButton.LeftButton, pos=device(window, grab[0] - 6.0, grab[1]))
    moved = window.session.templates.get(circle.template_id).points_in[0]
    assert moved == pytest.approx((officer.x_in - 6.0, officer.y_in), abs=0.15)
    window.actions_by_name["pin_template"].trigger()
    start = (moved[0] + 1.0, moved[1] + 1.0)
    qtbot.mousePress(window.view, Qt.MouseButton.LeftButton, pos=device(window, *start))
    qtbot.mouseMove(window.view, device(window, start[0] + 5, start[1]))
    qtbot.mouseRelease(window.view, Qt.MouseButton.LeftButton, pos=device(window, start[0] + 5, start[1]))
    assert window.session.templates.get(circle.template_id).points_in[0] == moved  # pinned: it stays
    window.actions_by_name["remove_template"].trigger()
    assert window.session.templates.templates == ()
    qtbot.waitUntil(lambda: purple_on_circle(window.view.grab().toImage(), window, moved, 3.0) < 0.2)


def test_fan_turns_and_tape_takes_waypoints(window, qtbot):
    from PySide6.QtCore import Qt

    window.actions_by_name["fan_template"].trigger()
    qtbot.mousePress(window.view, Qt.MouseButton.LeftButton, pos=device(window, 30.0, 10.0))
    qtbot.mouseMove(window.view, device(window, 40.0, 10.0))
    qtbot.mouseRelease(window.view, Qt.MouseButton.LeftButton, pos=device(window, 40.0, 10.0))
    fan = window.session.templates.templates[-1]
    assert fan.kind == "fan" and fan.heading_deg == pytest.approx(0.0, abs=3.0)
    window.actions_by_name["rotate_template"].trigger()
    assert window.session.templates.get(fan.template_id).heading_deg == pytest.approx(fan.heading_deg + 15.0, abs=1e-6)
    window.actions_by_name["tape_waypoints"].trigger()
    for x, y in ((60.0, 5.0), (66.0, 5.0), (66.0, 13.0)):
        qtbot.mouseClick(window.view, Qt.MouseButton.LeftButton, pos=device(window, x, y))
    tape = window.session.templates.templates[-1]
    assert tape.kind == "tape" and len(tape.points_in) == 3
    assert tape.length_in == pytest.approx(14.0, abs=0.3)


def test_the_projector_shows_templates_only_when_the_instructor_chooses(window, qtbot):
    from appmodel.overlays.placed_templates import TemplateBoard
    from gui.projector_window import ProjectorWindow
    from appmodel.overlays.registry import OverlayToggles

    window.session.set_templates(TemplateBoard().add("circle", (36.0, 24.0), size_in=6.0))

    def purple_share(toggles) -> float:
        projector = ProjectorWindow(window.session, mode="presenter", toggles=toggles)
        qtbot.addWidget(projector)
        projector.resize(960, 640)
        image = projector.render_image((960, 640))
        count = sum(1 for x in range(0, 960, 3) for y in range(0, 640, 3)
                    if max(abs(image.pixelColor(x, y).red() - PURPLE[0]), abs(image.pixelColor(x, y).green() - PURPLE[1]),
                           abs(image.pixelColor(x, y).blue() - PURPLE[2])) < 45)
        projector.close()
        return count

    assert purple_share(OverlayToggles.projector_default()) < 10  # a stray blended pixel at most
    assert purple_share(OverlayToggles.projector_default().with_("templates", True)) > 50
