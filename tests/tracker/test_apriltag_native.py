"""The tracker's own call into the AprilTag library finds exactly what pupil-apriltags' ``detect`` finds:
on crops searched where they lie in the frame (no copy), at every decimation step the tracker uses,
on our synthetic table and on real photographs."""
from __future__ import annotations

import sys
import threading

import cv2
import numpy as np
from real_photo_cases import grey, photos_or_skip

from calibration.synthetic import Faults, TagPlacement
from tracker_tables import table_under_camera
from tracker.apriltag_native import detect_in_place
from tracker.detections import make_detector
from tracker.fast_detection import STEPS


def _frame() -> np.ndarray:
    table = table_under_camera(texture_seed=4)
    tags = [TagPlacement(30 + k, 20.0 + 6.0 * (k % 5), 18.0 + 7.0 * (k // 5), 1.0, 23.0 * k) for k in range(10)]
    frame = table.render(tags, faults=Faults(noise_sigma=2.0, blur_px=0.7, jpeg_quality=60), rng=np.random.default_rng(1))
    return cv2.cvtColor(frame.image_bgr, cv2.COLOR_BGR2GRAY)


def _crops(gray: np.ndarray, count: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    h, w = gray.shape
    out = [gray]
    for _ in range(count):
        x0, y0 = int(rng.integers(0, w - 16)), int(rng.integers(0, h - 16))
        out.append(gray[y0 : y0 + int(rng.integers(16, 400)), x0 : x0 + int(rng.integers(16, 400))])
    return out


def _same(pupil: list, native: np.ndarray) -> bool:
    return len(pupil) == len(native) and all(
        p.tag_id == n["id"]
        and p.hamming == n["hamming"]
        and np.float32(p.decision_margin) == n["decision_margin"]
        and np.array_equal(p.corners, n["p"])
        and np.array_equal(p.center, n["c"])
        for p, n in zip(pupil, native)
    )


def _compare(pictures: list[np.ndarray]) -> tuple[int, int]:
    """(detections, pictures where the two disagree) over every step."""
    found = differ = 0
    for step in STEPS:
        detector = make_detector(quad_decimate=step)
        for crop in pictures:
            pupil = detector.detect(np.ascontiguousarray(crop))
            found += len(pupil)
            differ += not _same(pupil, detect_in_place(detector, crop))
    return found, differ


def test_crops_of_a_synthetic_frame_give_exactly_pupil_apriltags_detections():
    found, differ = _compare(_crops(_frame(), 40, seed=2))
    assert found >= 50  # the comparison saw tags, not only empty crops
    assert differ == 0


def test_crops_of_real_photographs_give_exactly_pupil_apriltags_detections():
    photos = photos_or_skip()
    pictures = [c for k, p in enumerate(photos[:12]) for c in _crops(grey(p.path), 6, seed=k)]
    found, differ = _compare(pictures)
    assert found >= 50
    assert differ == 0


def test_a_detection_lets_another_thread_run_python_meanwhile():
    """The point of the call: while one thread detects, the other is not held up waiting for Python's lock."""
    gray = np.ascontiguousarray(np.tile(_frame(), (4, 4)))  # a big picture: a long detection
    detector = make_detector(quad_decimate=1.0)
    ticks = 0
    done = threading.Event()

    def detect() -> None:
        detect_in_place(detector, gray)
        done.set()

    worker = threading.Thread(target=detect)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1.0)  # Python would not switch threads on its own during the detection
    try:
        worker.start()
        while not done.is_set():
            ticks += 1
    finally:
        worker.join()
        sys.setswitchinterval(old)
    assert ticks > 1000, f"the main thread ran {ticks} loops while the other detected: it was held up"




def test_crops_searched_in_place_make_the_same_batch_as_pupil_apriltags_on_the_whole_frame():
    """Detections of several crops (starting on the detector's 4 px grid, overlapping so that every tag
    is whole in one), converted at once with each crop's offset, are the whole frame's (to rounding:
    the library's sums run in another order in a crop)."""
    from tracker.detections import detections_from_crops, detections_from_pupil

    gray = _frame()
    detector = make_detector(quad_decimate=1.0)
    whole = detections_from_pupil(detector.detect(gray), max_hamming=2)
    h, w = gray.shape
    mid = (w // 2) // 4 * 4
    halves = [(0, 0, mid + 64, h), (mid - 64, 0, w, h)]
    batch = detections_from_crops([(detect_in_place(detector, gray[y0:y1, x0:x1]), x0, y0) for x0, y0, x1, y1 in halves], max_hamming=2)
    assert len(whole) >= 10
    for k in range(len(whole)):
        near = np.abs(batch.centers_px - whole.centers_px[k]).max(axis=1) < 1e-3
        rows = np.flatnonzero((batch.tag_ids == whole.tag_ids[k]) & near)
        assert len(rows) >= 1, f"tag {whole.tag_ids[k]} of the whole frame is not in the crops' batch"
        r = rows[0]
        assert np.abs(batch.corners_px[r] - whole.corners_px[k]).max() < 1e-3
        assert abs(batch.decision_margins[r] - whole.decision_margins[k]) < 0.05 and batch.hammings[r] == whole.hammings[k]
