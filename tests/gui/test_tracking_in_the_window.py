"""Tracking you can see, in the real window: a status strip with the camera's rate and the units' and
anchors' state, a Tracking panel listing each unit and why, a red mark where a missing anchor belongs in
the camera view, and a notice over the view when the feed stops (it used to go black without a word)."""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from gui_helpers import ScriptedLive
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState


@dataclass
class Detections:
    tag_ids: np.ndarray
    corners_px: np.ndarray

    def __len__(self) -> int:
        return len(self.tag_ids)


@dataclass
class Tracked:
    t_s: float
    poses: tuple
    detections: Detections
    events: tuple = ()


class FakeTracker:
    def __init__(self, calibration) -> None:
        self.calibration = calibration


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    import appmodel.tracking.tracking_status as ts
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store
    from appmodel.tracking.synthetic_feed import SyntheticFeed

    monkeypatch.setattr(ts, "STALLED_AFTER_S", 0.8)
    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    feed = SyntheticFeed(session.table_size_in, width_px=640, height_px=360)
    live = ScriptedLive(FakeTracker(feed.calibration), feed.render(session.units()))
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store, calibration=feed.calibration, live=live)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    w.view.set_mode("camera")
    return w, live, session


def red_near(window, x_in: float, y_in: float, radius_px: int = 30) -> int:
    image = window.view.grab().toImage()
    x, y = window.view.transform().device_from_table(np.array([[x_in, y_in]]))[0]
    count = 0
    for yy in range(int(y) - radius_px, int(y) + radius_px, 2):
        for xx in range(int(x) - radius_px, int(x) + radius_px, 2):
            if 0 <= xx < image.width() and 0 <= yy < image.height():
                c = image.pixelColor(xx, yy)
                count += c.red() > 200 and c.green() < 110 and c.blue() < 110
    return count


def test_status_strip_panel_missing_anchor_mark_and_stopped_feed(window, qtbot):
    w, live, session = window
    units = [u for u in session.units() if u.on_table]
    poses = tuple(UnitPose(u.unit_id, u.name, u.side, u.x_in, u.y_in, 1.0, u.heading_deg, UnitState.SEEN, 0.0, 0.0)
                  for u in units[:-1])  # the last unit on the table is never found
    anchors = Detections(np.array([0, 1, 2]), np.array([[[10, 10], [40, 10], [40, 40], [10, 40]]] * 3, float))
    before = red_near(w, 1.5, 46.5)
    for i in range(12):
        live.feed(Tracked(i / 10, poses, anchors))
        qtbot.wait(60)
    qtbot.waitUntil(lambda: "anchors 3/4 (missing 3)" in w.tracking_strip.text(), timeout=3000)
    assert w.tracking_strip.isVisible() and "fps" in w.tracking_strip.text()
    assert "1 never seen" in w.tracking_strip.text()
    rows = {w.tracking_panel.table.item(r, 1).text(): w.tracking_panel.table.item(r, 2).text()
            for r in range(w.tracking_panel.table.rowCount())}
    assert rows[units[-1].name] == "never seen" and rows[units[0].name] == "seen"
    assert red_near(w, 1.5, 46.5) > before + 20  # the dashed ring where anchor 3 belongs
    assert red_near(w, 70.5, 1.5) <= red_near(w, 1.5, 46.5) // 4  # none where an anchor is seen
    # The feed stops: no frame for longer than the stall limit.
    qtbot.waitUntil(lambda: "NO FEED" in w.tracking_strip.text(), timeout=4000)
    image = w.view.grab().toImage()
    cx, cy = image.width() // 2, image.height() // 2
    frame_red = sum(1 for x in range(cx - 100, cx + 100, 4) for y in range(cy - 27, cy - 20)
                    if (c := image.pixelColor(x, y)).red() > 150 and c.green() < 110 and c.blue() < 110)
    assert frame_red > 20  # the notice's red frame across the middle of the view


