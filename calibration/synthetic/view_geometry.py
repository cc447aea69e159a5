"""Viewing rays of every pixel of a synthetic camera, for rendering by inverse mapping.

The renderer asks, for each sample point inside each output pixel, which table point that pixel sees:
undistort the pixel (exactly, once per camera model), turn it into a ray in table inches, and intersect
it with the surface. Sub-pixel samples come from bilinear interpolation of the undistorted coordinates
of neighbouring pixel centres; across one pixel the lens mapping is so smooth that the error is far
below a thousandth of a pixel.
"""
from __future__ import annotations

import functools

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.projection import _undistort_normalized

_GRID_CHUNK_ROWS = 256


@functools.lru_cache(maxsize=3)
def normalized_grid(model: CameraModel) -> np.ndarray:
    """Undistorted normalized coordinates (x/z, y/z) of pixel centres, padded by one pixel all round.

    Shape (H + 2, W + 2, 2) float32: entry [r + 1, c + 1] belongs to pixel (col c, row r) in OpenCV's
    convention. Cached per camera model because undistorting a 4K grid takes seconds and a moved camera
    (same lens) reuses it.
    """
    w, h = model.width_px, model.height_px
    cols = np.arange(-1, w + 1, dtype=np.float64)
    out = np.empty((h + 2, w + 2, 2), dtype=np.float32)
    for r0 in range(-1, h + 1, _GRID_CHUNK_ROWS):
        rows = np.arange(r0, min(r0 + _GRID_CHUNK_ROWS, h + 1), dtype=np.float64)
        u, v = np.meshgrid(cols, rows)
        px = np.stack([u, v], axis=-1).reshape(-1, 1, 2)
        norm = _undistort_normalized(px, model)
        out[r0 + 1 : r0 + 1 + len(rows)] = norm.reshape(len(rows), w + 2, 2)
    out.setflags(write=False)
    return out


class ViewGeometry:
    """One camera (model + pose) as the renderer needs it: rays of pixels, projection with validity."""

    def __init__(self, model: CameraModel, pose: CameraPose) -> None:
        self.model = model
        self.pose = pose
        self.rotation = pose.rotation
        self.translation = pose.translation
        self.center_in = pose.camera_position_in
        self.grid = normalized_grid(model)
        inner = self.grid[1:-1, 1:-1]
        border = np.concatenate([inner[0], inner[-1], inner[:, 0], inner[:, -1]])
        # Beyond the image's own undistorted border, OpenCV's distortion polynomial may fold back and
        # project far-away points into the picture; nothing outside this radius is in view.
        self.max_radius = float(np.max(np.hypot(border[:, 0], border[:, 1]))) * 1.001
        self.norm_lo = inner.reshape(-1, 2).min(axis=0)
        self.norm_hi = inner.reshape(-1, 2).max(axis=0)

    @property
    def size_px(self) -> tuple[int, int]:
        return self.model.width_px, self.model.height_px

    def to_camera(self, points_in: np.ndarray) -> np.ndarray:
        pts = np.asarray(points_in, dtype=np.float64).reshape(-1, 3)
        return pts @ self.rotation.T + self.translation

    def project(self, points_in: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Distorted pixels (N, 2) of table points (N, 3), and whether each is really in front and in view."""
        cam = self.to_camera(points_in)
        front = cam[:, 2] > 1e-6
        with np.errstate(divide="ignore", invalid="ignore"):
            norm = cam[:, :2] / cam[:, 2:3]
        ok = front & (np.hypot(norm[:, 0], norm[:, 1]) <= self.max_radius)
        px = np.full((len(cam), 2), np.nan)
        if np.any(ok):
            px[ok] = self._distort(norm[ok])
        w, h = self.size_px
        inside = ok & (px[:, 0] >= 0) & (px[:, 0] <= w - 1) & (px[:, 1] >= 0) & (px[:, 1] <= h - 1)
        return px, inside

    def _distort(self, norm: np.ndarray) -> np.ndarray:
        pts = np.column_stack([norm, np.ones(len(norm))]).reshape(-1, 1, 3)
        px, _ = cv2.projectPoints(pts, np.zeros(3), np.zeros(3), self.model.matrix, self.model.distortion)
        return px.reshape(-1, 2)

    def pixel_bbox(self, points_in: np.ndarray, *, margin_px: int = 2) -> tuple[int, int, int, int] | None:
        """Pixel box (x0, y0, x1, y1), end-exclusive, covering every pixel whose ray meets the convex hull
        of ``points_in``; None when none of the image does."""
        cam = self.to_camera(points_in)
        w, h = self.size_px
        if np.all(cam[:, 2] <= 1e-6):
            return None
        if np.any(cam[:, 2] <= 1e-6):
            return 0, 0, w, h  # the object reaches behind the camera: only the full frame is safe
        norm = cam[:, :2] / cam[:, 2:3]
        lo = np.maximum(norm.min(axis=0), self.norm_lo)
        hi = np.minimum(norm.max(axis=0), self.norm_hi)
        if np.any(lo > hi):
            return None
        # The distorted image of the normalized box is bounded by the image of its outline.
        s = np.linspace(0.0, 1.0, 17)
        xs = lo[0] + (hi[0] - lo[0]) * s
        ys = lo[1] + (hi[1] - lo[1]) * s
        outline = np.concatenate(
            [
                np.column_stack([xs, np.full_like(xs, lo[1])]),
                np.column_stack([xs, np.full_like(xs, hi[1])]),
                np.column_stack([np.full_like(ys, lo[0]), ys]),
                np.column_stack([np.full_like(ys, hi[0]), ys]),
            ]
        )
        r = np.hypot(outline[:, 0], outline[:, 1])
        outline *= np.minimum(1.0, self.max_radius / np.maximum(r, 1e-12))[:, None]
        px = self._distort(outline)
        x0 = max(0, int(np.floor(px[:, 0].min())) - margin_px)
        y0 = max(0, int(np.floor(px[:, 1].min())) - margin_px)
        x1 = min(w, int(np.ceil(px[:, 0].max())) + margin_px + 1)
        y1 = min(h, int(np.ceil(px[:, 1].max())) + margin_px + 1)
        if x0 >= x1 or y0 >= y1:
            return None
        return x0, y0, x1, y1

    def sample_rays(self, box: tuple[int, int, int, int], supersample: int) -> np.ndarray:
        """Ray directions (table frame, not unit length, z component as is) of ``supersample`` x
        ``supersample`` sample points spread evenly over each pixel of ``box``: shape (h*n, w*n, 3) float32.

        Sample k of a pixel centred at c sits at ``c - 0.5 + (k + 0.5) / n``, which is exactly where
        cv2.resize's bilinear mode puts destination pixel centres.
        """
        x0, y0, x1, y1 = box
        n = supersample
        padded = self.grid[y0 : y1 + 2, x0 : x1 + 2]
        if n == 1:
            norm = np.ascontiguousarray(padded[1:-1, 1:-1])
        else:
            big = cv2.resize(padded, ((x1 - x0 + 2) * n, (y1 - y0 + 2) * n), interpolation=cv2.INTER_LINEAR)
            norm = big[n:-n, n:-n]
        # direction = R^T @ (nx, ny, 1): cv2.transform treats a 3x3 matrix on 2 channels as affine
        return cv2.transform(np.ascontiguousarray(norm), self.rotation.T.astype(np.float32))
