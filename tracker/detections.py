"""One batch of AprilTag detections per frame, and the only code that touches pupil-apriltags types.

Corners are converted at this boundary from pupil-apriltags' pixel convention (pixel (i, j) spans
[i, i+1)) to OpenCV's (pixel centres at integers) by subtracting half a pixel, so that every later
transform (undistortion, solvePnP, projection) sees the convention it was written for.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: pupil-apriltags coordinate minus OpenCV coordinate of the same point, in pixels.
PUPIL_TO_OPENCV_OFFSET_PX = 0.5


@dataclass(frozen=True, eq=False)
class TagDetections:
    """All tags found in one frame: parallel arrays, validated when built.

    ``corners_px`` is (N, 4, 2) in the detector's corner order (see ``calibration.table_layout``),
    OpenCV pixel convention; ``centers_px`` (N, 2); ``decision_margins`` (N,); ``hammings`` (N,).
    """

    tag_ids: np.ndarray
    corners_px: np.ndarray
    centers_px: np.ndarray
    decision_margins: np.ndarray
    hammings: np.ndarray
    frame_index: int = 0
    t_s: float = 0.0
    frame_size_px: tuple[int, int] = field(default=(0, 0))

    def __post_init__(self) -> None:
        n = len(self.tag_ids)
        if self.corners_px.shape != (n, 4, 2) or self.centers_px.shape != (n, 2):
            raise ValueError(
                f"inconsistent detection arrays: {n} ids, corners {self.corners_px.shape}, centres {self.centers_px.shape}"
            )
        if self.decision_margins.shape != (n,) or self.hammings.shape != (n,):
            raise ValueError("decision_margins and hammings must have one entry per tag id")

    def __len__(self) -> int:
        return len(self.tag_ids)

    @classmethod
    def empty(cls, *, frame_index: int = 0, t_s: float = 0.0, frame_size_px: tuple[int, int] = (0, 0)) -> "TagDetections":
        return cls(
            tag_ids=np.zeros(0, dtype=np.int64),
            corners_px=np.zeros((0, 4, 2)),
            centers_px=np.zeros((0, 2)),
            decision_margins=np.zeros(0),
            hammings=np.zeros(0, dtype=np.int64),
            frame_index=frame_index,
            t_s=t_s,
            frame_size_px=frame_size_px,
        )

    def filter(self, mask: np.ndarray) -> "TagDetections":
        """The detections where ``mask`` is true (a boolean array of length N)."""
        m = np.asarray(mask, dtype=bool)
        return TagDetections(
            tag_ids=self.tag_ids[m],
            corners_px=self.corners_px[m],
            centers_px=self.centers_px[m],
            decision_margins=self.decision_margins[m],
            hammings=self.hammings[m],
            frame_index=self.frame_index,
            t_s=self.t_s,
            frame_size_px=self.frame_size_px,
        )

    def corners_of(self, tag_id: int) -> np.ndarray | None:
        idx = np.flatnonzero(self.tag_ids == tag_id)
        return None if len(idx) == 0 else self.corners_px[idx[0]]


def make_detector(*, quad_decimate: float = 1.0, nthreads: int = 1, refine_edges: bool = True, decode_sharpening: float = 0.25) -> Any:
    """A pupil-apriltags tag36h11 detector with the given options."""
    import pupil_apriltags

    return pupil_apriltags.Detector(
        families="tag36h11",
        nthreads=nthreads,
        quad_decimate=quad_decimate,
        refine_edges=int(refine_edges),
        decode_sharpening=decode_sharpening,
    )


def detections_from_pupil(
    raw: list[Any],
    *,
    offset_px: tuple[float, float] = (0.0, 0.0),
    frame_index: int = 0,
    t_s: float = 0.0,
    frame_size_px: tuple[int, int] = (0, 0),
    max_hamming: int = 0,
) -> TagDetections:
    """Convert pupil-apriltags results (from a crop whose top-left is ``offset_px``) to a batch."""
    kept = [d for d in raw if d.hamming <= max_hamming]
    if not kept:
        return TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=frame_size_px)
    shift = np.asarray(offset_px, dtype=np.float64) - PUPIL_TO_OPENCV_OFFSET_PX
    return TagDetections(
        tag_ids=np.array([d.tag_id for d in kept], dtype=np.int64),
        corners_px=np.array([d.corners for d in kept], dtype=np.float64) + shift,
        centers_px=np.array([d.center for d in kept], dtype=np.float64) + shift,
        decision_margins=np.array([d.decision_margin for d in kept], dtype=np.float64),
        hammings=np.array([d.hamming for d in kept], dtype=np.int64),
        frame_index=frame_index,
        t_s=t_s,
        frame_size_px=frame_size_px,
    )


def detect_tags(
    detector: Any, gray: np.ndarray, *, frame_index: int = 0, t_s: float = 0.0, max_hamming: int = 0
) -> TagDetections:
    """Run the detector on a whole grey frame (uint8, C-contiguous)."""
    img = np.ascontiguousarray(gray, dtype=np.uint8)
    raw = detector.detect(img)
    return detections_from_pupil(
        raw, frame_index=frame_index, t_s=t_s, frame_size_px=(img.shape[1], img.shape[0]), max_hamming=max_hamming
    )
