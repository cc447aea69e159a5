"""Thinning a track splits a level of stretches at a time: the poses kept are those of splitting one
stretch after another at its worst pose (Douglas-Peucker), and every pose dropped stays within the bound."""
from __future__ import annotations

import numpy as np
import pytest

from appmodel.recording.thinning import thin


def _one_stretch_after_another(rows: np.ndarray, bound_in: float, bound_deg: float) -> list[int]:
    t, x, y, h = rows.T
    keep = {0, len(rows) - 1}

    def split(a: int, b: int) -> None:
        if b - a < 2:
            return
        span = t[b] - t[a]
        f = (t[a + 1:b] - t[a]) / span if span > 0 else np.zeros(b - a - 1)
        err = np.maximum(np.hypot(x[a] + f * (x[b] - x[a]) - x[a + 1:b], y[a] + f * (y[b] - y[a]) - y[a + 1:b]) / bound_in,
                         np.abs(h[a] + f * (h[b] - h[a]) - h[a + 1:b]) / bound_deg)
        k = int(np.argmax(err))
        if err[k] > 1.0:
            keep.add(a + 1 + k)
            split(a, a + 1 + k)
            split(a + 1 + k, b)

    split(0, len(rows) - 1)
    return sorted(keep)


@pytest.mark.parametrize("seed", range(8))
def test_a_track_keeps_the_poses_douglas_peucker_keeps(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 600))
    t = np.sort(rng.uniform(0, 120, n))
    if seed % 2:
        t = np.round(t)  # several poses at one time (a stretch of no duration)
    rows = np.column_stack([t, np.cumsum(rng.normal(0, 0.1, n)), np.cumsum(rng.normal(0, 0.1, n)),
                            np.cumsum(rng.normal(0, 2, n))])
    if seed % 3 == 0:
        rows[:, 1:] = np.round(rows[:, 1:], 1)  # ties for the worst pose: the first is split at
    kept = thin(rows, bound_in=0.05, bound_deg=1.0)
    assert kept.tolist() == _one_stretch_after_another(rows, 0.05, 1.0)


def test_a_unit_walking_a_circle_for_an_hour_is_kept_within_the_bound() -> None:
    t = np.arange(0.0, 3600.0, 0.5)
    a = 0.02 * t
    rows = np.column_stack([t, 36 + 10 * np.cos(a), 24 + 6 * np.sin(a), np.degrees(a)])
    kept = thin(rows, bound_in=0.05, bound_deg=1.0)
    x = np.interp(t, t[kept], rows[kept, 1])
    y = np.interp(t, t[kept], rows[kept, 2])
    assert np.hypot(x - rows[:, 1], y - rows[:, 2]).max() <= 0.05
    assert len(kept) < len(t) / 10
