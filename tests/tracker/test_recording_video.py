"""The camera video of a recording: H.264 MP4 that browsers play, whose frames are the recorded ones;
readable after the recorder is killed; never holding up the camera; old Motion-JPEG recordings still
replay."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from browser_video import browser_verdict, chromium
from tracker.recording import Recorder, RecordingReader
from tracker.replay import ReplaySource
from tracker.unit_pose import UnitPose, UnitState

ROOT = Path(__file__).resolve().parents[2]
SIZE_PX = (320, 240)
BITS = 10


def numbered_frame(n: int) -> np.ndarray:
    """A camera frame that shows its own number: ten wide bars, bright for a 1 bit, dark for a 0."""
    img = np.full((SIZE_PX[1], SIZE_PX[0], 3), 25, np.uint8)
    for bit in range(BITS):
        if n >> bit & 1:
            img[:, bit * 32:(bit + 1) * 32] = 230
    return img


def number_shown(img: np.ndarray) -> int:
    grey = img[:, :, 1].astype(float)
    return sum(1 << bit for bit in range(BITS) if grey[60:180, bit * 32 + 8:bit * 32 + 24].mean() > 128)


def pose(t: float) -> UnitPose:
    return UnitPose(12, "Haas", "Blue", t, 5.0, 1.0, 90.0, UnitState.SEEN, t, 0.0, last_seen_t_s=t)


def decoded(path: Path) -> tuple[str, list[np.ndarray]]:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return stream.codec_context.name, [f.to_ndarray(format="bgr24") for f in container.decode(stream)]


def video_rows(path: Path) -> list[tuple[int, int]]:
    """(frame index, number in the video) of every recorded frame that is in the video."""
    with sqlite3.connect(path) as db:
        return db.execute("SELECT frame_index, video_frame FROM frames WHERE video_frame IS NOT NULL ORDER BY frame_index").fetchall()


def record(path: Path, frames: int) -> None:
    with Recorder(path, video=True, video_fps=30) as rec:
        for i in range(frames):
            rec.record_frame(i, i / 30, [pose(i / 30)], numbered_frame(i))
            if i % 10 == 9:
                rec.flush()  # faster than a camera, so wait for the encoder: no frame is left out here


def test_a_recording_keeps_its_camera_video_as_h264_mp4_frame_for_frame(tmp_path):
    path = tmp_path / "game.sqlite"
    record(path, 45)
    video = tmp_path / "game.mp4"
    assert video.is_file() and not (tmp_path / "game.avi").exists()
    codec, frames = decoded(video)
    assert codec == "h264"
    rows = video_rows(path)
    assert len(frames) == len(rows) == 45
    assert [number_shown(frames[v]) for _, v in rows] == [i for i, _ in rows]  # each recorded frame's own picture
    with RecordingReader(path) as reader:
        assert reader.video_path == video and reader.problems == []
        assert reader.meta["video_frames_dropped"] == "0"


def test_replay_shows_the_picture_recorded_at_the_time_sought(tmp_path):
    path = tmp_path / "game.sqlite"
    record(path, 60)
    with ReplaySource(path) as source:
        source.seek(40 / 30)
        frame = source.read()
        assert frame.index == 40 and number_shown(frame.image_bgr) == 40
        source.seek(0.0)
        assert [number_shown(source.read().image_bgr) for _ in range(3)] == [0, 1, 2]


@pytest.mark.skipif(chromium() is None, reason="needs Debian's chromium")
def test_the_recordings_video_plays_in_a_browser(tmp_path):
    path = tmp_path / "game.sqlite"
    record(path, 45)
    assert browser_verdict(tmp_path / "game.mp4") == "loaded 320x240"


def test_a_recorder_killed_mid_game_leaves_a_video_that_opens_and_shows_the_recorded_frames(tmp_path):
    path = tmp_path / "killed.sqlite"
    progress = tmp_path / "progress.txt"
    script = textwrap.dedent(
        f"""
        import os, sys, time
        sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / "tests")!r}, {str(Path(__file__).parent)!r}]
        from test_recording_video import numbered_frame, pose
        from tracker.recording import Recorder
        rec = Recorder({str(path)!r}, video=True, video_fps=30)
        i = 0
        while True:
            rec.record_frame(i, i / 30, [pose(i / 30)], numbered_frame(i))
            if i % 10 == 0:
                open({str(progress)!r} + ".tmp", "w").write(str(rec.video_frames_encoded))
                os.replace({str(progress)!r} + ".tmp", {str(progress)!r})
            i += 1
            time.sleep(1 / 120)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (progress.exists() and int(progress.read_text() or 0) >= 150):
            time.sleep(0.05)
        assert int(progress.read_text()) >= 150, "the recorder did not get going"
        os.kill(proc.pid, signal.SIGKILL)  # no close(): what a crash or a pulled plug leaves
        proc.wait(5)
    finally:
        if proc.poll() is None:
            proc.kill()
    codec, frames = decoded(tmp_path / "killed.mp4")
    assert codec == "h264"
    # Of 150 encoded, only the fragment being cut (up to a second, 30 frames) and the few frames x264 holds are lost.
    assert len(frames) >= 90
    numbers = {v: i for i, v in video_rows(path)}
    shown = [number_shown(f) for f in frames]
    assert all(shown[v] == i for v, i in numbers.items() if v < len(frames))
    with ReplaySource(path) as source:  # the replay opens it too, the recorded frames with their pictures
        first = source.read()
        assert first.index == 0 and number_shown(first.image_bgr) == 0
    if chromium() is not None:  # and a browser plays what the kill left
        assert browser_verdict(tmp_path / "killed.mp4") == "loaded 320x240"


