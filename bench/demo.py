"""The demo's footage: which camera lets the tracker follow the in-depth example, and what the demo costs.

Part 1 (tracking) films the same story (the short timing: every step and roll, 10 frames/s, moves at
a hand's pace) with the demo's synthetic webcam at three settings, and runs on every frame

* the **pipeline** (``tracker.pipeline.Tracker``: windows + sweep, poses in table inches), and
* on every 5th frame the **bare detector** (pupil-apriltags on the whole frame, full resolution),

then prints side by side: the unit tag's width in pixels, the bare detector's recall, the pipeline's
recall over all sightings and over units standing clear of others (no card overlapping theirs for
2 s; the tracker's sweep needs that long to find a tag it lost), the worst and median position error
of still, clear units against the script, and the share of moving sightings within 0.1" of where the
script had the unit in the last two frames (the tracker's lag). Settings: 1280x720 with the
scenario's 1" tags, 1280x720 with 1.5" tags (bases that can no longer touch), and the demo's
1920x1080 with 1" tags.

Part 2 (the demo) runs ``sandtable demo --headless`` (full timing) into a temporary folder and prints
its wall time and what each stage costs per frame.

Part 3 (the other rule systems) runs ``sandtable demo --headless --example patrol`` and ``--example
solo`` (full timing, the 1080p demo webcam) and prints for each, from the run's own samples: frames and
wall time, the tracker's recall over all sightings and over tags standing clear of others (no card
overlapping theirs, not just set down), the worst and median error of still, clear tags against the
script, the worst error of each moved figure where its move ended, the share of moving sightings
within 0.1" (two frames of lag), and how many of the recorded rules events say what the script's own
play says. Figures are from one run on a machine shared with other work: compare within a run.

    .venv/bin/python bench/demo.py [--skip-full] [--examples-only]
"""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2
import numpy as np

from demo.footage import demo_camera, register_demo_table
from gui.demo.headless import CROWDED, RECOVER_S, STILL_AFTER_S
from demo.story import DemoTiming, build_story
from tracker.detections import detect_tags, make_detector
from tracker.frames import Frame
from tracker.pipeline import Tracker
from tracker.roster import roster_from_scenario

SETTINGS = (("1280x720, 1\" tags", (1280, 720), 1.0), ("1280x720, 1.5\" tags", (1280, 720), 1.5),
            ("1920x1080, 1\" tags (demo)", (1920, 1080), 1.0))
BARE_EVERY = 5


