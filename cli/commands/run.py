"""`sandtable run`: a real table — camera, tracking, rules, overlays, recording — in the companion's window.

    sandtable run --camera 0 --scenario game.toml                 # the first run walks you through calibrating
    sandtable run                                                 # later runs: the camera, scenario and files of last time
    sandtable run --camera 1 --record game.sqlite --tuio          # record the session; TUIO 1.1 to 127.0.0.1:3333
    sandtable run --recalibrate                                   # the walkthrough again (camera or table moved for good)
    sandtable run --list-cameras                                  # which camera indexes open, and their picture size
    sandtable run --camera 0 --camera 1 --calibration left.json --calibration right.json   # a big table, two cameras

With several cameras (``--camera`` repeated, ``--node NAME=tcp://HOST:PORT`` for a camera on another
computer) each camera has its own calibration (``--calibration`` once per camera, in the order the
cameras are given; without them, the ones remembered or one per camera in the data folder). A camera
without one is calibrated by the walkthrough, one camera after the other, and a picture then shows
where the views overlap. The window shows the first camera's picture, the Tracking panel every
camera's part, and the units' poses are fused from every camera that sees them (as ``sandtable
track`` does).

The first run without a table calibration opens the walkthrough (print the tags, place the anchors,
optional lens file, register the table with its error in inches, optional projector); the files are
remembered in the settings. Needs a display; ``sandtable track`` tracks headless.
"""
from __future__ import annotations

import argparse

from classview.serve_option import add_serve_argument, check_serve

