"""Replay reproduces a recording: units where the tracker saw them, the game state and log as they
were at each moment, the selection, bookmarks, and the timeline's jumps."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.errors import UsageError
from appmodel.replay_model import ReplayModel
from appmodel.game_session import AttackDraft, GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

SERGEANT, AR = 10, 31


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def pose(tag, name, side, x, y, t, moved, state=UnitState.SEEN):
    return UnitPose(tag, name, side, x, y, 1.0, 0.0, state, t, moved)


@pytest.fixture
def recorded(tmp_path):
    """A short game recorded as the live loop records it: frames with poses, then rules decisions."""
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=3)
    path = tmp_path / "game.sqlite"
    recorder = session.start_recording(path)
    frames = [(0.0, 18.0, 21.0, 0.0), (1.0, 20.0, 21.0, 2.0), (2.0, 22.0, 21.0, 4.0)]
    for i, (t, x, y, moved) in enumerate(frames):
        poses = [pose(SERGEANT, "Sergeant", "Marines", x, y, t, moved)]
        recorder.record_frame(i, t, poses)
        session.apply_poses(poses, t_s=t)
    session.set_time(2.5)
    session.select_unit(SERGEANT)
    session.set_attack(AttackDraft(SERGEANT, "M4/M16", (AR,)))
    session.resolve_attack([[6, 2], 6])  # Advantage pair keeps the 6; Damage 6: the rifleman dies
    session.set_time(3.0)
    session.bookmark("the automatic rifleman goes down")
    recorder.record_frame(3, 3.0, [pose(SERGEANT, "Sergeant", "Marines", 22.0, 21.0, 3.0, 4.0)])
    live_log = [e.text for e in session.log]
    live_units = {u.unit_id: (u.status, round(u.x_in, 3)) for u in session.units()}
    session.stop_recording()
    return path, live_log, live_units


def test_replay_puts_units_where_they_were_at_each_moment(recorded):
    path, _, _ = recorded
    replay = ReplayModel(path)
    try:
        replay.seek(0.5)
        assert replay.session.unit(SERGEANT).x_in == pytest.approx(18.0)
        replay.seek(1.5)
        assert replay.session.unit(SERGEANT).x_in == pytest.approx(20.0)
        replay.seek(2.2)
        assert replay.session.unit(AR).status == "active"
    finally:
        replay.close()


def test_replay_reproduces_the_state_log_and_selection_at_the_end(recorded):
    path, live_log, live_units = recorded
    replay = ReplayModel(path)
    try:
        replay.seek(replay.duration_s)
        units = {u.unit_id: (u.status, round(u.x_in, 3)) for u in replay.session.units()}
        assert units == live_units
        assert units[AR][0] == "down"
        replayed = [e.text for e in replay.session.log]
        # the log as shown live (the recording line itself was written before the recorder existed)
        assert [t for t in live_log if not t.startswith("Recording to")] == [t for t in replayed if not t.startswith("Recording to")]
        assert replay.session.snapshot().selected_unit == SERGEANT
        assert [b.note for b in replay.bookmarks] == ["the automatic rifleman goes down"]
    finally:
        replay.close()


def test_timeline_jumps_to_the_next_event_and_plays(recorded, qtbot):
    from gui.panels.timeline_panel import TimelinePanel

    path, _, _ = recorded
    replay = ReplayModel(path)
    panel = TimelinePanel(replay)
    qtbot.addWidget(panel)
    try:
        panel.seek(2.1)
        panel.next_event()
        assert replay.t_s == pytest.approx(2.5)
        assert any("rifleman" in e.text.lower() for e in replay.session.log)
        panel.previous_event()
        assert replay.t_s < 2.5
        panel.seek(0.0)
        panel.speed.setCurrentIndex(panel.speed.findData(8.0))
        panel.toggle_play()
        qtbot.waitUntil(lambda: replay.t_s > 1.0, timeout=3000)
        panel.toggle_play()
        assert not panel.playing
    finally:
        replay.close()


def test_a_recording_is_never_overwritten_and_a_foreign_file_is_refused(recorded, tmp_path):
    path, _, _ = recorded
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    with pytest.raises(UsageError, match="already exists"):
        session.start_recording(path)
    bogus = tmp_path / "notes.sqlite"
    bogus.write_text("not a database")
    from tracker.errors import RecordingError

    with pytest.raises(RecordingError, match="not a recording"):
        ReplayModel(bogus)


def test_a_replay_playing_is_drawn_by_the_views_worker_and_a_jump_at_once(recorded, qtbot):
    """Playing, each tick's game state goes to the view's overlay worker (the window's thread only
    asks, and paints the image when it is ready: it never waits on the drawing); paused, a jump the
    user makes is drawn at once, on the window's thread."""
    from gui.main_window import MainWindow

    path, _, _ = recorded
    replay = ReplayModel(path)
    clock = Clock()
    window = MainWindow(replay.session, replay=replay, replay_clock=clock)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    view, timeline = window.view, window.timeline
    drawn_here = []
    render_now = view.overlays.render_now
    view.overlays.render_now = lambda *a, **k: drawn_here.append(replay.session.version) or render_now(*a, **k)
    try:
        timeline.pause_kinds.clear()
        timeline.toggle_play()
        timeline.timer.setInterval(3_600_000)  # the test ticks by hand: the timer must not tick in between
        qtbot.waitUntil(lambda: view.renderer.shown_version == replay.session.version, timeout=10000)
        drawn_here.clear()  # what the window showed on opening
        before = replay.session.version
        clock.t = 0.2  # 0.2 s at 1x: the sergeant walks on
        timeline._tick()
        assert replay.session.version > before and timeline.playing
        qtbot.waitUntil(lambda: view.renderer.shown_version == replay.session.version, timeout=10000)
        assert drawn_here == []  # the tick's state was drawn by the worker
        timeline.toggle_play()
        timeline.seek(2.6)  # a jump past the attack
        view.repaint()
        assert drawn_here == [replay.session.version]
        assert view.renderer.shown_version == replay.session.version
        assert replay.session.unit(AR).status == "down"
    finally:
        window.close()
        replay.close()
