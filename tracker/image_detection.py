"""Tags in one still image (``sandtable detect``), as many as the bare detector finds and no false ids.

Two passes over the whole image at full resolution, one with the decoder's sharpening (0.25: helps
small, soft tags) and one without (sharpening rings on hard JPEG edges and breaks other tags); what
either finds is kept, one detection per tag (the larger decision margin). Decodes with corrected bits
are judged by :class:`tracker.decode_policy.DecodePolicy`. OpenCV's ArUco detector adds the tags only it
finds (small tags with a trimmed white border) and names the tag-like squares nobody decoded
(``tracker.undecoded_squares``).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from tracker.decode_policy import DecodePolicy
from tracker.detections import TagDetections, concat_detections, detect_tags, make_detector
from tracker.undecoded_squares import UndecodedSquare, aruco_detections, undecoded_squares

#: Decoder sharpening of the two passes; the first is what the tracker's windows use.
SHARPENINGS = (0.25, 0.0)


@functools.cache
def _detectors() -> tuple[Any, ...]:
    return tuple(make_detector(nthreads=2, decode_sharpening=s) for s in SHARPENINGS)


@dataclass(frozen=True)
class ImageTags:
    """What one image holds: the tags, which of them only the ArUco fallback found, and tag-like
    squares that did not decode."""

    detections: TagDetections
    fallback_ids: frozenset[int] = frozenset()
    undecoded: tuple[UndecodedSquare, ...] = ()


def examine_image(gray: np.ndarray, *, policy: DecodePolicy | None = None) -> ImageTags:
    """Every believable tag of a grey uint8 image (corners in OpenCV pixels), and what else looks like one."""
    from tracker.fast_detection import drop_duplicates

    policy = policy or DecodePolicy()
    img = np.ascontiguousarray(gray, dtype=np.uint8)
    batches = [detect_tags(d, img, max_hamming=2) for d in _detectors()]
    size = (int(img.shape[1]), int(img.shape[0]))
    found = concat_detections(batches, frame_size_px=size)
    found = found.filter(policy.accepts(found))
    radius = max(4.0, 0.01 * max(size))
    found = drop_duplicates(found, radius_px=radius)
    by_aruco, rejected = aruco_detections(img)
    extra = np.array(
        [
            not np.any((found.tag_ids == by_aruco.tag_ids[i]) & (np.linalg.norm(found.centers_px - by_aruco.centers_px[i], axis=1) < radius))
            for i in range(len(by_aruco))
        ],
        dtype=bool,
    )
    fallback = by_aruco.filter(extra)
    found = concat_detections([found, fallback], frame_size_px=size)
    return ImageTags(found, frozenset(int(i) for i in fallback.tag_ids), tuple(undecoded_squares(img, rejected, found)))


def detect_in_image(gray: np.ndarray, *, policy: DecodePolicy | None = None) -> TagDetections:
    """Every believable tag of a grey uint8 image, corners in OpenCV pixels."""
    return examine_image(gray, policy=policy).detections
