"""What a recording does to the files around it, and what a disk or a folder does to a recording:
another recording's video is never overwritten, a full disk keeps the video's last whole fragment and
says why it stopped, a folder made read-only mid-game is one line, never a traceback."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import av
import pytest

import numpy as np

from tracker.errors import RecordingError
from tracker.recording import Recorder, RecordingReader
from tracker.recording.writer import trim_to_whole_fragments
from tracker.unit_pose import UnitPose, UnitState

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent


def pose(t: float) -> UnitPose:
    return UnitPose(12, "Haas", "Blue", t, 5.0, 1.0, 90.0, UnitState.SEEN, t, 0.0, last_seen_t_s=t)


def numbered_frame(n: int) -> np.ndarray:
    img = np.full((240, 320, 3), 25, np.uint8)
    img[:, (n % 10) * 32:(n % 10 + 1) * 32] = 230
    return img


def frames_in(video: Path) -> int:
    with av.open(str(video)) as container:
        return sum(1 for _ in container.decode(container.streams.video[0]))


def test_a_recording_never_overwrites_the_video_of_another(tmp_path) -> None:
    with Recorder(tmp_path / "game.sqlite", video=True, video_fps=30) as rec:
        for i in range(30):
            rec.record_frame(i, i / 30, [pose(i / 30)], numbered_frame(i))
    video = tmp_path / "game.mp4"
    before = video.read_bytes()
    with pytest.raises(RecordingError, match="game.mp4' already exists") as refused:
        Recorder(tmp_path / "game.db", video=True)
    assert "\n" not in str(refused.value)
    assert video.read_bytes() == before
    assert not (tmp_path / "game.db").exists(), "a refused recording left its file behind"
    with Recorder(tmp_path / "game.db") as rec:  # without a video there is nothing to overwrite
        rec.record_frame(0, 0.0, [pose(0.0)])
    assert video.read_bytes() == before


def test_a_video_cut_in_the_middle_of_a_fragment_is_trimmed_to_its_last_whole_one(tmp_path) -> None:
    with Recorder(tmp_path / "game.sqlite", video=True, video_fps=30) as rec:
        for i in range(90):
            rec.record_frame(i, i / 30, [pose(i / 30)], numbered_frame(i))
            if i % 10 == 9:
                rec.flush()
    video = tmp_path / "game.mp4"
    whole = video.stat().st_size
    played = frames_in(video)
    with open(video, "ab") as fh:  # what a disk that filled mid-write leaves: a fragment begun, not ended
        fh.write((5000).to_bytes(4, "big") + b"moof" + b"\0" * 600)
    assert trim_to_whole_fragments(video) == whole
    assert frames_in(video) == played
    assert trim_to_whole_fragments(video) == whole  # a whole file is left as it is


FULL_DISK = textwrap.dedent("""
    import json, os, sys
    import numpy as np
    sys.path[:0] = [sys.argv[2], sys.argv[3]]
    from test_recording_files import pose
    from tracker.errors import RecordingError
    from tracker.recording import Recorder, RecordingReader
    path = os.path.join(sys.argv[1], "game.sqlite")
    rng = np.random.default_rng(1)
    out = {"errors": []}
    rec = Recorder(path, video=True, video_fps=30, reserve_bytes=64 * 1024)
    try:
        for i in range(3000):
            rec.record_frame(i, i / 30, [pose(i / 30)], rng.integers(0, 255, (240, 320, 3), dtype=np.uint8))
            if i % 10 == 9:
                rec.flush()
    except RecordingError as exc:
        out["errors"].append(str(exc))
    try:
        rec.close()
    except RecordingError as exc:
        out["errors"].append(str(exc))
    with RecordingReader(path) as reader:
        out["meta"] = {k: reader.meta.get(k, "") for k in ("video_stop_reason", "stop_reason")}
    import av
    try:
        with av.open(path[:-7] + ".mp4") as c:
            out["frames"] = sum(1 for _ in c.decode(c.streams.video[0]))
    except Exception as exc:
        out["frames"] = repr(exc)
    print(json.dumps(out))
""")


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None, reason="mounts a small disk of its own")
def test_a_full_disk_keeps_the_videos_stop_reason_and_a_video_that_plays_to_its_last_whole_fragment(tmp_path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    script = tmp_path / "fill.py"
    script.write_text(FULL_DISK)
    # A 4 MB disk in a mount namespace of this test's own: noise frames fill it in seconds.
    shell = f"mount -t tmpfs -o size=4m tmpfs {disk} && exec {sys.executable} {script} {disk} {ROOT} {HERE}"
    run = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", shell],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    if run.returncode != 0 and "mount" in run.stderr and "permission" in run.stderr.lower():
        pytest.skip("no permission to mount a disk here")
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["errors"] and all("disk is full" in e and "\n" not in e for e in out["errors"])
    assert "disk is full" in out["meta"]["video_stop_reason"]
    assert isinstance(out["frames"], int) and out["frames"] > 0, out["frames"]


READ_ONLY = textwrap.dedent("""
    import os, sys, time
    sys.path[:0] = [sys.argv[2], sys.argv[3]]
    from test_recording_files import numbered_frame, pose
    from tracker.errors import RecordingError
    from tracker.recording import Recorder
    folder = sys.argv[1]
    rec = Recorder(os.path.join(folder, "game.sqlite"), video=True, video_fps=30)
    for i in range(30):
        rec.record_frame(i, i / 30, [pose(i / 30)], numbered_frame(i))
    rec.flush()
    print("recording", flush=True)
    sys.stdin.readline()  # the folder is made read-only meanwhile
    for i in range(30, 60):
        rec.record_frame(i, i / 30, [pose(i / 30)], numbered_frame(i))
    try:
        rec.close()
        print("closed")
    except RecordingError as exc:
        print("error:", exc)
""")


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_a_folder_made_read_only_mid_game_is_one_line_and_the_complete_recording_is_kept(tmp_path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    script = tmp_path / "read_only.py"
    script.write_text(READ_ONLY)
    command = [sys.executable, str(script), str(folder), str(ROOT), str(HERE)]
    if os.geteuid() == 0:  # root writes anywhere: take away the capability that lets it, as for any user
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: permissions would not apply")
        drop = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--bounding-set={drop}", f"--inh-caps={drop}", *command]
    proc = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "recording", proc.stderr.read()
        folder.chmod(0o555)
        out, err = proc.communicate("go\n", timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        folder.chmod(0o755)
    assert "Traceback" not in err, err
    assert out.strip() == "closed" or ("read-only" in out and "free disk space" not in out), out
    with RecordingReader(folder / "game.sqlite") as reader:
        assert reader.duration_s >= 59 / 30 - 1e-6, "what was recorded after the folder became read-only is lost"
    assert frames_in(folder / "game.mp4") > 0
