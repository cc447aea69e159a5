"""Render the screenshots of docs/gui.md from the real window, offscreen (no display needed).

The rulebook's in-depth example on the synthetic table (its exact calibration):

* ``main-camera-view.png``   — the camera view through the lens, the MAAWS gunner selected (range,
  Range + Radius, voice chain), before the ambush;
* ``attack-panel-odds.png``  — section 6.5.1 being set up: the ZBL-09's autocannon (one crew member
  assisting) at the UTV and the mortar team (two shots each, the team in partial cover), with the
  exact odds on the table and in the panel, the players' dice being typed in;
* ``attack-panel-resolved.png`` — the same after Resolve with the text's dice: the UTV destroyed;
* ``top-down-voice-chains.png`` — the rectified top-down view, the sergeant selected: voice chains,
  who his word reaches, his Move left;
* ``turn-panel.png``         — the turn panel after initiative and the start of a turn;
* ``replay-timeline.png``    — a recorded game opened for replay, the timeline at an attack;
* ``projector-output.png``   — what the projector throws on the table (the players' overlay set).

The other rule systems' examples:

* ``fof-cohesion-corridor.png`` — Force on Force, the market patrol before Cell 1 fires into the market:
  each fireteam's cohesion (Bravo 4 lagging behind, flagged), the line-of-fire corridor from Cell 1 to
  Alpha with the shoppers in it, leaders, Hot Spots (camera view);
* ``generic-bands-scatter.png`` — the generic rules' solo game after the mortar's miss: the mortar's
  range bands with their to-hit numbers and its minimum range, the shell's scatter to where it landed
  and its area of effect (top-down view);
* their attack, turn and roster panels (``fof-attack-panel.png``, ``fof-turn-panel.png``,
  ``generic-attack-panel.png``, ``generic-turn-panel.png``): see panel_shots.py.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/make_screenshots.py [--out docs/screenshots]
        [--only fof-overlays generic-overlays fof-panels generic-panels]   # just those (and not Down Range's)
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SIZE = (1600, 960)


def session_before(section: str):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    """A session in the state the in-depth example reaches just before ``section``."""
    from appmodel.game_session import GameSession
    from rules.dice import SeededDice
    from rules.downrange.examples import in_depth
    from rules.ruleset import get_ruleset

    steps = list(in_depth.STEPS)
    index = [s.section for s in steps].index(section)
    state = None
    for record in in_depth.play(steps[:index]):
        state = record.state
    return GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(),
                       scenario_path=str(in_depth.SCENARIO_PATH), dice=SeededDice(1))


def window_for(session, tmp: Path, *, view: str = "camera", replay=None):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    from gui.main_window import MainWindow
    from gui.settings import AppSettings, load_settings, open_store
    from appmodel.tracking.synthetic_feed import SyntheticFeed

    store = open_store(tmp / f"settings-{view}.ini")
    settings = load_settings(store)
    from dataclasses import replace

    settings = replace(settings, view_mode=view) if settings != AppSettings() or True else settings
    feed = SyntheticFeed(session.table_size_in, width_px=1280, height_px=720)
    window = MainWindow(session, settings=settings, store=None, calibration=feed.calibration, replay=replay)
    window.resize(*SIZE)
    window.show()
    window.view.set_frame(feed.render(session.units()))
    return window, feed


def settle(window, feed=None) -> None:  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    for _ in range(5):
        app.processEvents()
    if feed is not None:
        window.view.set_frame(feed.render(window.session.units()))
        app.processEvents()


def type_dice(panel, *typed: str) -> None:  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    """Type the players' dice into ``panel``'s dice form one roll at a time, as a player would; stop
    with the form's own words if it refuses one (a shot of a refused roll would show the wrong thing)."""
    for text in typed:
        if not panel.dice_form.enter(text):
            raise SystemExit(f"the dice form refused {text!r}: {panel.dice_form.status.text()}")


def save(window, path: Path) -> None:  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    settle(window)
    if not window.grab().save(str(path)):
        raise SystemExit(f"cannot write {path}")
    print(f"saved {path}")


def fof_overlay_shots(out: Path, tmp: Path) -> None:
    """Force on Force: cohesion and the line-of-fire corridor, in the camera view."""
    from appmodel.game_session import GameSession
    from rules.dice import SeededDice
    from rules.forceonforce.examples import patrol
    from rules.ruleset import get_ruleset

    steps = list(patrol.STEPS)
    state = None
    for record in patrol.play(steps[:[s.title for s in steps].index("Cell 1 fires into the market")]):
        state = record.state
    session = GameSession(get_ruleset("force-on-force"), state, scenario=patrol.load_scenario(),
                          scenario_path=str(patrol.SCENARIO_PATH), dice=SeededDice(1))
    window, feed = window_for(session, tmp, view="camera")
    session.select_unit(30, weapon="Fire")  # Cell 1 fires at Alpha, the shoppers in the line
    window.attack.set_target(10)  # ticked in the attack panel, as a player sets it up
    settle(window, feed)
    save(window, out / "fof-cohesion-corridor.png")
    window.close()


