"""Several cameras in the companion's window (`sandtable run --camera A --camera B`): the real command
tracks, records and sends TUIO from both; the Tracking panel has a line per camera (frames per second,
anchors it sees, units in view) and says which cameras see each unit; a unit under a hand in one
camera's view while the other sees it stays seen (not hidden, not lifted); a unit that walked into a gap
no camera sees is stale there, not lost, and the panel says so."""
from __future__ import annotations

import json
import math
import os
import time

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from calibration.camera_model import CameraPose
from calibration.synthetic import Faults, TagPlacement
from calibration.synthetic.camera_rig import CameraRig, RigCamera
from calibration.synthetic.renderer import webcam_model
from calibration.table_layout import TableLayout
from cli.main import main
from loop_footage import PLACES, TWO_CAMERA_FPS, two_camera_footage
from tracker.frames import Frame
from tracker.multi_camera import MultiCameraTracker, register_cameras
from tracker.recording import RecordingReader
from tracker.sources import ArraySource, ImageFolderSource
from tracker.unit_tracker import TrackerSettings
from tuio_helpers import TuioClientModel, osc_server  # noqa: F401  (osc_server: a pytest fixture, a real OSC server, taken by name)


@pytest.fixture(scope="module")
def two_cameras(tmp_path_factory):
    return two_camera_footage(tmp_path_factory.mktemp("two_cameras"))


def _window(qtbot, tmp_path, scenario, live, calibration):
    from appmodel.game_session import GameSession
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    create_application()
    session = GameSession.from_scenario_file(scenario, seed=1)
    store = open_store(tmp_path / "settings.ini")
    window = MainWindow(session, settings=load_settings(store), store=store, calibration=calibration, live=live)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    return window


def _play_to_the_end(qtbot, window, live):
    """Let the window take every round until the footage is over, then refresh the Tracking panel."""
    live.start()
    qtbot.waitUntil(lambda: not live.running, timeout=60000)
    window.poll_live()
    window.live_presenter.tracking_shown_at = 0.0  # the panel refreshes twice a second; show the last round now
    window.live_presenter.show_tracking()
    panel = window.tracking_panel
    rows = {panel.table.item(r, 0).text(): [panel.table.item(r, c).text() for c in range(panel.table.columnCount())]
            for r in range(panel.table.rowCount())}
    return panel, rows


