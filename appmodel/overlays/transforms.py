"""The three ways table inches reach a screen: top-down view, camera perspective, projector.

Each transform has ``device_from_table((N, 2) inches) -> (N, 2) px`` and its inverse, a ``cache_key``
that changes whenever the mapping does (the painter caches projected outlines under it), and
``affine``: whether straight lines stay straight (then outlines are not subdivided). Qt-free.

``device_from_table`` takes ``z_in``, the height of the points above the table (one height, or one
per point): the camera view draws a figure standing on a 3" rooftop where the camera sees it. The
top-down view looks straight down (height changes nothing), and the projector ignores it on purpose:
its light must land on the ground at the figure's foot, and its calibration already maps each table
point to the projector pixel whose light reaches the ground there (the pattern tags were located on
the terrain, see :func:`calibration.projector.calibrate_projector`); it has no pose of its own from
which a height could move anything.

>>> t = TopDownTransform((72.0, 48.0), (760, 520), margin_px=20)
>>> t.device_from_table(np.array([[0.0, 0.0], [72.0, 48.0]])).round(1).tolist()
[[20.0, 500.0], [740.0, 20.0]]
>>> t.table_from_device(np.array([[380.0, 260.0]])).round(3).tolist()
[[36.0, 24.0]]
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

#: Longest straight segment (inches) drawn unsubdivided in a non-affine view: a fan's 24" edge
#: through a wide-angle lens bends visibly, so it is drawn as a chain of short segments.
MAX_SEGMENT_IN = 0.75


@dataclass(frozen=True)
class TopDownTransform:
    """The rectified table seen from above, +x right and +y up, fitted to a viewport and zoomed/panned.

    ``center_in``: the table point at the middle of the viewport (None: the table's centre).
    """

    table_size_in: tuple[float, float]
    viewport_px: tuple[int, int]
    zoom: float = 1.0
    center_in: tuple[float, float] | None = None
    margin_px: float = 24.0
    affine = True

    @property
    def px_per_in(self) -> float:
        w, d = self.table_size_in
        vw, vh = self.viewport_px
        fit = min((vw - 2 * self.margin_px) / w, (vh - 2 * self.margin_px) / d)
        return max(fit, 1e-3) * self.zoom

    def _center(self) -> tuple[float, float]:
        return self.center_in or (self.table_size_in[0] / 2, self.table_size_in[1] / 2)

    def device_from_table(self, points_in: np.ndarray, *, z_in: float | np.ndarray = 0.0) -> np.ndarray:
        p = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
        s = self.px_per_in
        cx, cy = self._center()
        vw, vh = self.viewport_px
        return np.column_stack([vw / 2 + (p[:, 0] - cx) * s, vh / 2 - (p[:, 1] - cy) * s])

    def table_from_device(self, pixels: np.ndarray) -> np.ndarray:
        q = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
        s = self.px_per_in
        cx, cy = self._center()
        vw, vh = self.viewport_px
        return np.column_stack([cx + (q[:, 0] - vw / 2) / s, cy - (q[:, 1] - vh / 2) / s])

    def px_per_in_at(self, x_in: float, y_in: float) -> float:
        return self.px_per_in

    @property
    def cache_key(self) -> Hashable:
        return ("top", self.table_size_in, self.viewport_px, self.zoom, self.center_in, self.margin_px)

    def zoomed(self, factor: float, about_px: tuple[float, float] | None = None) -> "TopDownTransform":
        """Zoom by ``factor`` keeping the table point under ``about_px`` where it is."""
        zoom = float(np.clip(self.zoom * factor, 0.25, 20.0))
        if about_px is None:
            return replace(self, zoom=zoom)
        anchor = self.table_from_device(np.array([about_px]))[0]
        cx, cy = self._center()
        k = self.zoom / zoom
        center = (anchor[0] + (cx - anchor[0]) * k, anchor[1] + (cy - anchor[1]) * k)
        return replace(self, zoom=zoom, center_in=(float(center[0]), float(center[1])))

    def panned(self, dx_px: float, dy_px: float) -> "TopDownTransform":
        cx, cy = self._center()
        s = self.px_per_in
        return replace(self, center_in=(cx - dx_px / s, cy + dy_px / s))

    def resized(self, viewport_px: tuple[int, int]) -> "TopDownTransform":
        return replace(self, viewport_px=(int(viewport_px[0]), int(viewport_px[1])))


@dataclass(frozen=True)
class CameraTransform:
    """Camera perspective through a :class:`~calibration.table_calibration.TableCalibration`, lens
    distortion and height included, then scaled/offset to where the camera image sits in a view.

    ``z_in``: the height overlays are drawn at when a call gives none (0: the table plane); a call's
    ``z_in`` (one height or one per point) is where those points stand, above the table.
    """

    calibration: Any
    view_scale: float = 1.0
    offset_px: tuple[float, float] = (0.0, 0.0)
    z_in: float = 0.0
    affine = False

    def device_from_table(self, points_in: np.ndarray, *, z_in: float | np.ndarray | None = None) -> np.ndarray:
        p = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
        if len(p) == 0:
            return np.zeros((0, 2))
        px = self.calibration.camera_from_table(p, z_in=self.z_in if z_in is None else z_in)
        return px * self.view_scale + np.asarray(self.offset_px)

    def table_from_device(self, pixels: np.ndarray) -> np.ndarray:
        q = (np.asarray(pixels, dtype=np.float64).reshape(-1, 2) - np.asarray(self.offset_px)) / self.view_scale
        return self.calibration.table_from_camera(q, z_in=self.z_in)

    def px_per_in_at(self, x_in: float, y_in: float) -> float:
        p = self.device_from_table(np.array([[x_in, y_in], [x_in + 1.0, y_in], [x_in, y_in + 1.0]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)

    @property
    def image_size_px(self) -> tuple[int, int]:
        return self.calibration.model.width_px, self.calibration.model.height_px

    @property
    def cache_key(self) -> Hashable:
        return ("camera", id(self.calibration), self.view_scale, self.offset_px, self.z_in)

    def with_view(self, view_scale: float, offset_px: tuple[float, float]) -> "CameraTransform":
        return replace(self, view_scale=float(view_scale), offset_px=(float(offset_px[0]), float(offset_px[1])))


@dataclass(frozen=True)
class ProjectorTransform:
    """Table inches to projector pixels through ``calibration.projector.ProjectorCalibration`` (a
    homography of the table plane: straight lines stay straight)."""

    calibration: Any

    @property
    def affine(self) -> bool:
        # a plane homography keeps lines straight; the 3-D model on relief (GroundProjection) does not
        return bool(getattr(self.calibration, "affine", True))

    def device_from_table(self, points_in: np.ndarray, *, z_in: float | np.ndarray = 0.0) -> np.ndarray:
        # z_in is ignored: the light lands on the ground at (x, y), wherever it stands (module docstring).
        p = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
        return self.calibration.projector_from_table(p) if len(p) else np.zeros((0, 2))

    def table_from_device(self, pixels: np.ndarray) -> np.ndarray:
        return self.calibration.table_from_projector(np.asarray(pixels, dtype=np.float64).reshape(-1, 2))

    def px_per_in_at(self, x_in: float, y_in: float) -> float:
        return float(self.calibration.px_per_in_at(x_in, y_in))

    @property
    def cache_key(self) -> Hashable:
        return ("projector", id(self.calibration))


def densify(points_in: np.ndarray, *, closed: bool, max_segment_in: float = MAX_SEGMENT_IN) -> np.ndarray:
    """Subdivide a polyline so no segment is longer than ``max_segment_in`` (for curved views).

    >>> densify(np.array([[0.0, 0.0], [2.0, 0.0]]), closed=False, max_segment_in=0.5).shape
    (5, 2)
    """
    p = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
    if len(p) < 2:
        return p
    a = p
    b = np.roll(p, -1, axis=0) if closed else p[1:]
    a = a if closed else p[:-1]
    lengths = np.hypot(*(b - a).T)
    counts = np.maximum(1, np.ceil(lengths / max_segment_in).astype(int))
    if counts.max() == 1:
        return p
    pieces = []
    for start, end, n in zip(a, b, counts):
        t = (np.arange(n) / n)[:, None]
        pieces.append(start + (end - start) * t)
    if not closed:
        pieces.append(p[-1:])
    return np.concatenate(pieces)
