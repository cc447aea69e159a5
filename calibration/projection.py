"""Transforms between table inches and camera pixels, height-aware.

Names follow destination-from-source: ``camera_from_table`` maps table points to pixels,
``table_from_camera`` maps pixels back to the table plane at a given height. Both include lens
distortion, and the inverse is exact for any height: a pixel seen at height z is intersected with the
plane z = z_in along its viewing ray (parallax corrected).
"""
from __future__ import annotations

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationError


def _as_points3(points_in: np.ndarray, z_in: float | np.ndarray) -> np.ndarray:
    pts = np.asarray(points_in, dtype=np.float64)
    if pts.ndim == 1:
        pts = pts.reshape(1, -1)
    if pts.shape[1] == 3:
        return pts
    if pts.shape[1] != 2:
        raise CalibrationError(f"points must be (N, 2) or (N, 3) table inches, got shape {pts.shape}")
    z = np.broadcast_to(np.asarray(z_in, dtype=np.float64), (pts.shape[0],))
    return np.column_stack([pts, z])


def camera_from_table(
    points_in: np.ndarray, model: CameraModel, pose: CameraPose, *, z_in: float | np.ndarray = 0.0
) -> np.ndarray:
    """Project table points (inches; (N, 2) at height ``z_in`` or (N, 3)) to distorted pixels (N, 2)."""
    pts = _as_points3(points_in, z_in)
    if len(pts) == 0:
        return np.zeros((0, 2))
    px, _ = cv2.projectPoints(
        pts.reshape(-1, 1, 3),
        np.asarray(pose.rvec, dtype=np.float64),
        np.asarray(pose.tvec_in, dtype=np.float64),
        model.matrix,
        model.distortion,
    )
    return px.reshape(-1, 2)


def depth_in_camera(points_in: np.ndarray, pose: CameraPose, *, z_in: float | np.ndarray = 0.0) -> np.ndarray:
    """Distance along the optical axis of each table point (inches); negative means behind the camera."""
    pts = _as_points3(points_in, z_in)
    cam = pts @ pose.rotation.T + pose.translation
    return cam[:, 2]


_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-12)


def _undistort_normalized(px: np.ndarray, model: CameraModel) -> np.ndarray:
    """Normalized undistorted coordinates of distorted pixels (N, 1, 2) -> (N, 2).

    OpenCV 4 spells the iterative solver ``undistortPointsIter``; OpenCV 5 folds it into
    ``undistortPoints(..., criteria=...)``. The default 5 iterations of either are not enough for a
    wide-angle lens near the image corners, hence the explicit criteria.
    """
    if not model.has_distortion:
        k = model.matrix
        p = px.reshape(-1, 2)
        return np.column_stack([(p[:, 0] - k[0, 2]) / k[0, 0], (p[:, 1] - k[1, 2]) / k[1, 1]])
    solver = getattr(cv2, "undistortPointsIter", None)
    if solver is not None:
        out = solver(px, model.matrix, model.distortion, None, None, _CRITERIA)
    else:
        out = cv2.undistortPoints(px, model.matrix, model.distortion, criteria=_CRITERIA)
    return out.reshape(-1, 2)


def rays_from_camera(pixels: np.ndarray, model: CameraModel, pose: CameraPose) -> tuple[np.ndarray, np.ndarray]:
    """Viewing rays of distorted pixels, in table inches: (origin (3,), unit directions (N, 3))."""
    px = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
    if px.shape[0] == 0:
        return pose.camera_position_in, np.zeros((0, 3))
    norm = _undistort_normalized(px, model)
    # (x, y, 1) @ R for each normalized point: R^T applied to each row vector. Few numpy calls: the
    # tracker measures every frame's moved tags through here.
    rot = pose.rotation
    dirs = norm @ rot[:2]
    dirs += rot[2]
    dirs /= np.sqrt(np.square(dirs).sum(axis=1, keepdims=True))
    return pose.camera_position_in, dirs


def table_from_camera(
    pixels: np.ndarray, model: CameraModel, pose: CameraPose, *, z_in: float | np.ndarray = 0.0
) -> np.ndarray:
    """Table position (inches, (N, 2)) of distorted pixels whose scene points lie at height ``z_in``.

    Returns NaN for a ray that never reaches that height (parallel to it, or pointing away).
    """
    origin, dirs = rays_from_camera(pixels, model, pose)
    z = np.asarray(z_in, dtype=np.float64)
    if z.ndim:
        z = np.broadcast_to(z, (len(dirs),))
    dz = dirs[:, 2]
    if dz.all():
        s = (z - origin[2]) / dz
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (z - origin[2]) / dz
    s[~(s > 0)] = np.nan
    return origin[:2] + s[:, None] * dirs[:, :2]
