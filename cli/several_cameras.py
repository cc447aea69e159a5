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
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def parse_node(text: str) -> tuple[str, str]:
    """``"left=tcp://pi:5556"`` -> ("left", "tcp://pi:5556")."""
    from appmodel.errors import UsageError

    name, sep, address = text.partition("=")
    if not sep or not name.strip() or "://" not in address:
        raise UsageError(f"--node {text}: write it as NAME=tcp://HOST:PORT, NAME as the node's --name (e.g. left=tcp://pi-left.local:5556)")
    return name.strip(), address.strip()


@dataclass(frozen=True)
class CameraPlan:
    """The cameras a user named, each with its calibration file: local ones first, then nodes."""

    names: tuple[str, ...]
    specs: tuple[str, ...]  # the local cameras' sources, in the order of the first names
    nodes: tuple[tuple[str, str], ...]  # (name, address) of cameras on other computers
    calibration_files: tuple[str, ...]

    @property
    def local_names(self) -> tuple[str, ...]:
        return self.names[:len(self.specs)]

    def source_text(self) -> str:
        return " + ".join(list(self.specs) + [f"{n}={a}" for n, a in self.nodes])

    def metadata(self) -> dict[str, str]:
        """What a recording keeps about the cameras (the first camera's calibration as the table's)."""
        return {
            "source": self.source_text(),
            "cameras": json.dumps([{"name": n, "calibration_path": str(Path(c).resolve())}
                                   for n, c in zip(self.names, self.calibration_files)]),
            "calibration_path": str(Path(self.calibration_files[0]).resolve()),
            "calibration_json": Path(self.calibration_files[0]).read_text(encoding="utf-8"),
        }


def plan_cameras(specs: list[str], node_args: list[str] | None, calibration_files: list[str], *, command: str) -> CameraPlan:
    """Check that every camera has a name of its own and a calibration (one line saying what is wrong)."""
    from appmodel.errors import UsageError

    nodes = [parse_node(n) for n in (node_args or [])]
    names = camera_names(specs) + [name for name, _ in nodes]
    if len(set(names)) != len(names):
        raise UsageError(f"cameras {names}: two have the same name; give each --node its own NAME")
    if len(calibration_files) != len(names):
        order = "SOURCE arguments, then --camera, then --node" if command == "track" else "--camera, then --node"
        raise UsageError(
            f"{len(names)} cameras ({', '.join(names)}) but {len(calibration_files)} --calibration file(s): give one table "
            f"calibration per camera, in the order the cameras are given ({order})"
        )
    return CameraPlan(tuple(names), tuple(specs), tuple(nodes), tuple(calibration_files))


def open_cameras(plan: CameraPlan, *, fps: float | None = None, rtsp_transport: str | None = None) -> dict[str, Any]:
    """The local cameras' frame sources, by name; cameras and files are not mixed (one line if they are)."""
    from appmodel.errors import UsageError
    from tracker.sources import open_source

    sources: dict[str, Any] = {}
    try:
        for name, spec in zip(plan.names, plan.specs):
            sources[name] = open_source(spec, fps=fps, rtsp_transport=rtsp_transport)
        if len({s.is_live for s in sources.values()}) > 1:
            raise UsageError("cameras and files cannot be tracked together: give only cameras (--camera) or only files")
    except BaseException:
        for s in sources.values():
            s.close()
        raise
    return sources


def load_calibrations(plan: CameraPlan) -> dict[str, Any]:
    """Each camera's table calibration, by name (a broken file is one line naming it)."""
    from calibration.files import load_table_calibration

    return {name: load_table_calibration(path) for name, path in zip(plan.names, plan.calibration_files)}


def several_camera_tracker(plan: CameraPlan, calibrations: dict[str, Any], *, roster: Any, terrain: Any,
                           settings: Any = None) -> tuple[Any, Any]:
    """(``MultiCameraTracker``, ``DetectionReceiver`` or None) for the plan's cameras."""
    from tracker.multi_camera import MultiCameraTracker

    receiver = open_receiver(plan)
    try:
        tracker = MultiCameraTracker(calibrations, roster=roster, terrain=terrain, settings=settings,
                                     remote=[name for name, _ in plan.nodes])
    except BaseException:
        if receiver is not None:
            receiver.close()
        raise
    return tracker, receiver


def open_receiver(plan: CameraPlan) -> Any:
    """The table's end of the plan's camera nodes (None without any), each node checked as paired
    before anything connects: one line naming the key file to copy when one is not."""
    if not plan.nodes:
        return None
    from tracker.camera_node import DetectionReceiver

    keys, nodes = check_paired(plan)
    return DetectionReceiver(nodes, keys=keys)


def check_paired(plan: CameraPlan) -> tuple[Any, list[tuple[str, str, bytes]]]:
    """This computer's table keys and (name, address, public key) of each node, checked before any
    file or camera is opened; the table's key pair is made on first use, and said so."""
    from tracker.node_keys import keys_folder, own_key_pair, paired_node

    folder = keys_folder()
    keys, made = own_key_pair(folder, "table")
    if made:
        print(f"made this computer's table key: copy {folder / 'table.key'} into each camera node's keys folder, "
              "under tables/", file=sys.stderr)
    return keys, [(name, address, paired_node(folder, name)) for name, address in plan.nodes]


def refuse_video_without_a_camera_here(video: bool, local_cameras: Any) -> None:
    """``--video`` needs a camera of this computer: camera nodes send their detections, not pictures."""
    from appmodel.errors import UsageError

    if video and not local_cameras:
        raise UsageError("--video keeps a camera's video, but every camera is on another computer and sends only its "
                         "detections; leave --video out or add a camera of this computer")


