"""Units' tracks for the debrief's timeline: thinned within the bound, and small for a long game."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from classview.timeline import MAX_FRAMES, build_timeline, timeline_json
from classview.tracks import HEADING_BOUND_DEG, POSITION_BOUND_IN, decode_track, encode_track, pose_at
from tracker.recording import Recorder
from tracker.unit_pose import UnitPose, UnitState


def walk(seconds: float, fps: float = 30.0) -> np.ndarray:
    """A figure walking a slow circle, stopping, lifted and put down 20" away, then walking straight."""
    t = np.arange(0.0, seconds, 1.0 / fps)
    a = 0.05 * t
    x, y, h = 36 + 10 * np.cos(a), 24 + 10 * np.sin(a), np.degrees(a + math.pi / 2) % 360
    stop = (t > seconds / 3) & (t < seconds / 2)
    x[stop], y[stop], h[stop] = x[stop][0], y[stop][0], h[stop][0]
    later = t >= seconds / 2
    x[later] = 10 + 0.3 * (t[later] - seconds / 2)
    y[later], h[later] = 40.0, 0.0
    return np.column_stack([t, x, y, h])


def test_every_recorded_pose_is_rebuilt_within_the_bound() -> None:
    rows = walk(600.0)
    track = encode_track(3, rows)
    kept = decode_track(track)
    assert len(kept) < len(rows) / 50  # 18000 poses thinned to a few hundred points
    for t, x, y, h in rows[::7]:
        px, py, ph = pose_at(track, t)
        assert math.hypot(px - x, py - y) <= POSITION_BOUND_IN
        assert abs((ph - h + 180) % 360 - 180) <= HEADING_BOUND_DEG
    # The lift is kept as a jump, not smeared into a slide across the table.
    half = 300.0
    assert pose_at(track, half - 1 / 30)[1] != pytest.approx(40.0, abs=1) and pose_at(track, half)[1] == pytest.approx(40.0)


def test_a_pose_gap_is_a_hold_not_a_slide() -> None:
    rows = np.array([[0.0, 0.0, 0.0, 0.0], [10.0, 20.0, 0.0, 0.0]])  # seen at 0 s, next seen 10 s later
    assert pose_at(encode_track(1, rows), 9.0)[0] == pytest.approx(0.0)


SCENARIO_HEAD = ['format = "sandtable-scenario"', "version = 1", 'name = "Forty walkers"', 'ruleset = "down-range"',
                 "[table]", "width_in = 72", "depth_in = 48", "[[sides]]", 'name = "Blue"', "[[sides]]", 'name = "Red"']


def long_recording(path: Path, minutes: float, units: int = 40, fps: float = 5.0) -> Path:
    lines = list(SCENARIO_HEAD)
    for u in range(units):
        lines += ["[[units]]", f"tag_id = {10 + u}", f'name = "Unit {u + 1}"', f'side = "{"Blue" if u < units // 2 else "Red"}"',
                  'type = "average combatant"', 'weapons = ["M4/M16"]']
    with Recorder(path, metadata={"scenario_toml": "\n".join(lines) + "\n", "ruleset": "down-range", "source": "test"}) as rec:
        for i in range(int(minutes * 60 * fps)):
            t = i / fps
            poses = []
            for u in range(units):
                a = 0.02 * t + u
                x, y = 24 + (10 + u % 7) * math.cos(a) + (u % 8) * 3, 24 + (6 + u % 5) * math.sin(a)
                poses.append(UnitPose(10 + u, f"Unit {u + 1}", "Blue" if u < units // 2 else "Red", x, y, 0.0,
                                      math.degrees(a) % 360, UnitState.SEEN, t, 0.0, last_seen_t_s=t, moving=True))
            rec.record_frame(i, t, poses)
    return path


def test_a_long_game_of_forty_moving_units_stays_small(tmp_path: Path) -> None:
    minutes = 2.0
    recording = long_recording(tmp_path / "walkers.sqlite", minutes)
    timeline = build_timeline(recording)
    total = len(timeline_json(timeline).encode("utf-8"))
    tracks = len(json.dumps(timeline["tracks"], separators=(",", ":")))
    frames = len(json.dumps(timeline["frames"], separators=(",", ":")))
    # Each unit's own shapes (base, facing) are stored once for the game, not once per moment; what
    # changes shape as the units move (a side's radio net) is stored per moment.
    own = [i for i in timeline["items"] if i["layer"] == "units"]
    assert len(own) <= 3 * 40 and 40 * len(timeline["frames"]) > 9000
    # Three hours: the tracks grow with the game, the moments stop at MAX_FRAMES; with the rest as it
    # is, the timeline stays well inside a 10 MB report.
    three_hours = tracks * 180 / minutes + frames * MAX_FRAMES / len(timeline["frames"]) + (total - tracks - frames)
    assert three_hours < 6e6, f"{three_hours / 1e6:.1f} MB"
