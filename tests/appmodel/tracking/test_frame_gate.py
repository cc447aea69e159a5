"""A camera frame on its way to the screen goes first: a thread that yields to frames (a view's overlay
worker) stops at its pause points until the frame is shown, and never longer than the gate's hold; the
UI thread and the tracking thread never stop there; the live feed opens the gate for every frame."""
from __future__ import annotations

import threading
import time

import pytest

from appmodel.tracking.frame_gate import LIVE_FRAMES, FrameGate, pause_point, yield_to_frames


@pytest.fixture
def gate(monkeypatch):
    """The process's gate, holding for a minute (a test never waits for the hold to end by itself)."""
    monkeypatch.setattr(LIVE_FRAMES, "hold_max_s", 60.0)
    yield LIVE_FRAMES
    LIVE_FRAMES.release()


def frame_in_hand(gate: FrameGate) -> None:
    """A frame as the live feed and the UI go through it, up to its paint: in hand, tracked, taken."""
    gate.frame_started()
    gate.frame_ready()
    gate.frame_taken()


def worker(steps: list[str], yields: bool) -> threading.Thread:
    def job() -> None:
        yield_to_frames(yields)
        steps.append("before")
        pause_point()
        steps.append("after")
    thread = threading.Thread(target=job, daemon=True)
    thread.start()
    return thread


def test_a_worker_waits_at_its_pause_point_until_the_frame_is_shown(gate) -> None:
    frame_in_hand(gate)
    steps: list[str] = []
    thread = worker(steps, yields=True)
    deadline = time.monotonic() + 30
    while steps != ["before"] and time.monotonic() < deadline:
        time.sleep(0.01)
    thread.join(0.3)
    assert steps == ["before"] and thread.is_alive()  # held while the frame is on its way
    gate.frame_shown()
    thread.join(30)
    assert steps == ["before", "after"]


def test_a_frame_shown_while_a_newer_one_is_in_hand_keeps_the_workers_waiting(gate) -> None:
    frame_in_hand(gate)  # the UI took frame 1's poses and paints them...
    gate.frame_started()  # ...while the tracking thread has frame 2 in hand
    gate.frame_shown()
    assert gate.open
    gate.frame_ready()
    gate.frame_taken()
    gate.frame_shown()
    assert not gate.open


def test_a_thread_that_does_not_yield_never_waits(gate) -> None:
    gate.frame_started()
    steps: list[str] = []
    thread = worker(steps, yields=False)
    thread.join(30)  # a minute's hold would outlast this
    assert steps == ["before", "after"]
    start = time.monotonic()
    pause_point()  # this thread (the UI's, in the window) never said it yields
    assert time.monotonic() - start < 30


def test_a_frame_never_shown_holds_a_worker_no_longer_than_the_hold() -> None:
    gate = FrameGate(hold_max_s=0.05)
    gate.frame_started()
    done = threading.Event()

    def job() -> None:
        gate.pause()
        done.set()
    threading.Thread(target=job, daemon=True).start()
    assert done.wait(30)  # not a minute, not forever: the window closed, the poll stalled
    assert not gate.open
    gate.pause()  # an expired frame holds nobody
    assert gate.pauses == 1


def test_the_live_feed_opens_the_gate_for_every_frame_it_tracks(gate, tmp_path) -> None:
    from appmodel.tracking.live_tracking import LiveTracking
    from calibration.files import load_table_calibration
    from loop_footage import ONE_CAMERA_FPS, OCCLUSION, one_camera_footage
    from tracker.pipeline import Tracker
    from tracker.roster import load_roster
    from tracker.sources import ImageFolderSource

    folder, calibration = one_camera_footage(tmp_path, frames=6)
    tracker = Tracker(roster=load_roster(OCCLUSION), calibration=load_table_calibration(calibration))
    open_while_tracked: list[bool] = []
    process = tracker.process

    def tracked(frame):
        open_while_tracked.append(gate.open)  # the frame is in hand: the views' workers yield
        gate.release()  # (as if the window had painted it)
        return process(frame)
    tracker.process = tracked
    before = gate.frames
    live = LiveTracking(ImageFolderSource(folder, fps=ONE_CAMERA_FPS), tracker, realtime=False).start()
    deadline = time.monotonic() + 60
    while not live.poll().finished and time.monotonic() < deadline:
        time.sleep(0.01)
    live.stop()
    tracker.close()
    assert open_while_tracked == [True] * 6 and gate.frames - before == 6
    assert not gate.open  # a stopped feed holds nobody
