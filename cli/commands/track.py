"""`sandtable track SOURCE`: follow every unit through a camera, video, folder, scenario or recording.

    sandtable track 0 --calibration table.json --scenario game.toml --record game.sqlite
    sandtable track game.mp4 --scenario game.toml --jsonl > poses.jsonl
    sandtable track 0 --calibration table.json --tuio 127.0.0.1:3333   # TUIO 1.1 for other software (docs/tuio.md)
    sandtable track --camera 0 --camera 1 --calibration left.json --calibration right.json   # several cameras, fused
    sandtable track --camera 0 --camera 1 --calibration l.json --calibration r.json --tuio --record game.sqlite --video

``--jsonl`` prints one JSON object per frame: ``{"frame", "t_s", "units": [{"tag_id", "name",
"x_in", "y_in", "heading_deg", "state", ...}], "events": [...]}`` (``center_px`` instead of inches
when uncalibrated); a live camera lost and back between frames gets lines of their own, typed:
``{"type": "source_lost" | "source_retry" | "source_back" | "gave_up", "t_s", "camera", ...}``
(docs/tracker.md). Without it, events are printed as they happen and a summary at the end. Files are
processed frame by frame (none skipped) as fast as possible, with a progress bar on stderr; a camera
runs until Ctrl+C (the recording is closed properly), ``--max-frames`` or, once it is lost and retried
(each try counted on stderr), ``--give-up-after S`` (exit 3, what was recorded kept). With several cameras, ``--tuio`` sends the fused
units in table coordinates, and ``--video`` keeps the first camera's video (the recording's calibration
is that camera's); ``--bare`` is for comparing detectors on one camera and is refused.
"""
from __future__ import annotations

import argparse

