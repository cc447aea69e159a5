"""A replay's Timeline dock is as tall as what it holds -- the slider, the comms lane, the buttons --
at a laptop's 1366x768 and at 1920x1080: every button in view without scrolling, and no empty band
under them (the event list it once held is in the Events dock)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractButton, QApplication

from appmodel.game_session import GameSession
from rules.action_forms import ActionRequest
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

SIZES = [(1366, 768), (1920, 1080)]
SERGEANT = 10
#: Under the buttons, the panel's margin and a few pixels of rounding; the old band was over 60.
SLACK_PX = 14


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """Five seconds of the sergeant walking; he Signals at 2 s (so the comms lane shows)."""
    path = tmp_path_factory.mktemp("timeline") / "game.sqlite"
    t = [0.0]
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=3, clock=lambda: t[0])
    recorder = session.start_recording(path)
    for i in range(6):
        t[0] = float(i)
        poses = [UnitPose(SERGEANT, "Sergeant", "Marines", 18.0 + i, 21.0, 1.0, 0.0, UnitState.SEEN, float(i), float(i))]
        recorder.record_frame(i, float(i), poses)
        session.apply_poses(poses, t_s=float(i))
        if i == 2:
            session.resolve_action(ActionRequest("signal", SERGEANT, {"purpose": "other"}))
    session.stop_recording()
    return path


@pytest.mark.parametrize("size", SIZES)
def test_the_timeline_dock_shows_its_buttons_and_no_empty_band(qtbot, tmp_path, recording, size):
    from appmodel.replay_model import ReplayModel
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    create_application()
    replay = ReplayModel(recording)
    store = open_store(tmp_path / "settings.ini")  # (never the user's: a saved window state skips the fitting)
    w = MainWindow(replay.session, settings=load_settings(store), store=store, replay=replay)
    qtbot.addWidget(w)
    w.show()
    w.resize(*size)  # (shown first: the docks are fitted on the first resize of the window on screen)
    try:
        qtbot.waitUntil(lambda: getattr(w, "_docks_fitted", False))
        for _ in range(5):
            QApplication.processEvents()
        timeline = w.timeline
        assert timeline.lane.isVisible(), "the recording's Signal shows in the comms lane"
        port = w.docks["Timeline"].widget().viewport()
        seen = QRect(port.mapTo(w, QPoint(0, 0)), port.size())
        buttons = [b for b in timeline.findChildren(QAbstractButton) if b.isVisible()]
        assert buttons
        rects = {b.text(): QRect(b.mapTo(w, QPoint(0, 0)), b.size()) for b in buttons}
        cut = [text for text, rect in rects.items() if not seen.contains(rect)]
        assert not cut, f"timeline buttons out of view: {cut}"
        band = seen.bottom() - max(rect.bottom() for rect in rects.values())
        assert band <= SLACK_PX, f"{band} px empty under the timeline's buttons"
    finally:
        w.close()
        replay.close()
