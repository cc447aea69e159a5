"""`sandtable detect IMAGE`: the AprilTags in one picture, in pixels and (calibrated) table inches.

    sandtable detect table.png --json
    sandtable detect table.png --calibration table.json --scenario game.toml --json

JSON shape: ``{"image": ..., "size_px": [w, h], "detections": [{"tag_id", "corners_px" (4 x [x, y],
detector order, OpenCV pixel convention), "center_px", "decision_margin", "kind" ("anchor" | "unit" |
"unknown"), and when calibrated "table_in" [x, y], "z_in", "heading_deg"}]}``. Unit tags are taken to
stand ``--height-in`` inches above the table (default: the scenario's base height, else 1"), anchors
at their layout height.
"""
from __future__ import annotations

import argparse

NAME = "detect"
HELP = "Find the AprilTags (tag36h11) in one image; with --calibration, their table positions in inches."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", metavar="IMAGE", help="a photo or frame (PNG, JPEG...)")
    parser.add_argument("--calibration", metavar="FILE", help="table calibration (JSON) for table inches")
    parser.add_argument("--scenario", metavar="FILE", help="scenario (TOML): names units and their base heights")
    parser.add_argument(
        "--height-in", type=float, default=None, metavar="H",
        help="height of unit tags above the table, inches (default: scenario's base height, else 1.0)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from pathlib import Path

    import numpy as np

    from appmodel.errors import UsageError
    from tracker.decode_policy import DecodePolicy
    from tracker.image_detection import examine_image
    from tracker.roster import Roster, load_roster
    from tracker.unit_tracker import ANCHORS_WITHOUT_CALIBRATION
    from tracker.unit_pose import table_poses

    from tracker.image_files import read_image

    path = Path(args.image)
    image = read_image(path, grayscale=True)
    if args.height_in is not None and not 0 <= args.height_in <= 48:
        raise UsageError(f"--height-in {args.height_in}: give the tags' height above the table in inches (0-48)")
    if args.scenario:
        from appmodel.scenarios.check import check_scenario

        check_scenario(args.scenario)
    roster = load_roster(args.scenario) if args.scenario else Roster()
    cal = _calibration(args.calibration, image.shape[1], image.shape[0]) if args.calibration else None
    anchor_ids = set(cal.layout.anchor_ids) if cal is not None and cal.layout.anchors else set(range(10))

    if cal is None:
        print(ANCHORS_WITHOUT_CALIBRATION, file=sys.stderr)
    examined = examine_image(image, policy=DecodePolicy.knowing(anchor_ids, roster.tag_ids))
    found = examined.detections
    rows = []
    for i in range(len(found)):
        tag_id = int(found.tag_ids[i])
        spec = roster.spec_for(tag_id)
        kind = "anchor" if tag_id in anchor_ids else ("unit" if spec is not None else "unknown")
        row = {
            "tag_id": tag_id,
            "kind": kind,
            "corners_px": [[round(float(x), 3), round(float(y), 3)] for x, y in found.corners_px[i]],
            "center_px": [round(float(v), 3) for v in found.centers_px[i]],
            "decision_margin": round(float(found.decision_margins[i]), 2),
        }
        if spec is not None and spec.name:
            row["name"] = spec.name
        if tag_id in examined.fallback_ids:
            row["note"] = "found only by OpenCV's ArUco detector: its white border is likely trimmed"
        if cal is not None:
            if kind == "anchor":
                anchor = cal.layout.anchor(tag_id)
                z = anchor.z_in if anchor is not None else 0.0
                offset = 0.0
            else:
                base = spec.base_height_in if spec is not None else 1.0
                z = args.height_in if args.height_in is not None else base
                offset = spec.facing_offset_deg if spec is not None else 0.0
            pose = table_poses(found.corners_px[i : i + 1], cal, base_heights_in=np.array([z]))[0]
            if np.all(np.isfinite(pose)):
                row["table_in"] = [round(float(pose[0]), 3), round(float(pose[1]), 3)]
                row["z_in"] = round(float(pose[2]), 3)
                row["heading_deg"] = round(float((pose[3] + offset) % 360.0), 2)
        rows.append(row)
    rows.sort(key=lambda r: r["tag_id"])
    if args.json:
        undecoded = [
            {"corners_px": [[round(float(x), 2), round(float(y), 2)] for x, y in sq.corners_px], "edge_px": round(sq.edge_px, 1),
             "reason": sq.reason}
            for sq in examined.undecoded
        ]
        print(json.dumps({"image": str(path), "size_px": [int(image.shape[1]), int(image.shape[0])], "detections": rows,
                          "undecoded": undecoded}))
        return 0
    print(f"{path}: {len(rows)} tag(s) found in {image.shape[1]}x{image.shape[0]} px")
    for r in rows:
        where = f"centre ({r['center_px'][0]:8.2f}, {r['center_px'][1]:8.2f}) px"
        if "table_in" in r:
            where += f"  table ({r['table_in'][0]:6.2f}, {r['table_in'][1]:6.2f}) in at z {r['z_in']:.2f}, heading {r['heading_deg']:6.1f} deg"
        label = f"{r['kind']} {r['tag_id']}" + (f" {r['name']!r}" if "name" in r else "")
        print(f"  {label:<24} {where}" + (f"  ({r['note']})" if "note" in r else ""))
    for sq in examined.undecoded:
        print(f"  {sq.describe()}")
    return 0


def _calibration(path: str, width: int, height: int):  # -> TableCalibration
    from calibration.files import load_table_calibration

    return load_table_calibration(path).for_frame_size(width, height)
