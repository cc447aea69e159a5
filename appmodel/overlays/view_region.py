"""Where a lens model can be trusted, as a convex polygon in table inches (Qt-free, numpy).

OpenCV's distortion polynomial is fitted to the picture the lens sees. Beyond it the polynomial
usually turns over: a table point further out comes back *into* the picture (a barrel lens with
k1 < 0 folds at a normalized radius of about sqrt(-1 / (3 k1))). A 72" range ring around a unit near
the table's edge reaches far past the camera's view; projected point by point through the lens it
comes back folded as two straight lines crossing the table. Clipping the projected pixels cannot
undo that — the wrong pixels are inside the picture. So every shape is cut in table inches, before
it meets the lens, to the region this module computes:

* in the camera's normalized image plane (undistorted, ``x / z``, ``y / z``), the picture grown by a
  margin, looked up direction by direction and never past the radius where the radial distortion
  stops growing (the fold); its convex hull (a disc around the principal point is convex, so the hull
  stays inside the fold radius too);
* cut to the points in front of the camera and nearer than a far limit (rays near the horizon meet
  the table at infinity);
* mapped to the table plane at the shapes' height: the table plane and the normalized image plane
  are related by a plane homography, which keeps a polygon on one side of the horizon convex.

The same holds for a projector calibrated as an inverse camera (it has a lens and a pose too). The
margin puts the edges a cut adds outside the picture, where nobody sees them.

>>> r = fold_radius((-0.4, 0.0, 0.0, 0.0, 0.0))  # r (1 - 0.4 r^2) turns over at sqrt(1 / 1.2) = 0.913
>>> 0.88 < r < 0.89
True
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

#: How far past the picture's edge (a fraction of its width and height, each side) the region
#: reaches: a cut's new edges lie there, out of sight; well inside the fold for any fitted lens.
PICTURE_MARGIN = 0.12

#: Stay this fraction inside the radius where the distortion turns over (close to it the
#: polynomial is flat and a small error in table inches is a large one in pixels).
FOLD_SAFETY = 0.97

#: Directions in which the region's edge is looked up (its polygon has at most this many corners).
DIRECTIONS = 96

#: Rays reaching the table further than this many times the distance to the table's point straight
#: ahead are cut off (they meet the plane near the horizon, at distances no overlay has).
FAR_FACTOR = 30.0


def radial_factor(r2: np.ndarray, dist_coeffs: Sequence[float]) -> np.ndarray:
    """OpenCV's radial factor (1 + k1 r^2 + k2 r^4 + k3 r^6) / (1 + k4 r^2 + k5 r^4 + k6 r^6)."""
    k = list(dist_coeffs) + [0.0] * (8 - len(dist_coeffs))
    k1, k2, _p1, _p2, k3, k4, k5, k6 = k[:8]
    num = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
    den = 1 + r2 * (k4 + r2 * (k5 + r2 * k6))
    return num / den


def distort_normalized(xy: np.ndarray, dist_coeffs: Sequence[float]) -> np.ndarray:
    """OpenCV's lens model (radial and tangential terms; the rarely fitted thin-prism terms are left
    out) on normalized undistorted points (N, 2) -> normalized distorted points (N, 2)."""
    k = list(dist_coeffs) + [0.0] * (8 - len(dist_coeffs))
    p1, p2 = k[2], k[3]
    x, y = xy[:, 0], xy[:, 1]
    r2 = x * x + y * y
    radial = radial_factor(r2, dist_coeffs)
    xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
    yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
    return np.column_stack([xd, yd])


def fold_radius(dist_coeffs: Sequence[float], *, r_cap: float = 6.0) -> float:
    """The normalized radius up to which the radial distortion keeps growing (times
    :data:`FOLD_SAFETY`), or ``r_cap`` when it grows at least that far."""
    r = np.linspace(0.0, r_cap, 6001)
    rd = r * radial_factor(r * r, dist_coeffs)
    bad = np.flatnonzero((np.diff(rd) <= 0) | ~np.isfinite(rd[1:]))
    if not len(bad):
        return r_cap
    return float(r[bad[0]]) * FOLD_SAFETY


def convex_hull(points: np.ndarray) -> np.ndarray:
    """Counter-clockwise convex hull of 2-D points (Andrew's monotone chain).

    >>> convex_hull(np.array([[0, 0], [2, 0], [1, 1], [2, 2], [0, 2]], float)).tolist()
    [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]
    """
    pts = sorted({(float(x), float(y)) for x, y in np.asarray(points, dtype=np.float64).reshape(-1, 2)})
    if len(pts) < 3:
        return np.asarray(pts, dtype=np.float64).reshape(-1, 2)

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.asarray(lower[:-1] + upper[:-1], dtype=np.float64)