def generic_overlay_shots(out: Path, tmp: Path) -> None:
    """The generic rules: range bands and a scatter after a miss, in the top-down view."""
    from appmodel.game_session import GameSession
    from rules.dice import SeededDice
    from rules.generic.examples import solo
    from rules.ruleset import get_ruleset

    steps = list(solo.STEPS)
    state = None
    for record in solo.play(steps[:[s.title for s in steps].index("Mortar miss") + 1]):
        state = record.state
    session = GameSession(get_ruleset("generic"), state, scenario=solo.load_scenario(),
                          scenario_path=str(solo.SCENARIO_PATH), dice=SeededDice(1))
    window, feed = window_for(session, tmp, view="table")
    window.view.set_mode("table")
    session.select_unit(solo.M1, weapon="Mortar")
    settle(window, feed)
    save(window, out / "generic-bands-scatter.png")
    window.close()


#: Shots of the other rule systems, by name (``--only``).
EXTRA_SHOTS = {"fof-overlays": fof_overlay_shots, "generic-overlays": generic_overlay_shots,
               "fof-panels": lambda out, tmp: _panel_shots().fof_panel_shots(out, tmp, sys.modules[__name__]),
               "generic-panels": lambda out, tmp: _panel_shots().generic_panel_shots(out, tmp, sys.modules[__name__])}


def _panel_shots():  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    """The panels' shots (panel_shots.py, beside this script)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("panel_shots", Path(__file__).with_name("panel_shots.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent))
    parser.add_argument("--only", nargs="+", choices=sorted(EXTRA_SHOTS),
                        help="make only these shots of the other rule systems (not Down Range's)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from gui.app import create_application

    create_application()
    tmp = Path(tempfile.mkdtemp(prefix="sandtable-shots-"))
    for name, make in EXTRA_SHOTS.items():
        if args.only is None or name in args.only:
            make(out, tmp)
    if args.only is not None:
        return 0

    # the camera view before the ambush
    from appmodel.game_session import GameSession
    from rules.downrange.examples.in_depth import SCENARIO_PATH

    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    window, feed = window_for(session, tmp)
    session.select_unit(13)
    save(window, out / "main-camera-view.png")
    window.close()

    # 6.5.1 mid-attack, then resolved with the text's dice
    session = session_before("6.5.1")
    window, feed = window_for(session, tmp)
    session.select_unit(40, weapon="Autocannon")
    panel = window.attack
    panel.weapon.setCurrentIndex(panel.weapon.findData("Autocannon"))
    panel.declared.set_value("crew_assistants", 1)  # the attacker's form: one crew member assisting
    panel.set_target(15, shots=2)
    panel.set_target(11, shots=2, cover="partial")
    panel.entered.setChecked(True)
    type_dice(panel, "6 2", "4 1", "12")
    settle(window, feed)
    save(window, out / "attack-panel-odds.png")
    type_dice(panel, "8", "2", "6", "10")
    panel.resolve()
    settle(window, feed)
    save(window, out / "attack-panel-resolved.png")
    window.close()

    # the top-down view with voice chains
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    window, feed = window_for(session, tmp, view="table")
    window.view.set_mode("table")
    session.select_unit(10)
    session.measure((18.0, 21.0), (47.0, 32.0))
    save(window, out / "top-down-voice-chains.png")

    # the turn panel
    window.actions_by_name["initiative"].trigger()
    window.actions_by_name["start_turn"].trigger()
    window.docks["Turn"].raise_()
    save(window, out / "turn-panel.png")
    window.close()

    # a replay: record a short game, open it, put the timeline at the attack
    from appmodel.replay_model import ReplayModel
    from appmodel.game_session import AttackDraft
    from tracker.unit_pose import UnitPose, UnitState

    clock = [0.0]
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=3, clock=lambda: clock[0])
    path = tmp / "game.sqlite"
    recorder = session.start_recording(path)
    for i, x in enumerate((18.0, 19.0, 20.0, 21.0, 22.0)):
        clock[0] = float(i)
        poses = [UnitPose(10, "Sergeant", "Marines", x, 21.0, 1.0, 0.0, UnitState.SEEN, float(i), x - 18.0)]
        recorder.record_frame(i, float(i), poses)
        session.apply_poses(poses, t_s=float(i))
    clock[0] = 5.0
    session.set_time(5.0)
    session.select_unit(10)
    session.set_attack(AttackDraft(10, "M4/M16", (31,)))
    session.resolve_attack([[6, 2], 6])
    clock[0] = 6.0
    session.set_time(6.0)
    session.bookmark("the automatic rifleman goes down")
    recorder.record_frame(6, 6.0, [UnitPose(10, "Sergeant", "Marines", 22.0, 21.0, 1.0, 0.0, UnitState.SEEN, 6.0, 4.0)])
    session.stop_recording()
    replay = ReplayModel(path)
    window, feed = window_for(replay.session, tmp, replay=replay)
    window.timeline.seek(5.5)
    settle(window, feed)
    save(window, out / "replay-timeline.png")
    window.close()
    replay.close()

    # the projector output: players' overlays, warped, on black
    import numpy as np

    from calibration.projector import ProjectorCalibration
    from gui.projector_window import ProjectorWindow
    from appmodel.overlays.registry import OverlayToggles

    session = session_before("6.5.1")
    session.select_unit(40, weapon="Autocannon")
    cal = ProjectorCalibration(1280, 800, np.array([[15.0, 1.2, 80.0], [-0.8, -14.0, 760.0], [0.0004, 0.0009, 1.0]]),
                               0.0, 0.0, 16)
    projector = ProjectorWindow(session, projector_calibration=cal, toggles=OverlayToggles.projector_default())
    image = projector.render_image()
    image.save(str(out / "projector-output.png"))
    print(f"saved {out / 'projector-output.png'}")
    projector.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
