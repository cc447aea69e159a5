"""A recording as a user meets its failures: a full disk stops it with one clear message and keeps what
was written; a cut-off or damaged file still opens, says what it lacks, and still makes a debrief."""
from __future__ import annotations

import pytest

from cli.main import main
from debrief.report import write_debrief_report
from tracker.errors import RecordingError
from tracker.events import EventKind, TrackerEvent
from tracker.recording import Recorder
from tracker.recording import RecordingReader
from tracker.unit_pose import UnitPose, UnitState


def _pose(t: float) -> UnitPose:
    return UnitPose(12, "Haas", "Blue", 10.0 + t, 5.0, 1.0, 90.0, UnitState.SEEN, t, t, last_seen_t_s=t)


def _fill_until_full(path, *, max_size_bytes=64 * 1024):
    """Record a moving unit until the (simulated) disk is full; returns the error and the last time flushed."""
    recorder = Recorder(path, metadata={"ruleset": "down-range"}, max_size_bytes=max_size_bytes)
    flushed_t = -1.0
    error = None
    try:
        for i in range(200_000):
            t = i / 30
            recorder.record_frame(i, t, [_pose(t)])
            if i % 30 == 0:
                recorder.record_event(TrackerEvent(EventKind.MOVED, t, i, 12, "Haas", {"x_in": 10.0 + t, "y_in": 5.0}))
            if i % 60 == 59:
                recorder.flush()
                flushed_t = t
    except RecordingError as exc:
        error = exc
    with pytest.raises(RecordingError) as closing:
        recorder.close()
    return error, flushed_t, closing.value


def test_a_full_disk_stops_the_recording_with_one_clear_message_and_keeps_what_was_written(tmp_path):
    path = tmp_path / "game.sqlite"
    error, flushed_t, closing = _fill_until_full(path)
    assert error is not None, "the recording never filled the disk"
    for message in (str(error), str(closing)):
        assert "\n" not in message
        assert "disk is full" in message and "free disk space or record to another file" in message
        assert "is kept in the file" in message
    with RecordingReader(path) as reader:
        assert reader.duration_s >= flushed_t > 1.0  # everything flushed before the disk filled is there
        last = reader.poses_at(flushed_t)[0]
        assert last.x_in == pytest.approx(10.0 + flushed_t)
        assert reader.meta["ruleset"] == "down-range"
        assert "disk is full" in reader.meta["stop_reason"] and "ended_utc" not in reader.meta
        assert len(reader.events_between(0.0, flushed_t + 1e-6)) == int(flushed_t) + 1


def test_a_recording_stopped_by_a_full_disk_still_makes_a_debrief_that_says_why(tmp_path):
    path = tmp_path / "game.sqlite"
    _fill_until_full(path)
    facts = write_debrief_report(path, tmp_path / "game.html")
    assert facts.problems[0].startswith("the recording stopped early: database or disk is full")
    assert not any("not closed cleanly" in p for p in facts.problems)
    assert 12 in facts.trails and facts.trails[12].length_in > 1.0
    assert "stopped early" in (tmp_path / "game.html").read_text(encoding="utf-8")


def test_a_recording_that_is_not_one_is_refused_in_one_line(tmp_path, capsys):
    for name, content in (("empty.sqlite", b""), ("text.sqlite", b"hello"), ("half.sqlite", b"SQLite format 3\x00" + b"\x00" * 40)):
        (tmp_path / name).write_bytes(content)
        assert main(["debrief", str(tmp_path / name), "--out", str(tmp_path / "r.html")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "sandtable debrief: error:" in err[0] and "Traceback" not in err[0]
    assert not (tmp_path / "r.html").exists()


def test_a_recording_file_cut_short_still_reports_what_its_intact_pages_hold(tmp_path, capsys):
    import hashlib

    from demo.example_recording import record_in_depth_example

    whole = record_in_depth_example(tmp_path / "whole.sqlite")
    data = whole.read_bytes()
    cut = tmp_path / "cut.sqlite"
    cut.write_bytes(data[: int(len(data) * 0.85)])  # a copy that stopped part way
    before = hashlib.sha256(cut.read_bytes()).hexdigest()
    with pytest.raises(RecordingError, match="damaged"):
        RecordingReader(cut)  # SQLite itself refuses the file
    assert main(["debrief", str(cut), "--out", str(tmp_path / "cut.html"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "the file is damaged" in err and "rescued" in err
    html = (tmp_path / "cut.html").read_text(encoding="utf-8")
    assert "could be rescued" in html and "Mortar gunner" in html
    from debrief.facts import read_debrief_facts

    facts = read_debrief_facts(cut)
    assert facts.units and facts.rules and len(facts.rules) < 56
    assert hashlib.sha256(cut.read_bytes()).hexdigest() == before  # the damaged file is never changed
