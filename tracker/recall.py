"""Recall against the bare detector: the yardstick of tests/tracker and bench/real_photos.py.

The bare detector is pupil-apriltags used on its own as its documentation shows it: the whole image at
full resolution (``quad_decimate=1``), ``refine_edges=1``, every decode it reports (up to two corrected
bits). A photo counts the distinct ids found; a found id is false when the photo's truth (the ids in
view) does not contain it.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tracker.detections import TagDetections, detections_from_pupil, make_detector
from tracker.image_files import tag_search_possible

#: Where the real photographs live, beside a clone of the repository (see their README).
REAL_PHOTOS_DIRNAME = "real-photos"


def real_photos_dir(repo_root: str | Path) -> Path | None:
    """``shared/real-photos`` beside the clone or beside one of its parent folders, or None when absent.

    A clone in /work/X finds /work/shared/real-photos; so does a worktree in /work/wt/X.
    """
    for folder in Path(repo_root).resolve().parents:
        path = folder / "shared" / REAL_PHOTOS_DIRNAME
        if path.is_dir():
            return path
    return None


@dataclass(frozen=True)
class RealPhoto:
    """One photo: its path and, where the set ships it, the ids in view (None: not known)."""

    path: Path
    truth_ids: frozenset[int] | None

    @property
    def name(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"


def real_photos(folder: Path) -> list[RealPhoto]:
    """Every photo under ``folder`` (PNG/JPEG), with the truth the sets ship (``groundtruth.txt``: name ids...)."""
    truth: dict[Path, frozenset[int]] = {}
    for gt in folder.rglob("groundtruth.txt"):
        for line in gt.read_text().splitlines():
            parts = line.split()
            if parts and not parts[0].startswith("#"):
                truth[gt.parent / parts[0]] = frozenset(int(p) for p in parts[1:])
    photos = [p for p in sorted(folder.rglob("*")) if p.suffix.lower() in {".png", ".jpg", ".jpeg"}]
    return [RealPhoto(p, truth.get(p)) for p in photos]


@functools.cache
def _bare() -> Any:
    # pupil-apriltags' own defaults otherwise; its constructor truncates decode_sharpening 0.25 to 0.
    return make_detector(quad_decimate=1.0, refine_edges=True, decode_sharpening=0.0, nthreads=1)


def bare_detections(gray: np.ndarray) -> TagDetections:
    """The bare detector's answer: quad_decimate=1, refine_edges=1, any hamming."""
    img = np.ascontiguousarray(gray, dtype=np.uint8)
    if not tag_search_possible(img):  # the library crashes the process on a 1-pixel-thin image
        return TagDetections.empty(frame_size_px=(img.shape[1], img.shape[0]))
    return detections_from_pupil(_bare().detect(img), frame_size_px=(img.shape[1], img.shape[0]), max_hamming=2)


def median_tag_edge_px(found: TagDetections) -> float | None:
    if len(found) == 0:
        return None
    c = found.corners_px
    return float(np.median(np.linalg.norm(c - np.roll(c, 1, axis=1), axis=2).mean(axis=1)))


@dataclass
class RecallTally:
    """Counts over many photos for one condition (clean, or one fault)."""

    ours: int = 0
    bare: int = 0
    false_ours: int = 0
    false_bare: int = 0
    missed_by_ours: int = 0  # ids the bare detector found in a photo and we did not
    photos: int = 0

    def add(self, ours_ids: set[int], bare_ids: set[int], truth: frozenset[int] | None) -> None:
        self.photos += 1
        self.ours += len(ours_ids)
        self.bare += len(bare_ids)
        self.missed_by_ours += len(bare_ids - ours_ids)
        if truth is not None:
            self.false_ours += len(ours_ids - truth)
            self.false_bare += len(bare_ids - truth)


def tally_recall(
    images: Iterable[tuple[np.ndarray, frozenset[int] | None]], ours: Callable[[np.ndarray], TagDetections]
) -> RecallTally:
    """Run ``ours`` and the bare detector on each (grey image, truth ids) and count."""
    tally = RecallTally()
    for gray, truth in images:
        tally.add({int(i) for i in ours(gray).tag_ids}, {int(i) for i in bare_detections(gray).tag_ids}, truth)
    return tally
