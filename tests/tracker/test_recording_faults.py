"""Recordings under faults, with real SQLite files, real signals and a real small filesystem: two writers
of one new name, a start the disk refuses, a full disk mid-game, SIGTERM, a copy of the .sqlite alone,
a damaged file opened by track and replay as the debrief opens it, a video named outside the folder."""
from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tracker.errors import RecordingError
from tracker.recording import Recorder, RecordingReader, open_recording
from tracker.recording.writer import RESERVE_SUFFIX
from tracker.unit_pose import UnitPose, UnitState

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "calibration" / "synthetic" / "scenarios" / "skirmish.toml"


def _pose(t: float, tag: int = 12) -> UnitPose:
    return UnitPose(tag, f"unit {tag}", "Blue", 10.0 + t, 5.0, 1.0, 90.0, UnitState.SEEN, t, t, last_seen_t_s=t)


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_of_two_recorders_started_at_once_with_one_new_name_exactly_one_gets_it(tmp_path):
    for trial in range(20):
        path = tmp_path / f"race{trial}.sqlite"
        barrier = threading.Barrier(2)
        outcome: list[object] = []

        def start() -> None:
            barrier.wait()
            try:
                outcome.append(Recorder(path))
            except RecordingError as exc:
                outcome.append(exc)

        threads = [threading.Thread(target=start) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        recorders = [o for o in outcome if isinstance(o, Recorder)]
        refused = [o for o in outcome if isinstance(o, RecordingError)]
        assert len(recorders) == 1 and len(refused) == 1, outcome
        assert "already exists" in str(refused[0])
        recorders[0].add_bookmark(1.0, "only mine")
        recorders[0].close()
        with RecordingReader(path) as reader:
            assert [b.note for b in reader.bookmarks()] == ["only mine"]


def test_a_start_the_disk_refuses_leaves_no_file_behind_so_the_name_stays_free(tmp_path):
    path = tmp_path / "game.sqlite"
    with pytest.raises(RecordingError, match="cannot record"):
        Recorder(path, metadata={"scenario_toml": "x" * 100_000}, max_size_bytes=8 * 1024)  # the meta does not fit
    assert _files(tmp_path) == []
    Recorder(path).close()  # the same name is free
    assert _files(tmp_path) == ["game.sqlite"]


def test_the_sqlite_file_alone_holds_all_but_the_last_seconds_while_recording(tmp_path):
    path = tmp_path / "live.sqlite"
    recorder = Recorder(path, checkpoint_interval_s=0.5)
    try:
        for i in range(90):
            recorder.record_frame(i, i / 30, [_pose(i / 30)])
        recorder.flush()
        alone = tmp_path / "copy" / "alone.sqlite"
        alone.parent.mkdir()
        # The writer checkpoints on its own (every 0.5 s), nobody calls close(): copy until a copy holds
        # the frames, however late a busy machine runs the writer (120 s only ends a broken writer).
        deadline = time.monotonic() + 120
        while True:
            shutil.copyfile(path, alone)  # a user copying the .sqlite without its -wal
            with RecordingReader(alone) as reader:
                if reader.frame_count == 90 or time.monotonic() > deadline:
                    break
            time.sleep(0.1)
        with RecordingReader(alone) as reader:
            assert reader.frame_count == 90
            assert reader.poses_at(3.0)[0].x_in == pytest.approx(10.0 + 89 / 30)
    finally:
        recorder.close()
    assert not Path(f"{path}{RESERVE_SUFFIX}").exists()  # a clean close gives the reserved room back


def _fill(recorder: Recorder, *, frames: int = 200_000) -> tuple[float, RecordingError | None]:
    flushed_t = -1.0
    try:
        for i in range(frames):
            t = i / 30
            recorder.record_frame(i, t, [_pose(t, tag) for tag in range(12, 22)])
            if i % 30 == 29:
                recorder.flush()
                flushed_t = t
    except RecordingError as exc:
        return flushed_t, exc
    return flushed_t, None


def test_a_disk_full_error_from_sqlite_keeps_every_frame_before_it_and_the_reason(tmp_path):
    # SQLITE_FULL raised inside SQLite itself (the page cap), as a full disk raises it.
    path = tmp_path / "capped.sqlite"
    recorder = Recorder(path, max_size_bytes=256 * 1024)
    flushed_t, error = _fill(recorder)
    assert error is not None and "disk is full" in str(error)
    with pytest.raises(RecordingError):
        recorder.close()
    with RecordingReader(path) as reader:
        assert reader.duration_s >= flushed_t > 1.0
        assert "disk is full" in reader.meta["stop_reason"]


@pytest.fixture
def small_disk(tmp_path):
    """A real 1 MiB filesystem (tmpfs); skipped where this process may not mount one."""
    folder = tmp_path / "small"
    folder.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root and mount(8); the page-cap test covers SQLITE_FULL in-process")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()})")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_a_really_full_disk_keeps_every_frame_before_it_and_the_reason_for_the_stop(small_disk):
    path = small_disk / "game.sqlite"
    recorder = Recorder(path)
    flushed_t, error = _fill(recorder)
    assert error is not None, "the 1 MiB disk never filled"
    with pytest.raises(RecordingError):
        recorder.close()
    with RecordingReader(path) as reader:
        assert reader.duration_s >= flushed_t > 0.5
        assert len(reader.poses_at(flushed_t)) == 10
        assert "full" in reader.meta["stop_reason"]


