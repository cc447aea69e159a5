"""A resolved roll appears as a large card over the map -- what was done, the dice as they came up, the
result, the odds shown before the roll -- and stays while players click around, until one closes it."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import AttackDraft, GameSession  # noqa: E402
from rules.downrange.examples.in_depth import SCENARIO_PATH  # noqa: E402

SERGEANT, AR = 10, 31


@pytest.fixture
def window(qtbot, tmp_path):
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=3)
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    w.view.set_mode("table")
    return w


def yellow_pixels_top_right(window) -> int:
    image = window.view.grab().toImage()
    count = 0
    for y in range(0, int(image.height() * 0.6), 2):
        for x in range(int(image.width() * 0.5), image.width(), 2):
            c = image.pixelColor(x, y)
            count += c.red() > 220 and c.green() > 200 and c.blue() < 120
    return count


def test_a_resolved_roll_shows_a_card_until_dismissed(window, qtbot):
    from PySide6.QtCore import QPoint, Qt

    session = window.session
    session.start_round()
    session.select_unit(SERGEANT)
    qtbot.waitUntil(lambda: window.attack.attacker.currentData() == SERGEANT, timeout=5000)
    session.set_attack(AttackDraft(SERGEANT, "M4/M16", (AR,)))
    before = {o.name: o for o in session.snapshot().odds}["Automatic rifleman"]
    baseline = yellow_pixels_top_right(window)
    window.attack.resolve()
    card = window.result_card
    assert card.showing
    assert "Sergeant" in card.title.text()
    assert any("1d6" in d for d in card.card.dice)
    assert card.card.odds_before == (f"Automatic rifleman: hit {float(before.p_hit):.1%}, "
                                     f"kill {float(before.p_kill_any):.1%}",)
    assert card.card.outcome  # the rules' words for what happened
    assert yellow_pixels_top_right(window) > baseline + 200  # a large card's frame and result lines
    # Players click on the map and select another unit: the card stays.
    empty = window.view.transform().device_from_table(np.array([[66.0, 6.0]]))[0]
    qtbot.mouseClick(window.view, Qt.MouseButton.LeftButton, pos=QPoint(int(empty[0]), int(empty[1])))
    session.select_unit(13)
    qtbot.wait(200)
    assert card.showing
    window.actions_by_name["select_tool"].trigger()  # Esc
    assert not card.showing
