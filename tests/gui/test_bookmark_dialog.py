"""Ctrl+B in the real window (offscreen) asks for an optional note and review topic; the bookmark is the
moment Ctrl+B was pressed, and Esc still bookmarks it, without a note."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from clock_helpers import HandClock

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH

TOPICS = '\n[[review_topics]]\nname = "First contact"\nkinds = ["attack"]\n\n[[review_topics]]\nname = "Comms"\nkinds = ["signal"]\n'


@pytest.fixture
def window(qtbot, tmp_path):
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    create_application()
    scenario = tmp_path / "topics.toml"
    scenario.write_text(Path(SCENARIO_PATH).read_text(encoding="utf-8") + TOPICS, encoding="utf-8")
    clock = HandClock()
    session = GameSession.from_scenario_file(scenario, seed=1, clock=clock)
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store)
    w.test_clock = clock
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    return w


def open_dialog(window, qtbot):
    from PySide6.QtCore import Qt
    from gui.bookmark_dialog import BookmarkDialog

    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    dialogs = [d for d in window.findChildren(BookmarkDialog) if d.isVisible()]
    assert len(dialogs) == 1, "Ctrl+B opens one bookmark dialog"
    return dialogs[0]


def test_ctrl_b_takes_a_note_and_a_planned_topic_at_the_moment_it_was_pressed(window, qtbot, tmp_path):
    from PySide6.QtCore import Qt

    window.session.start_recording(tmp_path / "game.sqlite")
    window.test_clock.t_s = 12.0
    dialog = open_dialog(window, qtbot)
    assert [dialog.topic.itemText(i) for i in range(dialog.topic.count())] == ["(no topic)", "First contact", "Comms"]
    window.test_clock.t_s = 30.0  # the instructor takes a while to type
    qtbot.keyClicks(dialog.note, "Alpha fired before the order")
    dialog.topic.setCurrentIndex(1)
    qtbot.keyClick(dialog.note, Qt.Key.Key_Return)
    assert not dialog.isVisible()
    entry = window.session.game_log.entries[-1]
    assert (entry.t_s, entry.kind, entry.text) == (12.0, "bookmark", "[First contact] Alpha fired before the order")

    window.test_clock.t_s = 40.0
    dialog = open_dialog(window, qtbot)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    window.session.stop_recording()
    from debrief.facts import read_debrief_facts

    facts = read_debrief_facts(tmp_path / "game.sqlite")
    assert [(b.t_s, b.note, b.topic) for b in facts.bookmarks] == [
        (12.0, "Alpha fired before the order", "First contact"), (40.0, "Bookmark at 0:40", "")]
