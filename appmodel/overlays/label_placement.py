"""Where labels go so that none covers another: a greedy placement pass shared by every view (Qt-free).

Crowded units put their names, odds, "voice reaches 6" and ring labels on top of each other. Every
view (camera, top-down, projector) hands its labels to :func:`place_labels` in device pixels, each
with the size of its text box, the spot it prefers, the point it describes (its anchor), a priority
and a short form. Labels are placed highest priority first (odds and the selected unit before unit
names, grid numbers last), each at the first free spot among candidates around its anchor:

1. the spot it prefers (where it sat before placement existed, so an uncrowded table looks the same);
2. eight spots just clear of the anchor (below, above, right, left, diagonals);
3. the same eight further out, with a thin leader line back to the anchor;
4. then the short form (a unit's tag id instead of its name) at the same spots;
5. else the label is dropped — unless it is *required* (odds, the selected unit, the tape): those keep
   their full text and search outward ring by ring until they fit, so they are always shown.

"Free" means its box (plus a small gap) overlaps no label placed before it and nothing the view itself
draws there (its *taken* rectangles: the camera and top-down views' badge in their top-left corner),
and stays inside the view. Not even a required label covers a taken rectangle.

Placement is also *stable*: given the previous frame's result, a label whose request did not change
keeps its spot if that is still free, so labels do not hop around while another unit is carried
across the table, and a frame re-places only what moved.

>>> a = LabelRequest("a", "Rifleman 1", (80, 18), (100, 100), (100, 90), 30, short_text="31", short_size_px=(24, 18))
>>> b = LabelRequest("b", "Rifleman 2", (80, 18), (104, 100), (104, 90), 30, short_text="32", short_size_px=(24, 18))
>>> placed = place_labels([a, b], bounds_px=(0, 0, 400, 300))
>>> [(p.key, p.text, p.moved) for p in placed]
[('a', 'Rifleman 1', False), ('b', 'Rifleman 2', True)]
>>> boxes_overlap(placed[0].box_px, placed[1].box_px)
False
>>> badge = (0, 0, 200, 24)
>>> ring = LabelRequest("ring", "Range 72", (70, 18), (60, 10), (60, 30), 20)
>>> boxes_overlap(place_labels([ring], bounds_px=(0, 0, 400, 300), taken_px=[badge])[0].box_px, badge)
False
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in device pixels
XY = tuple[float, float]

#: Space kept between two labels, pixels.
GAP_PX = 2.0
#: Grid cell of the collision index, pixels (about a label's height times three).
CELL_PX = 64.0
#: Rings searched for a required label before it is put at its last candidate regardless.
MAX_REQUIRED_RINGS = 40


@dataclass(frozen=True)
class LabelRequest:
    """One label to place. ``at_px``: the centre it prefers; ``anchor_px``: what it describes;
    ``size_px``: its text box (width, height). Higher ``priority`` is placed first."""

    key: Hashable
    text: str
    size_px: tuple[float, float]
    at_px: XY
    anchor_px: XY
    priority: int
    required: bool = False
    short_text: str = ""
    short_size_px: tuple[float, float] | None = None


@dataclass(frozen=True)
class PlacedLabel:
    """A placed label: the text shown (full or short), its box, and a leader line if it was pushed
    away from its anchor (from the anchor to the nearest point of the box)."""

    key: Hashable
    text: str
    box_px: Box
    leader_px: tuple[XY, XY] | None
    request: LabelRequest

    @property
    def moved(self) -> bool:
        """Not at the spot it prefers."""
        w, h = self.box_px[2] - self.box_px[0], self.box_px[3] - self.box_px[1]
        cx, cy = self.box_px[0] + w / 2, self.box_px[1] + h / 2
        return abs(cx - self.request.at_px[0]) > 0.5 or abs(cy - self.request.at_px[1]) > 0.5 \
            or self.text != self.request.text

    @property
    def bounds_px(self) -> Box:
        """Everything it paints: the box and the leader line."""
        x0, y0, x1, y1 = self.box_px
        if self.leader_px is not None:
            (ax, ay), (bx, by) = self.leader_px
            x0, y0, x1, y1 = min(x0, ax, bx), min(y0, ay, by), max(x1, ax, bx), max(y1, ay, by)
        return (x0, y0, x1, y1)


def boxes_overlap(a: Box, b: Box, gap_px: float = 0.0) -> bool:
    """Whether two boxes overlap (touching edges do not count).

    >>> boxes_overlap((0, 0, 10, 10), (10, 0, 20, 10)), boxes_overlap((0, 0, 10, 10), (9, 9, 20, 20))
    (False, True)
    """
    return a[0] < b[2] + gap_px and b[0] < a[2] + gap_px and a[1] < b[3] + gap_px and b[1] < a[3] + gap_px


def _box(cx: float, cy: float, size: tuple[float, float]) -> Box:
    w, h = size
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def candidate_centres(request: LabelRequest, size: tuple[float, float], *, rings: int = 3) -> list[tuple[XY, bool]]:
    """Centres to try, best first, each with whether it needs a leader line (see the module text).

    >>> r = LabelRequest("k", "x", (40, 10), (0, 20), (0, 0), 1)
    >>> [c for c, _ in candidate_centres(r, (40, 10))[:3]]
    [(0, 20), (0, 20.0), (0, -20.0)]
    """
    ax, ay = request.anchor_px
    px, py = request.at_px
    w, h = size
    # How far the preferred box keeps clear of the anchor: the other spots keep the same distance.
    clear = max(2.0, math.hypot(px - ax, py - ay) - h / 2)
    out: list[tuple[XY, bool]] = [((px, py), False)]
    for ring in range(rings):
        c = clear + ring * 1.3 * h
        leader = ring > 0
        d = c * 0.7071
        out += [((ax, ay + c + h / 2), leader), ((ax, ay - c - h / 2), leader),
                ((ax + c + w / 2, ay), leader), ((ax - c - w / 2, ay), leader),
                ((ax + d + w / 2, ay + d + h / 2), leader), ((ax - d - w / 2, ay + d + h / 2), leader),
                ((ax + d + w / 2, ay - d - h / 2), leader), ((ax - d - w / 2, ay - d - h / 2), leader)]
    return out


class _Index:
    """Placed boxes in a uniform grid, so a candidate is tested against its neighbours only."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}

    @staticmethod
    def _range(box: Box) -> tuple[int, int, int, int]:
        return (math.floor((box[0] - GAP_PX) / CELL_PX), math.floor((box[1] - GAP_PX) / CELL_PX),
                math.floor((box[2] + GAP_PX) / CELL_PX), math.floor((box[3] + GAP_PX) / CELL_PX))

    def free(self, box: Box) -> bool:
        i0, j0, i1, j1 = self._range(box)
        cells = self.cells
        x0, y0, x1, y1 = box[0] - GAP_PX, box[1] - GAP_PX, box[2] + GAP_PX, box[3] + GAP_PX
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                for o in cells.get((i, j), ()):
                    if x0 < o[2] and o[0] < x1 and y0 < o[3] and o[1] < y1:
                        return False
        return True

    def add(self, box: Box) -> None:
        i0, j0, i1, j1 = self._range(box)
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                self.cells.setdefault((i, j), []).append(box)


