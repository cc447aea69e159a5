"""Labels never cover each other: crowded requests, the rulebook's in-depth example in the camera view
and the 40-unit bench scene; the selected unit's label and the odds are always shown; a label pushed
away from what it names gets a leader line; placement is stable while another unit moves."""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.label_placement import LabelRequest, boxes_overlap, place_labels  # noqa: E402
from appmodel.overlay_shapes import REQUIRED_PRIORITY  # noqa: E402

# After the project (not before it): bench/demo.py would otherwise hide the demo package from every test
# that runs later in the same process (a `sandtable` command imports it).
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))


def no_two_overlap(placed) -> bool:
    boxes = [p.box_px for p in placed]
    return not any(boxes_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def crowd(n: int, seed: int) -> list[LabelRequest]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        ax, ay = rng.uniform(100, 700), rng.uniform(100, 500)
        prio = rng.choice([10, 30, 30, 30, 60, 95, 100])
        text = f"Rifleman {i}" if prio < 90 else f"hit {rng.randint(1, 99)}%  kill {rng.randint(1, 99)}%"
        out.append(LabelRequest(i, text, (8.0 * len(text) + 8, 19.0), (ax, ay + 14), (ax, ay), prio,
                                required=prio >= REQUIRED_PRIORITY, short_text=str(i), short_size_px=(24.0, 19.0)))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_crowded_labels_never_overlap_and_required_ones_are_always_placed(seed):
    requests = crowd(120, seed)
    placed = place_labels(requests, bounds_px=(0, 0, 800, 600))
    assert no_two_overlap(placed)
    keys = {p.key for p in placed}
    assert {r.key for r in requests if r.required} <= keys
    required = [p for p in placed if p.request.required]
    assert all(p.text == p.request.text for p in required), "required labels keep their full text"
    # what did not fit was dropped or shortened, lowest priority first
    dropped = [r for r in requests if r.key not in keys]
    assert dropped and max(r.priority for r in dropped) <= min(r.priority for r in requests if r.required)
    assert any(p.text == p.request.short_text for p in placed)
    for p in placed:
        if not p.request.required:
            x0, y0, x1, y1 = p.box_px
            assert x0 >= 0 and y0 >= 0 and x1 <= 800 and y1 <= 600


def test_a_label_pushed_away_points_back_at_its_unit():
    a = LabelRequest("a", "Mortar gunner", (110, 19), (300, 320), (300, 300), 30)
    b = LabelRequest("b", "hit 33%  kill 51%", (140, 19), (302, 322), (302, 300), 100, required=True)
    placed = {p.key: p for p in place_labels([a, b], bounds_px=(0, 0, 800, 600))}
    assert not placed["b"].moved and placed["b"].leader_px is None  # the odds win their spot
    moved = placed["a"]
    assert moved.moved and not boxes_overlap(moved.box_px, placed["b"].box_px)
    if moved.leader_px is not None:
        (ax, ay), (bx, by) = moved.leader_px
        assert (ax, ay) == (300, 300)
        x0, y0, x1, y1 = moved.box_px
        assert x0 - 1e-6 <= bx <= x1 + 1e-6 and y0 - 1e-6 <= by <= y1 + 1e-6


def test_placement_is_stable_when_another_label_moves():
    requests = crowd(60, 11)
    first = place_labels(requests, bounds_px=(0, 0, 800, 600))
    previous = {p.key: p for p in first}
    moved = requests[:]
    r = moved[5]
    moved[5] = LabelRequest(r.key, r.text, r.size_px, (r.at_px[0] + 3, r.at_px[1]), (r.anchor_px[0] + 3, r.anchor_px[1]),
                            r.priority, required=r.required, short_text=r.short_text, short_size_px=r.short_size_px)
    second = {p.key: p for p in place_labels(moved, bounds_px=(0, 0, 800, 600), previous=previous)}
    assert no_two_overlap(second.values())
    kept = [k for k in previous if k != 5 and k in second and second[k].box_px == previous[k].box_px]
    assert len(kept) >= len(previous) - 4


def _placed_in(session, feed):
    from gui.compositor import Compositor
    from gui.settings import OverlayToggles
    from appmodel.transforms import CameraTransform

    comp = Compositor()
    comp.compose(session.snapshot(), CameraTransform(feed.calibration), OverlayToggles(),
                 frame_bgr=np.zeros((feed.table.model.height_px, feed.table.model.width_px, 3), np.uint8))
    return comp.painter.placed_labels, comp.items(session.snapshot(), OverlayToggles())


def test_the_in_depth_example_and_the_forty_unit_scene_have_no_overlapping_labels():
    from gui.compositor import ensure_qt_app
    from appmodel.game_session import AttackDraft, GameSession
    from appmodel.synthetic_feed import SyntheticFeed
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
        selected = next(i for i in items if i.layer == "labels" and "move left" in i.label)
        assert selected.label in texts
        odds = [i.label for i in items if i.layer == "odds"]
        assert odds and all(t in texts for t in odds)
        # most labels keep their full text
        assert sum(1 for p in placed if p.text == p.request.text) >= 0.8 * len(placed)
