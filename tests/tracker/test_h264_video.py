"""Videos we write play in a browser: H.264 MP4 (yuv420p, the index up front) that headless Chromium
decodes, where OpenCV's MPEG-4 Part 2 ("mp4v") is refused; OpenCV reads ours back frame for frame (the
tracker's video source)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from browser_video import browser_verdict, chromium
from tracker.h264_video import H264Writer

pytestmark = pytest.mark.skipif(chromium() is None, reason="needs Debian's chromium")


def moving_bar(i: int, size=(321, 241)) -> np.ndarray:
    img = np.full((size[1], size[0], 3), 40, np.uint8)
    x = (i * 7) % (size[0] - 20)
    img[:, x:x + 20] = (0, 200, 255)
    return img


def test_our_mp4_plays_in_chromium_and_opencvs_does_not(tmp_path):
    ours = tmp_path / "ours.mp4"
    with H264Writer(ours, 25, (321, 241)) as writer:
        for i in range(50):
            writer.write(moving_bar(i))
    assert browser_verdict(ours) == "loaded 320x240"  # odd sizes lose their last row and column
    theirs = tmp_path / "opencv.mp4"
    old = cv2.VideoWriter(str(theirs), cv2.VideoWriter_fourcc(*"mp4v"), 25, (320, 240))
    for i in range(20):
        old.write(moving_bar(i, (320, 240)))
    old.release()
    assert browser_verdict(theirs).startswith("error")  # what users met: the demo video did not play


def test_opencv_reads_every_frame_back_close_to_what_was_written(tmp_path):
    path = tmp_path / "clip.mp4"
    with H264Writer(path, 30, (320, 240)) as writer:
        for i in range(30):
            writer.write(moving_bar(i, (320, 240)))
    capture = cv2.VideoCapture(str(path))
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    assert len(frames) == 30
    error = np.abs(frames[10].astype(int) - moving_bar(10, (320, 240)).astype(int)).mean()
    assert error < 4.0  # near-lossless: the tracker reads what was rendered
    data = path.read_bytes()
    assert data.find(b"moov") < data.find(b"mdat")  # index first: a browser starts before the download ends
