"""A carried unit's own overlays moved with it between two exact drawings (Qt-free geometry).

While a unit is carried, a view keeps the unit's own items (its base, front tick, rings, fan, label)
as a picture drawn at the pose the last exact drawing had, and on every newer tracked pose paints
that picture moved rigidly to where the unit is now, until the exact drawing of that pose (or a
newer one) replaces it. The move is, in the view's pixels, the rigid move of the table (turn by the
change of heading about the unit, then carry it to its new place) seen through the view's
transform, replaced by its local affine at the unit: :func:`rigid_move_px`. It is exact for the
top-down view (a similarity) and, to first order, for the projector's homography and the camera's
lens model; far from the unit the picture bends a little differently from the exact drawing,
:func:`preview_error_px` says how much (``bench/overlay_latency.py`` measures it at the far edge
of a 72" ring).

>>> from appmodel.overlays.transforms import TopDownTransform
>>> top = TopDownTransform((72.0, 48.0), (760, 520), margin_px=20)
>>> a = rigid_move_px(top, (10.0, 10.0, 0.0, 0.0), (11.0, 10.0, 90.0, 0.0))
>>> a.round(3).tolist()  # 10 px per inch: a quarter turn about the unit, then 10 px right
[[0.0, 1.0, -270.0], [-1.0, 0.0, 520.0]]
>>> preview_error_px(top, (10.0, 10.0, 0.0, 0.0), (11.0, 10.0, 90.0, 0.0), 72.0, (760, 520)) < 1e-9
True
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

#: (x_in, y_in, heading_deg, z_in): where a unit stood when its picture was drawn, or stands now.
Pose = tuple[float, float, float, float]

#: The span (inches) of the three table points the local affine is fitted through at the unit.
LOCAL_SPAN_IN = 1.0


def pose_of(unit: Any) -> Pose:
    """A unit's pose as a view's picture of it depends on it (``rules.ruleset.UnitView``)."""
    return (float(unit.x_in), float(unit.y_in), float(unit.heading_deg), float(unit.z_in))


def _moved(points: np.ndarray, was: Pose, now: Pose) -> np.ndarray:
    """Table points rigidly carried with a unit from ``was`` to ``now`` (turned about the unit)."""
    turn = math.radians(now[2] - was[2])
    c, s = math.cos(turn), math.sin(turn)
    rel = np.asarray(points, dtype=np.float64).reshape(-1, 2) - np.array([was[0], was[1]])
    return rel @ np.array([[c, s], [-s, c]]) + np.array([now[0], now[1]])


def rigid_move_px(transform: Any, was: Pose, now: Pose, *, span_in: float = LOCAL_SPAN_IN) -> np.ndarray | None:
    """The 2x3 affine (view pixels to view pixels: x' = A @ (x, y, 1)) that carries what a view drew
    of a unit at ``was`` to where it shows the unit at ``now``: the local affine, at the unit, of the
    table's rigid move seen through ``transform`` (``device_from_table``, heights included). None
    where the view cannot place the unit (off the lens model's picture)."""
    local = np.array([[0.0, 0.0], [span_in, 0.0], [0.0, span_in]]) + np.array([was[0], was[1]])
    src = transform.device_from_table(local, z_in=was[3])
    dst = transform.device_from_table(_moved(local, was, now), z_in=now[3])
    m = np.column_stack([src, np.ones(3)])
    if not (np.all(np.isfinite(src)) and np.all(np.isfinite(dst))) or abs(np.linalg.det(m)) < 1e-9:
        return None
    affine = np.linalg.solve(m, dst).T
    # a point the lens model put far off the picture gives a nonsense map: no preview then
    scale = np.abs(np.linalg.det(affine[:, :2]))
    if not 0.25 < scale < 4.0:
        return None
    return affine


def preview_error_px(transform: Any, was: Pose, now: Pose, radius_in: float, size_px: tuple[int, int], *,
                     samples: int = 192) -> float | None:
    """How far (view pixels) a ring of ``radius_in`` around the unit, drawn at ``was`` and moved by
    :func:`rigid_move_px`, lies from the same ring drawn exactly at ``now``: the largest distance
    over the ring's points the view shows (its far edge, through a lens, is where it is largest).
    None when no point of it is in view or no move could be made."""
    affine = rigid_move_px(transform, was, now)
    if affine is None:
        return None
    t = np.linspace(0.0, 2.0 * math.pi, samples, endpoint=False)
    ring = np.column_stack([was[0] + radius_in * np.cos(t), was[1] + radius_in * np.sin(t)])
    drawn = transform.device_from_table(ring, z_in=was[3])
    moved = np.column_stack([drawn, np.ones(len(drawn))]) @ affine.T
    exact = transform.device_from_table(_moved(ring, was, now), z_in=now[3])
    w, h = size_px
    seen = (exact[:, 0] >= 0) & (exact[:, 0] <= w) & (exact[:, 1] >= 0) & (exact[:, 1] <= h) \
        & (drawn[:, 0] >= -w) & (drawn[:, 0] <= 2 * w) & (drawn[:, 1] >= -h) & (drawn[:, 1] <= 2 * h)
    if not seen.any():
        return None
    return float(np.hypot(*(moved[seen] - exact[seen]).T).max())


__all__ = ["LOCAL_SPAN_IN", "Pose", "pose_of", "preview_error_px", "rigid_move_px"]