def test_a_start_on_a_disk_too_full_for_the_reserve_leaves_nothing(small_disk):
    (small_disk / "filler").write_bytes(b"\0" * (1024 * 1024 - 96 * 1024))
    with pytest.raises(RecordingError, match="disk is full"):
        Recorder(small_disk / "game.sqlite")
    assert _files(small_disk) == ["filler"]


def test_sigterm_to_sandtable_track_closes_the_recording_cleanly(tmp_path):
    path = tmp_path / "game.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "track", str(SCENARIO), "--record", str(path), "--no-progress",
                             "--jsonl"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _has_frames(path):
            time.sleep(0.2)
        assert _has_frames(path), "the recording never started"
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    alone = tmp_path / "copy" / "game.sqlite"
    alone.parent.mkdir()
    shutil.copyfile(path, alone)  # the .sqlite alone: nothing may sit only in the -wal after a clean stop
    with RecordingReader(alone) as reader:
        assert "ended_utc" in reader.meta and not reader.problems
        assert reader.frame_count > 0


def _has_frames(path: Path) -> bool:
    if not path.exists():
        return False
    try:
        with sqlite3.connect(path) as db:
            return db.execute("SELECT COUNT(*) FROM frames").fetchone()[0] > 0
    except sqlite3.Error:
        return False


def _cut_recording(tmp_path: Path) -> Path:
    whole = tmp_path / "whole.sqlite"
    with Recorder(whole, metadata={"ruleset": "down-range"}) as recorder:
        for i in range(3000):
            recorder.record_frame(i, i / 30, [_pose(i / 30, tag) for tag in range(12, 16)])
    data = whole.read_bytes()
    cut = tmp_path / "cut.sqlite"
    cut.write_bytes(data[: int(len(data) * 0.8)])
    return cut


def test_open_recording_rescues_a_file_cut_short_as_the_debrief_does(tmp_path):
    cut = _cut_recording(tmp_path)
    with pytest.raises(RecordingError, match="damaged"):
        RecordingReader(cut)
    with open_recording(cut) as reader:
        assert "could be rescued" in reader.problems[0]
        assert reader.poses_at(1.0) and reader.path == cut


def test_sandtable_track_rescues_a_cut_recording_instead_of_refusing_it(tmp_path, capsys):
    from cli.main import main

    cut = _cut_recording(tmp_path)
    code = main(["track", str(cut), "--no-progress"])
    err = capsys.readouterr().err
    # Rescued: what is refused now is only the missing video, never "damaged beyond reading".
    assert code == 2 and "damaged beyond reading" not in err and "no camera video" in err


def test_a_video_named_outside_the_recordings_folder_is_never_opened(tmp_path):
    path = tmp_path / "game.sqlite"
    Recorder(path).close()
    outside = tmp_path.parent / "elsewhere.avi"
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'video_file'", (str(outside),))
    with RecordingReader(path) as reader:
        assert reader.video_path is None
        assert any("outside the recording's folder" in p for p in reader.problems)


