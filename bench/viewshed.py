"""Viewshed time for one unit on a 72" x 48" table at 0.25" cells (issue 31): ours against the naive
picture (one rules line-of-sight query per cell), on a relief like the synthetic table's (two hills
and a ridge), and the two pictures compared cell by cell.

"It must feel instant when a unit is selected": the figure to read is the median of ``--runs`` runs
of ours (wall clock, and the CPU time of this process, which a busy machine inflates less) (the naive one runs once, on a strip of rows, and is scaled to the whole table: it takes
minutes).

    .venv/bin/python bench/viewshed.py [--runs 5] [--naive-rows 12]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np

from rules.terrain_sight import Ground
from rules.viewshed import viewshed


def table_relief(cell_in: float = 0.25) -> Ground:
    y, x = np.mgrid[0:int(48 / cell_in) + 1, 0:int(72 / cell_in) + 1] * cell_in
    h = np.zeros(x.shape)
    for cx, cy, radius, height in ((48.0, 32.0, 9.0, 3.0), (20.0, 14.0, 7.0, 4.0)):
        r = np.hypot(x - cx, y - cy)
        h = np.maximum(h, np.where(r < radius, height * (1 + np.cos(np.pi * np.minimum(r / radius, 1))) / 2, 0))
    h = np.maximum(h, 2.0 * np.exp(-((x - 36.0) / 1.5) ** 2) * (y > 10) * (y < 40))   # a ridge across the middle
    h += np.random.default_rng(0).normal(0, 0.01, h.shape)                             # the scan's 0.01" grain
    return Ground(h, cell_in)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--naive-rows", type=int, default=12, help="rows of the naive picture to time and compare")
    args = ap.parse_args()
    g = table_relief()
    rows, cols = g.heights_in.shape
    print(f"table 72x48\" at 0.25\" cells: {cols}x{rows} = {rows * cols} cells; {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'unit at':>14} {'range':>7} {'ours (median)':>14} {'ours CPU':>9} {'naive (scaled)':>15} {'speed-up':>9} "
          f"{'cells compared':>15} {'disagree':>9}")
    for observer, range_in in (((10.0, 24.0), None), ((36.0, 6.0), None), ((48.0, 32.0), 24.0), ((4.0, 4.0), None)):
        times, cpu = [], []
        for _ in range(args.runs):
            t0, c0 = time.perf_counter(), time.process_time()
            v = viewshed(g, observer, range_in=range_in)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        ours = statistics.median(times)
        # the naive picture on a strip of rows through the unit, timed and compared cell by cell
        r0 = int(np.clip(observer[1] / g.cell_in - args.naive_rows / 2, 0, rows - args.naive_rows))
        strip = Ground(g.heights_in, g.cell_in)
        t0 = time.perf_counter()
        slow = _naive_rows(strip, observer, range_in, r0, r0 + args.naive_rows)
        naive = (time.perf_counter() - t0) * rows / args.naive_rows
        disagree = int((slow != v.sight[r0:r0 + args.naive_rows]).sum())
        rng = "table" if range_in is None else f"{range_in:g}\""
        print(f"{str(observer):>14} {rng:>7} {ours * 1000:>11.0f} ms {statistics.median(cpu) * 1000:>6.0f} ms "
              f"{naive:>13.1f} s {naive / ours:>8.0f}x "
              f"{slow.size:>15} {disagree:>9}")


def _naive_rows(g: Ground, observer, range_in, r0: int, r1: int) -> np.ndarray:
    from rules.terrain_sight import propose_sight
    from rules.viewshed import Sight

    cols = g.heights_in.shape[1]
    out = np.full((r1 - r0, cols), Sight.OUT_OF_RANGE, np.int8)
    for r in range(r0, r1):
        for c in range(cols):
            xy = (c * g.cell_in, r * g.cell_in)
            if range_in is not None and np.hypot(xy[0] - observer[0], xy[1] - observer[1]) > range_in:
                continue
            p = propose_sight(g, observer, xy)
            out[r - r0, c] = Sight.HIDDEN if not p.line_of_sight else Sight.COVER if p.partly_hidden else Sight.SEEN
    return out


if __name__ == "__main__":
    main()
