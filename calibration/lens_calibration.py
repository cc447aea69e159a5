"""Lens calibration: the camera model (intrinsics + distortion) from photos of the printed board.

Input is, per photo, the board tags the detector found (ids and corners in OpenCV's pixel convention);
detection itself is the tracker's job. Photos with too few board tags are set aside with the reason;
after a first fit, a photo whose reprojection error is far above the others (motion blur, a bent
sheet) is dropped and the lens refitted. The result says how many photos were usable, the
reprojection error, and how much of the picture the board covered: distortion is only known where
the board has been, so the corners of the picture need photos too.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import cv2
import numpy as np

from calibration.board import BoardSpec
from calibration.camera_model import CameraModel
from calibration.errors import CalibrationError

MIN_TAGS_PER_PHOTO = 6
MIN_PHOTOS = 4
_COVERAGE_GRID = (8, 6)


@dataclass(frozen=True)
class LensCalibration:
    """The fitted lens and how it was obtained.

    ``photos_used``: indices of the photos that went into the fit; ``photos_rejected``: (index,
    reason) for the others. ``per_photo_rms_px``: reprojection RMS of each used photo. ``coverage``:
    fraction of an 8 x 6 grid over the picture that board corners fell into (1.0 = everywhere).
    """

    model: CameraModel
    photos_total: int
    photos_used: tuple[int, ...]
    photos_rejected: tuple[tuple[int, str], ...]
    per_photo_rms_px: tuple[float, ...]
    rms_px: float
    coverage: float
    points_used: int

    def advice(self) -> list[str]:
        """What to do for a better calibration (empty when it is good)."""
        out = []
        if self.coverage < 0.75:
            out.append(
                f"the board covered only {self.coverage:.0%} of the picture; add photos with the board near the corners and edges"
            )
        if self.rms_px > 1.0:
            out.append(f"reprojection error {self.rms_px:.2f} px is high; use sharp photos of a flat board in good light")
        if len(self.photos_used) < 8:
            out.append(f"only {len(self.photos_used)} usable photos; 10-20 from different angles give a steadier lens")
        return out


def calibrate_lens(
    views: Sequence[tuple[np.ndarray, np.ndarray]],
    image_size_px: tuple[int, int],
    *,
    board: BoardSpec = BoardSpec(),
    min_tags_per_photo: int = MIN_TAGS_PER_PHOTO,
    min_photos: int = MIN_PHOTOS,
) -> LensCalibration:
    """Fit the lens to photos of ``board``. ``views``: per photo, (tag_ids (N,), corners_px (N, 4, 2)).

    Raises ``CalibrationError`` when fewer than ``min_photos`` photos show enough of the board.
    """
    width, height = image_size_px
    objects: list[np.ndarray] = []
    images: list[np.ndarray] = []
    index: list[int] = []
    rejected: list[tuple[int, str]] = []
    for i, (ids, corners) in enumerate(views):
        ids = np.asarray(ids).reshape(-1)
        corners = np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2)
        keep = [k for k, t in enumerate(ids.tolist()) if board.has(int(t))]
        ids_kept = [int(ids[k]) for k in keep]
        if len(set(ids_kept)) != len(ids_kept):
            rejected.append((i, "a board tag appears twice (two boards in view?)"))
            continue
        if len(keep) < min_tags_per_photo:
            what = "no board tags found" if not keep else f"only {len(keep)} board tags found"
            rejected.append((i, f"{what} (need {min_tags_per_photo}); hold the whole board in view, sharp and well lit"))
            continue
        objects.append(np.concatenate([board.corners_in(t) for t in ids_kept]).astype(np.float32))
        images.append(corners[keep].reshape(-1, 2).astype(np.float32))
        index.append(i)
    if len(objects) < min_photos:
        raise CalibrationError(
            f"only {len(objects)} of {len(views)} photos show the board well enough (need {min_photos}); "
            f"take 10-20 sharp photos of the printed board from different angles, filling different parts of the picture"
        )

    model, per_view, rms = _fit(objects, images, (width, height))
    # Drop photos that disagree with the rest (blur, a curled sheet), then refit once.
    median = float(np.median(per_view))
    limit = max(3.0 * median, 0.5)
    bad = [k for k, e in enumerate(per_view) if e > limit]
    if bad and len(objects) - len(bad) >= min_photos:
        for k in bad:
            rejected.append((index[k], f"reprojection error {per_view[k]:.2f} px, far above the others ({median:.2f} px); blurred or bent?"))
        keep_k = [k for k in range(len(objects)) if k not in bad]
        objects = [objects[k] for k in keep_k]
        images = [images[k] for k in keep_k]
        index = [index[k] for k in keep_k]
        model, per_view, rms = _fit(objects, images, (width, height))
    return LensCalibration(
        model=model,
        photos_total=len(views),
        photos_used=tuple(index),
        photos_rejected=tuple(sorted(rejected)),
        per_photo_rms_px=tuple(float(e) for e in per_view),
        rms_px=rms,
        coverage=_coverage(images, (width, height)),
        points_used=int(sum(len(p) for p in images)),
    )


def _fit(objects: list[np.ndarray], images: list[np.ndarray], size: tuple[int, int]) -> tuple[CameraModel, list[float], float]:
    flags = 0
    if len(objects) < 6:
        flags |= cv2.CALIB_FIX_K3  # too few views to pin down the sixth-order term
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 200, 1e-12)
    try:
        rms, k, d, _, _, _, _, per_view = cv2.calibrateCameraExtended(
            objects, images, size, cast(Any, None), cast(Any, None), flags=flags, criteria=criteria  # OpenCV's stubs lack None (no initial guess)
        )
    except cv2.error as exc:
        raise CalibrationError(
            f"the lens fit failed ({str(exc).strip().splitlines()[-1]}); take photos with the board tilted at different angles"
        ) from None
    d = np.asarray(d, dtype=np.float64).reshape(-1)
    if not (np.all(np.isfinite(k)) and np.all(np.isfinite(d))) or k[0, 0] <= 0 or k[1, 1] <= 0:
        raise CalibrationError("the lens fit did not converge; take photos with the board tilted at different angles")
    model = CameraModel(
        width_px=size[0], height_px=size[1], fx_px=float(k[0, 0]), fy_px=float(k[1, 1]), cx_px=float(k[0, 2]),
        cy_px=float(k[1, 2]), dist_coeffs=tuple(float(v) for v in d[:5]), source="calibrated", reprojection_rms_px=float(rms),
    )
    return model, [float(e) for e in np.asarray(per_view).reshape(-1)], float(rms)


def _coverage(images: list[np.ndarray], size: tuple[int, int]) -> float:
    gx, gy = _COVERAGE_GRID
    hit = np.zeros((gy, gx), bool)
    for pts in images:
        cx = np.clip((pts[:, 0] / size[0] * gx).astype(int), 0, gx - 1)
        cy = np.clip((pts[:, 1] / size[1] * gy).astype(int), 0, gy - 1)
        hit[cy, cx] = True
    return float(hit.mean())


def model_difference_px(a: CameraModel, b: CameraModel, *, margin: float = 0.0, up_to_homography: bool = False) -> float:
    """The largest disagreement (pixels) between two lens models over the picture: how far apart they
    put the undistorted image of the same pixel, measured with ``a``'s focal length.

    ``up_to_homography``: first remove the best homography between the two undistorted pictures,
    leaving only the disagreement in distortion (a slightly different focal length or centre is
    largely absorbed by the camera pose when measuring a flat table).

    >>> m = CameraModel(640, 480, 500.0, 500.0, 319.5, 239.5, (-0.2, 0.05, 0.0, 0.0, 0.0))
    >>> model_difference_px(m, m)
    0.0
    """
    from calibration.projection import _undistort_normalized

    w, h = a.size_px
    xs = np.linspace(margin * w, (1 - margin) * w - 1, 25)
    ys = np.linspace(margin * h, (1 - margin) * h - 1, 15)
    u, v = np.meshgrid(xs, ys)
    px = np.column_stack([u.ravel(), v.ravel()]).reshape(-1, 1, 2)
    na = _undistort_normalized(px, a)
    nb = _undistort_normalized(px, b.scaled_to(w, h) if b.size_px != a.size_px else b)
    if up_to_homography:
        hom, _ = cv2.findHomography(nb, na, 0)
        mapped = np.column_stack([nb, np.ones(len(nb))]) @ hom.T
        nb = mapped[:, :2] / mapped[:, 2:3]
    diff = (na - nb) * np.array([a.fx_px, a.fy_px])
    return float(np.max(np.hypot(diff[:, 0], diff[:, 1]))) if math.isfinite(float(np.max(diff))) else math.inf