NAME = "run"
HELP = "Play at a real table: camera, tracking, rules and overlays in the window (a first run walks you through calibration)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--camera", action="append", metavar="INDEX", help="camera index (0 is the first), stream URL, or a "
                        "video/scenario file to stand in for one (default: the camera used last, else 0); repeat it for "
                        "several cameras over one table")
    parser.add_argument("--node", action="append", metavar="NAME=tcp://HOST:PORT",
                        help="a camera on another computer running `sandtable camera-node --name NAME` (repeatable)")
    parser.add_argument("--scenario", metavar="FILE", help="scenario TOML (default: the one used last, else the shipped "
                        "starter skirmish)")
    parser.add_argument("--calibration", action="append", metavar="FILE", help="table calibration JSON (default: the one "
                        "remembered; a file that does not exist yet is made by the walkthrough); with several cameras one "
                        "each, in the order the cameras are given (--camera, then --node)")
    parser.add_argument("--projector", metavar="FILE", help="projector calibration JSON")
    parser.add_argument("--record", metavar="FILE", help="record the session to this new SQLite file")
    parser.add_argument("--video", action="store_true", help="with --record: also keep the camera video (<FILE>.mp4, "
                        "H.264, which browsers play; with several cameras the one the window shows)")
    parser.add_argument("--tuio", nargs="?", const="127.0.0.1:3333", default=None, metavar="HOST:PORT",
                        help="also send the units as TUIO 1.1 over UDP (default 127.0.0.1:3333)")
    parser.add_argument("--recalibrate", action="store_true", help="walk through the table calibration again")
    parser.add_argument("--list-cameras", action="store_true", help="list the camera indexes that open, then exit")
    parser.add_argument("--settings", metavar="FILE", help="keep settings in this INI file instead of the user's settings")
    parser.add_argument("--seed", type=int, help="seed of the virtual dice (reproducible games)")
    parser.add_argument("--screenshot", metavar="PNG", help="save a picture of the window after --settle seconds and "
                        "exit (works offscreen; needs a calibration)")
    parser.add_argument("--settle", type=float, default=2.0, metavar="S", help="with --screenshot: seconds to track first")
    add_serve_argument(parser)


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from appmodel.errors import UsageError
    from cli.display_check import offscreen_unless_displayed, require_window

    if args.list_cameras:
        return _list_cameras()
    check_serve(args.serve)
    cameras = list(args.camera or [])
    several = len(cameras) + len(args.node or []) > 1 or bool(args.node)
    if not several and len(args.calibration or []) > 1:
        raise UsageError(f"{len(args.calibration)} --calibration files for one camera; give one (or give a --camera for each)")
    args.calibration = (args.calibration or [None])[0] if not several else args.calibration
    args.camera = (cameras or [None])[0] if not several else cameras
    if args.screenshot:
        offscreen_unless_displayed()  # a picture needs no screen
        if args.recalibrate:
            raise UsageError("--screenshot cannot walk through the calibration; leave out --recalibrate")
        if not args.settle >= 0:
            raise UsageError(f"--settle {args.settle}: give seconds (0 or more)")
    elif several:
        given = " ".join([f"--camera {c}" for c in cameras] + [f"--node {n}" for n in args.node or []]
                         + [f"--calibration {c}" for c in args.calibration or []])
        require_window(instead=f"to track without a window use `sandtable track {given} --scenario game.toml "
                       "--record game.sqlite`")
    else:
        camera = args.camera or "0"
        require_window(instead=f"to track without a window use `sandtable track {camera} --calibration "
                       "table.json --scenario game.toml --record game.sqlite`")
    if args.video and not args.record:
        raise UsageError("--video keeps the camera video of a recording: give --record FILE too")
    if args.node:
        from cli.several_cameras import refuse_video_without_a_camera_here

        refuse_video_without_a_camera_here(args.video, args.camera)
    if args.record and Path(args.record).exists():
        raise UsageError(f"--record {args.record}: the file exists; choose another name (recordings are never overwritten)")

    from gui.app import create_application
    from gui.settings import load_settings, open_store

    app = create_application()
    store = open_store(args.settings)
    settings = load_settings(store)
    if not several and args.camera is None and len(settings.cameras) + len(settings.camera_nodes) > 1:
        # last time several cameras played: the same ones again (their calibrations with them)
        several = True
        args.camera, args.node = list(settings.cameras), list(settings.camera_nodes)
        args.calibration = args.calibration and [args.calibration]
    if several:
        return _run_several(args, app, store, settings)
    scenario = _scenario(args.scenario or settings.scenario_path)
    camera = str(args.camera if args.camera is not None else (settings.camera or "0"))
    choice = _calibration_choice(args, settings, camera)
    tuio_address = None
    if args.tuio is not None:
        from tracker.tuio import TuioAddress

        tuio_address = TuioAddress.parse(args.tuio)
    projector = _projector(args.projector or settings.projector_calibration_path, explicit=bool(args.projector))
    if choice.needs_walkthrough and args.screenshot:
        raise UsageError(f"no table calibration ({choice.problem}); run `sandtable run --camera {camera}` with a display "
                         "to calibrate, or give --calibration table.json")

    source = _open_camera(camera)
    try:
        first = source.latest_frame(5.0) if source.is_live else source.read()
        if first is None:
            raise UsageError(f"camera {camera} opened but sent no picture in 5 seconds; is another program using it? "
                             "Close it, or try another --camera")
        calibration = choice.calibration
        calibration_path = choice.path
        projector_path = projector[1]
        if choice.needs_walkthrough:
            result = _walkthrough(source, first, scenario, choice)
            if result is None:
                print("sandtable run: the table is not calibrated yet; run it again when the anchors are in place",
                      file=sys.stderr)
                return 1
            calibration, calibration_path = result.calibration, result.calibration_path
            if result.projector_path is not None:
                projector_path = result.projector_path
                projector = _projector(str(projector_path), explicit=True)
            if not source.is_live:
                # A rehearsal clip was played through by the walkthrough (which outlasts a short
                # clip): the game starts it again from its first frame, so tracking, the recording
                # and its video have the whole clip, and its end is said as an end.
                source.close()
                source = _open_camera(camera)
                first = source.read()
                if first is None:
                    raise UsageError(f"{camera}: the clip has no frames left to play; give a longer video")
        from dataclasses import replace

        from gui.setup_steps import remember

        settings = remember(settings, camera=camera, scenario=scenario, calibration=calibration_path,
                            projector=projector_path)
        settings = replace(settings, cameras=(), camera_nodes=(), camera_calibrations=())  # one camera now
        if args.seed is not None:
            settings = replace(settings, dice_seed=args.seed)
        from gui.settings import save_settings

        save_settings(settings, store)  # remembered now, even if the window is closed abruptly
        return _play(app, args, source, first, scenario, calibration, calibration_path, projector[0], settings, store,
                     tuio_address)
    finally:
        source.close()


# ---------------------------------------------------------------------------------- pieces
def _scenario(path: str) -> str:
    from pathlib import Path

    from appmodel.errors import UsageError

    if not path:
        from appmodel.scenarios import find_shipped

        return str(find_shipped("starter-skirmish").path)
    if not Path(path).is_file():
        raise UsageError(f"--scenario {path!r}: no such file; give a scenario TOML (sandtable scenarios lists the shipped ones)")
    from appmodel.scenarios.check import check_scenario

    check_scenario(path)  # a typo is one line naming file, entry and field, before any window opens
    return str(Path(path).resolve())


