"""The camera and top-down views' badge ("Camera view · tool: ...", top-left) is never covered by a label:
the label placer is handed the badge's rectangle, as wide as the badge with its longest tool's name, and
places every label (the mortar's range rings that run off the top of the picture among them) clear of it
-- and only of it: the strip beside the badge is free for labels."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from appmodel.overlays.label_placement import boxes_overlap
from appmodel.tracking.synthetic_feed import SyntheticFeed
from gui.compositor import ensure_qt_app
from rules.downrange.examples.in_depth import SCENARIO_PATH

MORTAR_GUNNER = 11


def _settle(qtbot, view) -> None:
    from PySide6.QtWidgets import QApplication

    for _ in range(5):
        QApplication.processEvents()
    view.repaint()  # paints now: labels are laid out for this view
    qtbot.wait(1)


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
@pytest.mark.parametrize("mode", ["camera", "table"])
def test_no_label_covers_the_view_s_badge(qtbot, mode: str, size: tuple[int, int]) -> None:
    from PySide6.QtGui import QFont, QFontMetrics

    from gui.table_view import TOOLS, TableView

    ensure_qt_app()
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    feed = SyntheticFeed(session.table_size_in, width_px=size[0], height_px=size[1])
    view = TableView(session, calibration=feed.calibration, mode=mode)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    session.select_unit(MORTAR_GUNNER)  # range 72": rings and their labels reach the top of the picture
    _settle(qtbot, view)
    badge = view.badge_box_px()
    font = QFont()
    font.setPixelSize(13)
    widest = max(QFontMetrics(font).horizontalAdvance(view.badge_text(t)) for t in TOOLS)
    assert badge[2] - badge[0] >= widest and badge[3] >= 8 + 24, "the box holds the badge whichever tool is picked"
    placed = view.compositor.painter.placed_labels
    texts = [p.text for p in placed]
    assert texts and (mode != "camera" or any("Range" in t for t in texts)), texts
    for p in placed:
        assert not boxes_overlap(p.box_px, badge), (p.text, p.box_px, badge)
        if p.leader_px is not None:
            (ax, ay), (bx, by) = p.leader_px
            assert not boxes_overlap((min(ax, bx), min(ay, by), max(ax, bx) + 0.1, max(ay, by) + 0.1), badge), p.text
    view.set_tool("waypoints")
    assert view.badge_box_px() == badge, "a tool change never uncovers a label under the badge"
