"""The replay window as a simulator's after-action review, on a real SQLite recording with its camera
video: 64x playback on the replay's own clock, pausing by itself at a kill with its card, filters that
hide a side's events, the comms lane's signal, the video frame shown for the replay time, and actions
without dice listed with their cards."""
from __future__ import annotations

import os

import cv2
from clock_helpers import HandClock
import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import AttackDraft, GameSession
from rules.action_forms import ActionRequest
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

SERGEANT, AR = 10, 31
FRAMES, FRAME_S = 100, 0.1
SIGNAL_AT, KILL_AT, BOOKMARK_AT = 2.0, 5.0, 7.0


def numbered_frame(i: int) -> np.ndarray:
    image = np.zeros((120, 160, 3), np.uint8)
    image[:] = ((i * 2) % 256, 40, 200 - i)
    cv2.putText(image, str(i), (10, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
    return image


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """Ten seconds recorded with the camera's picture: the sergeant Signals at 2 s (no dice), kills the
    automatic rifleman at 5 s, and the instructor bookmarks it at 7 s."""
    path = tmp_path_factory.mktemp("aar") / "game.sqlite"
    clock = HandClock()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=3, clock=clock)
    recorder = session.start_recording(path, video=True)
    for i in range(FRAMES):
        clock.t_s = t = i * FRAME_S
        pose = UnitPose(SERGEANT, "Sergeant", "Marines", 18.0, 21.0, 1.0, 0.0, UnitState.SEEN, t, 0.0)
        recorder.record_frame(i, t, [pose], image_bgr=numbered_frame(i))
        if abs(t - SIGNAL_AT) < 1e-9:
            session.resolve_action(ActionRequest("signal", SERGEANT, {"purpose": "other"}))
        if abs(t - KILL_AT) < 1e-9:
            session.select_unit(SERGEANT)
            session.set_attack(AttackDraft(SERGEANT, "M4/M16", (AR,)))
            session.resolve_attack([[6, 2], 6])  # Advantage keeps the 6, Damage 6: the rifleman is killed
        if abs(t - BOOKMARK_AT) < 1e-9:
            session.bookmark("the automatic rifleman goes down")
    session.stop_recording()
    assert path.with_suffix(".mp4").is_file()
    return path


@pytest.fixture
def window(qtbot, recording):
    from appmodel.replay_model import ReplayModel
    from gui.app import create_application
    from gui.main_window import MainWindow

    create_application()
    clock = HandClock()
    replay = ReplayModel(recording)
    w = MainWindow(replay.session, replay=replay, replay_clock=clock)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    w.clock = clock
    yield w
    w.close()
    replay.close()


def play(w, seconds_of_clock: float, step_s: float = 0.05) -> None:
    """Move the fake clock on tick by tick, as the timer would."""
    t = w.timeline
    for _ in range(int(round(seconds_of_clock / step_s))):
        if not t.playing:
            return
        w.clock.t_s += step_s
        t._tick()


def test_64x_advances_the_replay_64_seconds_per_second_of_the_clock(window):
    t = window.timeline
    t.pause_kinds.clear()  # nothing to stop at: the speed alone
    t.seek(0.0)
    t.set_speed(64)
    assert t.speed.currentText() == "64x"
    t.toggle_play()
    window.clock.t_s += 0.05
    t._tick()
    assert t.replay.t_s == pytest.approx(0.05 * 64)
    window.clock.t_s += 0.05
    t._tick()
    assert t.replay.t_s == pytest.approx(0.1 * 64)
    for _ in range(2):
        window.clock.t_s += 0.05
        t._tick()
    assert t.replay.t_s == pytest.approx(t.replay.duration_s)  # 12.8 s asked of 9.9: stops at the end
    assert not t.playing


def test_a_stalled_machine_does_not_make_playback_leap(window):
    t = window.timeline
    t.pause_kinds.clear()
    t.seek(0.0)
    t.set_speed(8)
    t.toggle_play()
    window.clock.t_s += 5.0  # the window froze for five seconds
    t._tick()
    assert t.replay.t_s == pytest.approx(0.25 * 8)
    t.toggle_play()


def test_playback_pauses_by_itself_at_the_kill_and_shows_its_card(window):
    t = window.timeline
    assert "kill" in t.pause_kinds  # hits and kills unless told otherwise
    t.seek(0.0)
    t.set_speed(64)
    t.toggle_play()
    play(window, 1.0)
    assert not t.playing
    assert t.replay.t_s == pytest.approx(KILL_AT)
    assert t.paused_at is not None and t.paused_at.kind == "kill"
    card = window.result_card
    assert card.showing
    assert "Sergeant fires the M4/M16" in card.title.text()
    assert "killed" in card.body.text()
    assert "hit 88.9%" in card.body.text()  # the odds shown before the roll, as recorded
    # the event list's card below the list says the same
    assert window.review.card_title.text().endswith(card.title.text())
    # played on, it does not stop at the same kill again
    t.toggle_play()
    play(window, 1.0)
    assert t.replay.t_s == pytest.approx(t.replay.duration_s)


def test_pause_at_signals_stops_at_the_no_dice_signal(window):
    t = window.timeline
    t.set_pause_kind("signal", True)
    t.seek(0.0)
    t.set_speed(16)
    t.toggle_play()
    play(window, 1.0)
    assert t.replay.t_s == pytest.approx(SIGNAL_AT)
    assert window.result_card.showing
    assert "Signals" in window.result_card.title.text()


def test_filters_hide_a_sides_events_and_the_map_rings_follow(window):
    review = window.review
    texts = lambda: [review.list.item(i).text() for i in range(review.list.count())]  # noqa: E731
    assert any("Sergeant fires" in s for s in texts())
    review.set_side("PLA Marine Corps")
    assert not any("Marines]" in s for s in texts())
    assert any("★" in s for s in texts())  # a bookmark is nobody's: it stays
    window.timeline.seek(0.0)
    window.timeline.next_event()
    assert window.timeline.replay.t_s == pytest.approx(BOOKMARK_AT)  # "." skips the hidden side's events
    window.timeline.seek(KILL_AT + 0.5)
    assert SERGEANT not in window.view.highlighted
    review.set_side("Marines")
    assert any("Sergeant fires" in s for s in texts())
    window.timeline.seek(KILL_AT + 0.5)
    assert {SERGEANT, AR} <= set(window.view.highlighted)
    review.set_kind("kill", False)
    assert not any("Sergeant fires" in s for s in texts())


def test_dot_reaches_every_attack_and_its_result(window):
    t = window.timeline
    t.seek(0.0)
    stops = []
    for _ in range(10):
        before = t.replay.t_s
        t.next_event()
        if t.replay.t_s == before:
            break
        stops.append(t.replay.t_s)
    assert stops == pytest.approx([SIGNAL_AT, KILL_AT, BOOKMARK_AT])
    t.seek(KILL_AT)
    card = window.review.card_body.text()
    assert "Automatic rifleman is killed" in card


def test_the_comms_lane_lists_the_signal_and_who_it_reached(window):
    lane = window.timeline.lane
    assert lane.isVisible()
    assert [c.kind for c in lane.links] == ["signal"]
    link = lane.links[0]
    assert link.t_s == pytest.approx(SIGNAL_AT) and link.from_id == SERGEANT
    window.timeline.seek(SIGNAL_AT + 0.1)
    words = lane.words(lane.current())
    assert words.startswith("0:02") and "Sergeant →" in words and "Corpsman" in words


def test_actions_without_dice_are_listed_with_their_cards(window):
    review = window.review
    rows = [review.list.item(i).text() for i in range(review.list.count())]
    signal = next(r for r in rows if "Signals" in r)
    assert signal.startswith("0:02")
    review._clicked(review.list.item(rows.index(signal)))
    assert window.timeline.replay.t_s == pytest.approx(SIGNAL_AT)
    assert "Sergeant Signals (radio call)" in review.card_title.text()
    assert "Reached" in review.card_body.text() and "Corpsman" in review.card_body.text()


def test_the_video_pane_shows_the_frame_recorded_at_the_replay_time(window, qtbot, recording):
    import av

    pane = window.video
    assert pane is not None and window.docks["Camera video"].isVisible()
    with av.open(str(recording.with_suffix(".mp4"))) as container:
        decoded = [f.to_ndarray(format="bgr24") for f in container.decode(video=0)]
    for when, frame in ((6.25, 62), (1.0, 10), (9.9, 99), (3.05, 30)):
        window.timeline.seek(when)
        qtbot.waitUntil(lambda: pane.shown is not None and pane.shown[0] == pytest.approx(when), timeout=10000)
        assert pane.shown[1] == frame
        assert np.array_equal(pane.image, decoded[frame])
        assert np.abs(pane.image.astype(int) - numbered_frame(frame)).mean() < 12  # the frame written then


def test_a_recording_without_video_has_no_video_pane(qtbot, tmp_path):
    from appmodel.replay_model import ReplayModel
    from gui.app import create_application
    from gui.main_window import MainWindow

    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=3)
    path = tmp_path / "plain.sqlite"
    recorder = session.start_recording(path)
    recorder.record_frame(0, 0.0, [UnitPose(SERGEANT, "Sergeant", "Marines", 18.0, 21.0, 1.0, 0.0, UnitState.SEEN, 0.0, 0.0)])
    session.stop_recording()
    create_application()
    replay = ReplayModel(path)
    try:
        w = MainWindow(replay.session, replay=replay)
        qtbot.addWidget(w)
        assert w.video is None and "Camera video" not in w.docks
        assert not w.timeline.lane.isVisibleTo(w)  # no signal: no comms lane either
    finally:
        replay.close()


def test_dot_visits_every_attack_of_the_in_depth_example_with_its_result(qtbot, tmp_path):
    from appmodel.replay_model import ReplayModel
    from demo.example_recording import record_in_depth_example
    from gui.app import create_application
    from gui.main_window import MainWindow

    create_application()
    replay = ReplayModel(record_in_depth_example(tmp_path / "example.sqlite"))
    try:
        w = MainWindow(replay.session, replay=replay)
        qtbot.addWidget(w)
        t = w.timeline
        t.seek(0.0)
        visited = []
        while True:
            before = t.replay.t_s
            t.next_event()
            if t.replay.t_s == before:
                break
            visited.append(t.replay.t_s)
            if t.replay.t_s in replay.engagement_times:
                shown = w.review.selected  # the attack's card, before a bookmark made at the same moment
                assert shown is not None and shown.kind in ("kill", "hit", "attack")
                assert shown.card is not None and shown.card.outcome  # the result, not only the shot
        assert set(replay.engagement_times) <= set(visited)
        assert len(replay.engagement_times) == 6
    finally:
        replay.close()
