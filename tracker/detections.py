"""One batch of AprilTag detections per frame, and (with ``tracker.apriltag_native``) the only code that touches
pupil-apriltags types.

Corners are converted at this boundary from pupil-apriltags' pixel convention (pixel (i, j) spans
[i, i+1)) to OpenCV's (pixel centres at integers) by subtracting half a pixel, so that every later
transform (undistortion, solvePnP, projection) sees the convention it was written for.
"""
from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tracker.apriltag_native import DETECTION, detect_in_place
from tracker.image_files import tag_search_possible

#: pupil-apriltags coordinate minus OpenCV coordinate of the same point, in pixels.
PUPIL_TO_OPENCV_OFFSET_PX = 0.5

# Where a detection record's fields lie, in 4-byte and 8-byte words (read through plain views).
_ID, _HAMMING, _MARGIN = (DETECTION.fields[name][1] // 4 for name in ("id", "hamming", "decision_margin"))
_CENTRE, _CORNERS = DETECTION.fields["c"][1] // 8, DETECTION.fields["p"][1] // 8


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
    """A pupil-apriltags tag36h11 detector with the given options.

    Two defects of pupil-apriltags 1.0.4 are worked around here: its constructor truncates
    ``decode_sharpening`` to an int (0.25 became 0, i.e. no sharpening of small, blurred tags), and its
    destructor frees the tag family before the detector that still points at it, which crashes the
    interpreter at exit now and then when several detectors existed.
    """
    detector = _safe_detector_class()(
        families="tag36h11",
        nthreads=nthreads,
        quad_decimate=quad_decimate,
        refine_edges=int(refine_edges),
        decode_sharpening=decode_sharpening,
    )
    detector.tag_detector_ptr.contents.decode_sharpening = float(decode_sharpening)
    return detector


_THIS_THREAD = threading.local()


def detector_for_this_thread(*, quad_decimate: float = 1.0, nthreads: int = 1, refine_edges: bool = True,
                             decode_sharpening: float = 0.25) -> Any:
    """A detector with these options, made once per thread and kept, for one-off searches (a calibration
    picture, the walkthrough's anchor check).

    Making and freeing a pupil-apriltags detector for every picture is where its users report random
    crashes (pupil-labs/apriltags issues 46 and 52; AprilRobotics/apriltag issue 184); a detector must
    also never be used by two threads at once, hence one per thread.
    """
    key = (float(quad_decimate), int(nthreads), bool(refine_edges), float(decode_sharpening))
    kept = getattr(_THIS_THREAD, "detectors", None)
    if kept is None:
        kept = _THIS_THREAD.detectors = {}
    if key not in kept:
        kept[key] = make_detector(quad_decimate=quad_decimate, nthreads=nthreads, refine_edges=refine_edges,
                                  decode_sharpening=decode_sharpening)
    return kept[key]


@functools.cache  # built on first use, so that importing this module does not load pupil-apriltags
def _safe_detector_class() -> type:
    import pupil_apriltags

    class _Detector(pupil_apriltags.Detector):  # type: ignore[misc]  # pupil-apriltags has no type information: Detector is Any
        def __del__(self) -> None:
            ptr = getattr(self, "tag_detector_ptr", None)
            if ptr is None:
                return
            # The detector first (it reads its families while freeing), then the families.
            self.libc.apriltag_detector_destroy.restype = None
            self.libc.apriltag_detector_destroy(ptr)
            self.tag_detector_ptr = None
            for family, tf in self.tag_families.items():
                destroy = getattr(self.libc, f"{family}_destroy")
                destroy.restype = None
                destroy(tf)
            self.tag_families: dict[str, Any] = {}  # family name -> its C object (ctypes pointer)

    return _Detector


def detections_from_pupil(
    raw: list[Any], *, frame_index: int = 0, t_s: float = 0.0, frame_size_px: tuple[int, int] = (0, 0), max_hamming: int = 2
) -> TagDetections:
    """pupil-apriltags' own ``detect`` results as a batch: for the bare detector that figures are measured
    against, which must not share the tracker's way of calling the library."""
    kept = [d for d in raw if d.hamming <= max_hamming]
    if not kept:
        return TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=frame_size_px)
    return TagDetections(
        tag_ids=np.array([d.tag_id for d in kept], dtype=np.int64),
        corners_px=np.array([d.corners for d in kept], dtype=np.float64) - PUPIL_TO_OPENCV_OFFSET_PX,
        centers_px=np.array([d.center for d in kept], dtype=np.float64) - PUPIL_TO_OPENCV_OFFSET_PX,
        decision_margins=np.array([d.decision_margin for d in kept], dtype=np.float64),
        hammings=np.array([d.hamming for d in kept], dtype=np.int64),
        frame_index=frame_index,
        t_s=t_s,
        frame_size_px=frame_size_px,
    )


