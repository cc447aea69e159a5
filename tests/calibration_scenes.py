"""Shared helpers for the calibration tests: synthetic scenes, detections and exact anchor corners."""
from __future__ import annotations

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.projection import camera_from_table
from calibration.synthetic import SyntheticTable, TagPlacement
from calibration.table_layout import TableLayout, tag_corners_in
from tracker.detections import TagDetections, detect_tags, make_detector

_DETECTOR = None


def detect(image_bgr: np.ndarray) -> TagDetections:
    global _DETECTOR  # one detector per test process: building it costs more than a detection
    if _DETECTOR is None:
        _DETECTOR = make_detector()
    return detect_tags(_DETECTOR, cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY))


def scattered_units(seed: int, count: int = 24, *, size_in: float = 1.5, z_max_in: float = 4.0) -> list[TagPlacement]:
    """Units on a loose grid over the table (no two touching), at random heights and headings."""
    rng = np.random.default_rng(seed)
    xs, ys = np.meshgrid(np.arange(9.0, 66.0, 8.0), np.arange(9.0, 42.0, 8.0))
    spots = list(zip(xs.ravel(), ys.ravel()))
    rng.shuffle(spots)
    return [
        TagPlacement(10 + i, float(x + rng.uniform(-1.5, 1.5)), float(y + rng.uniform(-1.5, 1.5)),
                     float(rng.uniform(0.0, z_max_in)), float(rng.uniform(0, 360)), size_in=size_in)
        for i, (x, y) in enumerate(spots[:count])
    ]


def exact_anchor_corners(layout: TableLayout, model: CameraModel, pose: CameraPose) -> tuple[np.ndarray, np.ndarray]:
    """Anchor ids and their projected corners (N, 4, 2), as a perfect detector would report them."""
    ids = np.array([a.tag_id for a in layout.anchors])
    corners = np.stack([camera_from_table(a.corners_in(), model, pose) for a in layout.anchors])
    return ids, corners


def tag_corners_px(x: float, y: float, z: float, heading: float, size: float, model: CameraModel, pose: CameraPose) -> np.ndarray:
    return camera_from_table(tag_corners_in((x, y), size, heading), model, pose, z_in=z)


def render_and_detect(table: SyntheticTable, placements, **kwargs):
    frame = table.render(placements, **kwargs)
    return frame, detect(frame.image_bgr)
