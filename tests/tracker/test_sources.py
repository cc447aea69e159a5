"""Frame sources: the live camera's thread contract (newest frame only, dropout and return), files
and folders (every frame, in order), and clear errors for sources that cannot be opened."""
from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from tracker_helpers import FakeCamera
from tracker.errors import SourceError
from tracker.pipeline import Tracker
from tracker.tracking_loop import TrackingLoop
from tracker.sources import CameraSource, ImageFolderSource, VideoFileSource, open_source
import threading

#: Only a broken test waits this long; a passing one goes on as soon as what it waits for happened.
PATIENCE_S = 120.0


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + PATIENCE_S
    while not condition():
        assert time.monotonic() < deadline, f"waited {PATIENCE_S:.0f} s for {what}"
        time.sleep(0.01)


def test_a_live_camera_hands_over_only_the_newest_frame_never_a_backlog():
    camera = FakeCamera(fps=200)
    with CameraSource(0, capture_factory=camera.factory) as source:
        first = source.latest_frame(PATIENCE_S)
        camera.wait_delivered(first.index + 40)  # the consumer is slow: 40 frames arrive meanwhile
        second = source.latest_frame(PATIENCE_S)
        assert second.index - first.index > 10  # skipped straight to the newest
        assert source.latest_frame(0.0) is None or source.latest_frame(0.0).index > second.index
        names = [t.name for t in threading.enumerate()]
        assert any(n.startswith("sandtable-capture-") for n in names)
    assert not any(t.name.startswith("sandtable-capture-") and t.is_alive() for t in threading.enumerate())


def test_a_camera_that_drops_out_is_retried_and_the_game_state_is_kept():
    camera = FakeCamera(fps=200)
    source = CameraSource(0, capture_factory=camera.factory, retry_interval_s=0.05, dropout_after_s=0.1)
    tracker = Tracker()
    stop = threading.Event()
    events = []
    tracker.bus.subscribe(events.append)
    loop = TrackingLoop(tracker, source, poll_timeout_s=0.05)
    runner = threading.Thread(target=loop.run, kwargs={"stop": stop})
    runner.start()
    try:
        camera.wait_delivered(10)
        camera.plugged_in = False
        wait_until(lambda: not source.connected, "the camera to count as gone")
        opens = camera.opens
        wait_until(lambda: camera.opens >= opens + 3, "the source to retry the gone camera")  # and keep retrying
        delivered = camera.delivered
        camera.plugged_in = True
        camera.wait_delivered(delivered + 5)
        wait_until(lambda: "source_back" in [e.kind.value for e in events], "the loop to say the camera is back")
    finally:
        stop.set()
        runner.join(5)
        source.close()
        tracker.close()
    kinds = [e.kind.value for e in events]
    assert kinds.count("source_lost") == 1 and kinds.count("source_back") == 1
    assert kinds.index("source_lost") < kinds.index("source_back")
    assert camera.opens >= 2 and source.reconnects >= 1
    # Each at the time it was noticed (they used to share the last frame's), the outage's length with it.
    # (Not a minimum length: the test waited for three tries to reopen, 0.05 s apart, and the loss may be
    # noticed by the loop after the first of them.)
    lost = next(e for e in events if e.kind.value == "source_lost")
    back = next(e for e in events if e.kind.value == "source_back")
    assert back.t_s > lost.t_s and back.payload["outage_s"] > 0
    assert back.payload["outage_s"] == pytest.approx(back.t_s - lost.t_s, abs=0.001)


def test_a_camera_that_cannot_be_opened_fails_with_its_name():
    camera = FakeCamera(plugged_in=False)
    with pytest.raises(SourceError, match="camera 3"):
        CameraSource(3, capture_factory=camera.factory)


def test_a_video_file_gives_every_frame_in_order_with_times(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (64, 48))
    for i in range(30):
        writer.write(np.full((48, 64, 3), i * 8, np.uint8))
    writer.release()
    with VideoFileSource(path) as source:
        frames = []
        while (f := source.read()) is not None:
            frames.append(f)
    assert [f.index for f in frames] == list(range(30))
    assert frames[-1].t_s == pytest.approx(29 / 25.0)
    assert abs(int(frames[10].image_bgr.mean()) - 80) <= 3


def test_a_folder_of_images_is_read_in_natural_order(tmp_path):
    for i in (1, 2, 10):
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), np.full((32, 32, 3), i, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    with ImageFolderSource(tmp_path, fps=10) as source:
        values = []
        while (f := source.read()) is not None:
            values.append((f.index, int(f.image_bgr[0, 0, 0]), f.t_s))
    assert values == [(0, 1, 0.0), (1, 2, 0.1), (2, 10, 0.2)]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("no/such/video.mp4", "no file or folder 'no/such/video.mp4'"),
        ("EMPTY_DIR", "holds no images"),
        ("BROKEN_VIDEO", "cannot open"),
    ],
)
def test_a_source_that_cannot_be_opened_says_which_and_how_to_fix_it(tmp_path, spec, message):
    if spec == "EMPTY_DIR":
        spec = str(tmp_path)
    elif spec == "BROKEN_VIDEO":
        bad = tmp_path / "broken.mp4"
        bad.write_bytes(b"this is not a video")
        spec = str(bad)
    with pytest.raises(SourceError, match=message):
        open_source(spec)


def test_a_video_read_grey_gives_the_same_frames_as_colour_and_the_same_tags(tmp_path):
    """Grey straight from the decoder (no colour conversion) is the picture the tracker would have got."""
    from calibration.synthetic import SyntheticTable, TagPlacement
    from tracker.h264_video import H264Writer
    from tracker.pipeline import Tracker

    table = SyntheticTable()
    placements = [TagPlacement(10 + k, 20.0 + 8.0 * k, 24.0, 1.0, 20.0 * k) for k in range(4)]
    image = table.render(placements).image_bgr
    path = tmp_path / "clip.mp4"
    with H264Writer(path, 30.0, (image.shape[1], image.shape[0])) as writer:
        for _ in range(6):
            writer.write(image)
    with VideoFileSource(path) as colour, VideoFileSource(path, gray=True) as grey:
        pairs = []
        while (c := colour.read()) is not None:
            g = grey.read()
            assert g is not None and g.index == c.index and g.t_s == pytest.approx(c.t_s)
            pairs.append((c, g))
        assert grey.read() is None
    assert len(pairs) == 6
    c, g = pairs[-1]
    assert g.image_bgr.ndim == 2 and g.image_bgr.shape == c.image_bgr.shape[:2]
    # Same picture: the luma plane is the grey of the colour frame up to the video's level range
    # (16-235 in most videos), within the rounding of the colour conversions.
    luma = g.image_bgr.astype(float).ravel()
    grey = cv2.cvtColor(c.image_bgr, cv2.COLOR_BGR2GRAY).astype(float).ravel()
    slope, offset = np.polyfit(grey, luma, 1)
    assert 0.8 < slope < 1.05
    assert np.abs(luma - (slope * grey + offset)).mean() < 1.5
    with Tracker() as on_colour, Tracker() as on_grey:
        for c, g in pairs:
            ids_colour = sorted(on_colour.process(c).detections.tag_ids.tolist())
            ids_grey = sorted(on_grey.process(g).detections.tag_ids.tolist())
            assert ids_grey == ids_colour and {10, 11, 12, 13} <= set(ids_grey)
