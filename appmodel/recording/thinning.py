"""Thinning a unit's recorded poses: Douglas-Peucker on the *synchronised* distance (a pose is dropped
only when the position linearly interpolated in time between the poses kept is within a bound of it,
and the heading within a bound of its heading). The timeline's tracks (``classview.tracks``) and the
debrief's trails (:func:`appmodel.recording.reader.trail_of`) are thinned by it, so a unit drawn at
any recorded moment stands within the bound of where the recording had it.

>>> import numpy as np
>>> t = np.arange(0.0, 10.0, 1 / 30)
>>> thin(np.column_stack([t, 2.0 * t, np.full_like(t, 5.0), np.zeros_like(t)]), bound_in=0.05, bound_deg=1.0).tolist()
[0, 299]
"""
from __future__ import annotations

import numpy as np


def thin(rows: np.ndarray, *, bound_in: float, bound_deg: float) -> np.ndarray:
    """Indexes of the rows of ``rows`` (t_s, x_in, y_in, heading_deg; heading unwrapped) to keep so
    that every row is within ``bound_in`` (and ``bound_deg``) of the line through the kept rows.

    Each stretch between two kept rows is split at its worst row while that row is out of the bound;
    the stretches are split a level at a time, all of a level at once in numpy (a three-hour track of
    21,600 poses is a few dozen passes, not thousands of small ones): the rows kept are the same as
    splitting one stretch after another."""
    n = len(rows)
    if n <= 2:
        return np.arange(n)
    t, x, y, h = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    a, b = np.array([0]), np.array([n - 1])
    while len(a):
        inside = b - a - 1
        a, b, inside = a[inside > 0], b[inside > 0], inside[inside > 0]
        if not len(a):
            break
        starts = np.concatenate([[0], np.cumsum(inside)[:-1]])
        stretch = np.repeat(np.arange(len(a)), inside)  # the stretch of each row inside one
        p = a[stretch] + 1 + (np.arange(len(stretch)) - starts[stretch])
        pa, pb = a[stretch], b[stretch]
        span = t[pb] - t[pa]
        f = np.divide(t[p] - t[pa], span, out=np.zeros(len(p)), where=span > 0)
        ex = x[pa] + f * (x[pb] - x[pa]) - x[p]
        ey = y[pa] + f * (y[pb] - y[pa]) - y[p]
        eh = h[pa] + f * (h[pb] - h[pa]) - h[p]
        err = np.maximum(np.hypot(ex, ey) / bound_in, np.abs(eh) / bound_deg)
        worst = np.maximum.reduceat(err, starts)
        # the first row of each stretch at its worst, as argmax picks it
        at_worst = np.flatnonzero(err == worst[stretch])
        first = np.flatnonzero(np.diff(stretch[at_worst], prepend=-1))
        m = p[at_worst[first]]
        split = worst > 1.0
        m, a, b = m[split], a[split], b[split]
        keep[m] = True
        a, b = np.concatenate([a, m]), np.concatenate([m, b])
    return np.flatnonzero(keep)