NAME = "track"
HELP = "Track units through a camera (index or URL), video, image folder, synthetic scenario or recording."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="SOURCE", nargs="*",
                        help="camera index (0), stream URL, video file, image folder, scenario .toml or recording; several for several cameras")
    parser.add_argument("--camera", action="append", metavar="INDEX", help="a camera index or URL, like a SOURCE (repeat for several cameras)")
    parser.add_argument("--node", action="append", metavar="NAME=tcp://HOST:PORT",
                        help="a camera on another computer running `sandtable camera-node --name NAME` (repeatable)")
    parser.add_argument("--calibration", action="append", metavar="FILE",
                        help="table calibration (JSON): poses in table inches; with several cameras one each, in the order "
                        "the cameras are given (SOURCEs, then --camera, then --node)")
    parser.add_argument("--scenario", metavar="FILE", help="scenario (TOML): which tag is which unit")
    parser.add_argument("--record", metavar="FILE", help="record the session to this SQLite file")
    parser.add_argument("--video", action="store_true", help="with --record: also keep the camera video (<FILE>.mp4, H.264, which browsers play; with several cameras the first one's)")
    parser.add_argument("--jsonl", action="store_true", help="print one JSON line per frame")
    parser.add_argument("--max-frames", type=int, default=None, metavar="N",
                        help="stop after N frames (a stream lost for 10 s then ends the run too, unless --give-up-after)")
    parser.add_argument("--give-up-after", type=float, default=None, metavar="S",
                        help="end (exit 3, everything recorded kept) once a lost camera or stream has sent nothing for S "
                        "seconds; by default it is retried until Ctrl+C")
    parser.add_argument("--rtsp-transport", choices=("tcp", "udp"), default=None,
                        help="how an rtsp:// camera's video travels (default tcp; some cameras need udp)")
    parser.add_argument("--fps", type=float, default=None, help="frame rate of an image folder or a video without one")
    parser.add_argument("--lost-after", type=float, default=10.0, metavar="S", help="a hidden unit is lost after S seconds (default 10)")
    parser.add_argument("--bare", action="store_true", help="run the plain detector on every whole frame (slower; for comparison)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument(
        "--tuio", nargs="?", const="127.0.0.1:3333", default=None, metavar="HOST:PORT",
        help="send the units as TUIO 1.1 /tuio/2Dobj over UDP (default 127.0.0.1:3333; put it after SOURCE)",
    )


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    import threading
    import time
    import tomllib
    from pathlib import Path

    from appmodel.errors import UsageError
    from tracker.pipeline import Tracker
    from tracker.recording import Recorder
    from tracker.roster import Roster, load_roster
    from tracker.sources import open_source
    from cli.tracking_run import GAVE_UP_EXIT, StreamNotices, close_outputs, give_up_after, run_until_stopped
    from tracker.tracking_loop import Listener, RecorderFeed, TrackingLoop, TuioFeed
    from tracker.tuio import TuioAddress, TuioSender
    from tracker.unit_tracker import TrackerSettings

    if args.max_frames is not None and args.max_frames < 1:
        raise UsageError(f"--max-frames {args.max_frames}: give a positive number of frames")
    if args.give_up_after is not None and not 0 < args.give_up_after < 1e6:
        raise UsageError(f"--give-up-after {args.give_up_after}: give a positive number of seconds")
    if args.lost_after <= 0:
        raise UsageError(f"--lost-after {args.lost_after}: give a positive number of seconds")
    if args.video and not args.record:
        raise UsageError("--video keeps the camera video next to a recording; add --record FILE")
    if args.fps is not None and not 0 < args.fps <= 1000:
        raise UsageError(f"--fps {args.fps}: give frames per second between 0 and 1000")
    specs = list(args.source) + list(args.camera or [])
    calibrations = list(args.calibration or [])
    from appmodel.scenarios.check import check_scenario

    for scenario in {args.scenario, *(s for s in specs if str(s).lower().endswith(".toml"))} - {None}:
        # the same checks as `scenarios --check` (a synthetic table's too), before the camera opens; a scenario
        # of tag ids and names alone is not asked for the rules' fields (side, type): the tracker uses none
        check_scenario(scenario, rules=None)
    if len(specs) > 1 or args.node:
        from cli.several_cameras import run_several

        terrain = _terrain(args.scenario) if args.scenario else None
        return run_several(args, specs, calibrations, event_line=_event_line, progress=_Progress, terrain=terrain)
    if not specs:
        raise UsageError("give a SOURCE: a camera index (0), a video, an image folder, a scenario .toml or a recording")
    if len(calibrations) > 1:
        raise UsageError(f"{len(calibrations)} --calibration files for one camera; give one (or give a camera for each)")
    args.source, args.calibration = specs[0], (calibrations[0] if calibrations else None)
    roster = load_roster(args.scenario) if args.scenario else Roster()
    terrain = _terrain(args.scenario) if args.scenario else None
    calibration = None
    if args.calibration:
        from calibration.files import load_table_calibration

        calibration = load_table_calibration(args.calibration)
    if args.record and Path(args.record).exists():
        raise UsageError(f"--record {args.record}: the file exists; choose another name (recordings are never overwritten)")
    tuio_address = TuioAddress.parse(args.tuio) if args.tuio is not None else None

    # Tracking needs no colour: a video file is read grey from its decoder (half a 4K frame's decoding),
    # unless its pictures are kept in the recording.
    source = open_source(args.source, fps=args.fps, gray=not args.video, rtsp_transport=args.rtsp_transport)
    recorder = None
    tracker = None
    tuio = None
    loop = None
    stop = threading.Event()
    try:
        first = None
        if not source.is_live:
            first = source.read()
            if first is None:
                raise UsageError(f"'{args.source}' holds no frames")
        if calibration is not None and first is not None:
            calibration = calibration.for_frame_size(*first.size_px)
        tracker = Tracker(
            roster=roster,
            calibration=calibration,
            terrain=terrain,
            settings=TrackerSettings(lost_after_s=args.lost_after),
            fast=not args.bare,
        )
        loop = TrackingLoop(tracker, source)
        if calibration is None:
            from tracker.unit_tracker import ANCHORS_WITHOUT_CALIBRATION

            print(ANCHORS_WITHOUT_CALIBRATION, file=sys.stderr)
        if tuio_address is not None:
            layout = getattr(calibration, "layout", None)
            tuio = TuioSender(tuio_address, table_size_in=(layout.width_in, layout.depth_in) if layout is not None else None)
            print(f"sending TUIO to {tuio_address} ({'table' if layout is not None else 'camera frame'} coordinates)", file=sys.stderr)
            loop.subscribe(TuioFeed(tuio))
        if args.record:
            metadata = {"source": str(args.source), "command": "sandtable " + " ".join(sys.argv[1:])}
            if args.scenario:
                metadata["scenario_path"] = str(Path(args.scenario).resolve())
                metadata["scenario_toml"] = Path(args.scenario).read_text(encoding="utf-8")
                metadata["ruleset"] = str(tomllib.loads(metadata["scenario_toml"]).get("ruleset", "down-range"))
            if args.calibration:
                metadata["calibration_path"] = str(Path(args.calibration).resolve())
                metadata["calibration_json"] = Path(args.calibration).read_text(encoding="utf-8")
            recorder = Recorder(args.record, metadata=metadata, roster=roster, video=args.video, video_fps=source.fps,
                                video_backpressure=not source.is_live)  # a file waits for the encoder: no frame lost
            loop.subscribe(RecorderFeed(recorder, video_camera=next(iter(loop.sources)) if args.video else None))

        total = source.frame_count
        if args.max_frames is not None and total is not None:
            total = min(total, args.max_frames)
        progress = _Progress(total, enabled=not args.no_progress and not source.is_live)
        if not args.jsonl:
            loop.subscribe(Listener(on_event=lambda e: print(_event_line(e), flush=True)))

        def on_frame(tracked_round) -> None:
            if args.jsonl:
                print(json.dumps(tracked_round.tracked.to_json()), flush=False)
            progress.update(tracked_round.frame_index)

        loop.subscribe(Listener(on_frame=on_frame))
        notices = StreamNotices(jsonl=args.jsonl, labels={name: source.name for name in loop.sources})
        loop.subscribe(notices.subscriber())
        processed = 0
        if first is not None:
            first_round = loop.track_frame(first)
            _undecoded_on_first_frame(first.image_bgr, first_round.tracked.detections)
            processed = 1
        remaining = None if args.max_frames is None else args.max_frames - processed
        started = time.perf_counter()
        processed += run_until_stopped(loop, stop, remaining, give_up_after(args.give_up_after, args.max_frames))
        elapsed = time.perf_counter() - started
        progress.done()
        if loop.gave_up is not None:
            notices.gave_up(loop.gave_up, processed)
        if not args.jsonl:
            _summary(tracker, processed, elapsed)
        _never_seen(tracker, roster, calibration)
        sys.stdout.flush()
    finally:
        if loop is not None:
            loop.close()
        if tracker is not None:
            tracker.close()
        source.close()
        close_outputs(tuio, recorder, args.record)
    return GAVE_UP_EXIT if loop is not None and loop.gave_up is not None else 0