def _garble(path: Path, how: str) -> None:
    if how == "pages":
        data = bytearray(path.read_bytes())
        start = len(data) // 3
        data[start:start + 20_000] = bytes((i * 7919) % 256 for i in range(20_000))
        path.write_bytes(bytes(data))
        return
    sql, params = {
        "text in a number column": ("UPDATE poses SET x_in = 'abc' WHERE id % 7 = 0", ()),
        "unknown unit state": ("UPDATE poses SET state = 'flying' WHERE id % 5 = 0", ()),
        "time 1e308": ("UPDATE poses SET t_s = 1e308 WHERE id = 50", ()),
        "frame time 1e308": ("UPDATE frames SET t_s = 1e308 WHERE frame_index = 100", ()),
        "scenario stored as bytes": ("UPDATE meta SET value = CAST(value AS BLOB) WHERE key = 'scenario_toml'", ()),
        "payload not JSON": ("UPDATE rules_events SET payload_json = '{{{'", ()),
        "text as a tag": ("UPDATE poses SET tag_id = 'x' WHERE id % 7 = 0", ()),
        "a fraction as a tag": ("UPDATE poses SET tag_id = 10.5 WHERE id % 7 = 1", ()),
    }[how]
    with sqlite3.connect(path) as db:
        db.execute(sql, params)


GARBLES = ("pages", "text in a number column", "unknown unit state", "time 1e308", "frame time 1e308",
           "scenario stored as bytes", "payload not JSON", "text as a tag", "a fraction as a tag")


@pytest.mark.parametrize("how", GARBLES)
def test_a_garbled_recording_still_debriefs_replays_and_tracks_without_a_traceback(tmp_path, capsys, how):
    from cli.main import main
    from appmodel.replay_model import ReplayModel

    toml = (ROOT / "appmodel" / "scenarios" / "starter_skirmish.toml").read_text(encoding="utf-8")
    path = tmp_path / "game.sqlite"
    with Recorder(path, metadata={"scenario_toml": toml, "ruleset": "down-range"}) as recorder:
        for i in range(600):
            recorder.record_frame(i, i / 30, [_pose(i / 30, tag) for tag in (10, 11, 12)])
            if i % 100 == 0:
                recorder.record_rules_event(i / 30, "note", {"text": f"at {i}"})
    _garble(path, how)
    assert main(["debrief", str(path), "--out", str(tmp_path / "r.html"), "--no-progress"]) == 0
    assert (tmp_path / "r.html").is_file()
    code = main(["track", str(path), "--no-progress"])  # no video in it: refused in one line, never a traceback
    err = capsys.readouterr().err
    assert code == 2 and err.count("sandtable track: error:") == 1 and "Traceback" not in err
    model = ReplayModel(path)
    try:
        assert model.duration_s < 3600  # the absurd time is a damaged row, not a three-hundred-digit session
        for t in (0.0, 5.0, model.duration_s):
            model.seek(t)
    finally:
        model.close()


def test_after_kill_9_the_sqlite_file_alone_holds_all_but_the_last_seconds(tmp_path):
    path = tmp_path / "killed.sqlite"
    progress = tmp_path / "progress.txt"
    script = (
        "import os, sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from tracker.recording import Recorder\n"
        "from tracker.unit_pose import UnitPose, UnitState\n"
        f"rec = Recorder({str(path)!r})\n"
        "t0 = time.monotonic(); i = 0\n"
        "while True:\n"
        "    t = time.monotonic() - t0\n"
        "    rec.record_frame(i, t, [UnitPose(12, 'Haas', '', t, 5.0, 1.0, 90.0, UnitState.SEEN, t, t, last_seen_t_s=t)])\n"
        "    if i % 10 == 0:\n"
        f"        open({str(progress)!r} + '.tmp', 'w').write(repr(t)); os.replace({str(progress)!r} + '.tmp', {str(progress)!r})\n"
        "    i += 1; time.sleep(1 / 60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (progress.exists() and float(progress.read_text() or 0) > 6.0):
            time.sleep(0.05)
        last_reported = float(progress.read_text())
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
    finally:
        if proc.poll() is None:
            proc.kill()
    alone = tmp_path / "copy" / "killed.sqlite"
    alone.parent.mkdir()
    shutil.copyfile(path, alone)  # without its -wal
    with RecordingReader(alone) as reader:
        assert reader.duration_s >= last_reported - 3.0  # the checkpoint every 2 s, plus the commit interval
