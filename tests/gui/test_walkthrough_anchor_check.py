"""The first-run walkthrough's anchor check agrees with what the camera shows and with the registration
that follows: on a 960x540 picture with all four anchors plainly in view it reports all four (a
decimated search reported the far two missing), and the registration uses the same four."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def test_all_anchors_in_a_960x540_picture_are_found_and_registered():
    from appmodel.game_session import GameSession
    from gui.setup_steps import check_anchors, register_frame
    from appmodel.tracking.synthetic_feed import SyntheticFeed
    from rules.downrange.examples.in_depth import SCENARIO_PATH

    session = GameSession.from_scenario_file(SCENARIO_PATH)
    feed = SyntheticFeed(session.table_size_in, width_px=960, height_px=540)
    frame = feed.render(session.units())
    layout = feed.calibration.layout
    check = check_anchors(frame, layout)
    assert check.missing == () and check.found == (0, 1, 2, 3)
    assert check.message == "All 4 anchors are in view."
    assert set(check.corners_px) == {0, 1, 2, 3}  # what the page outlines
    registration = register_frame(frame, layout, feed.calibration.model)
    assert set(registration.calibration.anchors_used) == set(check.found)  # the next page says the same
