"""The fast detector's economies keep its recall: windows decimated by a step chosen from the tag size,
a sweep that goes first where the picture changed, on webcam footage (MJPEG, exposure drift) with tags
down to 20 px."""
from __future__ import annotations

import cv2
import numpy as np

from calibration.synthetic import Faults, TagPlacement
from tracker_tables import table_under_camera
from calibration.synthetic.faults import webcam_frame
from tracker.detections import detect_tags, make_detector
from tracker.fast_detection import DetectionWork, FastDetectorSettings, FastTagDetector

FPS = 30.0


def grid(n: int, first_id: int = 10, *, spread_in: float = 5.5) -> list[TagPlacement]:
    return [TagPlacement(first_id + k, 22.0 + spread_in * (k % 6), 19.5 + 4.5 * (k // 6), 1.0, 31.0 * k) for k in range(n)]


def test_twenty_pixel_tags_in_mjpeg_footage_are_found_whenever_the_bare_detector_finds_them() -> None:
    scene = table_under_camera(tag_px=20.0, texture_seed=5)
    bare = make_detector(decode_sharpening=0.0)
    placements = grid(18, spread_in=6.0)
    missed = compared = 0
    with FastTagDetector() as fast:
        for i in range(20):
            t = i / FPS
            rendered = scene.render(placements, faults=Faults(noise_sigma=2.0, blur_px=0.6), rng=np.random.default_rng(i))
            image = webcam_frame(rendered.image_bgr, t_s=t, jpeg_quality=50)
            edges = [np.linalg.norm(tr.corners_px[0] - tr.corners_px[1]) for tr in rendered.truth if tr.tag_id >= 10]
            assert 17.0 < np.nanmedian(edges) < 23.0
            by_bare = set(detect_tags(bare, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), max_hamming=2).tag_ids.tolist())
            by_fast = set(fast.detect(image, frame_index=i, t_s=t).tag_ids.tolist())
            compared += len(by_bare)
            missed += len(by_bare - by_fast)
    assert compared >= 20 * 15
    assert missed == 0


def test_a_tag_put_down_is_found_in_the_next_frame_where_the_picture_changed() -> None:
    """The round robin alone would take up to 1 / sweep_fraction frames; the changed tile goes first."""
    scene = table_under_camera(tag_px=25.0, texture_seed=5)
    placements = grid(12)
    newcomer = TagPlacement(40, 30.0, 29.0, 1.0, 10.0)
    found_at = None
    with FastTagDetector() as fast:
        for i in range(12):
            t = i / FPS
            now = placements + ([newcomer] if i >= 5 else [])
            rendered = scene.render(now, faults=Faults(noise_sigma=2.0), rng=np.random.default_rng(i))
            ids = fast.detect(webcam_frame(rendered.image_bgr, t_s=t, jpeg_quality=70), frame_index=i, t_s=t).tag_ids
            if i >= 5 and 40 in ids and found_at is None:
                found_at = i
            if i >= 2:
                # Between changes the sweep is the slow safety net only: a small share of the frame.
                assert fast.last_work.sweep_px < 0.5 * fast.last_work.frame_px
    assert found_at is not None and found_at <= 6, found_at



def _first_frame_reporting(newcomer: TagPlacement, settings: FastDetectorSettings) -> tuple[int | None, list[DetectionWork]]:
    """The first frame whose detections include ``newcomer`` (put down at frame 3), and each frame's work."""
    scene = table_under_camera(tag_px=25.0, texture_seed=5)
    placements = grid(12)
    work = []
    with FastTagDetector(settings=settings) as fast:
        for i in range(30):
            t = i / FPS
            now = placements + ([newcomer] if i >= 3 else [])
            rendered = scene.render(now, faults=Faults(noise_sigma=2.0), rng=np.random.default_rng(i))
            found = newcomer.tag_id in fast.detect(rendered.image_bgr, frame_index=i, t_s=t).tag_ids
            work.append(fast.last_work)
            if found:
                return i, work
    return None, work


def test_the_safety_sweep_finds_a_tag_no_change_revealed_searching_on_the_other_core_between_frames() -> None:
    """With the change watch blind, only the round robin of tiles can find a tag put down. With two
    threads its tiles are searched on the other one after the frame, which does not wait for them (unless
    that one is still busy with the last ones): the tag is reported at most two frames after a single
    thread, searching them within the frame, reports it."""
    newcomer = TagPlacement(40, 30.0, 16.0, 1.0, 10.0)
    never, _ = _first_frame_reporting(newcomer, FastDetectorSettings(workers=2, change_threshold=1e9, sweep_fraction=1e-6))
    assert never is None  # neither the windows nor the change watch find it
    blind = {"change_threshold": 1e9, "sweep_fraction": 1 / 8}
    alone, alone_work = _first_frame_reporting(newcomer, FastDetectorSettings(workers=1, **blind))
    shared, shared_work = _first_frame_reporting(newcomer, FastDetectorSettings(workers=2, **blind))
    assert alone is not None and shared is not None
    assert alone <= shared <= alone + 2  # the same frame when the other core was still busy with the last tiles
    assert all(w.background_px == 0 for w in alone_work)
    later = [w for w in shared_work[1:] if w.background_px > 0]
    assert len(later) >= len(shared_work[1:]) // 2  # most frames handed their safety tiles over
    assert all(w.sweep_px == 0 for w in later)  # and searched none of them themselves


def test_settle_waits_for_the_safety_sweep_so_that_every_next_frame_finds_the_other_core_free() -> None:
    """A measurement counts a frame's time up to ``settle()``: after it no work of that frame runs on.
    Without it the next frame, coming at once, often finds the other core still on the last tiles."""
    scene = table_under_camera(tag_px=25.0, texture_seed=5)
    placements = grid(12)
    blind = FastDetectorSettings(workers=2, change_threshold=1e9, sweep_fraction=1 / 8)
    frames = [scene.render(placements, faults=Faults(noise_sigma=2.0), rng=np.random.default_rng(i)).image_bgr for i in range(16)]
    handed: dict[bool, list[bool]] = {}
    for settle in (False, True):
        with FastTagDetector(settings=blind) as fast:
            handed[settle] = []
            for i, image in enumerate(frames):
                fast.detect(image, frame_index=i, t_s=i / FPS)
                handed[settle].append(fast.last_work.background_px > 0)
                if settle:
                    fast.settle()
    assert all(handed[True][1:])  # every frame after the whole first one handed its tiles over
    assert not all(handed[False][1:])
