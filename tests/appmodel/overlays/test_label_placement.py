"""Labels never cover each other in crowded requests; a label pushed away from what it names gets a
leader line; placement is stable while another unit moves (the drawn views: tests/gui/test_labels_in_views.py)."""
from __future__ import annotations

import random

import pytest

from appmodel.overlays.draw_item import REQUIRED_PRIORITY
from appmodel.overlays.label_placement import LabelRequest, boxes_overlap, place_labels


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
