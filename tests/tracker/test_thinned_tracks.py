"""The thinned tracks the debrief and the timeline read (``RecordingReader.tracks``): looked up in the
index a step at a time for every unit at once, they keep every move a viewer would see -- each recorded
pose lies on the thinned track (between its kept poses) within the timeline's bound, a stop keeps the
moment the unit stopped and the moment it moved on, a lift both ends of the jump."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tracker.events import EventKind, TrackerEvent
from tracker.recording import Recorder, RecordingReader
from tracker.unit_pose import UnitPose, UnitState

FPS = 30
#: The timeline's bound on a rebuilt position (classview.tracks.POSITION_BOUND_IN).
BOUND_IN = 0.05


def walker(t: float) -> tuple[float, float, bool]:
    """Unit 12: walks a circle, stands still from 4 s to 7 s, walks on; lifted at 10 s, put down 20"
    away at 11 s, walks on to 14 s."""
    if 4.0 <= t < 7.0:
        t_walk = 4.0
    elif t >= 7.0:
        t_walk = t - 3.0
    else:
        t_walk = t
    a = 0.3 * t_walk
    x, y = 30 + 8 * math.cos(a), 24 + 8 * math.sin(a)
    if t >= 11.0:
        x += 20.0
    return x, y, not (10.0 <= t < 11.0)


def write_game(path: Path) -> Path:
    with Recorder(path) as rec:
        was_on, was_moving = True, True
        for i in range(14 * FPS + 1):
            t = i / FPS
            x, y, on = walker(t)
            moving = not (4.0 <= t < 7.0)
            poses = []
            if on:
                poses.append(UnitPose(12, "Walker", "Blue", x, y, 0.0, (17.0 * t) % 360, UnitState.SEEN, t, 0.0,
                                      last_seen_t_s=t, moving=moving))
            elif was_on:
                poses.append(UnitPose(12, "Walker", "Blue", x, y, 0.0, (17.0 * t) % 360, UnitState.LIFTED, t, 0.0,
                                      last_seen_t_s=t))
            # A second unit, Red, walks a straight line the whole game.
            poses.append(UnitPose(13, "Runner", "Red", 5.0 + 0.25 * t, 40.0, 0.0, 0.0, UnitState.SEEN, t, 0.0,
                                  last_seen_t_s=t, moving=True))
            for kind, happened in ((EventKind.STOPPED, was_moving and not moving), (EventKind.MOVED, moving and not was_moving),
                                   (EventKind.LIFTED, was_on and not on), (EventKind.RETURNED, on and not was_on)):
                if happened:
                    rec.record_event(TrackerEvent(kind, t, i, 12, "Walker", {}))
            rec.record_frame(i, t, poses)
            was_on, was_moving = on, moving
    return path


def interpolated(track: np.ndarray, t: float) -> tuple[float, float]:
    return float(np.interp(t, track[:, 0], track[:, 1])), float(np.interp(t, track[:, 0], track[:, 2]))


def test_every_recorded_pose_lies_on_the_thinned_track_within_the_timelines_bound(tmp_path: Path) -> None:
    recording = write_game(tmp_path / "game.sqlite")
    with RecordingReader(recording) as reader:
        thinned = reader.tracks(step_s=0.5, chunk_s=4.0)  # several stretches: the seams are covered too
        assert set(thinned) == {12, 13}
        for tag in (12, 13):
            every = reader.track_of(tag)
            kept = thinned[tag]
            assert len(kept) < len(every) / 5  # thinned: a pose a half second, not thirty a second
            assert list(kept[:, 0]) == sorted(kept[:, 0]) and kept[0, 0] == every[0, 0] and kept[-1, 0] == every[-1, 0]
            # Each stretch on the table on its own (a trail is split where the unit was lifted).
            for t0, t1 in ((0.0, 10.0), (11.0, 14.0)):
                on = kept[(kept[:, 0] >= t0) & (kept[:, 0] <= t1)]
                for t, x, y, _ in every[(every[:, 0] >= t0) & (every[:, 0] < t1)]:
                    kx, ky = interpolated(on, t)
                    assert math.hypot(kx - x, ky - y) <= BOUND_IN, (tag, t)
        assert reader.track_of(12, step_s=0.5).tolist() == thinned[12].tolist()  # one unit: the same look-ups
        assert reader.problems == []


def test_a_stop_and_a_lift_keep_both_their_moments(tmp_path: Path) -> None:
    recording = write_game(tmp_path / "game.sqlite")
    with RecordingReader(recording) as reader:
        kept = reader.tracks(step_s=0.5)[12]
    times = kept[:, 0].tolist()
    stop = next(t for t in times if t >= 4.0 - 1e-9)
    assert stop == pytest.approx(4.0, abs=1 / FPS)  # the moment it stopped ...
    assert next(t for t in times if t >= 7.0 - 1e-9) == pytest.approx(7.0)  # ... and the moment it walked on
    # Lifted at 10 s (the last pose there), put down 20" away at 11 s: both ends of the jump are kept.
    before = kept[kept[:, 0] <= 10.0][-1]
    after = kept[kept[:, 0] >= 11.0][0]
    assert after[0] == pytest.approx(11.0)
    assert math.hypot(after[1] - before[1], after[2] - before[2]) > 15.0
