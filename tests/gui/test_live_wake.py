"""A tracked frame reaches the session as soon as the tracking thread has it: the feed's ``on_ready``
wakes the window's poll (its timer is only the fallback), one wake on its way at a time."""
from __future__ import annotations

import os
import threading
from types import SimpleNamespace

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer

from appmodel.game_session import GameSession
from appmodel.tracking.live_tracking import LiveUpdate
from gui.compositor import ensure_qt_app
from gui.live_presenter import LivePresenter
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

AR = 31


class Feed:
    """A feed whose results come when the test says (what LiveTracking hands the poll)."""

    def __init__(self) -> None:
        self.on_ready = None
        self.results: list[LiveUpdate] = []
        self.polls = 0

    def poll(self) -> LiveUpdate:
        self.polls += 1
        return self.results.pop(0) if self.results else LiveUpdate(None, None, ())


def test_a_tracked_frame_wakes_the_poll_without_waiting_for_the_timer(qtbot):
    ensure_qt_app()
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    feed = Feed()
    timer = QTimer()
    timer.setInterval(3_600_000)  # the fallback tick would come in an hour
    timer.start()
    window = SimpleNamespace(live=feed, session=session, calibration_run=None, projector=None, tracking_panel=None,
                             view=SimpleNamespace(set_frame=lambda frame: None), timer=timer, calibration=None)
    presenter = LivePresenter(window, None)
    assert feed.on_ready is not None, "the presenter asked to be woken"
    pose = UnitPose(AR, "", "", 40.0, 20.0, 1.0, 90.0, UnitState.SEEN, 1.0, None)
    feed.results.append(LiveUpdate(None, SimpleNamespace(poses=[pose], t_s=1.0), ()))
    before = session.version
    threads = [threading.Thread(target=feed.on_ready) for _ in range(5)]  # the tracking thread, five results
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    qtbot.waitUntil(lambda: session.unit(AR).x_in == 40.0, timeout=10_000)
    assert session.version > before
    ensure_qt_app().processEvents()  # every wake the five results posted (they were posted before the joins)
    assert feed.polls < 5, "wakes already on their way are not queued again"
    timer.stop()
    del presenter
