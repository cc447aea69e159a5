"""The Tracking panel's camera lines as a player reads them: a camera node's skipped bad messages
counted on its line (in the warning colour), a lost camera's reconnect tries, the strip's notice."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.tracking.tracking_status import CameraLine, TrackingStatus  # noqa: E402
from gui.panels.tracking_panel import TrackingPanel  # noqa: E402
from gui.theme import TEXT_COLORS  # noqa: E402


def test_the_panel_shows_each_nodes_bad_messages_and_a_lost_cameras_reconnect_tries(qtbot):
    panel = TrackingPanel()
    qtbot.addWidget(panel)
    cameras = (CameraLine("left", 29.8, True, (0, 1), 3),
               CameraLine("pi-right", 14.9, True, (2,), 2, bad_messages=7),
               CameraLine("phone", None, False, (), 0, reconnect_attempts=4))
    panel.show_status(TrackingStatus(29.8, 0.05, 300, False, 0.03, (), (), (), cameras))
    text = panel.cameras.text()
    assert panel.cameras.isVisibleTo(panel)
    assert "pi-right: 14.9 fps · anchors 2 · 2 units in view · 7 bad messages skipped" in text
    assert "phone: NO FEED, reconnecting (attempt 4)" in text
    right = text.split("<br>")[1]
    assert TEXT_COLORS["warning"] in right  # delivering, but worth a look
    assert "bad message" not in text.split("<br>")[0]
