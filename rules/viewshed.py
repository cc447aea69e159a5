"""What a unit sees: the rules' line-of-sight query asked of every cell of the ground at once.

Pure numpy, in table inches, over the same :class:`~rules.terrain_sight.Ground` the rules read (the
relief scan's grid or a target terrain's). For every grid node within ``range_in`` of the unit the
verdict is exactly :func:`~rules.terrain_sight.propose_sight`'s for a figure ``target_height_in``
tall standing there: **seen** (its top and its foot are in sight), **cover** (its top is seen, a
crest hides its foot) or **hidden**; nodes beyond the range are **out of range**. The picture and the
rules therefore never disagree: the same samples (every quarter cell along each sight line), the same
tolerance, the same ignored ends, in the same floating-point order.

Speed comes from not looking where nothing can block: each sight line is cut into runs of 16 samples
(about one inch on a 0.25" grid); a run whose sight line stays above the highest grid node around it
cannot be blocked (the bilinear ground never rises above its corners), so only the runs that come
near the ground are sampled exactly.

>>> import numpy as np
>>> from rules.terrain_sight import Ground
>>> ridge = np.zeros((9, 17)); ridge[:, 8] = 3.0                # a 3" ridge along x = 8, 1" cells
>>> v = viewshed(Ground(ridge, 1.0), (2.0, 4.0), eye_height_in=1.0, target_height_in=1.0)
>>> v.at(5.0, 4.0), v.at(14.0, 4.0)
(<Sight.SEEN: 3>, <Sight.HIDDEN: 1>)
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

from rules.terrain_sight import Ground, propose_sight

#: Samples per run sampled exactly: a run spans at most 16 quarter cells (4 cells) in x and y.
RUN = 16
#: The pruning levels, (samples per run, grid nodes per block of the max map): runs of 128 samples
#: against 8x8-node blocks first, the runs kept then split into runs of 16 against single nodes.
LEVELS = ((128, 8), (RUN, 1))


class Sight(enum.IntEnum):
    """What a unit's eyes make of a figure standing on one grid node."""

    OUT_OF_RANGE = 0
    HIDDEN = 1
    COVER = 2
    SEEN = 3


@dataclass(frozen=True, eq=False)
class Viewshed:
    """``sight[row, col]``: a :class:`Sight` value per node of the ground's grid (x = col * cell_in,
    y = row * cell_in); the unit's eye at ``eye_xyz_in``."""

    sight: np.ndarray = field(repr=False)
    cell_in: float
    eye_xyz_in: tuple[float, float, float]
    range_in: float | None
    target_height_in: float

    @property
    def seen(self) -> np.ndarray:
        return self.sight == Sight.SEEN

    @property
    def hidden(self) -> np.ndarray:
        return self.sight == Sight.HIDDEN

    @property
    def cover(self) -> np.ndarray:
        return self.sight == Sight.COVER

    def at(self, x_in: float, y_in: float) -> Sight:
        """The verdict at the node nearest a table point."""
        rows, cols = self.sight.shape
        c = int(np.clip(round(x_in / self.cell_in), 0, cols - 1))
        r = int(np.clip(round(y_in / self.cell_in), 0, rows - 1))
        return Sight(int(self.sight[r, c]))


def _window_max(h: np.ndarray, k: int) -> np.ndarray:
    """``out[r, c] = max(h[r:r+k, c:c+k])`` (clipped at the far edges), by doubling."""
    out = h.copy()
    span = 1
    while span < k:
        step = min(span, k - span)
        shifted = np.full_like(out, -np.inf)
        shifted[:, :-step] = out[:, step:]
        out = np.maximum(out, shifted)
        shifted = np.full_like(out, -np.inf)
        shifted[:-step, :] = out[step:, :]
        out = np.maximum(out, shifted)
        span += step
    return out


