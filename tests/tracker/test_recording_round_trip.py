"""Recordings: written incrementally, read back complete, survive a SIGKILL, refuse wrong versions."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tracker.errors import RecordingError
from tracker.events import EventBus, EventKind, TrackerEvent
from tracker.recording import Recorder
from tracker.recording import RecordingReader
from tracker.roster import Roster, UnitSpec
from tracker.unit_pose import UnitPose, UnitState

ROOT = Path(__file__).resolve().parents[2]


def pose(t, x, state=UnitState.SEEN, moved=0.0, moving=False):
    return UnitPose(12, "Haas", "Blue", x, 5.0, 1.0, 90.0, state, t, moved, last_seen_t_s=t, moving=moving)


def test_poses_events_rules_and_bookmarks_read_back_as_written(tmp_path):
    path = tmp_path / "game.sqlite"
    bus = EventBus()
    roster = Roster((UnitSpec(12, "Haas", side="Blue"),))
    with Recorder(path, metadata={"ruleset": "down-range", "scenario_toml": "x = 1"}, roster=roster) as rec:
        rec.attach(bus)
        for i in range(90):  # still for 1 s, then moving 3 in/s for 2 s
            t = i / 30
            x = 10.0 if i < 30 else 10.0 + (t - 1.0) * 3
            rec.record_frame(i, t, [pose(t, x, moved=x - 10.0)])
            if i == 30:
                bus.publish(TrackerEvent(EventKind.MOVED, t, i, tag_id=12, name="Haas", payload={"from_in": [10.0, 5.0]}))
        rec.record_rules_event(2.5, "attack", {"shooter": 12, "hit": True, "dice": [4, 6]})
        rec.add_bookmark(2.0, "good flanking move")
    with RecordingReader(path) as rec:
        assert rec.problems == []
        assert rec.meta["ruleset"] == "down-range" and rec.units[12]["name"] == "Haas"
        assert rec.frame_count == 90 and rec.duration_s == pytest.approx(89 / 30)
        assert rec.poses_at(0.5)[0].x_in == 10.0 and rec.poses_at(2.0)[0].x_in == pytest.approx(13.0)
        assert rec.poses_at(-1.0) == ()
        # only changes are stored: one row for the still second, then one per moving frame
        assert len(rec.track_of(12)) == 1 + 59
        assert [e.kind for e in rec.events_between(0.9, 1.1)] == [EventKind.MOVED]
        assert rec.events_between(1.1, 3.0) == []
        assert rec.rules_events()[0].payload == {"dice": [4, 6], "hit": True, "shooter": 12}
        assert [(b.t_s, b.note) for b in rec.bookmarks()] == [(2.0, "good flanking move")]


def test_a_unit_in_motion_seen_where_it_stood_last_frame_is_recorded_as_seen_then(tmp_path):
    """A moving unit's repeated sighting (its tag found again at the very same place) is a row of its
    own, so that a replay knows the unit was seen at that moment; a unit at rest is written only when it
    changes."""
    path = tmp_path / "game.sqlite"
    with Recorder(path, roster=Roster((UnitSpec(12, "Haas", side="Blue"),))) as rec:
        for i in range(6):
            rec.record_frame(i, i / 30, [pose(i / 30, 10.0, moving=True)])
        for i in range(6, 12):
            rec.record_frame(i, i / 30, [pose(i / 30, 10.0)])
    with RecordingReader(path) as rec:
        assert rec.poses_at(5 / 30)[0].last_seen_t_s == pytest.approx(5 / 30)
        assert rec.poses_at(11 / 30)[0].last_seen_t_s == pytest.approx(6 / 30)  # at rest: the row it came to rest
        assert len(rec.track_of(12)) == 7


def test_an_existing_recording_is_never_overwritten(tmp_path):
    path = tmp_path / "game.sqlite"
    Recorder(path).close()
    with pytest.raises(RecordingError, match="already exists"):
        Recorder(path)


def test_a_recording_killed_mid_game_is_readable_and_loses_at_most_a_second(tmp_path):
    path = tmp_path / "killed.sqlite"
    progress = tmp_path / "progress.txt"
    script = textwrap.dedent(
        f"""
        import os, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from tracker.recording import Recorder
        from tracker.unit_pose import UnitPose, UnitState
        rec = Recorder({str(path)!r}, metadata={{"ruleset": "down-range"}})
        t0 = time.monotonic()
        i = 0
        while True:
            t = time.monotonic() - t0
            rec.record_frame(i, t, [UnitPose(12, "Haas", "", t, 5.0, 1.0, 90.0, UnitState.SEEN, t, t, last_seen_t_s=t)])
            if i % 10 == 0:  # written whole or not at all, so the test never reads half a number
                open({str(progress)!r} + ".tmp", "w").write(repr(t))
                os.replace({str(progress)!r} + ".tmp", {str(progress)!r})
            i += 1
            time.sleep(1 / 60)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if progress.exists() and progress.read_text() and float(progress.read_text()) > 2.5:
                break
            time.sleep(0.05)
        last_reported = float(progress.read_text())
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
    finally:
        if proc.poll() is None:
            proc.kill()
    with RecordingReader(path) as rec:
        assert any("not closed cleanly" in p for p in rec.problems)
        assert rec.meta["ruleset"] == "down-range"
        assert rec.duration_s >= last_reported - 1.0  # at most the last second lost
        last = rec.poses_at(rec.duration_s)[0]
        assert last.x_in == pytest.approx(rec.duration_s, abs=0.05)


def test_a_newer_version_is_refused_with_a_hint_and_a_stranger_file_too(tmp_path):
    path = tmp_path / "future.sqlite"
    Recorder(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '7' WHERE key = 'version'")
    with pytest.raises(RecordingError, match="version 7, newer than this program reads .1.; update"):
        RecordingReader(path)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE things (x)")
    with pytest.raises(RecordingError, match="not a Sandtable recording"):
        RecordingReader(other)
    text = tmp_path / "notes.sqlite"
    text.write_text("hello")
    with pytest.raises(RecordingError, match="not an SQLite file"):
        RecordingReader(text)


def test_a_recording_cut_short_lists_every_problem_and_shows_what_remains(tmp_path):
    path = tmp_path / "cut.sqlite"
    with Recorder(path, video=True) as rec:
        rec.record_event(TrackerEvent(EventKind.APPEARED, 0.5, 15, tag_id=12))
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE bookmarks")
        db.execute("DELETE FROM meta WHERE key = 'ended_utc'")
    with RecordingReader(path) as rec:
        assert len(rec.problems) == 3  # missing table, not closed cleanly, video missing
        assert any("bookmarks" in p for p in rec.problems) and any("video" in p for p in rec.problems)
        assert [e.kind for e in rec.events_between()] == [EventKind.APPEARED] and rec.bookmarks() == []