def track_story(size_px: tuple[int, int], troop_tag_in: float) -> dict[str, float]:
    story = build_story(timing=DemoTiming.short())
    if troop_tag_in != 1.0:
        paths = tuple(replace(p, tag_size_in=troop_tag_in) if p.tag_size_in == 1.0 else p for p in story.paths)
        story = replace(story, paths=paths, scenario={**story.scenario, "units": [
            {**u, "tag_size_in": troop_tag_in} if u.get("tag_size_in", 1.0) == 1.0 else u for u in story.scenario["units"]]})
    camera = demo_camera(story, size_px=size_px)
    calibration = register_demo_table(camera, camera.scenario.render_frame(0).image_bgr)
    tracker = Tracker(roster=roster_from_scenario(story.scenario), calibration=calibration)
    bare = make_detector(nthreads=2)
    fps = story.timing.fps
    sizes = {p.tag_id: p.tag_size_in for p in story.paths}
    last_crowded: dict[int, float] = {}
    counts = dict(sightings=0, seen=0, clear=0, clear_seen=0, bare_sightings=0, bare_seen=0, moving=0, moving_ok=0)
    errors: list[float] = []
    widths: list[float] = []
    track_s = 0.0
    try:
        for i in range(story.frame_count):
            rendered = camera.scenario.render_frame(i)
            t = i / fps
            start = time.perf_counter()
            result = tracker.process(Frame(rendered.image_bgr, i, t))
            track_s += time.perf_counter() - start
            truths = [tr for tr in rendered.truth if tr.tag_id >= 10 and tr.in_view]
            for tr in truths:
                if any(o.tag_id != tr.tag_id and math.hypot(o.x_in - tr.x_in, o.y_in - tr.y_in) < CROWDED * (sizes[o.tag_id] + sizes[tr.tag_id])
                       for o in truths):
                    last_crowded[tr.tag_id] = t
            if i % BARE_EVERY == 0:
                found = detect_tags(bare, cv2.cvtColor(rendered.image_bgr, cv2.COLOR_BGR2GRAY))
                near = {int(k): c.mean(axis=0) for k, c in zip(found.tag_ids.tolist(), found.corners_px)}
                for tr in truths:
                    counts["bare_sightings"] += 1
                    edge = float(np.linalg.norm(tr.corners_px[0] - tr.corners_px[1]))
                    hit = near.get(tr.tag_id)
                    counts["bare_seen"] += hit is not None and float(np.linalg.norm(hit - tr.center_px)) < edge / 4
            for tr in truths:
                if sizes[tr.tag_id] == 1.0 or troop_tag_in != 1.0 and sizes[tr.tag_id] == troop_tag_in:
                    widths.append(float(np.linalg.norm(tr.corners_px[0] - tr.corners_px[1])))
                pose = result.pose(tr.tag_id)
                seen = pose is not None and pose.state.value == "seen" and pose.last_seen_t_s >= t - 1e-6
                counts["sightings"] += 1
                counts["seen"] += seen
                if t - last_crowded.get(tr.tag_id, -math.inf) <= RECOVER_S:
                    continue
                counts["clear"] += 1
                counts["clear_seen"] += seen
                still = not story.moving_between(tr.tag_id, t - STILL_AFTER_S, t)
                scripted = story.scripted_pose(tr.tag_id, t)
                if not seen or scripted is None:
                    continue
                if still:
                    errors.append(math.hypot(pose.x_in - scripted[0], pose.y_in - scripted[1]))
                else:
                    lagged = [story.scripted_pose(tr.tag_id, t - k / (4 * fps)) for k in range(9)]
                    counts["moving"] += 1
                    counts["moving_ok"] += min(math.hypot(pose.x_in - p[0], pose.y_in - p[1]) for p in lagged if p) <= 0.1
    finally:
        tracker.close()
    return dict(width_px=float(np.median(widths)), bare=counts["bare_seen"] / max(1, counts["bare_sightings"]),
                recall=counts["seen"] / max(1, counts["sightings"]), clear=counts["clear_seen"] / max(1, counts["clear"]),
                err_max=max(errors, default=float("nan")), err_median=float(np.median(errors)) if errors else float("nan"),
                lag_ok=counts["moving_ok"] / max(1, counts["moving"]), track_ms=1000 * track_s / story.frame_count,
                frames=story.frame_count)