def test_run_with_two_cameras_tracks_records_and_sends_tuio_from_both(two_cameras, tmp_path, osc_server, capsys):
    port, catch = osc_server
    record, shot = tmp_path / "game.sqlite", tmp_path / "window.png"
    code = main(["run", *two_cameras.argv(), "--record", str(record), "--tuio", f"127.0.0.1:{port}",
                 "--settings", str(tmp_path / "s.ini"), "--screenshot", str(shot), "--settle", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"saved {shot}" in out and "2 camera(s) see 100% of the 96x48 in table" in err
    with RecordingReader(record) as reader:
        assert reader.meta["command"].startswith("sandtable run --camera")
        assert [c["name"] for c in json.loads(reader.meta["cameras"])] == ["cam0", "cam1"]
        poses = {p.tag_id: p for p in reader.poses_at(0.0)}
        assert set(poses) == set(PLACES)  # the right camera's own unit too, fused with the left's
        for tag, (x, y) in PLACES.items():
            assert math.hypot(poses[tag].x_in - x, poses[tag].y_in - y) < 0.05
        assert reader.frame_count >= 2
    client = TuioClientModel()
    datagrams = catch.wait_for(2)
    client.feed(datagrams[0])
    assert set(client.by_class()) == set(PLACES)
    assert client.by_class()[12]["x"] == pytest.approx(84.0 / 96.0, abs=1e-3)


def test_several_cameras_refuse_what_they_cannot_do_in_one_line(two_cameras, tmp_path, capsys, monkeypatch):
    import cli.display_check

    monkeypatch.setattr(cli.display_check, "display_available", lambda *a, **k: True)
    settings = ["--settings", str(tmp_path / "s.ini")]
    missing = tmp_path / "nowhere.json"
    assert main(["run", "--camera", str(two_cameras.folders["cam0"]), "--camera", str(two_cameras.folders["cam1"]),
                 "--calibration", str(two_cameras.calibrations["cam0"]), "--calibration", str(missing),
                 "--screenshot", str(tmp_path / "shot.png"), *settings]) == 2
    err = capsys.readouterr().err.strip()  # a picture cannot walk through calibrating the second camera
    assert len(err.splitlines()) == 1 and f"no table calibration for camera cam1 ({missing})" in err
    cam0 = two_cameras.folders["cam0"]
    assert main(["run", "--camera", str(cam0), "--camera", str(two_cameras.folders["cam1"]),
                 "--calibration", str(two_cameras.calibrations["cam0"]), *settings]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "2 cameras (cam0, cam1) but 1 --calibration" in err and "Traceback" not in err


def test_the_tracking_panel_has_a_line_per_camera_and_a_unit_under_a_hand_in_one_view_stays_seen(
        two_cameras, tmp_path, qtbot):
    from appmodel.tracking.live_tracking import LiveTracking
    from cli.several_cameras import load_calibrations, plan_cameras, several_camera_tracker
    from tracker.roster import load_roster

    footage = two_cameras
    plan = plan_cameras([str(footage.folders[n]) for n in ("cam0", "cam1")], None,
                        [str(footage.calibrations[n]) for n in ("cam0", "cam1")], command="run")
    tracker, _ = several_camera_tracker(plan, load_calibrations(plan), roster=load_roster(footage.scenario), terrain=None)
    sources = {n: ImageFolderSource(footage.folders[n], fps=TWO_CAMERA_FPS) for n in ("cam0", "cam1")}
    live = LiveTracking(sources, tracker, realtime=False, shown_camera="cam0")
    window = _window(qtbot, tmp_path, footage.scenario, live, tracker.calibration("cam0"))
    try:
        panel, rows = _play_to_the_end(qtbot, window, live)
        lines = panel.cameras.text()
        assert panel.cameras.isVisible() and "cam0:" in lines and "cam1:" in lines and "NO FEED" not in lines
        status = window.tracking_monitor.status()
        by_name = {c.name: c for c in status.cameras}
        for camera in by_name.values():  # what the panel writes: its rate, the anchors it sees, its units
            assert f"{camera.name}: {camera.fps:.1f} fps · anchors {', '.join(map(str, camera.anchors_seen))}" in lines
        assert set(by_name) == {"cam0", "cam1"} and all(c.delivering for c in by_name.values())
        assert by_name["cam0"].anchors_seen and by_name["cam1"].anchors_seen
        assert set(by_name["cam0"].anchors_seen) != set(by_name["cam1"].anchors_seen)  # each sees its own side's
        assert by_name["cam0"].units_seen == 1 and by_name["cam1"].units_seen == 2  # the seam unit: only cam1 now
        # the seam unit under the hand in cam0's view is seen (by cam1), not hidden, not lifted
        assert rows["10"][2] == "seen" and rows["10"][5] == "cam1"
        assert rows["11"][5] == "cam0" and rows["12"][5] == "cam1"
        assert not panel.table.isColumnHidden(5)
        assert "2 cameras" in window.tracking_strip.text()
        assert not [e for e in window.session.log if "lifted" in str(e)]
    finally:
        live.stop()
        tracker.close()
        window.close()


def test_a_unit_walking_into_a_gap_no_camera_sees_is_stale_there_and_the_panel_says_so(tmp_path, qtbot):
    from appmodel.tracking.live_tracking import LiveTracking

    layout = TableLayout.default(120.0, 30.0)
    model = webcam_model(1280, 720)
    faults = Faults(noise_sigma=2.0, blur_px=0.6)
    rig = CameraRig(layout, [RigCamera(f"cam{i}", model, CameraPose.looking_at((x, 15.0, 34.0), (x, 15.0, 0.0)), faults)
                             for i, x in enumerate((25.0, 95.0))])
    empty = rig.render([])
    calibrations = register_cameras({n: Frame(v.image_bgr, 0, 0.0) for n, v in empty.views.items()},
                                    {c.name: c.model for c in rig.cameras}, layout)
    fps = 10.0
    images = {"cam0": [], "cam1": []}
    for i in range(36):
        t = i / fps
        walker = 40.0 + 10.0 * min(max(t - 0.2, 0.0), 2.0)  # walks from x=40 into the gap at x=60, stays there
        placed = [TagPlacement(30, 20.0, 10.0, 1.0, 90.0),
                  TagPlacement(32, walker, 15.0, 1.0, 0.0, velocity_in_s=(10.0, 0.0) if 0.2 <= t < 2.2 else (0.0, 0.0))]
        frame = rig.render(placed, t_s=t, frame_index=i, rng=np.random.default_rng(i))
        for name in images:
            images[name].append(frame.views[name].image_bgr)
    scenario = tmp_path / "strip.toml"
    scenario.write_text('format = "sandtable-scenario"\nversion = 1\n[table]\nwidth_in = 120\ndepth_in = 30\n'
                        '[[sides]]\nname = "Blue"\n[[units]]\ntag_id = 30\nname = "Still"\nside = "Blue"\n'
                        '[[units]]\ntag_id = 32\nname = "Walker"\nside = "Blue"\n', encoding="utf-8")
    from tracker.roster import load_roster

    tracker = MultiCameraTracker(calibrations, roster=load_roster(scenario), settings=TrackerSettings(lost_after_s=1.0))
    sources = {name: ArraySource(frames, fps=fps) for name, frames in images.items()}
    live = LiveTracking(sources, tracker, realtime=False)
    window = _window(qtbot, tmp_path, scenario, live, calibrations["cam0"])
    started = time.monotonic()
    try:
        panel, rows = _play_to_the_end(qtbot, window, live)
        assert rows["32"][2] == "stale", rows["32"]  # hidden 1.4 s, longer than lost_after_s: still not lost
        assert "in a gap no camera sees" in rows["32"][4]
        assert rows["30"][2] == "seen" and rows["30"][5] == "cam0"
    finally:
        live.stop()
        tracker.close()
        window.close()
    assert time.monotonic() - started < 60


def test_without_a_display_several_cameras_point_at_headless_tracking_with_the_same_cameras(two_cameras, monkeypatch, capsys):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert main(["run", *two_cameras.argv()]) == 2
    err = capsys.readouterr().err.strip()
    cam0, cam1 = two_cameras.folders["cam0"], two_cameras.folders["cam1"]
    assert len(err.splitlines()) == 1 and "no display" in err
    assert f"sandtable track --camera {cam0} --camera {cam1} --calibration {two_cameras.calibrations['cam0']}" in err


def test_the_first_run_calibrates_each_camera_in_turn_shows_the_overlap_and_the_next_run_starts_directly(
        two_cameras, tmp_path, monkeypatch, capsys):
    """The walkthrough is clicked through as a user would, once per camera; the window is not opened."""
    import cli.commands.run as run_command
    import cli.display_check
    from gui.coverage_dialog import CoverageDialog
    from gui.setup_wizard import SetupWizard

    monkeypatch.setattr(cli.display_check, "display_available", lambda *a, **k: True)
    walked, overlaps, played = [], [], []

    def click_through(wizard):
        camera = wizard.windowTitle().rsplit(": ", 1)[-1]
        pages = [wizard.page(i) for i in wizard.pageIds()]
        walked.append((wizard.windowTitle(), wizard.print_page in pages, wizard.projector_page in pages))
        assert f"Camera {len(walked)} of 2, {camera}: not calibrated yet" in wizard.anchor_page.subTitle()
        wizard.show()
        for _ in range(10):
            if wizard.currentPage() is wizard.register_page:
                break
            wizard.next()
        wizard.camera_model = two_cameras.models[camera]  # the lens page: the user picked this camera's lens file
        assert wizard.register_page.capture().verdict == "good"
        for _ in range(10):
            if wizard.currentPage() is wizard.done_page:
                break
            wizard.next()
        wizard.accept()
        return 1

    def look_at_overlap(dialog):
        overlaps.append((dialog.cover.names, dialog.text.text(), dialog.picture.pixmap().width()))
        return 1  # Start the game

    monkeypatch.setattr(SetupWizard, "exec", click_through)
    monkeypatch.setattr(CoverageDialog, "exec", look_at_overlap)
    monkeypatch.setattr(run_command, "_play_live", lambda app, args, live, firsts, scenario, calibration, *rest, **kw:
                        played.append((tuple(live.camera_names), live.tracker.calibration("cam1").residual_in)) or 0)
    settings = ["--settings", str(tmp_path / "settings.ini")]
    mine = [tmp_path / "mine" / "left.json", tmp_path / "mine" / "right.json"]
    cameras = ["--camera", str(two_cameras.folders["cam0"]), "--camera", str(two_cameras.folders["cam1"])]
    argv = ["run", *cameras, "--calibration", str(mine[0]), "--calibration", str(mine[1]),
            "--scenario", str(two_cameras.scenario), *settings]
    assert main(argv) == 0, capsys.readouterr().err
    assert [w[0] for w in walked] == ["Sandtable Companion — set up camera 1 of 2: cam0",
                                      "Sandtable Companion — set up camera 2 of 2: cam1"]
    assert walked[0][1:] == (True, True) and walked[1][1:] == (False, False)  # tags printed, projector set up once
    assert mine[0].is_file() and mine[1].is_file()
    names, text, width = overlaps[0]
    assert names == ("cam0", "cam1") and width > 600
    assert "2 camera(s) see 100% of the 96x48 in table" in text and "cam0: registered from anchors" in text
    assert played[-1][0] == ("cam0", "cam1") and played[-1][1] < 0.05
    # next time: no options at all, the same two cameras and their calibrations, no walkthrough
    assert main(["run", *settings]) == 0, capsys.readouterr().err
    assert len(walked) == 2 and len(overlaps) == 1 and played[-1][0] == ("cam0", "cam1")
