"""The window's tracking (appmodel.tracking.live_tracking) runs the same loop as `sandtable track`: the same footage
gives the same events and the same poses, with one camera and with two."""
from __future__ import annotations

import json
import time

import pytest

from appmodel.tracking.live_tracking import LiveTracking
from cli.main import main
from loop_footage import ONE_CAMERA_FPS, OCCLUSION, TWO_CAMERA_FPS, one_camera_footage, two_camera_footage
from tracker.sources import ImageFolderSource


@pytest.fixture(scope="module")
def one_camera(tmp_path_factory):
    return one_camera_footage(tmp_path_factory.mktemp("one_camera"))


@pytest.fixture(scope="module")
def two_cameras(tmp_path_factory):
    return two_camera_footage(tmp_path_factory.mktemp("two_cameras"))


def _tracked_by_the_command(argv, capsys):
    """(events as (kind, tag, frame), last line's units by tag) of `sandtable track ... --jsonl`."""
    assert main(argv + ["--jsonl", "--no-progress"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    events = [(e["kind"], e.get("tag_id"), e["frame"]) for line in lines for e in line.get("events", ())]
    return events, {u["tag_id"]: u for u in lines[-1]["units"]}, len(lines)


def _tracked_by_the_window_loop(live):
    """The same from the window's side: everything its polls hand the UI until the footage ends."""
    events, last = [], None
    live.start()
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            update = live.poll()
            events += update.events
            last = update.tracked or last
            if update.finished:
                events += live.poll().events  # what arrived between the last take and the end
                break
            time.sleep(0.005)
        assert update.finished and update.error is None, update.error
    finally:
        live.stop()
        live.tracker.close()
        for source in (live.source.values() if isinstance(live.source, dict) else [live.source]):
            source.close()
    units = {p.tag_id: p.to_json() for p in last.poses}
    if hasattr(last, "seen_by"):
        units = {u["tag_id"]: u for u in last.to_json()["units"]}
    return [(e.kind.value, e.tag_id, e.frame_index) for e in events], units, live.frames_processed


def _same_units(a, b):
    assert set(a) == set(b)
    for tag in a:
        assert a[tag]["state"] == b[tag]["state"]
        assert a[tag]["x_in"] == pytest.approx(b[tag]["x_in"], abs=1e-6)
        assert a[tag]["y_in"] == pytest.approx(b[tag]["y_in"], abs=1e-6)


def test_one_camera_gives_the_same_events_through_track_and_through_the_windows_loop(one_camera, capsys):
    from calibration.files import load_table_calibration
    from calibration.table_setup import load_table_setup
    from tracker.pipeline import Tracker
    from tracker.roster import load_roster

    folder, calibration = one_camera
    events, units, frames = _tracked_by_the_command(
        ["track", str(folder), "--calibration", str(calibration), "--scenario", str(OCCLUSION), "--fps", str(ONE_CAMERA_FPS)],
        capsys)
    kinds = {kind for kind, _, _ in events}
    assert {"appeared", "hidden", "lifted"} <= kinds, kinds  # footage that exercises more than appearing

    # the window's tracker, as `sandtable run` builds it
    tracker = Tracker(roster=load_roster(OCCLUSION), calibration=load_table_calibration(calibration),
                      terrain=load_table_setup(OCCLUSION).terrain)
    live = LiveTracking(ImageFolderSource(folder, fps=ONE_CAMERA_FPS), tracker, realtime=False)
    window_events, window_units, window_frames = _tracked_by_the_window_loop(live)
    assert window_frames == frames == 24
    assert window_events == events
    _same_units(units, window_units)
    # a file's end is an end, said in words, not a camera that stopped sending
    assert live.end_words == f"The clip {folder.name} has ended"


def test_two_cameras_give_the_same_events_through_track_and_through_the_windows_loop(two_cameras, capsys):
    from calibration.table_setup import load_table_setup
    from cli.several_cameras import load_calibrations, plan_cameras, several_camera_tracker
    from tracker.roster import load_roster

    footage = two_cameras
    folders = [str(footage.folders[n]) for n in ("cam0", "cam1")]
    calibrations = [str(footage.calibrations[n]) for n in ("cam0", "cam1")]
    argv = ["track", *folders, "--calibration", calibrations[0], "--calibration", calibrations[1],
            "--scenario", str(footage.scenario), "--fps", str(TWO_CAMERA_FPS)]
    events, units, frames = _tracked_by_the_command(argv, capsys)
    assert frames == footage.frames and {"appeared"} <= {kind for kind, _, _ in events}

    # the window's several-camera tracker, as `sandtable run --camera A --camera B` builds it
    plan = plan_cameras(folders, None, calibrations, command="run")
    tracker, receiver = several_camera_tracker(plan, load_calibrations(plan), roster=load_roster(footage.scenario),
                                               terrain=load_table_setup(footage.scenario).terrain)
    sources = {name: ImageFolderSource(footage.folders[name], fps=TWO_CAMERA_FPS) for name in ("cam0", "cam1")}
    live = LiveTracking(sources, tracker, realtime=False, shown_camera="cam0")
    window_events, window_units, window_frames = _tracked_by_the_window_loop(live)
    assert receiver is None and window_frames == frames
    assert window_events == events
    _same_units(units, window_units)
    assert units[10]["cameras"] == window_units[10]["cameras"] == ["cam1"]  # the hand hides it from cam0 only


def test_the_windows_poll_says_a_lost_camera_and_its_reconnect_tries_and_that_it_stops_with_the_window():
    """What the status strip and the Tracking panel are given (``LiveUpdate``), from a camera that is
    unplugged and plugged back in; and the window's loop closes the camera it owns when it stops."""
    import threading

    from tracker.pipeline import Tracker
    from tracker.sources import CameraSource
    from tracker_helpers import FakeCamera

    camera = FakeCamera(fps=200)
    source = CameraSource(0, capture_factory=camera.factory, retry_interval_s=0.05, dropout_after_s=0.1)
    live = LiveTracking(source, Tracker(), realtime=False, poll_timeout_s=0.05, owns_source=True).start()
    deadline = time.monotonic() + 120
    try:
        camera.wait_delivered(10)
        assert live.poll().lost_cameras == ()
        camera.plugged_in = False
        while not (live.poll().reconnect_attempts.get("camera", 0) >= 2) and time.monotonic() < deadline:
            time.sleep(0.01)
        update = live.poll()
        assert update.lost_cameras == ("camera",) and update.reconnect_attempts["camera"] >= 2
        camera.plugged_in = True
        while live.poll().lost_cameras and time.monotonic() < deadline:
            time.sleep(0.01)
        assert live.poll().lost_cameras == () and live.poll().reconnect_attempts["camera"] == 0
    finally:
        live.stop()
    assert not any(t.name.startswith("sandtable-capture-") and t.is_alive() for t in threading.enumerate())