def example_figures(name: str, out_dir: Path) -> dict[str, float]:
    """One full-timing headless run of an example, measured against its script."""
    from gui.demo.headless import run_headless_demo

    run = run_headless_demo(out_dir, example=name)
    story = run.story
    samples = run.samples
    clear = [s for s in samples if not s.crowded]
    still = [s.error_in for s in clear if s.still and s.state == "seen" and s.error_in is not None]
    moving = [s for s in clear if not s.still and s.state == "seen" and s.error_in is not None]
    fps = story.timing.fps
    lag_ok = 0
    for s in moving:
        lagged = [story.scripted_pose(s.tag_id, s.t_s - k / (4 * fps)) for k in range(9)]
        lag_ok += min(math.hypot(s.x_in - p[0], s.y_in - p[1]) for p in lagged if p) <= 0.1
    # Where each move ended: the tag's first clear sighting once it has stood still (or its first sighting
    # at all when another card overlaps its spot: Sgt. Hale joining Alpha).
    arrived: list[float] = []
    by_tag: dict[int, list] = {}
    for s in samples:
        by_tag.setdefault(s.tag_id, []).append(s)
    for move in story.moves:
        after = [s for s in by_tag.get(move.tag_id, ()) if s.t_s >= move.t_end_s + STILL_AFTER_S and s.still
                 and s.state == "seen" and s.error_in is not None]
        best = next((s for s in after if not s.crowded), after[0] if after else None)
        if best is not None:
            arrived.append(math.hypot(best.x_in - move.to_xy[0], best.y_in - move.to_xy[1]))
    got = [(e.kind, e.summary) for e in run.final_state.events]
    want = [(e.kind, e.summary) for e in story.reference[-1].state.events]
    same = sum(a == b for a, b in zip(got, want))
    return dict(frames=run.frames, story_s=story.duration_s, wall_s=run.wall_s,
                recall=sum(s.state == "seen" for s in samples) / max(1, len(samples)),
                clear_seen=sum(s.state == "seen" for s in clear), clear=len(clear),
                err_max=max(still, default=float("nan")), err_median=float(np.median(still)) if still else float("nan"),
                arrived_max=max(arrived, default=float("nan")), moves=len(story.moves), arrived=len(arrived),
                lag_ok=lag_ok / max(1, len(moving)), moving=len(moving), same=same, events=len(want), got=len(got),
                track_ms=1000 * run.seconds["track"] / run.frames)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-full", action="store_true", help="leave out part 2 (the full Down Range demo)")
    parser.add_argument("--examples-only", action="store_true", help="only part 3 (Force on Force and generic examples)")
    args = parser.parse_args()
    if not args.examples_only:
        part_one_and_two(args.skip_full)
    print("\nPart 3: sandtable demo --headless --example NAME (full timing, 1920x1080 webcam), one run each")
    print(f" {'example':<8}| frames (story s) | wall s | recall all | clear seen | still clear err max / median in "
          f"| moved figures at their spot, max in | moving within 0.1\" | rules events as the script | track ms/frame")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("patrol", "solo"):
            r = example_figures(name, Path(tmp) / name)
            print(f" {name:<8}| {r['frames']:6d} ({r['story_s']:5.1f}) | {r['wall_s']:6.1f} | {r['recall']:10.3f} | "
                  f"{r['clear_seen']:5d}/{r['clear']:<5d}| {r['err_max']:13.4f} / {r['err_median']:.4f}       "
                  f"| {r['arrived_max']:11.4f} ({r['arrived']}/{r['moves']} moves)       | {r['lag_ok']:6.3f} of {r['moving']:<5d}"
                  f"| {r['same']:3d}/{r['events']} ({r['got']} recorded)      | {r['track_ms']:14.1f}", flush=True)


def part_one_and_two(skip_full: bool) -> None:
    print("Part 1: tracking the in-depth example (short timing) from the demo webcam's frames, one run")
    print(f" {'camera':<28}| unit tag px | bare recall | recall all | recall clear | still err max / median in "
          f"| moving within 0.1\" (lag <= 2 frames) | track ms/frame")
    for name, size, tag_in in SETTINGS:
        r = track_story(size, tag_in)
        print(f" {name:<28}| {r['width_px']:11.1f} | {r['bare']:11.3f} | {r['recall']:10.3f} | {r['clear']:12.3f} | "
              f"{r['err_max']:12.4f} / {r['err_median']:.4f} | {r['lag_ok']:37.3f} | {r['track_ms']:14.1f}", flush=True)
    if skip_full:
        return
    from gui.demo.headless import run_headless_demo

    print("\nPart 2: sandtable demo --headless (full timing), one run")
    with tempfile.TemporaryDirectory() as tmp:
        run = run_headless_demo(Path(tmp) / "demo")
        per = {k: 1000 * v / run.frames for k, v in run.seconds.items()}
        size_mb = run.video.stat().st_size / 1e6
        print(f" {run.frames} frames ({run.story.duration_s:.0f} s of story at {run.story.timing.fps:g} frames/s) in "
              f"{run.wall_s:.1f} s wall, {run.frames / run.wall_s:.1f} frames/s; video {size_mb:.1f} MB")
        print(" per frame, ms: " + ", ".join(f"{k} {v:.1f}" for k, v in per.items()) +
              " (rendering runs ahead in its own thread: 'wait for frames' is what it costs the loop)")


if __name__ == "__main__":
    main()
