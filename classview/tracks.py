"""Units' tracks for the debrief's timeline: per unit, thinned within an error bound and quantised.

A long game cannot carry a whole scene per moment (three hours of 40 moving units: hundreds of MB).
The timeline instead stores each unit's *track* once — where it was and which way it faced, as a
polyline in time — and the shapes that ride on a unit (its base, its facing, its rings) once each, in
the unit's own frame; the browser (``static/scrub.js``, :func:`pose_at` here is its mirror) puts them
back where the track says the unit was at the moment shown.

Thinning is Douglas-Peucker on the *synchronised* distance: a point is dropped only when the position
linearly interpolated in time between the points kept is within ``POSITION_BOUND_IN`` of it (and the
heading within ``HEADING_BOUND_DEG``), so a unit drawn at any recorded moment stands within the bound
of where the recording had it. Values are quantised (1 ms, 1/100", 1/10 degree) and delta-encoded as
integers; the quantisation is budgeted inside the bound.

>>> import numpy as np
>>> t = np.arange(0.0, 10.0, 1 / 30)
>>> rows = np.column_stack([t, 2.0 * t, np.full_like(t, 5.0), np.zeros_like(t)])   # a straight walk
>>> track = encode_track(7, rows)
>>> len(track["t"]), [round(v, 2) for v in pose_at(track, 5.0)]
(2, [10.0, 5.0, 0.0])
"""
from __future__ import annotations

import bisect
from typing import Any

import numpy as np

from appmodel.recording.thinning import thin

#: How far (inches) a rebuilt unit may stand from where the recording had it, at any recorded moment.
POSITION_BOUND_IN = 0.05
#: How far (degrees) its rebuilt facing may be from the recorded one.
HEADING_BOUND_DEG = 1.0
#: Quantisation steps: time (s), position (in), heading (deg).
T_STEP_S, XY_STEP_IN, H_STEP_DEG = 0.001, 0.01, 0.1
#: A gap longer than this between two recorded poses is a hold (the unit stood where it was last seen
#: until the next pose: the replay shows the newest pose at or before a moment), not a slide. Longer
#: than the debrief's reading step (``TRAIL_STEP_S``, 0.5 s: it keeps the last pose before each pause).
HOLD_GAP_S = 1.0


def with_holds(rows: np.ndarray, *, gap_s: float = HOLD_GAP_S) -> np.ndarray:
    """``rows`` with a copy of the previous pose just before each long gap: the unit holds still until
    its next pose instead of sliding across the gap."""
    if len(rows) < 2:
        return rows
    gaps = np.flatnonzero(np.diff(rows[:, 0]) > gap_s) + 1
    if not len(gaps):
        return rows
    holds = rows[gaps - 1].copy()
    holds[:, 0] = rows[gaps, 0] - 2 * T_STEP_S
    return np.insert(rows, gaps, holds, axis=0)


def encode_track(unit_id: int, rows: np.ndarray, *, bound_in: float = POSITION_BOUND_IN,
                 bound_deg: float = HEADING_BOUND_DEG) -> dict[str, Any]:
    """One unit's track as compact JSON: ``t`` (ms), ``x``, ``y`` (1/100") and ``h`` (1/10 degree),
    each delta-encoded. ``rows``: (N, 4) t_s, x_in, y_in, heading_deg in time order (NaN rows skipped)."""
    rows = np.asarray(rows, dtype=np.float64).reshape(-1, 4)
    rows = rows[np.isfinite(rows).all(axis=1)]
    if len(rows):
        rows = rows[np.argsort(rows[:, 0], kind="stable")]
        rows = rows.copy()
        rows[:, 3] = np.degrees(np.unwrap(np.radians(rows[:, 3])))
        rows = with_holds(rows)
    # Quantisation moves a point by at most half a step in x and in y: kept out of the thinning's budget.
    quant_in = XY_STEP_IN * np.sqrt(0.5)
    kept = rows[thin(rows, bound_in=bound_in - quant_in, bound_deg=bound_deg - H_STEP_DEG / 2)] if len(rows) else rows
    q = np.column_stack([np.round(kept[:, 0] / T_STEP_S), np.round(kept[:, 1] / XY_STEP_IN),
                         np.round(kept[:, 2] / XY_STEP_IN), np.round(kept[:, 3] / H_STEP_DEG)]).astype(np.int64)
    deltas = np.diff(q, axis=0, prepend=np.zeros((1, 4), dtype=np.int64)) if len(q) else q
    return {"id": int(unit_id), "t": deltas[:, 0].tolist(), "x": deltas[:, 1].tolist(), "y": deltas[:, 2].tolist(),
            "h": deltas[:, 3].tolist()}


def decode_track(track: dict[str, Any]) -> np.ndarray:
    """(N, 4) t_s, x_in, y_in, heading_deg of an encoded track (its kept points)."""
    cols = [np.cumsum(np.asarray(track[k], dtype=np.int64)) for k in ("t", "x", "y", "h")]
    steps = (T_STEP_S, XY_STEP_IN, XY_STEP_IN, H_STEP_DEG)
    return np.column_stack([c * s for c, s in zip(cols, steps)]) if len(cols[0]) else np.zeros((0, 4))


def pose_at(track: dict[str, Any] | np.ndarray, t_s: float) -> tuple[float, float, float] | None:
    """Where the track's unit stood at ``t_s`` (x_in, y_in, heading_deg): linear between kept points,
    the first before it starts, the last after it ends; None for an empty track (as ``scrub.js``)."""
    rows = decode_track(track) if isinstance(track, dict) else track
    if not len(rows):
        return None
    times = rows[:, 0].tolist()
    i = bisect.bisect_right(times, t_s)
    if i == 0:
        return (float(rows[0, 1]), float(rows[0, 2]), float(rows[0, 3]) % 360.0)
    if i == len(rows):
        return (float(rows[-1, 1]), float(rows[-1, 2]), float(rows[-1, 3]) % 360.0)
    a, b = rows[i - 1], rows[i]
    f = (t_s - a[0]) / (b[0] - a[0]) if b[0] > a[0] else 1.0
    p = a + f * (b - a)
    return (float(p[1]), float(p[2]), float(p[3]) % 360.0)


def to_local(points_in: np.ndarray, pose: tuple[float, float, float]) -> np.ndarray:
    """Points (N, 2) in the frame of a unit standing at ``pose`` (x_in, y_in, heading_deg): the inverse
    of what the browser does to put a shape back on the unit."""
    x, y, h = pose
    a = np.radians(h)
    c, s = np.cos(a), np.sin(a)
    d = np.asarray(points_in, dtype=np.float64).reshape(-1, 2) - (x, y)
    return np.column_stack([c * d[:, 0] + s * d[:, 1], -s * d[:, 0] + c * d[:, 1]])


def to_table(local_in: np.ndarray, pose: tuple[float, float, float]) -> np.ndarray:
    """Local points (N, 2) of a unit standing at ``pose`` back on the table (the browser's transform)."""
    x, y, h = pose
    a = np.radians(h)
    c, s = np.cos(a), np.sin(a)
    p = np.asarray(local_in, dtype=np.float64).reshape(-1, 2)
    return np.column_stack([x + c * p[:, 0] - s * p[:, 1], y + s * p[:, 0] + c * p[:, 1]])


__all__ = ["HEADING_BOUND_DEG", "POSITION_BOUND_IN", "decode_track", "encode_track", "pose_at", "thin", "to_local",
           "to_table", "with_holds"]
