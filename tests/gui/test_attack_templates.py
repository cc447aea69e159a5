"""The attack panel's templates stand on their own: with the mortar set up and its aim point placed, the
blast circle is drawn whatever is selected on the map, and a click on empty table (what players do)
clears the selection, not the templates of the attack still set up."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH
from gui_helpers import open_main_window

MORTAR, SERGEANT = 11, 10
AIM = (44.0, 30.0)
BLAST_ORANGE = (0xFF, 0x8C, 0x1A)


@pytest.fixture
def window(qtbot, tmp_path):
    return open_main_window(qtbot, tmp_path, GameSession.from_scenario_file(SCENARIO_PATH, seed=1))


def view_pixels(window) -> np.ndarray:
    img = window.view.grab().toImage().convertToFormat(window.view.grab().toImage().Format.Format_RGB888)
    ptr = img.constBits()
    return np.frombuffer(ptr, np.uint8, img.bytesPerLine() * img.height()).reshape(img.height(), img.bytesPerLine())[
        :, : img.width() * 3].reshape(img.height(), img.width(), 3).copy()


def share_on_circle(window, centre, radius_in, color, tol=40) -> float:
    """The share of points around the circle (in table inches) where the view shows ``color``."""
    rgb = view_pixels(window)
    t = window.view.transform()
    angles = np.radians(np.arange(0, 360, 10))
    pts = np.stack([centre[0] + radius_in * np.cos(angles), centre[1] + radius_in * np.sin(angles)], axis=1)
    dev = t.device_from_table(pts)
    ratio = rgb.shape[1] / window.view.width()
    hits = 0
    inside = 0
    for x, y in dev * ratio:
        xi, yi = int(round(x)), int(round(y))
        if not (2 <= xi < rgb.shape[1] - 2 and 2 <= yi < rgb.shape[0] - 2):
            continue
        inside += 1
        patch = rgb[yi - 2:yi + 3, xi - 2:xi + 3].reshape(-1, 3).astype(int)
        if (np.abs(patch - np.array(color)).max(axis=1) < tol).any():
            hits += 1
    return hits / max(1, inside)


def set_up_mortar_at_aim_point(window, qtbot):
    session = window.session
    session.select_unit(MORTAR)
    qtbot.waitUntil(lambda: window.attack.attacker.currentData() == MORTAR, timeout=5000)
    session.set_blast_point(AIM)
    qtbot.waitUntil(lambda: session.draft is not None and session.draft.aim_point == AIM, timeout=5000)


def test_the_blast_circle_stays_when_players_click_empty_table(window, qtbot):
    from PySide6.QtCore import QPoint, Qt

    set_up_mortar_at_aim_point(window, qtbot)
    qtbot.waitUntil(lambda: share_on_circle(window, AIM, 12.0, BLAST_ORANGE) > 0.6, timeout=10000)
    empty = window.view.transform().device_from_table(np.array([[66.0, 6.0]]))[0]
    assert window.session.unit_at(66.0, 6.0) is None
    qtbot.mouseClick(window.view, Qt.MouseButton.LeftButton, pos=QPoint(int(empty[0]), int(empty[1])))
    assert window.session.snapshot().selected_unit is None
    assert window.session.draft is not None and window.session.draft.attacker_id == MORTAR  # the attack stays set up
    qtbot.wait(300)
    assert share_on_circle(window, AIM, 12.0, BLAST_ORANGE) > 0.6
    snap = window.session.snapshot()
    assert snap.blast_radius_in == 12.0
    assert any(o.kind == "range" and MORTAR in o.unit_ids for o in snap.overlays)  # the mortar's range ring too


def test_the_mortar_chosen_in_the_panel_draws_its_blast_with_nothing_selected_on_the_map(window, qtbot):
    from PySide6.QtCore import QPoint, Qt

    panel = window.attack
    panel.attacker.setCurrentIndex(panel.attacker.findData(MORTAR))
    assert window.session.snapshot().selected_unit is None
    window.actions_by_name["blast_tool"].trigger()
    aim = window.view.transform().device_from_table(np.array([AIM]))[0]
    qtbot.mouseClick(window.view, Qt.MouseButton.LeftButton, pos=QPoint(int(round(aim[0])), int(round(aim[1]))))
    qtbot.waitUntil(lambda: window.session.draft is not None and window.session.draft.aim_point is not None, timeout=5000)
    assert window.session.snapshot().selected_unit is None
    assert window.session.snapshot().blast_radius_in == 12.0
    aim_in = window.session.draft.aim_point
    qtbot.waitUntil(lambda: share_on_circle(window, aim_in, 12.0, BLAST_ORANGE) > 0.6, timeout=10000)