def lens_region_normalized(width_px: int, height_px: int, matrix: np.ndarray, dist_coeffs: Sequence[float], *,
                           margin: float = PICTURE_MARGIN) -> np.ndarray:
    """The convex region of the normalized undistorted image plane (K, 2), counter-clockwise, whose
    points the lens puts inside the picture grown by ``margin`` and where its model does not fold."""
    fx, fy, cx, cy = float(matrix[0, 0]), float(matrix[1, 1]), float(matrix[0, 2]), float(matrix[1, 2])
    x0, x1 = -margin * width_px, width_px * (1 + margin)
    y0, y1 = -margin * height_px, height_px * (1 + margin)
    diag_norm = math.hypot(width_px / fx, height_px / fy)
    r_fold = fold_radius(dist_coeffs, r_cap=max(4.0 * diag_norm, 1.0))
    angles = np.linspace(0.0, 2 * math.pi, DIRECTIONS, endpoint=False)
    dirs = np.column_stack([np.cos(angles), np.sin(angles)])

    def inside(r: np.ndarray) -> np.ndarray:
        d = distort_normalized(dirs * r[:, None], dist_coeffs)
        u, v = d[:, 0] * fx + cx, d[:, 1] * fy + cy
        return (u >= x0) & (u <= x1) & (v >= y0) & (v <= y1)

    # Inside the fold radius the picture's edge is crossed once along each direction: bisect for it.
    lo = np.zeros(len(angles))
    hi = np.full(len(angles), r_fold)
    done = inside(hi)
    lo[done] = hi[done]
    for _ in range(40):
        mid = (lo + hi) / 2
        ok = inside(mid)
        lo = np.where(~done & ok, mid, lo)
        hi = np.where(~done & ~ok, mid, hi)
    return convex_hull(dirs * lo[:, None])


def clip_half_plane(poly: np.ndarray, normal: np.ndarray, offset: float) -> np.ndarray:
    """The part of a convex polygon (K, 2) where ``normal . p >= offset``."""
    out: list[np.ndarray] = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        da, db = float(normal @ a) - offset, float(normal @ b) - offset
        if da >= 0:
            out.append(a)
        if (da >= 0) != (db >= 0):
            out.append(a + (b - a) * (da / (da - db)))
    return np.asarray(out, dtype=np.float64).reshape(-1, 2)


def region_in_table(normalized_region: np.ndarray, camera_from_plane: np.ndarray, *,
                    far_factor: float = FAR_FACTOR) -> np.ndarray:
    """``normalized_region`` mapped to the table plane (K, 2) inches, counter-clockwise.

    ``camera_from_plane``: 3x3, camera coordinates (x, y, z) of plane points (x_in, y_in, 1) — for a
    pose at height z, ``[R[:, 0], R[:, 1], R[:, 2] z + t]``. Empty if the plane is not in front.
    """
    m = np.asarray(camera_from_plane, dtype=np.float64)
    inv = np.linalg.inv(m)
    # A normalized point n is the ray s (n, 1); it meets the plane where s * inv @ (n, 1) has a last
    # coordinate of 1, so in front (s > 0) where w(n) = inv[2] . (n, 1) > 0, at depth s = 1 / w.
    ahead = m @ np.array([0.0, 0.0, 1.0])  # the plane's origin, as far as scale goes
    depth_ref = max(abs(float(ahead[2])), 1e-6)
    w_min = 1.0 / (far_factor * depth_ref)
    poly = clip_half_plane(normalized_region, inv[2, :2], w_min - inv[2, 2])
    if len(poly) < 3:
        return np.zeros((0, 2))
    h = np.column_stack([poly, np.ones(len(poly))]) @ inv.T
    table = h[:, :2] / h[:, 2:3]
    x, y = table[:, 0], table[:, 1]
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return table if area > 0 else table[::-1].copy()


def contains(region: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which of ``points`` (N, 2) lie inside the convex counter-clockwise ``region`` (K, 2)."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(region) < 3:
        return np.zeros(len(p), dtype=bool)
    a = region
    e = np.roll(region, -1, axis=0) - a
    # cross(edge, p - a) >= 0 for every edge
    cross = e[:, 0][None, :] * (p[:, 1][:, None] - a[:, 1][None, :]) - e[:, 1][None, :] * (p[:, 0][:, None] - a[:, 0][None, :])
    return np.asarray((cross >= -1e-9).all(axis=1))


__all__ = ["PICTURE_MARGIN", "clip_half_plane", "contains", "convex_hull", "distort_normalized", "fold_radius",
           "lens_region_normalized", "radial_factor", "region_in_table"]