def run_several(args: argparse.Namespace, specs: list[str], calibration_files: list[str], *, event_line: Any, progress: Any, terrain: Any) -> int:
    """Track with several cameras; ``specs`` are the local sources, ``args.node`` the remote ones."""
    from appmodel.errors import UsageError
    from tracker.recording import Recorder
    from tracker.roster import Roster, load_roster
    from cli.tracking_run import GAVE_UP_EXIT, StreamNotices, close_outputs, give_up_after, run_until_stopped
    from tracker.tracking_loop import Listener, RecorderFeed, TrackingLoop, TuioFeed
    from tracker.tuio import TuioAddress, TuioSender
    from tracker.unit_tracker import TrackerSettings

    plan = plan_cameras(specs, args.node, calibration_files, command="track")
    if args.bare:
        raise UsageError("--bare runs the plain detector over one camera's whole frames to compare it with the fast "
                         "tracking; with several cameras each camera's own detector runs on its own core: leave --bare out")
    refuse_video_without_a_camera_here(args.video, plan.specs)
    if args.record and Path(args.record).exists():
        raise UsageError(f"--record {args.record}: the file exists; choose another name (recordings are never overwritten)")
    tuio_address = TuioAddress.parse(args.tuio) if args.tuio is not None else None
    roster = load_roster(args.scenario) if args.scenario else Roster()
    if plan.nodes:
        check_paired(plan)  # an unpaired node is said before anything else is read
    calibrations = load_calibrations(plan)  # every file read before any camera opens
    from cli.camera_pairing import check_calibration_order

    check_calibration_order(plan, calibrations)  # swapped files would track inches off, "re-registered"
    sources: dict[str, Any] = {}
    tracker = None
    receiver = None
    recorder = None
    tuio = None
    loop = None
    stop = threading.Event()
    try:
        sources = open_cameras(plan, fps=args.fps, rtsp_transport=getattr(args, "rtsp_transport", None))
        tracker, receiver = several_camera_tracker(plan, calibrations, roster=roster, terrain=terrain,
                                                   settings=TrackerSettings(lost_after_s=args.lost_after))
        loop = TrackingLoop(tracker, sources, receiver=receiver)
        print(tracker.coverage().summary(), file=sys.stderr)
        if tuio_address is not None:
            layout = tracker.layout
            tuio = TuioSender(tuio_address, table_size_in=(layout.width_in, layout.depth_in))
            loop.subscribe(TuioFeed(tuio))
            print(f"sending TUIO to {tuio_address} (table coordinates, every camera's units fused)", file=sys.stderr)
        if args.record:
            metadata = {"command": "sandtable " + " ".join(sys.argv[1:]), **plan.metadata()}
            if args.scenario:
                import tomllib

                metadata["scenario_path"] = str(Path(args.scenario).resolve())
                metadata["scenario_toml"] = Path(args.scenario).read_text(encoding="utf-8")
                metadata["ruleset"] = str(tomllib.loads(metadata["scenario_toml"]).get("ruleset", "down-range"))
            video_camera = plan.local_names[0] if args.video else None
            first = sources[plan.local_names[0]] if plan.specs else None
            recorder = Recorder(args.record, metadata=metadata, roster=roster, video=args.video,
                                video_fps=getattr(first, "fps", None) or 30.0,
                                video_backpressure=first is not None and not first.is_live)
            if video_camera is not None:
                recorder.set_meta("video_camera", video_camera)
                print(f"--video keeps camera {video_camera}'s video (the recording's calibration is that camera's)",
                      file=sys.stderr)
            loop.subscribe(RecorderFeed(recorder, video_camera=video_camera))
        counts = [s.frame_count for s in sources.values()]
        total = max(counts) if counts and None not in counts and not plan.nodes else None
        if args.max_frames is not None and total is not None:
            total = min(total, args.max_frames)
        bar = progress(total, enabled=not args.no_progress and total is not None)
        if not args.jsonl:
            loop.subscribe(Listener(on_event=lambda e: print(
                event_line(e) + (f" [{e.payload['camera']}]" if "camera" in e.payload else ""), flush=True)))

        def on_frame(tracked_round: Any) -> None:
            if args.jsonl:
                line = tracked_round.tracked.to_json()
                if receiver is not None and any(receiver.bad_messages.values()):
                    # Messages a node sent that were skipped (damaged, too big, another camera's name).
                    line["node_bad_messages"] = dict(receiver.bad_messages)
                print(json.dumps(line), flush=False)
            bar.update(tracked_round.frame_index)

        loop.subscribe(Listener(on_frame=on_frame))
        # A camera or node lost and back, and each try to reopen a camera, said at once (in --jsonl too).
        notices = StreamNotices(jsonl=args.jsonl, labels={name: name for name in plan.names})
        loop.subscribe(notices.subscriber())
        started = time.perf_counter()
        processed = run_until_stopped(loop, stop, args.max_frames,
                                      give_up_after(getattr(args, "give_up_after", None), args.max_frames))
        elapsed = time.perf_counter() - started
        bar.done()
        if loop.gave_up is not None:
            notices.gave_up(loop.gave_up, processed)
        if not args.jsonl:
            _summary(tracker, processed, elapsed)
        sys.stdout.flush()
    finally:
        if loop is not None:
            loop.close()
        if tracker is not None:
            tracker.close()
        if receiver is not None:
            receiver.close()
        for s in sources.values():
            s.close()
        close_outputs(tuio, recorder, args.record)
    return GAVE_UP_EXIT if loop is not None and loop.gave_up is not None else 0


def camera_names(specs: list[str]) -> list[str]:
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
