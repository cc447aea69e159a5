"""Sculpting guidance on the synthetic table (issue 31): the colour the projector would throw on each
cell, from a quick rescan, against the colour the true height difference calls for; the rescan's
time; and pictures of the projector's light on the sand.

The target is the synthetic table's two hills (4" and 3"); the sand is half-way there: the 4" hill
only 2.8" high, the 3" hill in place, and a 1.5" mound where the target is flat. The quick rescan
(one projector axis, 20 patterns) scans that sand with the projector calibrated in 3-D from the flat
table and a board on blocks (tests/relief_helpers.py: the same rig the relief tests use).

Figures, side by side for the rescan and (as a ceiling) the full scan:
- colour agreement: the share of cells (seen by the scan, 2" inside the edges) whose guidance is the
  same kind (add / match / remove) as the truth's, and the RMS of the difference each colour says
  against the true difference (both clipped at the saturation: beyond it every colour is full);
- the match score from the scan against the true one;
- the rescan's time: patterns x frames per pattern at the camera's rate (the capture), and decoding,
  triangulating and gridding measured here (the computing).

    .venv/bin/python bench/sculpting.py [--out docs/screenshots]
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
sys.path.insert(0, str(ROOT / "tests"))  # the relief tests' synthetic rig

import cv2
import numpy as np

from calibration.contours import contour_lines, elevation_tints
from calibration.relief_scan import quick_scan_axis, scan_relief
from calibration.sculpting import difference_from_colours, guidance_colours, guidance_strength, match_score
from calibration.sculptor_rescan import RescanFollower, compute_rescan
from calibration.stillness import StillnessWatch
from calibration.structured_light import ScanPatterns
from calibration.synthetic import Projector, SyntheticTable
from calibration.synthetic.projected_light import render_lit_sequence
from calibration.terrain import Hill, Terrain
from relief_helpers import (
    CAMERA, CAMERA_POSE, FAULTS, HILLS, LAYOUT, PROJECTOR_MODEL, PROJECTOR_POSE, calibrated_projector, dark_projector,
    table_calibration,
)
from rules.terrain_sight import Ground
from rules.viewshed import Sight, viewshed

SAND = Terrain(hills=(Hill(24.0, 30.0, 10.0, 2.8), Hill(50.0, 18.0, 8.0, 3.0), Hill(38.0, 10.0, 5.0, 1.5)))
DEADBAND_IN, SATURATION_IN, TOLERANCE_IN = 0.1, 0.4, 0.1
CAMERA_FPS, FRAMES_PER_PATTERN = 30.0, 2   # a pattern shown, one frame to settle, one read


def kind(strength: np.ndarray) -> np.ndarray:
    return np.sign(np.round(np.nan_to_num(strength), 9)).astype(int)


def splat(model, heights: np.ndarray, cell_in: float, rgb: np.ndarray) -> np.ndarray:
    """The projector image that lights each table cell (at its height) with its colour."""
    rows, cols = heights.shape
    img = np.zeros((PROJECTOR_MODEL.height_px, PROJECTOR_MODEL.width_px, 3), np.uint8)
    yy, xx = np.mgrid[0:rows, 0:cols] * cell_in
    px = model.projector_from_table(np.column_stack([xx.ravel(), yy.ravel(), heights.ravel()])).reshape(rows, cols, 2)
    for r in range(rows - 1):
        for c in range(cols - 1):
            quad = np.array([px[r, c], px[r, c + 1], px[r + 1, c + 1], px[r + 1, c]])
            if np.all(np.isfinite(quad)):
                cv2.fillConvexPoly(img, np.rint(quad * 4).astype(np.int32), tuple(int(v) for v in rgb[r, c][::-1]),
                                   lineType=cv2.LINE_8, shift=2)
    return img


def draw_contours(model, target: np.ndarray, cell_in: float, img: np.ndarray, heights_at) -> None:
    for line in contour_lines(target, cell_in, interval_in=0.5):
        z = heights_at(line.points_in[:, 0], line.points_in[:, 1])
        px = model.projector_from_table(np.column_stack([line.points_in, z]))
        cv2.polylines(img, [np.rint(px * 4).astype(np.int32)], line.closed, (40, 40, 40), 3 if line.index else 1,
                      lineType=cv2.LINE_AA, shift=2)
        lx, ly = line.label_xy_in
        p = model.projector_from_table(np.array([[lx, ly, float(heights_at(lx, ly))]]))[0]
        cv2.putText(img, line.label, (int(p[0]) - 8, int(p[1]) + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 1, cv2.LINE_AA)


def camera_view(terrain: Terrain, projector_img: np.ndarray) -> np.ndarray:
    lit = Projector(PROJECTOR_MODEL, PROJECTOR_POSE, projector_img, brightness=0.9, room_light=0.25)
    return render_lit_sequence(SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, terrain), lit, [projector_img],
                               faults=FAULTS, rng=np.random.default_rng(5))[0]


def follow_the_sculptor(sand_scene, lamp, patterns: ScanPatterns, table, model) -> None:
    """The window's path (gui/sculptor_rescans.py): the follower on the camera's frames, from the
    hands leaving the sand to the new guidance; its own cost per frame, and the worker's computing."""
    from gui.sculptor_rescans import STILL_FRAMES

    black = np.zeros((PROJECTOR_MODEL.height_px, PROJECTOR_MODEL.width_px), np.uint8)
    still = render_lit_sequence(sand_scene, lamp, [black] * 4, faults=FAULTS, rng=np.random.default_rng(21))
    lit = render_lit_sequence(sand_scene, lamp, patterns.images(), faults=FAULTS, rng=np.random.default_rng(22))
    by_bytes = {img.tobytes(): k for k, img in enumerate(patterns.images())}
    follower = RescanFollower(patterns, watch=StillnessWatch(still_frames=STILL_FRAMES))
    shown, frames, watch_s, pattern_s, n_watch, n_pattern = None, (), 0.0, 0.0, 0, 0
    for k in range(10 * STILL_FRAMES + 4 * patterns.frame_count):
        frame = still[k % len(still)] if shown is None else lit[by_bytes[shown.tobytes()]]
        t0 = time.perf_counter()
        step = follower.offer(frame)
        dt = time.perf_counter() - t0
        if shown is None:
            watch_s, n_watch = watch_s + dt, n_watch + 1
        else:
            pattern_s, n_pattern = pattern_s + dt, n_pattern + 1
        shown = step.pattern if step.kind == "show" else None
        if step.kind == "captured":
            frames = step.frames
            break
    assert frames, "the follower never captured a rescan"
    t0, c0 = time.perf_counter(), time.process_time()
    relief = compute_rescan(patterns, frames, table, model)
    compute_s, cpu_s = time.perf_counter() - t0, time.process_time() - c0
    still_s = STILL_FRAMES / CAMERA_FPS
    capture_s = follower.pattern_count * follower.frames_per_pattern / CAMERA_FPS
    print(f"  follow the sculptor (the window's path): still {STILL_FRAMES} frames {still_s:.1f} s + {follower.pattern_count} "
          f"patterns x {follower.frames_per_pattern} frames {capture_s:.1f} s at {CAMERA_FPS:.0f} fps + computing "
          f"{compute_s:.1f} s on a worker ({cpu_s:.1f} s CPU) = {still_s + capture_s + compute_s:.1f} s from hands off to new guidance "
          f"({100 * (1 - relief.unseen_fraction):.0f}% seen); the follower costs {1000 * watch_s / max(n_watch, 1):.1f} ms "
          f"a watched frame, {1000 * pattern_s / max(n_pattern, 1):.1f} ms a pattern frame")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="folder for the pictures")
    args = ap.parse_args()
    started = time.perf_counter()
    table = table_calibration()
    model = calibrated_projector()
    lamp = dark_projector()
    sand_scene = SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, SAND)
    full = ScanPatterns(PROJECTOR_MODEL.width_px, PROJECTOR_MODEL.height_px)
    quick = ScanPatterns(PROJECTOR_MODEL.width_px, PROJECTOR_MODEL.height_px, axes=(quick_scan_axis(table, model),))
    results = []
    for name, patterns, seed in (("quick rescan", quick, 11), ("full scan", full, 12)):
        frames = render_lit_sequence(sand_scene, lamp, patterns.images(), faults=FAULTS, rng=np.random.default_rng(seed))
        t0 = time.perf_counter()
        scan = scan_relief(patterns.decode(frames), table, model)
        compute_s = time.perf_counter() - t0
        results.append((name, patterns, scan, compute_s))

    load = os.getloadavg()[0]
    print(f"Sculpting guidance on the synthetic table: camera {CAMERA.width_px}x{CAMERA.height_px}, projector "
          f"{PROJECTOR_MODEL.width_px}x{PROJECTOR_MODEL.height_px}; deadband {DEADBAND_IN}\", saturation {SATURATION_IN}\"; "
          f"one run, load {load:.1f} on {os.cpu_count()} cores")
    print("  scan          | patterns | capture at 30 fps | computing | cells | same kind | colour RMS vs truth | score (scan) | score (truth)")
    for name, patterns, scan, compute_s in results:
        rows, cols = scan.heights_in.shape
        yy, xx = np.mgrid[0:rows, 0:cols] * scan.cell_in
        target = HILLS.height_at(xx, yy)
        true_sand = SAND.height_at(xx, yy)
        use = scan.seen & (xx > 2) & (xx < LAYOUT.width_in - 2) & (yy > 2) & (yy < LAYOUT.depth_in - 2)
        shown = guidance_colours(target - scan.heights_in, deadband_in=DEADBAND_IN, saturation_in=SATURATION_IN)
        said = difference_from_colours(shown, deadband_in=DEADBAND_IN, saturation_in=SATURATION_IN)
        truth = target - true_sand
        same = kind(guidance_strength(target - scan.heights_in, deadband_in=DEADBAND_IN, saturation_in=SATURATION_IN))[use] == \
            kind(guidance_strength(truth, deadband_in=DEADBAND_IN, saturation_in=SATURATION_IN))[use]
        # what the colour says against the truth, both clipped at the saturation (and 0 in the deadband)
        clip_truth = np.where(np.abs(truth) <= DEADBAND_IN, 0.0, np.clip(truth, -SATURATION_IN, SATURATION_IN))
        colour_rms = float(np.sqrt(np.mean((said - clip_truth)[use] ** 2)))
        s_scan = match_score(scan.heights_in, target, tolerance_in=TOLERANCE_IN, mask=use, cell_in=scan.cell_in)
        s_true = match_score(true_sand, target, tolerance_in=TOLERANCE_IN, mask=use, cell_in=scan.cell_in)
        capture = patterns.frame_count * FRAMES_PER_PATTERN / CAMERA_FPS
        print(f"  {name:<13} | {patterns.frame_count:>8} | {capture:>15.1f} s | {compute_s:>7.1f} s | {int(use.sum()):>5} | "
              f"{100 * same.mean():>8.1f}% | {colour_rms:>17.3f}\" | {100 * s_scan.within_share:>4.0f}%, {s_scan.rms_in:.2f}\" | "
              f"{100 * s_true.within_share:>4.0f}%, {s_true.rms_in:.2f}\"")

    follow_the_sculptor(sand_scene, lamp, quick, table, model)

    # pictures: the projector's light on the sand, seen by the camera
    args.out.mkdir(parents=True, exist_ok=True)
    name, patterns, scan, _ = results[0]
    rows, cols = scan.heights_in.shape
    yy, xx = np.mgrid[0:rows, 0:cols] * scan.cell_in
    target = HILLS.height_at(xx, yy)
    guide = guidance_colours(target - scan.heights_in, deadband_in=DEADBAND_IN, saturation_in=SATURATION_IN, unknown=~scan.seen)
    img = splat(model, scan.heights_in, scan.cell_in, guide)
    draw_contours(model, target, scan.cell_in, img, SAND.height_at)
    cv2.imwrite(str(args.out / "sand-sculpting-projector.png"), img)
    cv2.imwrite(str(args.out / "sand-sculpting.png"), camera_view(SAND, img))
    tints = elevation_tints(scan.heights_in)
    img = splat(model, scan.heights_in, scan.cell_in, tints)
    draw_contours(model, np.nan_to_num(scan.heights_in), scan.cell_in, img, SAND.height_at)
    cv2.imwrite(str(args.out / "sand-contours.png"), camera_view(SAND, img))
    t0 = time.perf_counter()
    v = viewshed(Ground(np.nan_to_num(scan.heights_in), scan.cell_in), (10.0, 24.0), range_in=40.0)
    view_s = time.perf_counter() - t0
    colours = {Sight.OUT_OF_RANGE: (0, 0, 0), Sight.HIDDEN: (90, 20, 20), Sight.COVER: (230, 170, 40), Sight.SEEN: (60, 200, 90)}
    rgb = np.zeros((*v.sight.shape, 3), np.uint8)
    for k, c in colours.items():
        rgb[v.sight == k] = c
    img = splat(model, scan.heights_in, scan.cell_in, rgb)
    cv2.imwrite(str(args.out / "sand-viewshed.png"), camera_view(SAND, img))
    print(f"  viewshed of a unit at (10, 24) within 40\" over the scanned sand: {1000 * view_s:.0f} ms")
    print(f"  pictures in {args.out}: sand-sculpting-projector.png, sand-sculpting.png, sand-contours.png, "
          f"sand-viewshed.png ({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
