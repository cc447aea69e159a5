"""Viewshed time in the window's path: a unit selected on a 72" x 48" table at 0.25" cells, from the
session's snapshot to the viewshed overlay's draw item (what the view's overlay worker runs), the
first time (computed) and again (the unit selected again, or a second view: from the cache), beside
the bare rules.viewshed call.

    .venv/bin/python bench/viewshed_window.py --runs 3
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from viewshed import table_relief  # noqa: E402  (the benchmark's synthetic relief)

from appmodel.game_session import GameSession  # noqa: E402
from appmodel.overlays.registry import build_items  # noqa: E402
from appmodel.overlays.sandmap import sight_range_in, unit_viewshed  # noqa: E402
from rules.downrange.examples.in_depth import SCENARIO_PATH  # noqa: E402
from rules.viewshed import viewshed  # noqa: E402

MAAWS = 13  # the Carl Gustaf gunner at (15, 29): 38" range


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; CPU seconds (wall in brackets)")
    for run in range(args.runs):
        s = GameSession.from_scenario_file(SCENARIO_PATH)
        s.set_ground(table_relief())  # a new relief each run: nothing cached
        u = s.unit(MAAWS)
        t0, c0 = time.perf_counter(), time.process_time()
        s.select_unit(MAAWS)
        snap = s.snapshot()
        items = build_items(snap, ("viewshed",))
        first = (time.process_time() - c0, time.perf_counter() - t0)
        t0, c0 = time.perf_counter(), time.process_time()
        s.select_unit(None)
        s.select_unit(MAAWS)
        build_items(s.snapshot(), ("viewshed",))
        again = (time.process_time() - c0, time.perf_counter() - t0)
        t0, c0 = time.perf_counter(), time.process_time()
        bare = viewshed(s.ground, (u.x_in, u.y_in), range_in=sight_range_in(snap, MAAWS))
        alone = (time.process_time() - c0, time.perf_counter() - t0)
        cells = int((bare.sight > 0).sum())
        assert items and unit_viewshed.cache_info().hits >= 1
        print(f"run {run + 1}: select -> viewshed drawn {first[0]:.2f} s ({first[1]:.2f}); selected again "
              f"{1000 * again[0]:.1f} ms ({1000 * again[1]:.1f}); rules.viewshed alone {alone[0]:.2f} s ({alone[1]:.2f}); "
              f"{cells} cells within {bare.range_in:g}\"")


if __name__ == "__main__":
    main()
