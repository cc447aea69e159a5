"""The tracking status a player reads: frames per second from the frames' arrival, a feed that stops
noticed without any new frame, each unit seen / stale / lost / never seen with a reason (a tag too small
in the picture says so), the anchors that the camera does not see."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from appmodel.tracking.tracking_status import SMALL_TAG_PX, TrackingMonitor
from tracker.unit_pose import UnitPose, UnitState


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Detections:
    tag_ids: np.ndarray
    corners_px: np.ndarray

    def __len__(self) -> int:
        return len(self.tag_ids)


@dataclass
class Tracked:
    poses: tuple
    detections: Detections


def square(cx: float, cy: float, edge: float) -> np.ndarray:
    h = edge / 2
    return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]])


def frame(poses, tags):
    ids = np.array([t for t, _ in tags], int)
    corners = np.array([square(100 + 40 * i, 100, edge) for i, (_, edge) in enumerate(tags)]).reshape(-1, 4, 2)
    return Tracked(tuple(poses), Detections(ids, corners))


def pose(tag, state=UnitState.SEEN):
    return UnitPose(tag, f"unit {tag}", "Blue", 10.0, 10.0, 1.0, 0.0, state, 0.0, 0.0)


def test_fps_states_reasons_anchors_and_a_stopped_feed():
    clock = Clock()
    monitor = TrackingMonitor({10: "Sgt. Reyes", 11: "Cpl. Diaz", 12: "Pvt. Lee", 13: "UTV"},
                              [(0, 1.5, 1.5), (1, 70.5, 1.5), (2, 70.5, 46.5), (3, 1.5, 46.5)], clock=clock)
    assert monitor.status().summary() == "Camera: waiting for the first frame"
    for _ in range(31):
        monitor.add(frame([pose(10), pose(11, UnitState.STALE), pose(12)],
                          [(0, 30.0), (1, 30.0), (2, 30.0), (10, 25.0), (12, SMALL_TAG_PX - 3)]), delay_s=0.08)
        clock.t += 1 / 30
    status = monitor.status()
    assert abs(status.fps - 30.0) < 0.5
    by_tag = {u.tag_id: u for u in status.units}
    assert by_tag[10].state == "seen" and by_tag[10].why == ""
    assert by_tag[11].state == "stale" and "hidden" in by_tag[11].why
    assert by_tag[12].state == "seen" and "small in the picture (9 px" in by_tag[12].why
    assert by_tag[13].state == "never seen" and "tag 13 not found" in by_tag[13].why
    assert [a.tag_id for a in status.missing_anchors] == [3]
    line = status.summary()
    assert "30.0 fps" in line and "delay 80 ms" in line and "2 seen, 1 stale" in line and "1 never seen" in line
    assert "anchors 3/4 (missing 3)" in line
    assert not status.stalled
    clock.t += 5.0  # the camera is unplugged: no frame comes
    stalled = monitor.status()
    assert stalled.stalled and stalled.summary().startswith("NO FEED for 5 s")
    assert all("feed has stopped" in u.why for u in stalled.units if u.state != "never seen")


def trimmed_and_damaged_tags() -> np.ndarray:
    """A camera frame with tag 17 cut at its black square on a dark base (no white border), and a
    tag-like square scribbled over (no code at all)."""
    import cv2

    from tracker_helpers import tag_bitmap

    image = np.full((360, 480), 60, np.uint8)
    image[100:124, 100:124] = cv2.resize(tag_bitmap(17), (24, 24), interpolation=cv2.INTER_AREA)
    damaged = tag_bitmap(5, px=160).copy()
    damaged[40:120, 40:120] = 255 - damaged[40:120, 40:120]
    framed = cv2.copyMakeBorder(damaged, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    image[150:210, 300:360] = cv2.resize(framed, (60, 60), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 0.7), cv2.COLOR_GRAY2BGR)


def test_a_missing_unit_makes_the_status_name_what_is_in_view_but_not_tracked():
    from tracker.detections import TagDetections

    clock = Clock()
    monitor = TrackingMonitor({17: "Sgt. Reyes", 18: "Cpl. Diaz"}, clock=clock, background=False)
    picture = trimmed_and_damaged_tags()
    nothing = TagDetections.empty()
    monitor.add(Tracked((), nothing), frame=picture)
    status = monitor.status()
    assert monitor.looks == 1
    assert any("tag 17" in line and "trimmed white border" in line for line in status.undecoded)
    assert any("tag-like square at (330, 180) px" in line and "not decoded" in line for line in status.undecoded)
    assert "2 tag-like squares in view not tracked" in status.summary()
    # Not every frame: the look costs tens of milliseconds; it is repeated every few seconds.
    for _ in range(30):
        clock.t += 1 / 30
        monitor.add(Tracked((), nothing), frame=picture)
    assert monitor.looks == 1 and len(monitor.status().undecoded) == 2
    clock.t += 5.0
    monitor.add(Tracked((), nothing), frame=picture)
    assert monitor.looks == 2


def test_no_look_and_no_notice_while_every_unit_is_found():
    from tracker.detections import TagDetections

    clock = Clock()
    calls = []
    monitor = TrackingMonitor({10: "Sgt. Reyes"}, clock=clock, background=False,
                              look=lambda image, found: calls.append(1) or ["tag-like square at (1, 1) px"])
    seen = Tracked((pose(10),), TagDetections.empty())
    for _ in range(200):
        clock.t += 1 / 30
        monitor.add(seen, frame=np.zeros((8, 8, 3), np.uint8))
    assert calls == [] and monitor.status().undecoded == ()
    # The unit is lost: the next frame is looked at, and what the look found is shown.
    monitor.add(Tracked((pose(10, UnitState.LOST),), TagDetections.empty()), frame=np.zeros((8, 8, 3), np.uint8))
    assert calls == [1] and monitor.status().undecoded == ("tag-like square at (1, 1) px",)
    # Found again: the notice goes with it.
    monitor.add(seen, frame=np.zeros((8, 8, 3), np.uint8))
    assert monitor.status().undecoded == ()


def test_the_look_runs_beside_the_window_not_in_its_way():
    """On its own thread: add() returns at once even if the look is slow, and the result shows later."""
    import threading
    import time

    from tracker.detections import TagDetections

    release = threading.Event()

    def slow_look(image, found):
        release.wait(5.0)
        return ["tag-like square at (5, 5) px, 20 px wide, not decoded: too blurred"]

    monitor = TrackingMonitor({10: "Sgt. Reyes"}, look=slow_look)
    monitor.add(Tracked((), TagDetections.empty()), frame=np.zeros((8, 8, 3), np.uint8))
    # Run on the caller's thread, add() would have waited for the look and its line would show now.
    assert monitor.status().undecoded == ()
    release.set()
    deadline = time.monotonic() + 120.0  # only a broken monitor waits this long
    while not monitor.status().undecoded and time.monotonic() < deadline:
        time.sleep(0.01)
    assert monitor.status().undecoded == ("tag-like square at (5, 5) px, 20 px wide, not decoded: too blurred",)


def test_a_source_that_ended_is_not_a_stopped_feed():
    """A clip or the demo reaching its end says so; only silence without an end is a stall."""
    clock = Clock()
    monitor = TrackingMonitor({10: "Sgt. Reyes"}, clock=clock, background=False)
    for _ in range(5):
        monitor.add(frame([pose(10)], [(10, 30.0)]))
        clock.t += 1 / 30
    monitor.mark_ended("The clip skirmish.mp4 has ended")
    clock.t += 27.0
    status = monitor.status()
    assert not status.stalled
    assert status.ended == "The clip skirmish.mp4 has ended"
    assert "NO FEED" not in status.summary()
    assert status.summary().startswith("The clip skirmish.mp4 has ended")
    assert status.units[0].why == "the source has ended: its last known place"


def test_silence_without_an_end_is_still_a_stopped_feed():
    clock = Clock()
    monitor = TrackingMonitor({10: "Sgt. Reyes"}, clock=clock, background=False)
    monitor.add(frame([pose(10)], [(10, 30.0)]))
    clock.t += 27.0
    status = monitor.status()
    assert status.stalled and not status.ended
    assert "NO FEED for 27 s" in status.summary()


def test_a_lost_camera_is_a_notice_at_once_with_its_reconnect_count_and_clears_when_it_is_back():
    clock = Clock()
    monitor = TrackingMonitor({10: "Sgt. Reyes"}, clock=clock)
    for _ in range(5):
        monitor.add(frame([pose(10)], [(10, 25.0)]))
        clock.t += 1 / 30
    clock.t += 0.3  # well under STALLED_AFTER_S: only the camera's own word says it is gone
    monitor.note_feed(lost=["camera"], reconnect_attempts={"camera": 2})
    status = monitor.status()
    assert status.stalled and status.summary().startswith("NO FEED for 0 s, reconnecting (attempt 2)")
    monitor.note_feed(lost=[], reconnect_attempts={"camera": 0})  # it delivers again
    monitor.add(frame([pose(10)], [(10, 25.0)]))
    assert not monitor.status().stalled and "NO FEED" not in monitor.status().summary()


@dataclass
class SeveralTracked:
    """What the monitor reads of a round of several cameras (``MultiTrackedFrame``)."""

    poses: tuple
    detections: dict
    cameras: tuple
    seen_by: dict
    in_gap: tuple = ()


def test_each_camera_line_counts_its_nodes_bad_messages_and_says_a_lost_one_at_once():
    from tracker.multi_camera import CameraStatus

    clock = Clock()
    monitor = TrackingMonitor({10: "Sgt. Reyes"}, clock=clock)
    batch = frame([], [(10, 25.0)]).detections
    for _ in range(5):
        monitor.add(SeveralTracked((pose(10),), {"left": batch, "right": batch},
                                   (CameraStatus("left"), CameraStatus("right")), {10: ("left", "right")}))
        clock.t += 1 / 30
    monitor.note_feed(lost=["left"], reconnect_attempts={"left": 1}, bad_messages={"right": 3})
    lines = {line.name: line for line in monitor.status().cameras}
    assert not lines["left"].delivering
    assert lines["left"].text() == "left: NO FEED, reconnecting (attempt 1) (the other cameras keep tracking)"
    assert lines["right"].delivering and lines["right"].text().endswith(" · 3 bad messages skipped")
    assert "left NO FEED" in monitor.status().summary()