def _calibration_choice(args: argparse.Namespace, settings, camera: str):
    from calibration.errors import CalibrationError
    from appmodel.errors import UsageError
    from gui.setup_steps import CalibrationChoice, default_calibration_path, find_calibration

    remembered = "" if args.recalibrate else settings.calibration_path
    explicit = args.calibration
    if args.recalibrate:
        from pathlib import Path

        path = Path(explicit or settings.calibration_path or default_calibration_path())
        return CalibrationChoice(path, None, f"calibrating the table again (saved to {path})")
    try:
        return find_calibration(explicit, remembered, default_path=default_calibration_path())
    except CalibrationError as exc:
        raise UsageError(f"{exc}; or let `sandtable run --camera {camera} --recalibrate --calibration {explicit}` "
                         "walk you through it") from None


def _projector(path: str, *, explicit: bool):
    """(projector calibration or None, its path or None); a remembered file that went missing is dropped."""
    from pathlib import Path

    if not path:
        return None, None
    if not explicit and not Path(path).is_file():
        return None, None
    from calibration.projector import load_projector_calibration

    return load_projector_calibration(path), Path(path)


def _open_camera(camera: str):
    from appmodel.errors import UsageError
    from tracker.errors import SourceError
    from tracker.sources import open_source

    try:
        return open_source(camera)
    except SourceError as exc:
        hint = "; `sandtable run --list-cameras` shows which indexes open" if camera.strip().isdigit() else ""
        raise UsageError(f"{exc}{hint}") from None


def _list_cameras() -> int:
    import cv2

    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    except AttributeError:  # pragma: no cover - older OpenCV
        pass
    found = 0
    for index in range(10):
        capture = cv2.VideoCapture(index)
        try:
            if not capture.isOpened():
                continue
            ok, image = capture.read()
            size = f"{image.shape[1]}x{image.shape[0]}" if ok and image is not None else "no picture (busy?)"
            print(f"camera {index}: {size}")
            found += 1
        finally:
            capture.release()
    if not found:
        print("no camera opens at indexes 0-9: check the cable, and that no other program holds the camera")
    return 0


def _walkthrough(source, first, scenario: str, choice, *, camera: str | None = None, turn: tuple[int, int] = (1, 1)):
    """The walkthrough for one camera; with several cameras (``camera``, ``turn`` = (k, of n)) each gets its
    own in turn: the tags are printed once (the first camera's turn) and the projector is set up once."""
    from calibration.table_setup import load_table_setup
    from gui.setup_wizard import SetupWizard

    wizard = SetupWizard(source, scenario_path=scenario, layout=load_table_setup(scenario).layout,
                         calibration_path=choice.path, intro=choice.problem)
    if camera is not None:
        k, n = turn
        wizard.setWindowTitle(f"Sandtable Companion — set up camera {k} of {n}: {camera}")
        wizard.anchor_page.setSubTitle(choice.problem)  # which camera, and that it needs only some anchors
        if k > 1:  # the tags were printed in the first camera's turn; the projector goes with the first camera
            for page in (wizard.print_page, wizard.projector_page):
                wizard.removePage(next(i for i in wizard.pageIds() if wizard.page(i) is page))
    wizard._frame = first.image_bgr
    wizard.exec()
    return wizard.result_value()


def _camera_calibration_files(args: argparse.Namespace, settings, cameras: list[str], nodes: list[str]) -> list[str]:
    """Each camera's calibration file: as given; else the ones remembered for these same cameras; else
    one per camera in the application's data folder (made by the walkthrough)."""
    from gui.setup_steps import default_calibration_path

    if args.calibration:
        return list(args.calibration)
    if tuple(cameras) == settings.cameras and tuple(nodes) == settings.camera_nodes and \
            len(settings.camera_calibrations) == len(cameras) + len(nodes):
        return list(settings.camera_calibrations)
    from cli.several_cameras import camera_names, parse_node

    names = camera_names(cameras) + [parse_node(n)[0] for n in nodes]
    default = default_calibration_path()
    return [str(default.with_name("table-" + "".join(c if c.isalnum() else "-" for c in name) + ".json")) for name in names]


