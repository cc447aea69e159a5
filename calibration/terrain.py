"""Terrain height over the table plane: smooth hills and, optionally, a measured height grid.

Heights are table inches above the table plane (z = 0). A unit standing on a hill has its tag at
``terrain.height_at(x, y) + base_height_in``; the height-aware mapping intersects the tag's viewing ray
with that plane, so a hill moves nobody sideways.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from calibration.errors import CalibrationError


@dataclass(frozen=True)
class Hill:
    """A smooth cosine bump: ``h = height_in * (1 + cos(pi * r / radius_in)) / 2`` for ``r < radius_in``."""

    x_in: float
    y_in: float
    radius_in: float
    height_in: float

    def __post_init__(self) -> None:
        if not self.radius_in > 0:
            raise CalibrationError(f"hill radius_in={self.radius_in}: give a positive radius in inches")
        if not self.height_in >= 0:
            raise CalibrationError(f"hill height_in={self.height_in}: give a height of 0 inches or more")


@dataclass(frozen=True, eq=False)
class HeightGrid:
    """A measured height map: ``heights_in[row, col]`` is the height at x = col * cell_in, y = row * cell_in.

    Bilinear in between, clamped to the edge values outside the grid.
    """

    heights_in: np.ndarray
    cell_in: float

    def __post_init__(self) -> None:
        h = np.asarray(self.heights_in, dtype=np.float64)
        if h.ndim != 2 or min(h.shape) < 2:
            raise CalibrationError(f"height grid of shape {h.shape}: it must be 2-D with at least 2x2 samples")
        if not np.all(np.isfinite(h)):
            raise CalibrationError("height grid contains NaN or infinite heights; fill the gaps before using it")
        if not self.cell_in > 0:
            raise CalibrationError(f"height grid cell_in={self.cell_in}: give a positive spacing in inches")
        object.__setattr__(self, "heights_in", h)

    def _coords(self, x_in: np.ndarray, y_in: np.ndarray) -> tuple[np.ndarray, ...]:
        rows, cols = self.heights_in.shape
        fx = np.clip(np.asarray(x_in, dtype=np.float64) / self.cell_in, 0.0, cols - 1.0)
        fy = np.clip(np.asarray(y_in, dtype=np.float64) / self.cell_in, 0.0, rows - 1.0)
        c0 = np.minimum(np.floor(fx).astype(np.intp), cols - 2)
        r0 = np.minimum(np.floor(fy).astype(np.intp), rows - 2)
        return fx - c0, fy - r0, r0, c0

    def height_at(self, x_in: np.ndarray, y_in: np.ndarray) -> np.ndarray:
        ax, ay, r0, c0 = self._coords(x_in, y_in)
        h = self.heights_in
        top = h[r0, c0] * (1 - ax) + h[r0, c0 + 1] * ax
        bottom = h[r0 + 1, c0] * (1 - ax) + h[r0 + 1, c0 + 1] * ax
        return top * (1 - ay) + bottom * ay

    def gradient_at(self, x_in: np.ndarray, y_in: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ax, ay, r0, c0 = self._coords(x_in, y_in)
        h = self.heights_in
        dx = ((h[r0, c0 + 1] - h[r0, c0]) * (1 - ay) + (h[r0 + 1, c0 + 1] - h[r0 + 1, c0]) * ay) / self.cell_in
        dy = ((h[r0 + 1, c0] - h[r0, c0]) * (1 - ax) + (h[r0 + 1, c0 + 1] - h[r0, c0 + 1]) * ax) / self.cell_in
        return dx, dy


@dataclass(frozen=True, eq=False)
class Terrain:
    """The ground's height over the table plane: the highest of its hills and its height grid.

    Overlapping hills do not stack (a 3" hill touching another stays 3" tall where it is highest).

    >>> t = Terrain(hills=(Hill(40.0, 30.0, 8.0, 3.0),))
    >>> float(t.height_at(40.0, 30.0)), float(t.height_at(44.0, 30.0)), float(t.height_at(0.0, 0.0))
    (3.0, 1.5, 0.0)
    """

    hills: tuple[Hill, ...] = field(default=())
    grid: HeightGrid | None = None

    @property
    def is_flat(self) -> bool:
        return self.grid is None and all(h.height_in == 0 for h in self.hills)

    @property
    def max_height_in(self) -> float:
        peaks = [h.height_in for h in self.hills]
        if self.grid is not None:
            peaks.append(float(np.max(self.grid.heights_in)))
        return max(peaks, default=0.0)

    def height_at(self, x_in: np.ndarray | float, y_in: np.ndarray | float) -> np.ndarray:
        """Ground height (inches) at table points; vectorised over broadcastable ``x_in``, ``y_in``."""
        x, y = np.broadcast_arrays(np.asarray(x_in, dtype=np.float64), np.asarray(y_in, dtype=np.float64))
        z = np.zeros(x.shape)
        for hill in self.hills:
            r = np.hypot(x - hill.x_in, y - hill.y_in)
            bump = np.where(r < hill.radius_in, hill.height_in * (1 + np.cos(np.pi * np.minimum(r / hill.radius_in, 1.0))) / 2, 0.0)
            z = np.maximum(z, bump)
        if self.grid is not None:
            z = np.maximum(z, self.grid.height_at(x, y))
        return z

    def gradient_at(self, x_in: np.ndarray | float, y_in: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
        """(dz/dx, dz/dy) of the ground at table points, from whichever feature is highest there."""
        x, y = np.broadcast_arrays(np.asarray(x_in, dtype=np.float64), np.asarray(y_in, dtype=np.float64))
        best = np.zeros(x.shape)
        gx = np.zeros(x.shape)
        gy = np.zeros(x.shape)
        for hill in self.hills:
            dx, dy = x - hill.x_in, y - hill.y_in
            r = np.hypot(dx, dy)
            inside = r < hill.radius_in
            q = np.pi * np.minimum(r / hill.radius_in, 1.0)
            bump = np.where(inside, hill.height_in * (1 + np.cos(q)) / 2, 0.0)
            with np.errstate(invalid="ignore", divide="ignore"):
                slope = np.where(inside & (r > 0), -hill.height_in * np.pi / (2 * hill.radius_in) * np.sin(q) / r, 0.0)
            take = bump > best
            best = np.where(take, bump, best)
            gx = np.where(take, slope * dx, gx)
            gy = np.where(take, slope * dy, gy)
        if self.grid is not None:
            hz = self.grid.height_at(x, y)
            take = hz > best
            ggx, ggy = self.grid.gradient_at(x, y)
            gx = np.where(take, ggx, gx)
            gy = np.where(take, ggy, gy)
        return gx, gy

    def slope_deg_at(self, x_in: float, y_in: float) -> float:
        gx, gy = self.gradient_at(x_in, y_in)
        return math.degrees(math.atan(float(np.hypot(gx, gy))))


def near_terrain(terrain: Terrain, x0: np.ndarray, x1: np.ndarray, y0: np.ndarray, y1: np.ndarray) -> np.ndarray:
    """Rays whose path between the terrain's top and the table plane may touch a hill or the grid."""
    m = np.zeros(np.shape(x0), bool)
    if terrain.grid is not None:
        # only where the grid rises off the table (a board on blocks fills a corner of it)
        g = terrain.grid
        rows, cols = np.nonzero(g.heights_in > 0)
        if len(rows):
            gx0, gx1 = (cols.min() - 1) * g.cell_in, (cols.max() + 1) * g.cell_in
            gy0, gy1 = (rows.min() - 1) * g.cell_in, (rows.max() + 1) * g.cell_in
            m |= (x1 >= gx0) & (x0 <= gx1) & (y1 >= gy0) & (y0 <= gy1)
    for hill in terrain.hills:
        if hill.height_in <= 0:
            continue
        r = hill.radius_in
        m |= (x1 >= hill.x_in - r) & (x0 <= hill.x_in + r) & (y1 >= hill.y_in - r) & (y0 <= hill.y_in + r)
    return m
