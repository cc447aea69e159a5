"""The real photographs and their faulted versions, shared by the tracker's real-photo tests."""
from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.synthetic.faults import webcam_faults
from tracker.recall import RealPhoto, bare_detections, median_tag_edge_px, real_photos, real_photos_dir

REPO_ROOT = Path(__file__).resolve().parents[1]
FAULT_NAMES = ["clean", *webcam_faults(24.0)]


def photos_or_skip() -> list[RealPhoto]:
    folder = real_photos_dir(REPO_ROOT)
    if folder is None:
        pytest.skip(f"the real photographs are not beside this clone ({REPO_ROOT.parent / 'shared' / 'real-photos'})")
    return real_photos(folder)


@functools.cache
def grey(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    assert image is not None, f"cannot read {path}"
    return image


def faulted(photo: RealPhoto, fault: str) -> np.ndarray:
    """The photo under ``fault``; small_tags shrinks it so that its median tag is 24 px."""
    image = grey(photo.path)
    if fault == "clean":
        return image
    return webcam_faults(median_tag_edge_px(bare_detections(image)))[fault](image)


def truth_of(photo: RealPhoto) -> frozenset[int]:
    """The ids in view: the set's ground truth, else what the bare detector finds in the clean photo."""
    if photo.truth_ids is not None:
        return photo.truth_ids
    return frozenset(int(i) for i in bare_detections(grey(photo.path)).tag_ids)
