"""Labels never cover each other in the drawn views: the rulebook's in-depth example in the camera view
and the 40-unit bench scene; the selected unit's label and the odds are always shown."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.overlays.label_placement import boxes_overlap

# After the project (not before it): bench/demo.py would otherwise hide the demo package from every test
# that runs later in the same process (a `sandtable` command imports it).
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))


def no_two_overlap(placed) -> bool:
    boxes = [p.box_px for p in placed]
    return not any(boxes_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def _placed_in(session, feed):
    from gui.compositor import Compositor
    from appmodel.overlays.registry import OverlayToggles
    from appmodel.overlays.transforms import CameraTransform

    comp = Compositor()
    comp.compose(session.snapshot(), CameraTransform(feed.calibration), OverlayToggles(),
                 frame_bgr=np.zeros((feed.table.model.height_px, feed.table.model.width_px, 3), np.uint8))
    return comp.painter.placed_labels, comp.items(session.snapshot(), OverlayToggles())


def test_the_in_depth_example_and_the_forty_unit_scene_have_no_overlapping_labels():
    from gui.compositor import ensure_qt_app
    from appmodel.game_session import AttackDraft, GameSession
    from appmodel.tracking.synthetic_feed import SyntheticFeed
    from gui_draw import forty_units
    from rules.downrange.examples.in_depth import SCENARIO_PATH

    ensure_qt_app()
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.select_unit(40, weapon="Autocannon")
    s.set_attack(AttackDraft(40, "Autocannon", (15, 11), {"crew_assistants": 1}, {11: {"cover": "partial", "shots": 2}}))
    for session, size in ((s, (1280, 720)), (forty_units(), (1280, 720))):
        feed = SyntheticFeed(session.table_size_in, width_px=size[0], height_px=size[1])
        placed, items = _placed_in(session, feed)
        assert no_two_overlap(placed)
        texts = {p.text for p in placed}
        selected = next(i for i in items if i.layer == "labels" and 40 in (i.units or ()))  # its label says its move
        assert selected.label in texts
        odds = [i.label for i in items if i.layer == "odds"]
        assert odds and all(t in texts for t in odds)
        # most labels keep their full text
        assert sum(1 for p in placed if p.text == p.request.text) >= 0.8 * len(placed)
