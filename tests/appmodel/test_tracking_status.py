"""The tracking status a player reads: frames per second from the frames' arrival, a feed that stops
noticed without any new frame, each unit seen / stale / lost / never seen with a reason (a tag too small
in the picture says so), the anchors that the camera does not see."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from appmodel.tracking_status import SMALL_TAG_PX, TrackingMonitor
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
    for i in range(31):
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
