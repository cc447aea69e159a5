"""`sandtable replay`: open a recorded session and scrub through it (overlays and log as they were)."""
from __future__ import annotations

import argparse

from classview.serve_option import add_serve_argument, check_serve

NAME = "replay"
HELP = "Replay a recorded session: timeline, play/pause, speed, jump to the next event, bookmarks."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("recording", metavar="RECORDING", help="the .sqlite file written while recording")
    parser.add_argument("--calibration", metavar="FILE", help="table calibration for the camera view (default: the recording's)")
    parser.add_argument("--settings", metavar="FILE", help="keep settings in this INI file instead of the user's settings")
    parser.add_argument("--at", type=float, default=0.0, metavar="SECONDS", help="start at this time")
    parser.add_argument("--screenshot", metavar="PNG", help="save a picture of the replay window and exit")
    parser.add_argument("--size", default="1600x960", metavar="WxH", help="window size for --screenshot")
    add_serve_argument(parser)


def run(args: argparse.Namespace) -> int:
    from classview.live import serve_session
    from gui.app import create_application, recording_calibration, run_event_loop, take_screenshot
    from cli.commands.gui import _size
    from gui.main_window import MainWindow
    from appmodel.replay_model import ReplayModel
    from gui.settings import load_settings, open_store

    from cli.display_check import offscreen_unless_displayed, require_window

    size = _size(args.size)
    check_serve(args.serve)
    if args.screenshot:
        offscreen_unless_displayed()  # a picture needs no screen
    else:
        require_window(instead=f"`sandtable debrief {args.recording}` writes the report without one")
    app = create_application()
    store = open_store(args.settings)
    settings = load_settings(store)
    from cli.commands.debrief import _Bar

    bar = _Bar(enabled=True)  # a three-hour game takes some seconds to read
    replay = ReplayModel(args.recording, progress=lambda done, total: bar("reading the recording", done, total))
    bar.done()
    for problem in replay.problems:
        print(f"sandtable replay: note: {problem}")
    calibration = recording_calibration(replay, args.calibration)
    window = MainWindow(replay.session, settings=settings, store=store, calibration=calibration, replay=replay)
    view = serve_session(replay.session, args.serve, window=window)  # the class follows the replay's timeline
    try:
        if args.at:
            window.timeline.seek(args.at)
        if args.screenshot:
            if window.video is not None:  # the camera's frame for that moment, decoded on its own thread
                window.video.settle(window.timeline.replay.t_s)
            path = take_screenshot(window, args.screenshot, size=size)
            print(f"saved {path}")
            return 0
        window.show()
        return run_event_loop(app)
    finally:
        if view is not None:
            view.close()
        replay.close()
