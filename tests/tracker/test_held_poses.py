"""No stale position is ever called fresh (issue 27, item 1): a pose not measured in its frame says so, in
the pose, in ``--jsonl``, in TUIO and in the window's status."""
from __future__ import annotations

import numpy as np

from tracker.detections import TagDetections
from tracker.roster import Roster, UnitSpec
from tracker.tuio import TuioObjects
from tracker.unit_pose import UnitState
from tracker.unit_tracker import UnitTracker


def seen(frame: int, *tags: tuple[int, float, float]) -> TagDetections:
    corners = np.array([[[x + 15, y + 15], [x - 15, y + 15], [x - 15, y - 15], [x + 15, y - 15]] for _, x, y in tags],
                       dtype=np.float64).reshape(-1, 4, 2)
    return TagDetections(tag_ids=np.array([t for t, *_ in tags], dtype=int), corners_px=corners,
                         centers_px=corners.mean(axis=1), hammings=np.zeros(len(tags), dtype=int),
                         decision_margins=np.full(len(tags), 60.0), frame_index=frame, t_s=frame / 30.0,
                         frame_size_px=(640, 480))


def run(missing: set[int]) -> list:
    """Unit 11 walking 3 px a frame; the detector misses it in the frames of ``missing``."""
    tracker = UnitTracker(Roster(units=(UnitSpec(11, "Haas"),)))
    poses = []
    for i in range(20):
        tags = [] if i in missing else [(11, 100.0 + 3.0 * i, 200.0)]
        poses.append(tracker.update(seen(i, *tags)).pose(11))
    return poses


def test_a_pose_missed_for_a_frame_is_held_and_says_so() -> None:
    poses = run({12, 13})
    for i in (12, 13):
        p = poses[i]
        assert p.state is UnitState.SEEN  # a miss this short is bridged ...
        assert not p.measured and p.held  # ... but never as a measurement
        assert p.last_measured_t_s == 11 / 30.0
        assert p.center_px == poses[11].center_px  # held where last measured
        line = p.to_json()
        assert line["measured"] is False and line["last_measured_t_s"] == round(11 / 30.0, 4)
    assert all(p.measured and p.to_json()["measured"] is True for i, p in enumerate(poses) if i not in (12, 13))


def test_a_stale_pose_is_never_measured() -> None:
    poses = run(set(range(5, 20)))
    assert poses[-1].state is UnitState.STALE and not poses[-1].measured


def test_tuio_sends_a_held_pose_without_motion() -> None:
    poses = run({12})
    tuio = TuioObjects(frame_size_px=(640, 480))
    frames = [tuio.update([p], t_s=i / 30.0) for i, p in enumerate(poses[:13])]
    moving, held = frames[11].objects[0], frames[12].objects[0]
    assert moving.x_speed != 0.0
    assert held.x_speed == 0.0 and (held.x, held.y) == (moving.x, moving.y)