def _terrain(scenario_path: str):
    import tomllib
    from pathlib import Path

    try:
        data = tomllib.loads(Path(scenario_path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None  # load_roster has already reported a broken file
    if "terrain" not in data:
        return None
    from calibration.synthetic import load_synthetic_scenario

    return load_synthetic_scenario(scenario_path).terrain


class _Progress:
    """A one-line progress bar on stderr, redrawn at most five times a second."""

    def __init__(self, total: int | None, *, enabled: bool) -> None:
        import time

        self.total = total
        self.enabled = enabled
        self.count = 0
        self.start = time.perf_counter()
        self.last_draw = 0.0

    def update(self, frame_index: int) -> None:
        import time

        self.count += 1
        now = time.perf_counter()
        if self.enabled and (now - self.last_draw > 0.2 or (self.total is not None and self.count >= self.total)):
            self.last_draw = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        import sys

        rate = self.count / max(1e-6, now - self.start)
        if self.total:
            filled = int(30 * min(1.0, self.count / self.total))
            bar = "#" * filled + "-" * (30 - filled)
            text = f"\r[{bar}] {self.count}/{self.total} frames, {rate:5.1f} frames/s"
        else:
            text = f"\r{self.count} frames, {rate:5.1f} frames/s"
        sys.stderr.write(text)
        sys.stderr.flush()

    def done(self) -> None:
        import sys
        import time

        if self.enabled and self.count:
            self._draw(time.perf_counter())
            sys.stderr.write("\n")
            sys.stderr.flush()


def _event_line(event) -> str:
    unit = f" {event.tag_id}" + (f" {event.name!r}" if event.name else "") if event.tag_id is not None else ""
    p = event.payload
    where = ""
    if "x_in" in p:
        where = f" at ({p['x_in']:.2f}, {p['y_in']:.2f}) in"
    elif "center_px" in p:
        where = f" at ({p['center_px'][0]:.1f}, {p['center_px'][1]:.1f}) px"
    extra = ""
    if event.kind.value == "stopped" and "distance" in p:
        extra = f", moved {p['distance']:.2f}"
    elif "moved" in p:
        extra = ", moved" if p["moved"] else ", same place"
    elif "message" in p:
        extra = f": {p['message']}"
    elif "hint" in p:
        extra = f": {p['hint']}"
    elif "outage_s" in p:
        extra = f" after {p['outage_s']:.1f} s without frames"
    return f"{event.t_s:8.2f} s  {event.kind.value:<12}{unit}{where}{extra}"


def _undecoded_on_first_frame(image, detections) -> None:
    import sys

    from tracker.undecoded_squares import undecoded_report

    for line in undecoded_report(image, detections):
        print(line, file=sys.stderr)


def _never_seen(tracker, roster, calibration) -> None:
    import sys

    from tracker.never_seen import never_seen_lines

    lines = never_seen_lines(
        roster, tracker.seen_tag_ids, calibration=calibration, smallest_seen_px=tracker.smallest_tag_px
    )
    if lines:
        print(f"{len(lines)} unit(s) of the roster never seen:", file=sys.stderr)
        print("\n".join(lines), file=sys.stderr)


def _summary(tracker, processed: int, elapsed: float) -> None:
    rate = processed / elapsed if elapsed > 0 else 0.0
    print(f"{processed} frames tracked ({rate:.1f} frames/s)")
    for pose in tracker.poses:
        if pose.calibrated:
            where = f"({pose.x_in:6.2f}, {pose.y_in:6.2f}) in, moved {pose.moved_this_turn_in:.2f} in"
        else:
            where = f"({pose.center_px[0]:7.1f}, {pose.center_px[1]:7.1f}) px"
        print(f"  {pose.tag_id:>4} {pose.name:<20} {pose.state.value:<7} {where}, heading {pose.heading_deg:5.1f} deg")
