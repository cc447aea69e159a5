"""The presenter (and projector) window never traps a one-screen user: Esc leaves full screen and, in a
window, closes it; F11 toggles full screen; moving the mouse shows the cursor and the keys, which hide
again after a moment (the cursor would be projected onto the table)."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH


@pytest.fixture
def presenter(qtbot, monkeypatch):
    import gui.projector_window as pw
    from gui.app import create_application

    monkeypatch.setattr(pw, "CURSOR_HIDE_MS", 300)
    create_application()
    window = pw.ProjectorWindow(GameSession.from_scenario_file(SCENARIO_PATH), mode="presenter")
    qtbot.addWidget(window)
    window.show_on_screen(0)
    qtbot.waitUntil(window.isVisible, timeout=5000)
    return window


def hint_band(window) -> np.ndarray:
    """Lightness of the band at the top centre where the keys are shown."""
    image = window.grab().toImage()
    ratio = image.width() / window.width()
    y0, y1 = int(16 * ratio), int(50 * ratio)
    xs = range(int(image.width() * 0.35), int(image.width() * 0.65), 2)
    return np.array([[image.pixelColor(x, y).lightness() for x in xs] for y in range(y0, y1)])


def test_esc_leaves_full_screen_then_closes(presenter, qtbot):
    from PySide6.QtCore import Qt

    assert presenter.isFullScreen()
    qtbot.keyClick(presenter, Qt.Key.Key_Escape)
    assert not presenter.isFullScreen() and presenter.isVisible()
    screen = presenter.screen().availableGeometry()
    assert presenter.width() < screen.width() and presenter.height() < screen.height()
    qtbot.keyClick(presenter, Qt.Key.Key_Escape)
    assert not presenter.isVisible()


def test_f11_toggles_full_screen(presenter, qtbot):
    from PySide6.QtCore import Qt

    qtbot.keyClick(presenter, Qt.Key.Key_F11)
    assert not presenter.isFullScreen()
    qtbot.keyClick(presenter, Qt.Key.Key_F11)
    assert presenter.isFullScreen()


def test_moving_the_mouse_shows_the_cursor_and_the_keys_then_both_hide(presenter, qtbot):
    from PySide6.QtCore import QPoint, Qt

    qtbot.waitUntil(lambda: presenter.cursor().shape() == Qt.CursorShape.BlankCursor, timeout=3000)
    hidden = hint_band(presenter)
    qtbot.mouseMove(presenter, QPoint(200, 200))
    qtbot.mouseMove(presenter, QPoint(220, 210))
    assert presenter.cursor().shape() == Qt.CursorShape.ArrowCursor
    shown = hint_band(presenter)
    # The keys' white words on a dark box: many bright pixels that were not there before.
    assert (shown > 200).sum() > 50 + (hidden > 200).sum()
    qtbot.waitUntil(lambda: presenter.cursor().shape() == Qt.CursorShape.BlankCursor, timeout=3000)
    assert (hint_band(presenter) > 200).sum() <= (hidden > 200).sum() + 5