def _play(app, args, source, first, scenario, calibration, calibration_path, projector, settings, store, tuio_address) -> int:
    """One camera: its tracker on the tracking loop, then the window."""
    from calibration.table_setup import load_table_setup
    from appmodel.tracking.live_tracking import LiveTracking
    from tracker.pipeline import Tracker
    from tracker.roster import load_roster

    calibration = calibration.for_frame_size(first.image_bgr.shape[1], first.image_bgr.shape[0])
    roster = load_roster(scenario)
    tracker = Tracker(roster=roster, calibration=calibration, terrain=load_table_setup(scenario).terrain)
    live = LiveTracking(source, tracker, realtime=True)
    camera = str(args.camera or settings.camera)
    return _play_live(app, args, live, {name: first for name in live.loop.sources}, scenario, calibration,
                      calibration_path, projector, settings, store, tuio_address, roster=roster,
                      command=f"sandtable run --camera {camera} --scenario {scenario} --record {args.record}",
                      meta={"source": camera})


def _run_several(args: argparse.Namespace, app, store, settings) -> int:
    """Several cameras over one table (``--camera`` repeated, ``--node``): each with its calibration.
    A camera without one (or all, with ``--recalibrate``) is calibrated by the walkthrough, one camera
    after the other; then a picture shows where their views overlap before the game starts."""
    import sys
    from dataclasses import replace
    from pathlib import Path

    from appmodel.errors import UsageError
    from appmodel.tracking.live_tracking import LiveTracking
    from calibration.table_setup import load_table_setup
    from cli.several_cameras import load_calibrations, open_cameras, plan_cameras, several_camera_tracker
    from gui.settings import save_settings
    from gui.setup_steps import CalibrationChoice
    from tracker.roster import load_roster

    cameras, nodes = list(args.camera or []), list(args.node or [])
    files = _camera_calibration_files(args, settings, cameras, nodes)
    plan = plan_cameras(cameras, nodes, files, command="run")
    local = dict(zip(plan.local_names, plan.calibration_files))
    for (name, _), path in zip(plan.nodes, plan.calibration_files[len(plan.specs):]):
        if not Path(path).is_file():
            raise UsageError(f"camera node {name} has no table calibration at {path}: calibrate that camera on its own "
                             "computer (`sandtable calibrate table`) and give the file with --calibration")
    todo = [name for name, path in local.items() if args.recalibrate or not Path(path).is_file()]
    if todo and args.screenshot:
        raise UsageError(f"no table calibration for camera {todo[0]} ({local[todo[0]]}); run `sandtable run` with these "
                         "cameras and a display to calibrate each in turn, or give one --calibration per camera")
    if args.seed is not None:
        settings = replace(settings, dice_seed=args.seed)
    scenario = _scenario(args.scenario or settings.scenario_path)
    tuio_address = None
    if args.tuio is not None:
        from tracker.tuio import TuioAddress

        tuio_address = TuioAddress.parse(args.tuio)
    projector = _projector(args.projector or settings.projector_calibration_path, explicit=bool(args.projector))
    projector_path = projector[1]
    sources = open_cameras(plan)
    tracker = receiver = None
    try:
        firsts = {}
        for name, source in sources.items():
            first = source.latest_frame(5.0) if source.is_live else source.read()
            if first is None:
                raise UsageError(f"camera {name} opened but sent no picture in 5 seconds; is another program using it? "
                                 "Close it, or leave that --camera out")
            firsts[name] = first
        for k, name in enumerate(todo, start=1):
            why = "calibrating again" if args.recalibrate else "not calibrated yet"
            choice = CalibrationChoice(Path(local[name]), None, f"Camera {k} of {len(todo)}, {name}: {why} (saved to "
                                       f"{local[name]}). It must see at least two anchors; the others may be outside its picture.")
            result = _walkthrough(sources[name], firsts[name], scenario, choice, camera=name, turn=(k, len(todo)))
            if result is None:
                print(f"sandtable run: camera {name} is not calibrated yet; run it again when its anchors are in view",
                      file=sys.stderr)
                return 1
            if result.projector_path is not None:
                projector_path = result.projector_path
                projector = _projector(str(projector_path), explicit=True)
        calibrations = load_calibrations(plan)
        if todo and not _views_overlap(calibrations):
            print("sandtable run: stopped after calibrating the cameras; run it again to play", file=sys.stderr)
            return 1
        settings = replace(settings, cameras=tuple(plan.specs), camera_nodes=tuple(nodes), scenario_path=scenario,
                           camera_calibrations=tuple(str(Path(f).resolve()) for f in plan.calibration_files),
                           projector_calibration_path=str(Path(projector_path).resolve()) if projector_path else
                           settings.projector_calibration_path)
        save_settings(settings, store)  # remembered now: the next `sandtable run` opens the same cameras
        roster = load_roster(scenario)
        tracker, receiver = several_camera_tracker(plan, calibrations, roster=roster,
                                                   terrain=load_table_setup(scenario).terrain)
        print(tracker.coverage().summary(), file=sys.stderr)
        shown = plan.local_names[0] if plan.local_names else None
        live = LiveTracking(sources, tracker, realtime=True, receiver=receiver, shown_camera=shown)
        view_name = shown or plan.names[0]
        calibration = tracker.calibration(view_name)
        if view_name in firsts:
            image = firsts[view_name].image_bgr
            calibration = calibration.for_frame_size(image.shape[1], image.shape[0])
        given = " ".join([f"--camera {c}" for c in plan.specs] + [f"--node {n}={a}" for n, a in plan.nodes])
        meta = plan.metadata()
        calibration_path = meta.pop("calibration_path")
        meta.pop("calibration_json")
        tracker, receiver = None, None  # closed with the window from here on
        return _play_live(app, args, live, firsts, scenario, calibration, calibration_path, projector[0], settings,
                          store, tuio_address, roster=roster, meta=meta,
                          command=f"sandtable run {given} --scenario {scenario} --record {args.record}")
    finally:
        if tracker is not None:
            tracker.close()
        if receiver is not None:
            receiver.close()
        for source in sources.values():
            source.close()


