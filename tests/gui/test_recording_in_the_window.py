"""A recording made in the window holds the game: started with Ctrl+R on the synthetic table (no camera),
the file has every unit on the table, their poses and frames, and the units moved by the game are
where the replay shows them; while it records, a red REC with the time shows in the status bar and the
title."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH


@pytest.fixture
def window(qtbot, tmp_path):
    from gui.app import create_application
    from appmodel.tracking.live_tracking import SyntheticLive
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store
    from appmodel.tracking.synthetic_feed import SyntheticFeed

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    feed = SyntheticFeed(session.table_size_in, width_px=640, height_px=360)
    live = SyntheticLive(feed).start()
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store, calibration=feed.calibration, live=live)
    w.settings = w.settings.__class__(**{**w.settings.__dict__, "recordings_dir": str(tmp_path)})
    w.store = None  # no file dialog: the default name in recordings_dir
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    return w


def red_share(widget) -> float:
    image = widget.grab().toImage()
    pixels = [image.pixelColor(x, y) for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)]
    return sum(1 for c in pixels if c.red() > 150 and c.green() < 80 and c.blue() < 80) / max(1, len(pixels))


def test_a_recording_made_in_the_window_holds_the_units_and_their_poses(window, qtbot, tmp_path):
    from tracker.recording import RecordingReader

    on_table = {u.unit_id: u for u in window.session.units() if u.on_table}
    assert not window.rec_label.isVisible()
    window.actions_by_name["record"].trigger()
    qtbot.waitUntil(lambda: window.rec_label.isVisible(), timeout=3000)
    assert "REC" in window.rec_label.text() and "REC" in window.windowTitle()
    assert red_share(window.rec_label) > 0.3  # a red badge, not grey text
    # The clock in the badge counts the recording's seconds (a busy machine may run its timer late).
    qtbot.waitUntil(lambda: window.rec_label.text().endswith("0:01"))
    window.actions_by_name["record"].trigger()
    assert not window.rec_label.isVisible() and "REC" not in window.windowTitle()
    path, = tmp_path.glob("game-*.sqlite")
    with RecordingReader(path) as reader:
        assert set(reader.units) == set(on_table)
        assert reader.frame_count >= 4
        poses = {p.tag_id: p for p in reader.poses_at(reader.duration_s)}
        assert set(poses) == set(on_table)
        for tag, u in on_table.items():
            assert (poses[tag].x_in, poses[tag].y_in) == pytest.approx((u.x_in, u.y_in), abs=1e-6)
            assert np.isfinite(poses[tag].heading_deg)



def test_with_camera_video_chosen_a_window_recording_keeps_the_cameras_picture(qtbot, tmp_path):
    import av

    from appmodel.tracking.live_tracking import LiveTracking
    from calibration.files import load_table_calibration
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store
    from loop_footage import ONE_CAMERA_FPS, OCCLUSION, one_camera_footage
    from tracker.pipeline import Tracker
    from tracker.recording import RecordingReader
    from tracker.roster import load_roster
    from tracker.sources import ImageFolderSource

    folder, calibration = one_camera_footage(tmp_path / "footage")
    create_application()
    session = GameSession.from_scenario_file(OCCLUSION, seed=1)
    tracker = Tracker(roster=load_roster(OCCLUSION), calibration=load_table_calibration(calibration))
    live = LiveTracking(ImageFolderSource(folder, fps=ONE_CAMERA_FPS), tracker, realtime=True).start()
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store, calibration=tracker.calibration, live=live)
    qtbot.addWidget(w)
    w.show()
    assert w.settings.record_video is False  # off by default: about 15 MB a minute at 1080p
    w.actions_by_name["record_video"].setChecked(True)
    assert load_settings(store).record_video is True  # remembered for the next game
    w.settings = w.settings.__class__(**{**w.settings.__dict__, "recordings_dir": str(tmp_path)})
    w.store = None  # no file dialog: the default name in recordings_dir
    w.actions_by_name["record"].trigger()
    qtbot.waitUntil(lambda: w.rec_label.isVisible(), timeout=3000)
    qtbot.waitUntil(lambda: live.frames_processed >= 8, timeout=20000)
    w.actions_by_name["record"].trigger()
    live.stop()
    path, = tmp_path.glob("game-*.sqlite")
    with RecordingReader(path) as reader:
        video = reader.video_path
        assert video is not None and video.suffix == ".mp4" and video.exists()
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        frames = [f.to_ndarray(format="gray") for f in container.decode(stream)]
    assert stream.codec_context.name == "h264" and len(frames) >= 2
    assert frames[-1].std() > 5  # the camera's picture of the table, not a blank
