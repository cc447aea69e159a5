"""`sandtable gui`: the companion window — live overlays, attacks at the table, projector, recording."""
from __future__ import annotations

import argparse

from classview.serve_option import add_serve_argument, check_serve

NAME = "gui"
HELP = "Open the companion: the table with overlays, roster, attacks, turns, log, projector and recording."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scenario", metavar="FILE", help="scenario TOML (default: the last one used, else the rulebook's in-depth example)")
    parser.add_argument("--source", metavar="SPEC", help="camera index, stream URL, video file or image folder to track "
                        "(default: the synthetic table renders the game as the rules state has it)")
    parser.add_argument("--calibration", metavar="FILE", help="table calibration JSON (sandtable calibrate table)")
    parser.add_argument("--projector", metavar="FILE", help="projector calibration JSON (sandtable calibrate projector, "
                        "or the 3-D model from sandtable scan --calibrate-projector)")
    parser.add_argument("--relief", metavar="FILE", help="the sand's relief (relief.json from sandtable scan): line of sight "
                        "over the ground, overlays lit on the hillsides, a notice when the sand is reshaped")
    parser.add_argument("--settings", metavar="FILE", help="keep settings in this INI file instead of the user's settings")
    parser.add_argument("--seed", type=int, help="seed of the virtual dice (reproducible games)")
    parser.add_argument("--view", choices=("camera", "table"), help="start in the camera or the top-down view")
    parser.add_argument("--select", type=int, metavar="TAG", help="start with this unit selected")
    parser.add_argument("--screenshot", metavar="PNG", help="save a picture of the window and exit (works offscreen)")
    parser.add_argument("--size", default="1600x960", metavar="WxH", help="window size for --screenshot (default 1600x960)")
    add_serve_argument(parser)


def _size(text: str) -> tuple[int, int]:
    from appmodel.errors import UsageError

    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size {text!r}: give width x height in pixels, like 1600x960") from None
    if w < 320 or h < 240:
        raise UsageError(f"--size {text!r}: at least 320x240")
    return w, h


def _check_scenario(path: str) -> None:
    from pathlib import Path

    from appmodel.errors import UsageError

    if not Path(path).is_file():
        raise UsageError(f"--scenario {path!r}: no such file; give a scenario TOML (docs/scenario-format.md)")


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace
    from pathlib import Path

    from classview.live import serve_session
    from gui.app import create_application, open_live_source, run_event_loop, take_screenshot
    from gui.main_window import MainWindow
    from appmodel.game_session import GameSession
    from gui.settings import load_settings, open_store

    from cli.display_check import offscreen_unless_displayed, require_window

    size = _size(args.size)
    check_serve(args.serve)
    if args.scenario:
        _check_scenario(args.scenario)  # a wrong file name is said first, display or not
    if args.calibration:
        # Checked even without --source: it is saved in the settings, and a broken file found only at
        # the next `gui --source` would be a surprise there.
        from calibration.files import load_table_calibration

        load_table_calibration(args.calibration)
    if args.screenshot:
        offscreen_unless_displayed()  # a picture needs no screen
    else:
        require_window(instead="`sandtable gui --screenshot window.png` draws it offscreen")
    app = create_application()
    store = open_store(args.settings)
    settings = load_settings(store)
    scenario = args.scenario or settings.scenario_path or None
    if scenario is None:
        from rules.downrange.examples.in_depth import SCENARIO_PATH

        scenario = str(SCENARIO_PATH)
    _check_scenario(scenario)
    from appmodel.scenarios.check import check_scenario

    check_scenario(scenario)  # the same checks as `scenarios --check`, before the window opens
    session = GameSession.from_scenario_file(scenario, seed=args.seed if args.seed is not None else settings.dice_seed)
    settings = replace(settings, scenario_path=str(Path(scenario).resolve()))
    if args.view:
        settings = replace(settings, view_mode=args.view)
    terrain = relief = None
    if args.relief:
        from calibration.relief_scan import load_relief
        from rules.terrain_sight import Ground

        relief = load_relief(args.relief)
        terrain = relief.terrain()
        session.set_ground(Ground(terrain.grid.heights_in, terrain.grid.cell_in))
    calibration_path = args.calibration or (settings.calibration_path if args.source else None)
    live, calibration = open_live_source(session, source=args.source, calibration_path=calibration_path,
                                         scenario_path=scenario, terrain=terrain)
    if calibration_path:
        settings = replace(settings, calibration_path=str(Path(calibration_path).resolve()))
    projector = None
    projector_path = args.projector or settings.projector_calibration_path or None
    if projector_path:
        from calibration.ground_projection import load_projector_for_ground

        if args.projector or Path(projector_path).is_file():
            projector = load_projector_for_ground(projector_path, terrain)
            settings = replace(settings, projector_calibration_path=str(Path(projector_path).resolve()))
    if args.source:
        settings = replace(settings, camera=args.source)
    if args.select is not None:
        session.select_unit(args.select)
    window = MainWindow(session, settings=settings, store=store, calibration=calibration,
                        projector_calibration=projector, live=live)
    if relief is not None and calibration is not None:
        from calibration.relief_scan import load_relief_reference
        from calibration.sand_change import SandChangeWatch, sand_mask

        reference = load_relief_reference(args.relief)
        if reference is not None and reference.shape[:2] == (calibration.model.height_px, calibration.model.width_px):
            window.sand_watch = SandChangeWatch(reference, sand=sand_mask(calibration, reference.shape[:2]))
    view = serve_session(session, args.serve, window=window, bookmarks=True)
    try:
        if args.screenshot:
            path = take_screenshot(window, args.screenshot, size=size, live=live)
            print(f"saved {path}")
            return 0
        window.show()
        return run_event_loop(app, ready_line="sandtable gui: the window is open (closing it, Ctrl+C or SIGTERM stops)")
    finally:
        if view is not None:
            view.close()