def _block_max(h: np.ndarray, block: int) -> np.ndarray:
    """The highest node of each ``block`` x ``block`` block of nodes (the last ones padded)."""
    if block == 1:
        return h
    rows, cols = h.shape
    padded = np.full((-(-rows // block) * block, -(-cols // block) * block), -np.inf)
    padded[:rows, :cols] = h
    return padded.reshape(padded.shape[0] // block, block, padded.shape[1] // block, block).max(axis=(1, 3))


def _blocked(ground: Ground, a_xyz: np.ndarray, b_xy: np.ndarray, b_z: np.ndarray, *,
             ignore_ends_in: float, tolerance_in: float) -> np.ndarray:
    """For each sight line from ``a_xyz`` to ``(b_xy, b_z)``: does the ground block it, exactly as
    :func:`~rules.terrain_sight.sight_over_ground` decides (its samples, tolerance and ignored ends)."""
    m = len(b_z)
    if m == 0:
        return np.zeros(0, bool)
    h = ground.heights_in
    rows, cols = h.shape
    cell = ground.cell_in
    step = cell / 4.0
    dx = b_xy[:, 0] - a_xyz[0]
    dy = b_xy[:, 1] - a_xyz[1]
    dz = b_z - a_xyz[2]
    length = np.hypot(dx, dy)
    n = np.maximum(2, np.ceil(length / step).astype(np.int64) + 1)
    # np.linspace(0, L, n): k * (L / (n - 1)), the last sample exactly L
    spacing = length / (n - 1)

    def point(idx: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, ...]:
        s = k * spacing[idx]
        s = np.where(k == n[idx] - 1, length[idx], s)
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(length[idx] > 0, s / length[idx], 0.0)
        return s, a_xyz[0] + t * dx[idx], a_xyz[1] + t * dy[idx], a_xyz[2] + t * dz[idx]

    # Pruning, coarse then fine: a run's samples lie in the box of its two ends; the ground there is
    # at most the highest node of the cells the box touches (bilinear), the line at least its lower end.
    # The samples the rule looks at (past the ignored ends), widened by one for rounding: a line
    # of zero length has none.
    with np.errstate(invalid="ignore", divide="ignore"):
        k_first = np.where(length > 0, np.floor(ignore_ends_in / spacing) - 1, n).clip(0, None).astype(np.int64)
        k_last = np.where(length > 0, np.ceil((length - ignore_ends_in) / spacing) + 1, -1).astype(np.int64)
    k_last = np.minimum(k_last, n - 1)

    def may_block(idx: np.ndarray, k0: np.ndarray, run: int, block: int) -> np.ndarray:
        lo = np.maximum(k0, k_first[idx])
        hi = np.minimum(k0 + run - 1, k_last[idx])
        looked_at = lo <= hi
        _, x0, y0, z0 = point(idx, np.minimum(lo, hi))
        _, x1, y1, z1 = point(idx, hi)
        c_lo = np.clip(np.floor(np.minimum(x0, x1) / cell), 0, cols - 1).astype(np.intp) // block
        r_lo = np.clip(np.floor(np.minimum(y0, y1) / cell), 0, rows - 1).astype(np.intp) // block
        # 1e-9: a margin for rounding; a run the margin keeps is merely sampled exactly
        return looked_at & (tops[block][r_lo, c_lo] - tolerance_in > np.minimum(z0, z1) - 1e-9)

    tops = {block: _window_max(_block_max(h, block), -(-(run // 4 + 1) // block) + 1) for run, block in LEVELS}
    coarse, _ = LEVELS[0]
    runs = (n + coarse - 1) // coarse
    line = np.repeat(np.arange(m), runs)
    first = (np.arange(len(line)) - np.repeat(np.cumsum(runs) - runs, runs)) * coarse
    for (run, block), (finer, _) in zip(LEVELS, [*LEVELS[1:], (RUN, 1)]):
        keep = may_block(line, first, run, block)
        line, first = line[keep], first[keep]
        if run > finer:  # split the kept runs into the next level's
            line = np.repeat(line, run // finer)
            first = (first[:, None] + finer * np.arange(run // finer)[None, :]).ravel()
            real = first <= n[line] - 1
            line, first = line[real], first[real]
    blocked = np.zeros(m, bool)
    # Exact pass over the runs that come near the ground, nearest the unit first: a line found
    # blocked needs no more looking (behind a crest every run of a hidden line comes near the ground).
    group_start = np.r_[0, np.flatnonzero(np.diff(line)) + 1]
    rank = np.arange(len(line)) - np.repeat(group_start, np.diff(np.r_[group_start, len(line)]))
    lo_rank, width = 0, 1
    while len(line):
        take = (rank < lo_rank + width) & ~blocked[line]
        for i in range(0, int(take.sum()), 1 << 16):  # chunks bound the memory
            sel_line, sel_first = line[take][i:i + (1 << 16)], first[take][i:i + (1 << 16)]
            idx = np.repeat(sel_line, RUN)
            k = (sel_first[:, None] + np.arange(RUN)[None, :]).ravel()
            real = k <= n[idx] - 1
            idx, k = idx[real], k[real]
            s, x, y, z = point(idx, k)
            inner = (s >= ignore_ends_in) & (s <= length[idx] - ignore_ends_in)
            above = z - ground.height_at(x, y)
            hit = inner & (above < -tolerance_in)
            blocked[idx[hit]] = True
        later = rank >= lo_rank + width
        line, first, rank = line[later], first[later], rank[later]
        lo_rank, width = lo_rank + width, width * 2
    return blocked


def viewshed(ground: Ground, observer_xy: tuple[float, float], *, eye_height_in: float = 1.0,
             target_height_in: float = 1.0, range_in: float | None = None, ignore_ends_in: float = 0.5,
             tolerance_in: float = 0.05) -> Viewshed:
    """Every grid node's :class:`Sight` from a unit at ``observer_xy`` (eyes ``eye_height_in`` over
    the ground under it) for a figure ``target_height_in`` tall, within ``range_in`` (None: the
    whole table). Agrees node by node with :func:`~rules.terrain_sight.propose_sight`."""
    if not eye_height_in >= 0 or not target_height_in >= 0:
        raise ValueError(f"eye_height_in={eye_height_in}, target_height_in={target_height_in}: give heights of 0 inches or more")
    if range_in is not None and not range_in > 0:
        raise ValueError(f"range_in={range_in}: give a positive range in inches, or None for the whole table")
    rows, cols = ground.heights_in.shape
    eye_z = float(ground.height_at(*observer_xy)) + eye_height_in
    a = np.array([observer_xy[0], observer_xy[1], eye_z], dtype=np.float64)
    yy, xx = np.mgrid[0:rows, 0:cols]
    x = (xx * ground.cell_in).astype(np.float64).ravel()
    y = (yy * ground.cell_in).astype(np.float64).ravel()
    sight = np.full(rows * cols, Sight.OUT_OF_RANGE, np.int8)
    near = np.ones(rows * cols, bool) if range_in is None else np.hypot(x - a[0], y - a[1]) <= range_in
    pts = np.column_stack([x[near], y[near]])
    foot_z = ground.height_at(pts[:, 0], pts[:, 1])
    top_blocked = _blocked(ground, a, pts, foot_z + target_height_in,
                           ignore_ends_in=ignore_ends_in, tolerance_in=tolerance_in)
    verdict = np.full(len(pts), Sight.HIDDEN, np.int8)
    seen_top = ~top_blocked
    # propose_sight checks the foot at a tenth of the figure's height
    foot_blocked = _blocked(ground, a, pts[seen_top], foot_z[seen_top] + 0.1 * target_height_in,
                            ignore_ends_in=ignore_ends_in, tolerance_in=tolerance_in)
    verdict[seen_top] = np.where(foot_blocked, Sight.COVER, Sight.SEEN)
    sight[near] = verdict
    return Viewshed(sight.reshape(rows, cols), ground.cell_in, (float(a[0]), float(a[1]), eye_z), range_in,
                    target_height_in)


def viewshed_by_queries(ground: Ground, observer_xy: tuple[float, float], *, eye_height_in: float = 1.0,
                        target_height_in: float = 1.0, range_in: float | None = None) -> np.ndarray:
    """The same picture built the slow way, one :func:`~rules.terrain_sight.propose_sight` per node:
    the reference the fast one is tested and benchmarked against."""
    rows, cols = ground.heights_in.shape
    out = np.full((rows, cols), Sight.OUT_OF_RANGE, np.int8)
    for r in range(rows):
        for c in range(cols):
            xy = (c * ground.cell_in, r * ground.cell_in)
            if range_in is not None and np.hypot(xy[0] - observer_xy[0], xy[1] - observer_xy[1]) > range_in:
                continue
            p = propose_sight(ground, observer_xy, xy, eye_height_in=eye_height_in, target_height_in=target_height_in)
            out[r, c] = Sight.HIDDEN if not p.line_of_sight else Sight.COVER if p.partly_hidden else Sight.SEEN
    return out