def _inside(box: Box, bounds: Box | None) -> bool:
    return bounds is None or (box[0] >= bounds[0] and box[1] >= bounds[1] and box[2] <= bounds[2] and box[3] <= bounds[3])


def _leader(anchor: XY, box: Box) -> tuple[XY, XY]:
    """From the anchor to the nearest point of the box."""
    x = min(max(anchor[0], box[0]), box[2])
    y = min(max(anchor[1], box[1]), box[3])
    return (anchor, (x, y))


def place_labels(requests: Sequence[LabelRequest], *, bounds_px: Box | None = None,
                 previous: Mapping[Hashable, PlacedLabel] | None = None,
                 obstacles_px: Sequence[Box] = (), taken_px: Sequence[Box] = ()) -> list[PlacedLabel]:
    """Place ``requests`` without overlaps (see the module text); returns the placed ones, highest
    priority first. ``bounds_px``: the view (labels stay inside it where they can); ``previous``: the
    last result by key, for stable placement; ``obstacles_px``: what a label should rather not cover
    (unit bases): avoided when another candidate is free, never a reason to drop a label;
    ``taken_px``: what the view draws over its labels (its badge): no label covers it, as if a label
    with the highest priority were placed there first."""
    order = sorted(range(len(requests)), key=lambda i: (-requests[i].priority, i))
    index = _Index()
    for box in taken_px:
        index.add(box)
    avoid: _Index | None = None  # built when a label first needs a new spot (most frames reuse every one)
    placed: list[PlacedLabel] = []
    for i in order:
        r = requests[i]
        spot = _reuse(r, previous, index, bounds_px)
        if spot is None and obstacles_px:
            if avoid is None:
                avoid = _Index()
                for box in obstacles_px:
                    avoid.add(box)
            spot = _search(r, index, bounds_px, avoid=avoid, must=False)
        if spot is None:
            spot = _search(r, index, bounds_px)
        if spot is None:
            continue
        index.add(spot.box_px)
        placed.append(spot)
    return placed


def _reuse(r: LabelRequest, previous: Mapping[Hashable, PlacedLabel] | None, index: _Index,
           bounds: Box | None) -> PlacedLabel | None:
    if previous is None:
        return None
    old = previous.get(r.key)
    if old is None or (old.request is not r and old.request != r):
        return None
    if index.free(old.box_px) and (_inside(old.box_px, bounds) or r.required):
        return old
    return None


def _search(r: LabelRequest, index: _Index, bounds: Box | None, *, avoid: _Index | None = None,
            must: bool = True) -> PlacedLabel | None:
    forms = [(r.text, r.size_px)]
    if r.short_text and r.short_size_px is not None and r.short_text != r.text and not r.required:
        forms.append((r.short_text, r.short_size_px))  # a required label keeps its words, further out if need be
    for text, size in forms:
        for (cx, cy), leader in candidate_centres(r, size):
            box = _box(cx, cy, size)
            if _inside(box, bounds) and index.free(box) and (avoid is None or avoid.free(box)):
                return PlacedLabel(r.key, text, box, _leader(r.anchor_px, box) if leader else None, r)
    if not r.required or not must:
        return None
    # Always shown: further rings until one is free (inside the view first, then anywhere).
    for must_fit in (True, False):
        for (cx, cy), _ in candidate_centres(r, r.size_px, rings=MAX_REQUIRED_RINGS)[25:]:
            box = _box(cx, cy, r.size_px)
            if (not must_fit or _inside(box, bounds)) and index.free(box):
                return PlacedLabel(r.key, r.text, box, _leader(r.anchor_px, box), r)
    # Below every placed label: free by construction.
    bottom = max((b[3] for boxes in index.cells.values() for b in boxes), default=r.anchor_px[1])
    box = _box(r.anchor_px[0], bottom + 2 * GAP_PX + r.size_px[1] / 2, r.size_px)
    return PlacedLabel(r.key, r.text, box, _leader(r.anchor_px, box), r)


__all__ = ["LabelRequest", "PlacedLabel", "boxes_overlap", "candidate_centres", "place_labels"]
