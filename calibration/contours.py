"""Contour lines and elevation tints of a relief (the scanned sand or a target terrain), in table inches.

Contours are traced by contourpy (marching squares, the library matplotlib draws its own contours
with) at every multiple of ``interval_in`` between the lowest and highest ground; each line carries its
level, a label and where to write it (the middle of the line, with the line's direction there so the
text runs along it). Labels are in inches of sand unless a ``label`` function gives the map's own
units: ``label=lambda h: f"{target.metres_from_inches(h):.0f} m"`` for a target terrain with a scale.

Tints colour the ground by height: a hypsometric ramp from low green through yellow and brown to
white tops, the convention of topographic maps (and of the AR Sandbox).

>>> y, x = np.mgrid[0:41, 0:41] * 0.25
>>> cone = np.maximum(0.0, 3.0 - np.hypot(x - 5, y - 5))          # a 3" cone at (5", 5")
>>> lines = contour_lines(cone, 0.25, interval_in=1.0)
>>> [(c.level_in, c.label, c.closed) for c in lines]
[(1.0, '1"', True), (2.0, '2"', True)]
>>> r = np.hypot(*(lines[0].points_in - 5.0).T)                    # the 1" line: 2" from the top
>>> bool(np.allclose(r, 2.0, atol=0.05))
True
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from calibration.errors import CalibrationError


@dataclass(frozen=True, eq=False)
class ContourLine:
    """One contour line: its ``level_in``, ``label``, the ``points_in`` (N x 2 table inches) along it,
    whether it closes on itself, where its label goes and the label's angle (degrees
    counter-clockwise from +x, kept within +-90 so the text reads upright)."""

    level_in: float
    label: str
    points_in: np.ndarray = field(repr=False)
    closed: bool
    label_xy_in: tuple[float, float]
    label_angle_deg: float
    index: bool = False

    @property
    def length_in(self) -> float:
        return float(np.sum(np.hypot(*np.diff(self.points_in, axis=0).T)))


def _inches(h: float) -> str:
    return f"{h:g}\""


def contour_levels(heights_in: np.ndarray, interval_in: float, *, base_in: float = 0.0) -> np.ndarray:
    """Every ``base_in + k * interval_in`` strictly inside the heights' range."""
    if not interval_in > 0:
        raise CalibrationError(f"interval_in={interval_in}: give a positive contour interval in inches (e.g. 0.3)")
    h = np.asarray(heights_in, dtype=np.float64)
    lo, hi = float(np.nanmin(h)), float(np.nanmax(h))
    k0, k1 = math.floor((lo - base_in) / interval_in) + 1, math.ceil((hi - base_in) / interval_in) - 1
    levels = base_in + interval_in * np.arange(k0, k1 + 1)
    return levels[(levels > lo) & (levels < hi)]


def contour_lines(heights_in: np.ndarray, cell_in: float, *, interval_in: float = 0.3, base_in: float = 0.0,
                  label: Callable[[float], str] = _inches, index_every: int = 5,
                  min_length_in: float = 1.0) -> list[ContourLine]:
    """The contour lines of a height grid (``heights_in[row, col]`` at x = col * cell_in, y = row *
    cell_in); every ``index_every``-th level is an index contour (drawn heavier, like a map's);
    lines shorter than ``min_length_in`` (a grain's ripple) are left out."""
    import contourpy  # matplotlib's own contouring library, already installed with it

    h = np.asarray(heights_in, dtype=np.float64)
    if h.ndim != 2 or min(h.shape) < 2:
        raise CalibrationError(f"a height grid of shape {h.shape}; contours need a 2-D grid of at least 2x2")
    rows, cols = h.shape
    gen = contourpy.contour_generator(np.arange(cols) * cell_in, np.arange(rows) * cell_in, np.ma.masked_invalid(h),
                                      line_type=contourpy.LineType.Separate)
    out: list[ContourLine] = []
    for level in contour_levels(h, interval_in, base_in=base_in):
        k = int(round((level - base_in) / interval_in))
        for pts in gen.lines(float(level)):
            pts = np.asarray(pts, dtype=np.float64)
            if len(pts) < 2:
                continue
            seg = np.hypot(*np.diff(pts, axis=0).T)
            if seg.sum() < min_length_in:
                continue
            closed = bool(np.allclose(pts[0], pts[-1]))
            # the label halfway along the line, turned along it
            along = np.r_[0.0, np.cumsum(seg)]
            i = int(np.clip(np.searchsorted(along, along[-1] / 2), 1, len(pts) - 1))
            dx, dy = pts[i] - pts[i - 1]
            angle = math.degrees(math.atan2(dy, dx))
            if angle > 90:
                angle -= 180
            elif angle < -90:
                angle += 180
            mid = (pts[i] + pts[i - 1]) / 2
            out.append(ContourLine(float(round(level, 9)), label(float(round(level, 9))), pts, closed,
                                   (float(mid[0]), float(mid[1])), angle, index_every > 0 and k % index_every == 0))
    return out


#: The hypsometric ramp: (fraction of the height range, RGB).
TINT_STOPS = ((0.0, (46, 125, 50)), (0.25, (139, 195, 74)), (0.5, (255, 235, 59)), (0.75, (161, 110, 60)),
              (1.0, (250, 250, 250)))


def elevation_tints(heights_in: np.ndarray, *, low_in: float | None = None, high_in: float | None = None) -> np.ndarray:
    """RGB (uint8, rows x cols x 3) of each node's height on the hypsometric ramp from ``low_in``
    (default the lowest) to ``high_in`` (default the highest); NaN heights are black."""
    h = np.asarray(heights_in, dtype=np.float64)
    lo = float(np.nanmin(h)) if low_in is None else low_in
    hi = float(np.nanmax(h)) if high_in is None else high_in
    f = np.clip((h - lo) / (hi - lo), 0.0, 1.0) if hi > lo else np.zeros_like(h)
    xs = np.array([s for s, _ in TINT_STOPS])
    out = np.stack([np.interp(np.nan_to_num(f), xs, [c[i] for _, c in TINT_STOPS]) for i in range(3)], axis=-1)
    out = np.rint(out).astype(np.uint8)
    out[~np.isfinite(h)] = 0
    return out
