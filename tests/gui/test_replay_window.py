"""The replay window shows the recorded game, not a live one: the Attack dock holds the attack as it was
recorded (the rules' sentence and the odds shown before the roll) instead of a Resolve that does
nothing; the timeline's list follows playback; the slider carries a mark at each event."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import AttackDraft, GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

SERGEANT, AR = 10, 31


@pytest.fixture
def recorded(tmp_path):
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=3)
    path = tmp_path / "game.sqlite"
    recorder = session.start_recording(path)
    for i, t in enumerate((0.0, 1.0, 2.0, 3.0, 8.0)):
        recorder.record_frame(i, t, [UnitPose(SERGEANT, "Sergeant", "Marines", 18.0 + i, 21.0, 1.0, 0.0,
                                              UnitState.SEEN, t, float(i))])
    session.set_time(2.5)
    session.select_unit(SERGEANT)
    session.set_attack(AttackDraft(SERGEANT, "M4/M16", (AR,)))
    shown = {o.name: o for o in session.snapshot().odds}
    session.resolve_attack([[6, 2], 6])
    session.set_time(3.0)
    session.bookmark("the automatic rifleman goes down")
    session.stop_recording()
    return path, shown


@pytest.fixture
def replay_window(qtbot, recorded, tmp_path):
    from gui.app import create_application
    from gui.main_window import MainWindow
    from appmodel.replay_model import ReplayModel

    create_application()
    replay = ReplayModel(recorded[0])
    w = MainWindow(replay.session, replay=replay)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    yield w
    replay.close()


def test_replay_shows_the_recorded_attack_and_its_odds_not_the_live_panel(replay_window, recorded):
    from gui.panels.recorded_attack_panel import RecordedAttackPanel

    _, shown = recorded
    w = replay_window
    dock = w.docks["Attack"]
    assert isinstance(dock.widget().widget(), RecordedAttackPanel)
    assert not w.attack.isVisible()
    panel = w.recorded_attack
    w.timeline.seek(1.0)
    assert "No attack yet" in panel.heading.text()
    w.timeline.seek(2.8)
    assert "Recorded attack 1 of 1" in panel.heading.text()
    assert panel.summary.text()
    rows = {panel.table.item(r, 0).text(): [panel.table.item(r, c).text() for c in range(4)]
            for r in range(panel.table.rowCount())}
    rifleman = shown["Automatic rifleman"]
    assert rows["Automatic rifleman"][2] == f"{float(rifleman.p_hit):.1%}"
    assert rows["Automatic rifleman"][3] == f"{float(rifleman.p_kill_any):.1%}"
    w.timeline.seek(0.5)
    assert "No attack yet" in panel.heading.text()


def test_the_timeline_list_follows_playback(replay_window):
    t = replay_window.timeline
    events = replay_window.review
    t.seek(0.0)
    rows = []
    for when in (2.6, 3.5, 7.9):
        t.seek(when)
        item = events.list.currentItem()
        assert item is not None
        rows.append(events.list.currentRow())
        times = [e.t_s for e in events.shown]
        assert times[events.list.currentRow()] <= when + 1e-9
        assert all(x > when for x in times[events.list.currentRow() + 1:])
    assert rows[0] < rows[1]  # playback moved the list on


def test_the_slider_marks_each_event(replay_window):
    from PySide6.QtGui import QColor

    slider = replay_window.timeline.slider
    assert slider.marks and all(0.0 <= m <= 1.0 for m in slider.marks)
    image = slider.grab().toImage()
    mark = QColor(slider.MARK_COLOR)
    y = image.height() - 3
    hits = [x for x in range(image.width()) if image.pixelColor(x, y) == mark]
    assert hits, "no event mark drawn under the slider"
    # A mark near 2.5 s of the 8 s recording (the attack), at its place along the groove.
    assert any(abs(x / image.width() - 2.5 / 8.0) < 0.08 for x in hits)
