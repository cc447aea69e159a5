"""Tags in one still image (``sandtable detect``), as many as the bare detector finds and no false ids.

Two passes over the whole image at full resolution, one with the decoder's sharpening (0.25: helps
small, soft tags) and one without (sharpening rings on hard JPEG edges and breaks other tags); what
either finds is kept, one detection per tag (the larger decision margin). Decodes with corrected bits
are judged by :class:`tracker.decode_policy.DecodePolicy`.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from tracker.decode_policy import DecodePolicy
from tracker.detections import TagDetections, concat_detections, detect_tags, make_detector

#: Decoder sharpening of the two passes; the first is what the tracker's windows use.
SHARPENINGS = (0.25, 0.0)


@functools.cache
def _detectors() -> tuple[Any, ...]:
    return tuple(make_detector(nthreads=2, decode_sharpening=s) for s in SHARPENINGS)


def detect_in_image(gray: np.ndarray, *, policy: DecodePolicy | None = None) -> TagDetections:
    """Every believable tag of a grey uint8 image, corners in OpenCV pixels."""
    from tracker.fast_detection import drop_duplicates

    policy = policy or DecodePolicy()
    batches = [detect_tags(d, gray, max_hamming=2) for d in _detectors()]
    size = (int(gray.shape[1]), int(gray.shape[0]))
    found = concat_detections(batches, frame_size_px=size)
    found = found.filter(policy.accepts(found))
    return drop_duplicates(found, radius_px=max(4.0, 0.01 * max(size)))