def detections_from_native(
    found: np.ndarray,
    *,
    offset_px: tuple[float, float] | np.ndarray = (0.0, 0.0),
    frame_index: int = 0,
    t_s: float = 0.0,
    frame_size_px: tuple[int, int] = (0, 0),
    max_hamming: int = 0,
) -> TagDetections:
    """Convert the detector's results (:func:`tracker.apriltag_native.detect_in_place`, from a crop whose
    top-left is ``offset_px``; or one such pixel per row, (N, 2)) to a batch."""
    n = len(found)
    if n == 0:
        return TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=frame_size_px)
    # The record's fields read through plain views of its bytes (see DETECTION's offsets): a
    # structured array's own field access costs several times as much, every frame.
    found = np.ascontiguousarray(found)
    f64 = found.view(np.float64).reshape(n, DETECTION.itemsize // 8)
    i32 = found.view(np.int32).reshape(n, DETECTION.itemsize // 4)
    hammings = i32[:, _HAMMING].astype(np.int64)
    shift = np.asarray(offset_px, dtype=np.float64) - PUPIL_TO_OPENCV_OFFSET_PX
    keep = hammings <= max_hamming
    if not keep.all():
        if not keep.any():
            return TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=frame_size_px)
        f64, i32, hammings = f64[keep], i32[keep], hammings[keep]
        shift = shift[keep] if shift.ndim == 2 else shift
    return TagDetections(
        tag_ids=i32[:, _ID].astype(np.int64),
        corners_px=f64[:, _CORNERS : _CORNERS + 8].reshape(-1, 4, 2) + (shift[:, None, :] if shift.ndim == 2 else shift),
        centers_px=f64[:, _CENTRE : _CENTRE + 2] + shift,
        decision_margins=i32[:, _MARGIN].view(np.float32).astype(np.float64),
        hammings=hammings,
        frame_index=frame_index,
        t_s=t_s,
        frame_size_px=frame_size_px,
    )


def detections_from_crops(
    crops: "list[tuple[np.ndarray, int, int]]",
    *,
    frame_index: int = 0,
    t_s: float = 0.0,
    frame_size_px: tuple[int, int] = (0, 0),
    max_hamming: int = 0,
) -> TagDetections:
    """One batch from the detector's results in several crops of one frame, each given with its crop's
    top-left pixel: converted at once (the threads that searched the crops only collected them)."""
    crops = [c for c in crops if len(c[0])]
    if not crops:
        return TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=frame_size_px)
    if len(crops) == 1:
        found, x0, y0 = crops[0]
        offsets: tuple[float, float] | np.ndarray = (float(x0), float(y0))
    else:
        found = np.frombuffer(b"".join(c[0].tobytes() for c in crops), DETECTION)  # (concatenate is slow on records)
        offsets = np.repeat(np.array([(c[1], c[2]) for c in crops], dtype=np.float64), [len(c[0]) for c in crops], axis=0)
    return detections_from_native(
        found, offset_px=offsets, frame_index=frame_index, t_s=t_s, frame_size_px=frame_size_px, max_hamming=max_hamming
    )


def detect_tags(
    detector: Any, gray: np.ndarray, *, frame_index: int = 0, t_s: float = 0.0, max_hamming: int = 0
) -> TagDetections:
    """Run the detector on a whole grey frame (uint8; a view of a larger picture is searched where it lies)."""
    img = np.asarray(gray, dtype=np.uint8)
    if not tag_search_possible(img):  # the detector crashes the process on a 1-pixel-thin image
        return TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=(img.shape[1], img.shape[0]))
    return detections_from_native(
        detect_in_place(detector, img), frame_index=frame_index, t_s=t_s, frame_size_px=(img.shape[1], img.shape[0]),
        max_hamming=max_hamming,
    )


def concat_detections(
    batches: "list[TagDetections]", *, frame_index: int = 0, t_s: float = 0.0, frame_size_px: tuple[int, int] = (0, 0)
) -> TagDetections:
    """One batch holding every detection of ``batches`` (e.g. found in several regions of one frame)."""
    batches = [b for b in batches if len(b)]
    if not batches:
        return TagDetections.empty(frame_index=frame_index, t_s=t_s, frame_size_px=frame_size_px)
    return TagDetections(
        tag_ids=np.concatenate([b.tag_ids for b in batches]),
        corners_px=np.concatenate([b.corners_px for b in batches]),
        centers_px=np.concatenate([b.centers_px for b in batches]),
        decision_margins=np.concatenate([b.decision_margins for b in batches]),
        hammings=np.concatenate([b.hammings for b in batches]),
        frame_index=frame_index,
        t_s=t_s,
        frame_size_px=frame_size_px,
    )


def one_per_tag(found: TagDetections, radius_px: float = 4.0, *, edge_share: float = 0.5) -> TagDetections:
    """One detection per printed tag: two detections of one id whose centres are closer than
    ``radius_px`` or ``edge_share`` of the tag's edge are the same tag found twice (overlapping searches,
    a band's seam) and the one with the larger decision margin is kept. Farther apart (two prints of
    one id, inches apart) both stay: that is a real conflict.

    >>> c = np.array([[[0, 0], [20, 0], [20, 20], [0, 20]]], dtype=float)
    >>> two = TagDetections(tag_ids=np.array([5, 5]), corners_px=np.concatenate([c, c + 5]),
    ...                     centers_px=np.array([[10.0, 10.0], [15.0, 15.0]]), hammings=np.zeros(2, int),
    ...                     decision_margins=np.array([40.0, 60.0]))
    >>> one_per_tag(two).centers_px.tolist()
    [[15.0, 15.0]]
    """
    if len(found) < 2:
        return found
    listed = found.tag_ids.tolist()
    if len(set(listed)) == len(listed):
        return found  # the usual frame: every id once, nothing to compare
    ids, counts = np.unique(found.tag_ids, return_counts=True)
    twice = ids[counts > 1]
    keep = np.ones(len(found), dtype=bool)
    order = np.argsort(-found.decision_margins)
    c = found.corners_px
    edges = np.linalg.norm(c - np.roll(c, 1, axis=1), axis=2).mean(axis=1)
    # Only detections of one id can be duplicates: each id seen more than once is settled on its own,
    # best margin first.
    for tag_id in twice.tolist():
        rows = order[found.tag_ids[order] == tag_id]
        for rank, i in enumerate(rows):
            if not keep[i]:
                continue
            for j in rows[rank + 1 :]:
                near = max(radius_px, edge_share * min(edges[i], edges[j]))
                if keep[j] and np.linalg.norm(found.centers_px[j] - found.centers_px[i]) < near:
                    keep[j] = False
    return found.filter(keep)