def test_a_camera_that_gives_grey_frames_or_changes_size_is_recorded_all_the_same(tmp_path):
    path = tmp_path / "game.sqlite"
    with Recorder(path, video=True, video_fps=30) as rec:
        for i in range(20):
            image = numbered_frame(i)
            if i >= 10:  # the camera came back at another resolution, giving grey pictures
                image = cv2.resize(image[:, :, 1], (SIZE_PX[0] * 2, SIZE_PX[1] * 2), interpolation=cv2.INTER_NEAREST)
            rec.record_frame(i, i / 30, [pose(i / 30)], image)
            rec.flush()
    codec, frames = decoded(tmp_path / "game.mp4")
    assert len(frames) == 20 and all(f.shape[:2] == (SIZE_PX[1], SIZE_PX[0]) for f in frames)
    assert [number_shown(f) for f in frames] == list(range(20))
    with RecordingReader(path) as reader:
        assert "video_stop_reason" not in reader.meta


def test_an_encoder_that_stalls_never_holds_up_the_camera(tmp_path, monkeypatch):
    from tracker import h264_video
    from tracker.recording import writer as writer_module

    release = threading.Event()
    real_write = h264_video.H264Writer.write

    def stalled_write(self, image):
        release.wait()  # a disk or an encoder that stops answering
        real_write(self, image)

    monkeypatch.setattr(h264_video.H264Writer, "write", stalled_write)
    monkeypatch.setattr(writer_module, "VIDEO_QUEUE_BYTES", 10 * numbered_frame(0).nbytes)
    path = tmp_path / "game.sqlite"
    rec = Recorder(path, video=True, video_fps=30)
    done = threading.Event()

    def camera():
        for i in range(100):
            rec.record_frame(i, i / 30, [pose(i / 30)], numbered_frame(i))
        done.set()

    threading.Thread(target=camera, daemon=True).start()
    assert done.wait(30), "the camera waited for the encoder"
    release.set()
    rec.close()
    rows = video_rows(path)
    _, frames = decoded(tmp_path / "game.mp4")
    assert 0 < len(frames) == len(rows) < 100  # the frames that fitted the queue are in the video ...
    assert [number_shown(frames[v]) for _, v in rows] == [i for i, _ in rows]
    with RecordingReader(path) as reader:  # ... the rest are said to be missing from it, poses all kept
        assert int(reader.meta["video_frames_dropped"]) == 100 - len(rows)
        assert reader.frame_count == 100


def test_an_old_recording_with_a_motion_jpeg_video_still_replays(tmp_path):
    path = tmp_path / "old.sqlite"
    with Recorder(path) as rec:
        for i in range(20):
            rec.record_frame(i, i / 30, [pose(i / 30)])
    writer = cv2.VideoWriter(str(tmp_path / "old.avi"), cv2.VideoWriter_fourcc(*"MJPG"), 30, SIZE_PX)
    for i in range(20):
        writer.write(numbered_frame(i))
    writer.release()
    with sqlite3.connect(path) as db:  # what the recorder wrote before its video was H.264
        db.execute("UPDATE meta SET value = 'old.avi' WHERE key = 'video_file'")
        db.execute("UPDATE frames SET video_frame = frame_index")
    with RecordingReader(path) as reader:
        assert reader.problems == [] and reader.video_path == tmp_path / "old.avi"
    with ReplaySource(path) as source:
        source.seek(12 / 30)
        frame = source.read()
        assert frame.index == 12 and number_shown(frame.image_bgr) == 12


def test_a_camera_that_fills_the_same_picture_buffer_each_frame_is_recorded_frame_for_frame(tmp_path, monkeypatch):
    from tracker import h264_video

    release = threading.Event()
    real_write = h264_video.H264Writer.write

    def busy_write(self, image):
        release.wait()  # the encoder is busy while the camera delivers the next frames
        real_write(self, image)

    monkeypatch.setattr(h264_video.H264Writer, "write", busy_write)
    path = tmp_path / "game.sqlite"
    buffer = np.empty((SIZE_PX[1], SIZE_PX[0], 3), np.uint8)
    with Recorder(path, video=True, video_fps=30) as rec:
        for i in range(12):
            buffer[:] = numbered_frame(i)  # as a capture that reads into one preallocated array does
            rec.record_frame(i, i / 30, [pose(i / 30)], buffer)
        release.set()
    _, frames = decoded(tmp_path / "game.mp4")
    assert [number_shown(f) for f in frames] == list(range(12))


def test_a_file_source_waits_for_a_slow_encoder_and_keeps_every_frame(tmp_path, monkeypatch):
    """The newcomer's `track clip.mp4 --record --video` lost 95-103 of 300 frames: a file can wait, so it must."""
    from tracker import h264_video
    from tracker.recording import writer as writer_module

    real_write = h264_video.H264Writer.write
    slow = threading.Semaphore(0)

    def slow_write(self, image):
        slow.acquire(timeout=0.01)  # an encoder slower than the file is read (nobody releases it)
        real_write(self, image)

    monkeypatch.setattr(h264_video.H264Writer, "write", slow_write)
    monkeypatch.setattr(writer_module, "VIDEO_QUEUE_BYTES", 2 * numbered_frame(0).nbytes)  # room for two frames
    path = tmp_path / "game.sqlite"
    with Recorder(path, video=True, video_fps=30, video_backpressure=True) as rec:
        for i in range(60):
            rec.record_frame(i, i / 30, [pose(i / 30)], numbered_frame(i))
    assert rec.video_frames_dropped == 0
    _, frames = decoded(tmp_path / "game.mp4")
    assert [number_shown(f) for f in frames] == list(range(60))
    with RecordingReader(path) as reader:
        assert reader.meta["video_frames_dropped"] == "0"
