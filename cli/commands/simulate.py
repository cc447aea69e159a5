"""`sandtable simulate`: film a scenario on the synthetic table, with ground truth next to the video.

    sandtable simulate calibration/synthetic/scenarios/skirmish.toml --out skirmish.mp4

writes ``skirmish.mp4``, ``skirmish.truth.jsonl`` (every tag's true position and pixel corners, one
line per frame) and ``skirmish.table.json`` (the simulated camera's exact table calibration, usable as
``--calibration`` for detect/track).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from appmodel.errors import UsageError

NAME = "simulate"
HELP = "Render a scenario on the synthetic table to a video, with a ground-truth file and the true calibration."

TRUTH_FORMAT = "sandtable-synthetic-truth"
TRUTH_VERSION = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML) with [simulation] and unit paths")
    parser.add_argument("--out", required=True, metavar="VIDEO", help="video to write (.mp4 or .avi)")
    parser.add_argument("--size", metavar="WxH", help="override the scenario's resolution, e.g. 1920x1080")
    parser.add_argument("--max-frames", type=int, metavar="N", help="stop after N frames")


def truth_paths(video: Path) -> tuple[Path, Path]:
    """Where the ground truth and the true table calibration of ``video`` go."""
    stem = video.with_suffix("")
    return Path(f"{stem}.truth.jsonl"), Path(f"{stem}.table.json")


def run(args: argparse.Namespace) -> int:
    import cv2

    from calibration.files import camera_model_to_dict, layout_to_dict, save_table_calibration
    from calibration.synthetic import load_synthetic_scenario
    from calibration.table_calibration import TableCalibration

    out = Path(args.out)
    if out.suffix.lower() not in (".mp4", ".avi"):
        raise UsageError(f"--out {args.out!r}: write a .mp4 or .avi video")
    if not out.parent.is_dir():
        raise UsageError(f"--out {args.out!r}: folder {str(out.parent)!r} does not exist; create it first")
    size = None
    if args.size:
        parts = args.size.lower().split("x")
        if len(parts) != 2 or not all(p.isdigit() for p in parts) or min(int(p) for p in parts) < 64:
            raise UsageError(f"--size {args.size!r}: write WIDTHxHEIGHT in pixels, e.g. 1280x720")
        size = (int(parts[0]), int(parts[1]))
    if args.max_frames is not None and args.max_frames < 1:
        raise UsageError(f"--max-frames {args.max_frames}: give 1 or more")
    from appmodel.scenarios.check import check_scenario

    check_scenario(args.scenario)  # the same checks as `scenarios --check`, before a frame is rendered
    scenario = load_synthetic_scenario(args.scenario, width_px=size[0] if size else None, height_px=size[1] if size else None)
    table = scenario.table
    w, h = table.size_px
    frames = scenario.frame_count if args.max_frames is None else min(args.max_frames, scenario.frame_count)
    if out.suffix.lower() == ".mp4":
        from tracker.h264_video import H264Writer

        writer: Any = H264Writer(out, float(scenario.fps), (w, h))  # plays in browsers; OpenCV reads it back
    else:
        writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), float(scenario.fps), (w, h))
        if not writer.isOpened():
            raise UsageError(f"cannot write video {args.out!r} (no encoder for {out.suffix}); use .mp4 or .avi")
    truth_path, table_path = truth_paths(out)
    truth = TableCalibration(model=table.model, pose=table.pose, layout=table.layout, residual_in=0.0, method="pnp",
                             notes=(f"exact: the simulated camera of {Path(args.scenario).name}",))
    save_table_calibration(truth, table_path)
    started = time.perf_counter()
    try:
        with open(truth_path, "w", encoding="utf-8") as fh:
            header = {
                "format": TRUTH_FORMAT, "version": TRUTH_VERSION, "scenario": str(args.scenario), "name": scenario.name,
                "video": out.name, "fps": scenario.fps, "frame_count": frames, "width_px": w, "height_px": h,
                "camera": camera_model_to_dict(table.model),
                "pose": {"rvec": list(table.pose.rvec), "tvec_in": list(table.pose.tvec_in)},
                "layout": layout_to_dict(table.layout),
            }
            fh.write(json.dumps(header) + "\n")
            for i in range(frames):
                frame = scenario.render_frame(i)
                writer.write(frame.image_bgr)
                fh.write(json.dumps({"frame": i, "t_s": frame.t_s, "tags": [_tag(t) for t in frame.truth]}) + "\n")
                if i % 10 == 9 or i == frames - 1:
                    rate = (i + 1) / max(time.perf_counter() - started, 1e-9)
                    print(f"\rsimulate: frame {i + 1}/{frames} ({100 * (i + 1) // frames}%), {rate:.0f} frames/s",
                          end="", file=sys.stderr, flush=True)
    finally:
        writer.release()
        print(file=sys.stderr)
    print(f"wrote {out} ({frames} frames, {w}x{h} at {scenario.fps:g} frames/s), {truth_path.name} and {table_path.name}")
    return 0


def _tag(t) -> dict:
    return {
        "tag_id": t.tag_id, "x_in": t.x_in, "y_in": t.y_in, "z_in": t.z_in, "heading_deg": t.heading_deg,
        "size_in": t.size_in, "corners_px": [[float(x), float(y)] for x, y in t.corners_px],
        "center_px": [float(t.center_px[0]), float(t.center_px[1])], "in_view": t.in_view, "occluded": t.occluded,
    }
