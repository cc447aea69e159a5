"""A resolved roll appears as a large card over the map -- what was done, the dice as they came up, the
result, the odds shown before the roll -- and stays while players click around, until one closes it."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import AttackDraft, GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH
from gui_helpers import open_main_window

SERGEANT, AR = 10, 31


@pytest.fixture
def window(qtbot, tmp_path):
    return open_main_window(qtbot, tmp_path, GameSession.from_scenario_file(SCENARIO_PATH, seed=3))


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


def test_a_missed_rocket_shows_its_card_once_it_has_landed(qtbot, tmp_path):
    from PySide6.QtCore import Qt

    from appmodel.game_session import GameSession as Session
    from gui.app import create_application
    from gui.main_window import MainWindow
    from rules.dice import SeededDice
    from rules.downrange.examples import in_depth
    from rules.ruleset import get_ruleset

    steps = list(in_depth.STEPS)
    state = None
    for record in in_depth.play(steps[:[s.section for s in steps].index("6.5 b")]):
        state = record.state
    create_application()
    session = Session(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(), dice=SeededDice(2))
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    window.view.set_mode("table")
    session.select_unit(13)
    qtbot.waitUntil(lambda: window.attack.attacker.currentData() == 13, timeout=5000)
    session.set_attack(AttackDraft(13, "Carl Gustaf / MAAWS", (40,), {"reaction": True}))
    window.attack.entered.setChecked(True)
    window.attack._players_dice = lambda: [1]  # the players rolled the example's natural 1
    window.attack.resolve()
    assert session.pending is not None and not window.result_card.showing  # no card before it lands
    assert window.view.tool == "landing"
    # Resolve again while the round is in the air (the newcomer's reading of the prompt): no second attack,
    # the words say what to do, the miss circle stays until the landing point is placed.
    events_before = len(session.state.events)
    qtbot.mouseClick(window.attack.resolve_button, Qt.MouseButton.LeftButton)
    assert len(session.state.events) == events_before and session.pending is not None
    said = window.attack.message.text()
    assert "click that point on the map" in said and "landing_point" not in said
    assert any(item.key[0] == "miss" for item in overlay_items(session))
    qtbot.mouseClick(window.view, Qt.MouseButton.LeftButton, pos=device_point(window, 44.0, 16.5))
    # With the players' dice the click places the round; the dice form asks for what its landing brings
    # (nothing here: it lands where it hurts nobody), and Resolve lands it.
    assert session.pending is not None and session.pending.placed_in == (pytest.approx(44.0, abs=0.2),
                                                                        pytest.approx(16.5, abs=0.2))
    assert not any(item.key[0] == "miss" for item in overlay_items(session))  # the red circle is gone
    del window.attack._players_dice
    assert window.attack.dice_form.needed is None
    qtbot.mouseClick(window.attack.resolve_button, Qt.MouseButton.LeftButton)
    assert session.pending is None, window.attack.message.text()
    assert any(item.key[0] == "landed" for item in overlay_items(session))  # where it came down stays marked
    assert window.result_card.showing
    assert "MAAWS" in window.result_card.title.text() or "Carl Gustaf" in window.result_card.title.text()
    assert window.result_card.card.odds_before and window.result_card.card.odds_before[0].startswith("ZBL-09")


def device_point(window, x_in, y_in):
    from PySide6.QtCore import QPoint

    x, y = window.view.transform().device_from_table(np.array([[x_in, y_in]]))[0]
    return QPoint(int(round(x)), int(round(y)))


def overlay_items(session):
    from appmodel.overlays.downrange import blast_items

    return blast_items(session.snapshot())
