"""How fast the synthetic table renders the example scenario, at 1280x720 and 1920x1080, on one core.

Prints, side by side from one run: the one-off set-up (undistortion grid + static background) and the
per-frame time with all the faults of the scenario (noise, blur, motion blur, JPEG, uneven light) and
without them. The live demo needs 30 frames/s at 1280x720.

    .venv/bin/python bench/synthetic_speed.py [--frames N]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2

cv2.setNumThreads(1)

from calibration.synthetic import Faults, load_synthetic_scenario
from calibration.synthetic.view_geometry import normalized_grid

SCENARIO = ROOT / "calibration" / "synthetic" / "scenarios" / "skirmish.toml"


def measure(width: int, height: int, frames: int) -> dict[str, float]:
    normalized_grid.cache_clear()
    t0 = time.perf_counter()
    scenario = load_synthetic_scenario(SCENARIO, width_px=width, height_px=height)
    _ = scenario.table.background_bgr  # render the static background now, inside the set-up time
    setup = time.perf_counter() - t0
    step = max(1, scenario.frame_count // frames)
    indices = list(range(0, scenario.frame_count, step))[:frames]
    t0 = time.perf_counter()
    for i in indices:
        scenario.render_frame(i)
    with_faults = (time.perf_counter() - t0) / len(indices)
    clean = scenario.table
    t0 = time.perf_counter()
    for i in indices:
        t = i / scenario.fps
        clean.render(scenario.placements_at(t), hands=scenario.hands_at(t), faults=Faults())
    without = (time.perf_counter() - t0) / len(indices)
    return {"setup_s": setup, "faults_ms": with_faults * 1000, "clean_ms": without * 1000}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=120, help="frames to time per resolution (default 120)")
    args = parser.parse_args()
    print(f"synthetic table, scenario {SCENARIO.name}, one core; {args.frames} frames spread over its 16 s")
    print(f"{'resolution':>11} | {'set-up s':>8} | {'ms/frame, faults':>16} | {'frames/s':>8} | {'ms/frame, clean':>15} | {'frames/s':>8}")
    for w, h in ((1280, 720), (1920, 1080)):
        r = measure(w, h, args.frames)
        print(
            f"{w:>5}x{h:<5} | {r['setup_s']:8.2f} | {r['faults_ms']:16.1f} | {1000 / r['faults_ms']:8.1f} | "
            f"{r['clean_ms']:15.1f} | {1000 / r['clean_ms']:8.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
