"""Tag-like squares that do not decode, and OpenCV's ArUco detector as a second opinion.

A user who trims a tag's white border off, prints it too small or films it out of focus sees nothing
from pupil-apriltags: no tag, no reason. OpenCV's ArUco detector (``DICT_APRILTAG_36h11``) finds its
candidates differently (an adaptive threshold at several window sizes and contours, not pupil's
edge clusters), so it finds small tags with trimmed borders that pupil-apriltags misses; it also
returns the square candidates it could not decode. A candidate with a dark border ring and a mixed
black-and-white inside is reported as a tag-like square, with the likely reason it did not decode.

In this project's measurements ArUco reported no id on any negative (tests/tracker) and no id on the
real photos that was not in view; its corners are converted to pupil-apriltags' order.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from tracker.detections import TagDetections

#: Below this edge (px) a tag's 1-px bits are too few to decode reliably.
TOO_SMALL_PX = 16.0
#: Sharpest step across the square's edge, as a share of its black/white contrast per pixel.
TOO_BLURRED = 0.22
_CELLS = 8  # tag36h11: 6x6 bits inside a one-cell black ring
_CELL_PX = 6


@dataclass(frozen=True)
class UndecodedSquare:
    """A tag-like square that did not decode: where (corners, OpenCV px), its size and the likely reason."""

    corners_px: np.ndarray
    edge_px: float
    reason: str

    def describe(self) -> str:
        c = self.corners_px.mean(axis=0)
        return f"tag-like square at ({c[0]:.0f}, {c[1]:.0f}) px, {self.edge_px:.0f} px wide, not decoded: {self.reason}"


@functools.cache
def _aruco() -> Any:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    params = cv2.aruco.DetectorParameters()
    # Keep nested candidates: a tag's black square inside the outline of its white card is two squares
    # close together, and the default keeps only one of them (often the card).
    params.minMarkerDistanceRate = 0.001
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary, params)


def aruco_detections(gray: np.ndarray) -> tuple[TagDetections, list[np.ndarray]]:
    """ArUco's tags (corners in pupil-apriltags' order, OpenCV convention) and its rejected squares."""
    corners, ids, rejected = _aruco().detectMarkers(gray)
    size = (int(gray.shape[1]), int(gray.shape[0]))
    quads = [np.asarray(r, dtype=np.float64).reshape(4, 2) for r in rejected]
    if ids is None or len(ids) == 0:
        return TagDetections.empty(frame_size_px=size), quads
    # ArUco: top-left, top-right, bottom-right, bottom-left; pupil-apriltags: the same corners as 1, 0, 3, 2.
    c = np.array([np.asarray(q, dtype=np.float64).reshape(4, 2)[[1, 0, 3, 2]] for q in corners])
    n = len(c)
    found = TagDetections(
        tag_ids=ids.ravel().astype(np.int64),
        corners_px=c,
        centers_px=c.mean(axis=1),
        decision_margins=np.zeros(n),
        hammings=np.zeros(n, dtype=np.int64),
        frame_size_px=size,
    )
    from tracker.fast_detection import drop_duplicates

    # Nested candidates (see _aruco) can decode the same tag twice.
    return drop_duplicates(found, radius_px=4.0), quads


def _edge_px(quad: np.ndarray) -> float:
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def tag_like(gray: np.ndarray, quad: np.ndarray) -> tuple[bool, float]:
    """Whether ``quad`` looks like a tag (dark ring, mixed inside), and its contrast in grey levels."""
    side = _CELLS * _CELL_PX
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    patch = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR).astype(np.float32)
    cells = patch.reshape(_CELLS, _CELL_PX, _CELLS, _CELL_PX)[:, 1:-1, :, 1:-1].mean(axis=(1, 3))
    lo, hi = float(cells.min()), float(cells.max())
    contrast = hi - lo
    if contrast < 30:
        return False, contrast
    dark = cells < (lo + hi) / 2
    ring = np.ones((_CELLS, _CELLS), bool)
    ring[1:-1, 1:-1] = False
    inside = dark[1:-1, 1:-1]
    looks = dark[ring].sum() >= 26 and 6 <= inside.sum() <= 30
    return bool(looks), contrast


def _sharpness(gray: np.ndarray, quad: np.ndarray, contrast: float) -> float:
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 3
    crop = gray[y0:y1, x0:x1].astype(np.float32)
    if crop.size == 0 or contrast <= 0:
        return 0.0
    gx = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    return float(np.percentile(np.hypot(gx, gy), 99)) / contrast


def undecoded_squares(gray: np.ndarray, rejected: list[np.ndarray], decoded: TagDetections) -> list[UndecodedSquare]:
    """The tag-like squares among ArUco's rejected candidates that no detector decoded, with reasons."""
    out: list[UndecodedSquare] = []
    for quad in rejected:
        centre = quad.mean(axis=0)
        edge = _edge_px(quad)
        if len(decoded) and np.min(np.linalg.norm(decoded.centers_px - centre, axis=1)) < max(edge, 8.0):
            continue  # part of a tag that was decoded
        if any(np.linalg.norm(s.corners_px.mean(axis=0) - centre) < 0.5 * edge for s in out):
            continue
        looks, contrast = tag_like(gray, quad)
        if not looks:
            continue
        if edge < TOO_SMALL_PX:
            reason = f"too small ({edge:.0f} px; tags need about 20 px: print bigger tags or move the camera closer)"
        elif _sharpness(gray, quad, contrast) < TOO_BLURRED:
            reason = "too blurred (focus the camera, or hold the unit still)"
        else:
            reason = "likely a trimmed white border or a damaged print (keep the white border: cut on the sheet's dashed line)"
        out.append(UndecodedSquare(quad, edge, reason))
    return out


def undecoded_report(image: np.ndarray, decoded: TagDetections) -> list[str]:
    """Lines naming the tag-like squares of ``image`` (BGR or grey) that ``decoded`` does not account for."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    _, rejected = aruco_detections(gray)
    return [sq.describe() for sq in undecoded_squares(gray, rejected, decoded)]


def frame_notices(image: np.ndarray, reported: TagDetections) -> list[str]:
    """What a tracked frame shows that the tracker did not report, one line each: tags that only the
    ArUco detector reads (their white border trimmed, most often) and tag-like squares nobody decoded.
    ``image`` BGR or grey; ``reported`` the tracker's detections of that frame. About 70 ms at 1080p."""
    from tracker.detections import concat_detections

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    gray = np.ascontiguousarray(gray, dtype=np.uint8)
    by_aruco, rejected = aruco_detections(gray)
    lines = []
    for i in range(len(by_aruco)):
        tag_id, centre = int(by_aruco.tag_ids[i]), by_aruco.centers_px[i]
        edge = _edge_px(by_aruco.corners_px[i])
        same = reported.tag_ids == tag_id
        if np.any(same) and np.min(np.linalg.norm(reported.centers_px[same] - centre, axis=1)) < max(edge, 8.0):
            continue
        lines.append(
            f"tag {tag_id} at ({centre[0]:.0f}, {centre[1]:.0f}) px, {edge:.0f} px wide, is read only by the fallback "
            "detector, not tracked: likely a trimmed white border (keep the white border: cut on the sheet's dashed line)"
        )
    size = (int(gray.shape[1]), int(gray.shape[0]))
    decoded = concat_detections([reported, by_aruco], frame_size_px=size)
    lines += [sq.describe() for sq in undecoded_squares(gray, rejected, decoded)]
    return lines
