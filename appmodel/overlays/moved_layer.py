"""A carried unit's own overlays moved with it between two exact drawings (Qt-free geometry).

While a unit is carried, a view keeps the unit's own items (its base, front tick, rings, fan, label)
as a picture drawn at the pose the last exact drawing had, and on every newer tracked pose paints
that picture moved rigidly to where the unit is now, until the exact drawing of that pose (or a
newer one) replaces it. The move, in the view's pixels, is the table's rigid move (turned by the
change of heading about the unit, then carried to its new place) seen through the view's transform,
as the plane homography that agrees with it at four points :data:`FIT_SPAN_IN` around the unit
(:func:`rigid_move_px`). That is exact for the top-down view (a similarity) and for a projector
calibrated as a plane homography; through a camera's lens it is exact for the pinhole part and off
by what the distortion bends differently at the old and the new place, most at the far edge of a
big ring: :func:`preview_error_px` says how much (``bench/overlay_latency.py`` measures it for a
72" ring on every preview it paints). A homography rather than the local affine at the unit: the
affine misses the perspective, about three times the error at a 72" ring's far edge in the camera view.

>>> from appmodel.overlays.transforms import TopDownTransform
>>> top = TopDownTransform((72.0, 48.0), (760, 520), margin_px=20)
>>> h = rigid_move_px(top, (10.0, 10.0, 0.0, 0.0), (11.0, 10.0, 90.0, 0.0))
>>> ((h / h[2, 2]).round(3) + 0.0).tolist()  # 10 px per inch: a quarter turn about the unit, then 10 px right
[[0.0, 1.0, -270.0], [-1.0, 0.0, 520.0], [0.0, 0.0, 1.0]]
>>> preview_error_px(top, (10.0, 10.0, 0.0, 0.0), (11.0, 10.0, 90.0, 0.0), 72.0, (760, 520)) < 1e-6
True
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

#: (x_in, y_in, heading_deg, z_in): where a unit stood when its picture was drawn, or stands now.
Pose = tuple[float, float, float, float]

#: Half the side (inches) of the square around the unit whose corners the move is fitted through:
#: through a lens, a wider square fits a big ring's far edge a little better and the unit's own base
#: and nearby rings worse (12": 0.4-2.4 px off at a 3" ring moved 1", against 0.02-0.1 px).
FIT_SPAN_IN = 3.0


def pose_of(unit: Any) -> Pose:
    """A unit's pose as a view's picture of it depends on it (``rules.ruleset.UnitView``)."""
    return (float(unit.x_in), float(unit.y_in), float(unit.heading_deg), float(unit.z_in))


def _moved(points: np.ndarray, was: Pose, now: Pose) -> np.ndarray:
    """Table points rigidly carried with a unit from ``was`` to ``now`` (turned about the unit)."""
    turn = math.radians(now[2] - was[2])
    c, s = math.cos(turn), math.sin(turn)
    rel = np.asarray(points, dtype=np.float64).reshape(-1, 2) - np.array([was[0], was[1]])
    return rel @ np.array([[c, s], [-s, c]]) + np.array([now[0], now[1]])


def _homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """The 3x3 plane homography taking four points ``src`` to ``dst`` (None when they are degenerate)."""
    x, y, u, v = src[:, 0], src[:, 1], dst[:, 0], dst[:, 1]
    one, zero = np.ones(4), np.zeros(4)
    a = np.empty((8, 8))
    a[0::2] = np.column_stack([x, y, one, zero, zero, zero, -u * x, -u * y])
    a[1::2] = np.column_stack([zero, zero, zero, x, y, one, -v * x, -v * y])
    try:
        h = np.linalg.solve(a, dst.reshape(-1))
    except np.linalg.LinAlgError:
        return None
    return np.append(h, 1.0).reshape(3, 3)


def _plausible(h: np.ndarray, centre_px: np.ndarray) -> bool:
    """Whether a fitted move keeps the picture near the unit about its size (a corner the lens model
    put far off the picture gives a nonsense fit)."""
    x, y = float(centre_px[0]), float(centre_px[1])
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    if not np.all(np.isfinite(h)) or w <= 1e-9:
        return False
    mapped = h[:2] @ np.array([x, y, 1.0]) / w
    jac = (h[:2, :2] - mapped[:, None] * h[2, :2][None, :]) / w
    det = jac[0, 0] * jac[1, 1] - jac[0, 1] * jac[1, 0]
    return bool(0.25 < abs(det) < 4.0)


def rigid_move_px(transform: Any, was: Pose, now: Pose, *, span_in: float = FIT_SPAN_IN) -> np.ndarray | None:
    """The 3x3 homography (view pixels to view pixels, x' ~ H @ (x, y, 1)) that carries what a view
    drew of a unit at ``was`` to where it shows the unit at ``now``: the table's rigid move seen
    through ``transform`` (``device_from_table``, heights included), fitted at the corners of a
    square ``span_in`` around the unit, or, where the view cannot place those (off the lens model),
    at the unit itself (its local affine). None where the view cannot place the unit at all."""
    for span in (span_in, 1.0):
        local = np.array([[0.0, 0.0], [-span, -span], [span, -span], [span, span], [-span, span]]) + np.array(was[:2])
        moved = _moved(local[1:], was, now)
        if was[3] == now[3]:  # one projection of all nine points (the usual case: level ground)
            px = transform.device_from_table(np.vstack([local, moved]), z_in=was[3])
            centre, src, dst = px[0], px[1:5], px[5:]
        else:
            px = transform.device_from_table(local, z_in=was[3])
            centre, src, dst = px[0], px[1:], transform.device_from_table(moved, z_in=now[3])
        h = _homography(src, dst) if np.all(np.isfinite(px)) and np.all(np.isfinite(dst)) else None
        if h is not None and _plausible(h, centre):
            return h
    return None


def preview_error_px(transform: Any, was: Pose, now: Pose, radius_in: float, size_px: tuple[int, int], *,
                     samples: int = 192) -> float | None:
    """How far (view pixels) a ring of ``radius_in`` around the unit, drawn at ``was`` and moved by
    :func:`rigid_move_px`, lies from the same ring drawn exactly at ``now``: the largest distance from
    a moved point to the exact ring, over the points the view shows (through a lens, its far edge is
    where it is largest). None when no point of it is in view or no move could be made."""
    h = rigid_move_px(transform, was, now)
    if h is None:
        return None
    t = np.linspace(0.0, 2.0 * math.pi, samples, endpoint=False)
    ring = np.column_stack([was[0] + radius_in * np.cos(t), was[1] + radius_in * np.sin(t)])
    drawn = transform.device_from_table(ring, z_in=was[3])
    moved = np.column_stack([drawn, np.ones(len(drawn))]) @ h.T
    moved = moved[:, :2] / moved[:, 2:]
    w, hh = size_px
    seen = (moved[:, 0] >= 0) & (moved[:, 0] <= w) & (moved[:, 1] >= 0) & (moved[:, 1] <= hh)
    if not seen.any():
        return None
    dense = np.linspace(0.0, 2.0 * math.pi, 4 * samples, endpoint=False)
    exact_ring = np.column_stack([now[0] + radius_in * np.cos(dense), now[1] + radius_in * np.sin(dense)])
    a = transform.device_from_table(exact_ring, z_in=now[3])
    d = np.roll(a, -1, axis=0) - a  # the exact ring's chords (a hundredth of a pixel from the curve)
    q = moved[seen][:, None, :] - a[None, :, :]
    t = np.clip((q * d[None]).sum(axis=2) / np.maximum((d * d).sum(axis=1), 1e-12)[None], 0.0, 1.0)
    gaps = np.hypot(*(q - t[:, :, None] * d[None]).transpose(2, 0, 1))
    return float(gaps.min(axis=1).max())


__all__ = ["FIT_SPAN_IN", "Pose", "pose_of", "preview_error_px", "rigid_move_px"]
