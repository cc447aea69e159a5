"""`sandtable track` with several cameras: sources, camera nodes and one calibration each, fused.

    sandtable track --camera 0 --camera 1 --calibration left.json --calibration right.json --scenario game.toml
    sandtable track left.mp4 right.mp4 --calibration left.json --calibration right.json --jsonl
    sandtable track --camera 0 --node right=tcp://pi-right.local:5556 --calibration left.json --calibration right.json

Calibrations pair with cameras in the order the cameras are given: SOURCE arguments first, then
``--camera``, then ``--node``. Every camera's calibration must be made on the same layout file.
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any


def parse_node(text: str) -> tuple[str, str]:
    """``"left=tcp://pi:5556"`` -> ("left", "tcp://pi:5556")."""
    from appmodel.errors import UsageError

    name, sep, address = text.partition("=")
    if not sep or not name.strip() or "://" not in address:
        raise UsageError(f"--node {text}: write it as NAME=tcp://HOST:PORT, NAME as the node's --name (e.g. left=tcp://pi-left.local:5556)")
    return name.strip(), address.strip()


def run_several(args: argparse.Namespace, specs: list[str], calibration_files: list[str], *, event_line: Any, progress: Any, terrain: Any) -> int:
    """Track with several cameras; ``specs`` are the local sources, ``args.node`` the remote ones."""
    from appmodel.errors import UsageError
    from calibration.files import load_table_calibration
    from tracker.camera_node import DetectionReceiver
    from tracker.multi_camera import MultiCameraTracker
    from tracker.multi_session import run_multi_tracking
    from tracker.recording import Recorder
    from tracker.roster import Roster, load_roster
    from tracker.sources import open_source
    from tracker.unit_tracker import TrackerSettings

    nodes = [parse_node(n) for n in (args.node or [])]
    names = _local_names(specs) + [name for name, _ in nodes]
    if len(set(names)) != len(names):
        raise UsageError(f"cameras {names}: two have the same name; give each --node its own NAME")
    if len(calibration_files) != len(names):
        raise UsageError(
            f"{len(names)} cameras ({', '.join(names)}) but {len(calibration_files)} --calibration file(s): give one table "
            "calibration per camera, in the order the cameras are given (SOURCE arguments, then --camera, then --node)"
        )
    if args.bare:
        raise UsageError("--bare compares the plain detector on one camera; leave it out with several cameras")
    if args.video:
        raise UsageError("--video keeps one camera's video; with several cameras record without --video")
    if args.tuio is not None:
        raise UsageError("--tuio sends one camera's units; with several cameras it is not available yet")
    if args.record and Path(args.record).exists():
        raise UsageError(f"--record {args.record}: the file exists; choose another name (recordings are never overwritten)")
    calibrations = {name: load_table_calibration(path) for name, path in zip(names, calibration_files)}
    roster = load_roster(args.scenario) if args.scenario else Roster()
    sources: dict[str, Any] = {}
    tracker = None
    receiver = None
    recorder = None
    stop = threading.Event()
    try:
        for name, spec in zip(names, specs):
            sources[name] = open_source(spec, fps=args.fps)
        kinds = {s.is_live for s in sources.values()}
        if len(kinds) > 1:
            raise UsageError("cameras and files cannot be tracked together: give only cameras (--camera) or only files")
        tracker = MultiCameraTracker(
            calibrations, roster=roster, terrain=terrain, settings=TrackerSettings(lost_after_s=args.lost_after),
            remote=[name for name, _ in nodes],
        )
        if nodes:
            receiver = DetectionReceiver([address for _, address in nodes])
        print(tracker.coverage().summary(), file=sys.stderr)
        if args.record:
            metadata = {
                "source": " + ".join(specs + [f"{n}={a}" for n, a in nodes]),
                "command": "sandtable " + " ".join(sys.argv[1:]),
                "cameras": json.dumps([{"name": n, "calibration_path": str(Path(c).resolve())} for n, c in zip(names, calibration_files)]),
                "calibration_path": str(Path(calibration_files[0]).resolve()),
                "calibration_json": Path(calibration_files[0]).read_text(encoding="utf-8"),
            }
            if args.scenario:
                import tomllib

                metadata["scenario_path"] = str(Path(args.scenario).resolve())
                metadata["scenario_toml"] = Path(args.scenario).read_text(encoding="utf-8")
                metadata["ruleset"] = str(tomllib.loads(metadata["scenario_toml"]).get("ruleset", "down-range"))
            recorder = Recorder(args.record, metadata=metadata, roster=roster)
        counts = [s.frame_count for s in sources.values()]
        total = max(counts) if counts and None not in counts and not nodes else None
        if args.max_frames is not None and total is not None:
            total = min(total, args.max_frames)
        bar = progress(total, enabled=not args.no_progress and total is not None)
        if not args.jsonl:
            tracker.bus.subscribe(lambda e: print(event_line(e) + (f" [{e.payload['camera']}]" if "camera" in e.payload else ""), flush=True))

        def on_frame(result: Any) -> None:
            if args.jsonl:
                print(json.dumps(result.to_json()), flush=False)
            bar.update(result.frame_index)

        started = time.perf_counter()
        try:
            processed = run_multi_tracking(sources, tracker, receiver=receiver, recorder=recorder, on_frame=on_frame,
                                           stop=stop, max_frames=args.max_frames)
        except KeyboardInterrupt:
            stop.set()
            processed = tracker.frames_processed
            print("sandtable track: stopped (Ctrl+C)", file=sys.stderr)
        elapsed = time.perf_counter() - started
        bar.done()
        if not args.jsonl:
            _summary(tracker, processed, elapsed)
        sys.stdout.flush()
    finally:
        if tracker is not None:
            tracker.close()
        if receiver is not None:
            receiver.close()
        for s in sources.values():
            s.close()
        if recorder is not None:
            recorder.close()
            print(f"recorded to {args.record}", file=sys.stderr)
    return 0


def _local_names(specs: list[str]) -> list[str]:
    """Names for local cameras as the user gave them: "camera 0", or the file's name."""
    out = []
    for spec in specs:
        text = str(spec)
        out.append(f"camera {text}" if text.strip().isdigit() or "://" in text else Path(text).name)
    return out


def _summary(tracker: Any, processed: int, elapsed: float) -> None:
    rate = processed / elapsed if elapsed > 0 else 0.0
    print(f"{processed} frames tracked with {len(tracker.camera_names)} cameras ({rate:.1f} frames/s)")
    gap = set(tracker.units_in_gap())
    for pose in tracker.poses:
        note = ", in a gap between the cameras' views" if pose.tag_id in gap else ""
        print(f"  {pose.tag_id:>4} {pose.name:<20} {pose.state.value:<7} ({pose.x_in:6.2f}, {pose.y_in:6.2f}) in, "
              f"moved {pose.moved_this_turn_in:.2f} in, heading {pose.heading_deg:5.1f} deg{note}")
    for status in tracker.camera_statuses():
        extra = f", re-registered {status.re_registrations}x" if status.re_registrations else ""
        print(f"  camera {status.name}: {status.anchors_seen} anchors in view{extra}" + (f"; {status.message}" if status.message else ""))