def test_the_tracking_panel_names_a_trimmed_tag_in_view_that_the_tracker_cannot_read(qtbot, tmp_path):
    """A unit never seen, and its tag in the picture with the white border cut off: the panel and the
    strip say what is in view but not tracked, and why, instead of only 'never seen'."""
    import cv2

    from appmodel.tracking.synthetic_feed import SyntheticFeed
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store
    from tracker.detections import TagDetections
    from tracker_helpers import tag_bitmap

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    units = [u for u in session.units() if u.on_table]
    missing = units[-1]
    feed = SyntheticFeed(session.table_size_in, width_px=640, height_px=360)
    picture = feed.render(session.units()).copy()
    grey = np.full((40, 40), 60, np.uint8)  # a dark base, the tag cut at its black square
    grey[8:32, 8:32] = cv2.resize(tag_bitmap(missing.unit_id), (24, 24), interpolation=cv2.INTER_AREA)
    picture[300:340, 560:600] = cv2.cvtColor(cv2.GaussianBlur(grey, (0, 0), 0.7), cv2.COLOR_GRAY2BGR)
    live = ScriptedLive(FakeTracker(feed.calibration), picture)
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(session, settings=load_settings(store), store=store, calibration=feed.calibration, live=live)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    poses = tuple(UnitPose(u.unit_id, u.name, u.side, u.x_in, u.y_in, 1.0, u.heading_deg, UnitState.SEEN, 0.0, 0.0)
                  for u in units[:-1])
    for i in range(8):
        live.feed(Tracked(i / 10, poses, TagDetections.empty()))
        qtbot.wait(60)
    panel = w.tracking_panel
    qtbot.waitUntil(lambda: panel.undecoded.isVisible() and f"tag {missing.unit_id} at (579, 320) px" in panel.undecoded.text(),
                    timeout=5000)
    assert "trimmed white border" in panel.undecoded.text()
    qtbot.waitUntil(lambda: "not tracked" in w.tracking_strip.text(), timeout=3000)
    panel.grab().save(str(tmp_path / "tracking_panel.png"))


def test_a_clip_that_ends_says_so_instead_of_a_stopped_feed(window, qtbot):
    """The newcomer's review, #2: a file or the demo reaching its end is an end, said calmly, not the
    red 'camera feed stopped' banner."""
    from appmodel.tracking.live_tracking import LiveUpdate

    w, live, session = window
    units = [u for u in session.units() if u.on_table]
    poses = tuple(UnitPose(u.unit_id, u.name, u.side, u.x_in, u.y_in, 1.0, u.heading_deg, UnitState.SEEN, 0.0, 0.0)
                  for u in units)
    anchors = Detections(np.array([0, 1, 2, 3]), np.array([[[10, 10], [40, 10], [40, 40], [10, 40]]] * 4, float))
    for i in range(5):
        live.feed(Tracked(i / 10, poses, anchors))
        qtbot.wait(60)
    live.end_words = "The clip skirmish.mp4 has ended"
    live.poll = lambda: LiveUpdate(None, None, (), None, True, None, None)  # the source's end
    qtbot.waitUntil(lambda: "The clip skirmish.mp4 has ended" in w.tracking_strip.text(), timeout=4000)
    qtbot.wait(1200)  # longer than the stall limit: still an end, never NO FEED
    w.live_presenter.tracking_shown_at = 0.0
    w.live_presenter.show_tracking()
    assert "NO FEED" not in w.tracking_strip.text()
    assert w.view.tracking is not None and w.view.tracking.ended and not w.view.tracking.stalled
    image = w.view.grab().toImage()
    cx, cy = image.width() // 2, image.height() // 2
    frame_red = sum(1 for x in range(cx - 100, cx + 100, 4) for y in range(cy - 27, cy - 20)
                    if (c := image.pixelColor(x, y)).red() > 150 and c.green() < 110 and c.blue() < 110)
    assert frame_red == 0  # no red stall banner across the view
    if os.environ.get("SANDTABLE_LAYOUT_SHOTS"):
        w.grab().save(os.path.join(os.environ["SANDTABLE_LAYOUT_SHOTS"], "clip-ended-1366x768.png"))
