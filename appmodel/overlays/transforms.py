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
from functools import lru_cache
from typing import Any

import numpy as np

from appmodel.overlays.clip_geometry import clip_to_convex
from appmodel.overlays.view_region import distort_normalized, fold_radius, lens_region_normalized, region_in_table

#: How far beyond the picture (times its distance from the principal point) a point the lens model
#: cannot place is put: out of sight, in its own direction.
OFF_PICTURE_FACTOR = 20.0

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
        """Device pixels of table points. A point where the lens model is not valid (behind the
        camera, or past the radius where the distortion polynomial folds back) is put far beyond the
        picture in its own direction, never folded back into it: outlines are cut to
        :meth:`view_region_in` before they get here, single points (labels, tags) rely on this."""
        p = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
        if len(p) == 0:
            return np.zeros((0, 2))
        z = self.z_in if z_in is None else z_in
        px = self.calibration.camera_from_table(p, z_in=z)
        lens = _cached(_lens_of, self.calibration)
        if lens is not None:
            px = _unfold(px, p, z, lens)
        return px * self.view_scale + np.asarray(self.offset_px)

    def view_region_in(self, z_in: float = 0.0) -> np.ndarray | None:
        """The convex region of the table (K, 2) inches at height ``z_in`` that the camera sees (its
        picture grown by a margin) and where its lens model holds; None for a calibration without a
        lens and pose (nothing to cut)."""
        return _cached(_camera_region, self.calibration, round(float(z_in), 2))

    def clipped_to_view(self, points: np.ndarray, *, closed: bool, z_in: float = 0.0) -> np.ndarray:
        """An outline in inches ((N, 2), or (N, 3) with heights) cut to :meth:`view_region_in`."""
        region = self.view_region_in(z_in)
        return points if region is None else clip_to_convex(points, region, closed=closed)

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

    def view_region_in(self, z_in: float = 0.0) -> np.ndarray | None:
        """For a projector calibrated as an inverse camera (a lens and a pose), the table it lights
        where its lens model holds, as :meth:`CameraTransform.view_region_in`; None for the plane
        homography (straight lines stay straight: nothing folds)."""
        return _cached(_projector_region, self.calibration, round(float(z_in), 2))

    def clipped_to_view(self, points: np.ndarray, *, closed: bool, z_in: float = 0.0) -> np.ndarray:
        region = self.view_region_in(z_in)
        return points if region is None else clip_to_convex(points, region, closed=closed)

    def px_per_in_at(self, x_in: float, y_in: float) -> float:
        return float(self.calibration.px_per_in_at(x_in, y_in))

    @property
    def cache_key(self) -> Hashable:
        return ("projector", id(self.calibration))


def _cached(function: Any, *args: Any) -> Any:
    """``function(*args)`` through its cache; a calibration that cannot be hashed (a stand-in made
    of plain attributes) is worked out each time instead."""
    try:
        return function(*args)
    except TypeError:
        return function.__wrapped__(*args)


@dataclass(frozen=True)
class _Lens:
    """What :func:`_unfold` needs of a pose-and-lens calibration."""

    rotation: np.ndarray
    translation: np.ndarray
    matrix: np.ndarray
    dist_coeffs: tuple[float, ...]
    fold_r: float


@lru_cache(maxsize=16)
def _lens_of(calibration: Any) -> _Lens | None:
    if getattr(calibration, "method", "pnp") != "pnp" or not hasattr(calibration, "pose") \
            or not hasattr(calibration, "model"):
        return None
    model, pose = calibration.model, calibration.pose
    # Past four picture diagonals nothing is in view: a lens that never folds is capped there.
    diagonal = float(np.hypot(model.width_px / model.fx_px, model.height_px / model.fy_px))
    return _Lens(np.asarray(pose.rotation), np.asarray(pose.translation), np.asarray(model.matrix),
                 tuple(model.dist_coeffs), fold_radius(model.dist_coeffs, r_cap=max(4.0 * diagonal, 1.0)))


def _unfold(px: np.ndarray, p: np.ndarray, z: float | np.ndarray, lens: _Lens) -> np.ndarray:
    """``px`` with the pixels of points the lens model cannot place moved off the picture."""
    zz = np.broadcast_to(np.asarray(z, dtype=np.float64), (len(p),))
    cam = np.column_stack([p, zz]) @ lens.rotation.T + lens.translation
    depth = cam[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        n = cam[:, :2] / np.abs(depth)[:, None]
    r = np.hypot(n[:, 0], n[:, 1])
    bad = ~(depth > 0) | ~(r < lens.fold_r)
    if not bad.any():
        return px
    px = px.copy()
    nb = np.nan_to_num(n[bad])
    rb = np.maximum(np.hypot(nb[:, 0], nb[:, 1]), 1e-9)
    edge_r = lens.fold_r * 0.999
    edge = distort_normalized(nb / rb[:, None] * edge_r, lens.dist_coeffs)
    k = lens.matrix
    centre = np.array([k[0, 2], k[1, 2]])
    edge_px = np.column_stack([edge[:, 0] * k[0, 0] + k[0, 2], edge[:, 1] * k[1, 1] + k[1, 2]])
    px[bad] = centre + (edge_px - centre) * OFF_PICTURE_FACTOR
    return px


def _region(model: Any, camera_from_plane: np.ndarray) -> np.ndarray:
    normalized = _normalized_region(model)
    return region_in_table(normalized, camera_from_plane)


@lru_cache(maxsize=8)
def _normalized_region(model: Any) -> np.ndarray:
    return lens_region_normalized(model.width_px, model.height_px, np.asarray(model.matrix), tuple(model.dist_coeffs))


@lru_cache(maxsize=32)
def _camera_region(calibration: Any, z_in: float) -> np.ndarray | None:
    if not hasattr(calibration, "model"):
        return None
    if getattr(calibration, "method", "pnp") == "pnp" and hasattr(calibration, "pose"):
        rot, t = np.asarray(calibration.pose.rotation), np.asarray(calibration.pose.translation)
        m = np.column_stack([rot[:, 0], rot[:, 1], rot[:, 2] * z_in + t])
    elif getattr(calibration, "homography", None) is not None:
        m = np.linalg.inv(np.asarray(calibration.homography, dtype=np.float64))
        if (m @ np.array([0.0, 0.0, 1.0]))[2] < 0:
            m = -m
    else:
        return None
    return _region(calibration.model, m)


@lru_cache(maxsize=32)
def _projector_region(calibration: Any, z_in: float) -> np.ndarray | None:
    inverse_camera = getattr(calibration, "model", None)  # GroundProjection -> ProjectorModel
    if inverse_camera is None or not hasattr(inverse_camera, "pose") or not hasattr(inverse_camera, "model"):
        return None
    rot, t = np.asarray(inverse_camera.pose.rotation), np.asarray(inverse_camera.pose.translation)
    return _region(inverse_camera.model, np.column_stack([rot[:, 0], rot[:, 1], rot[:, 2] * z_in + t]))


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
