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
    that every row is within ``bound_in`` (and ``bound_deg``) of the line through the kept rows."""
    n = len(rows)
    if n <= 2:
        return np.arange(n)
    t, x, y, h = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        span = t[b] - t[a]
        f = (t[a + 1:b] - t[a]) / span if span > 0 else np.zeros(b - a - 1)
        ex = x[a] + f * (x[b] - x[a]) - x[a + 1:b]
        ey = y[a] + f * (y[b] - y[a]) - y[a + 1:b]
        eh = h[a] + f * (h[b] - h[a]) - h[a + 1:b]
        err = np.maximum(np.hypot(ex, ey) / bound_in, np.abs(eh) / bound_deg)
        k = int(np.argmax(err))
        if err[k] > 1.0:
            m = a + 1 + k
            keep[m] = True
            stack.append((a, m))
            stack.append((m, b))
    return np.flatnonzero(keep)