def _views_overlap(calibrations) -> bool:
    """After calibrating: where the cameras' views overlap (and any gap); True to start the game."""
    from gui.coverage_dialog import CoverageDialog

    return bool(CoverageDialog(calibrations).exec())


def _play_live(app, args, live, firsts, scenario, calibration, calibration_path, projector, settings, store,
               tuio_address, *, roster, command: str, meta: dict) -> int:
    """The window over the tracking loop ``live`` runs; TUIO and the recorder are the loop's subscribers,
    the window (through ``live``) hands the poses to the game session and the tracking status."""
    import sys

    from classview.live import serve_session
    from gui.app import run_event_loop, take_screenshot
    from gui.main_window import MainWindow
    from appmodel.game_session import GameSession
    from tracker.tracking_loop import TuioFeed

    tracker = live.tracker
    tuio = None
    if tuio_address is not None:
        from tracker.tuio import TuioSender

        layout = calibration.layout
        tuio = TuioSender(tuio_address, table_size_in=(layout.width_in, layout.depth_in))
        live.loop.subscribe(TuioFeed(tuio))
        print(f"sending TUIO to {tuio_address} (table coordinates)", file=sys.stderr)
    session = GameSession.from_scenario_file(scenario, seed=settings.dice_seed)
    window = MainWindow(session, settings=settings, store=None if args.screenshot else store, calibration=calibration,
                        projector_calibration=projector, live=live)
    view = None
    try:
        view = serve_session(session, args.serve, window=window)
        if args.record:
            recorder = session.start_recording(args.record, video=args.video, calibration_path=str(calibration_path),
                                               roster=roster)
            recorder.set_meta("command", command)
            for key, value in meta.items():
                recorder.set_meta(key, value)
            live.set_recorder(recorder, video=args.video)
            live.loop.run_calls()  # the recorder subscribes now, before the first frame (the thread is not running)
        if firsts:
            live.loop.track(firsts)  # the frames the camera check waited for are the game's first
        live.start()
        if args.screenshot:
            path = take_screenshot(window, args.screenshot, settle_s=args.settle)
            print(f"saved {path}")
            code = 0
        else:
            window.show()
            code = run_event_loop(app)
    finally:
        live.stop()
        if view is not None:
            view.close()
        session.close()  # a recording in progress is closed cleanly
        tracker.close()
        if live.loop.receiver is not None:
            live.loop.receiver.close()
        if tuio is not None:
            tuio.close()
            if tuio.send_errors:
                print(f"TUIO: {tuio.send_errors} bundles could not be sent ({tuio.last_error})", file=sys.stderr)
    if args.record:
        from tracker.recording import video_path_for

        video = video_path_for(args.record)
        kept = f", the camera's video to {video}" if video.is_file() else ""
        print(f"recorded to {args.record}{kept}: `sandtable debrief {args.record} --out report.html` writes its report")
    return code
