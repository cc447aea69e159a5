"""The overlay layers a view keeps between frames, so drawing costs what changed, not what is shown.

Painting every overlay of a 40-unit game at 1080p takes tens of milliseconds (Qt's antialiased
rasteriser strokes every ring whole), far more than the 8 ms a frame may take. A view therefore keeps
its overlays as one cached transparent image (a :class:`CachedTier`: shapes in drawing order, labels
placed by :mod:`appmodel.overlays.label_placement` on top) blended over the frame where it holds something, and brings each up to date by *identity* (:attr:`DrawItem.identity`): items that disappeared or
appeared mark dirty rectangles; only there is the tier cleared and everything touching them painted
again, clipped, the outlines cut to the rectangle first (:mod:`appmodel.overlays.clip_geometry`). A big outline
that changed in one place (a comms group's hull) marks only the segments that differ. Each tier is
blended over the frame only where it holds something.

Units being carried across the table change every frame. Their small items (base, front tick, voice
edges, highlight rings, labels) are kept out of the cached image while the unit is *hot* (changed in
the last :data:`HOT_REBUILDS` game changes) and painted straight onto the frame each time: their
shapes under the cached image (a carried unit passes under the overlays standing still, as a hand
holds it above them), their labels over it. The cached image then stays untouched while the unit
moves, and takes its items back when it has been still for a while. A carried unit's own items
(:meth:`LayerStack.mover_of`) are on pictures of their own, which a view paints moved with the unit
to its newer poses until the next exact drawing (:mod:`appmodel.overlays.moved_layer`). What is hot is a speed hint
only (``DrawItem.units``): whatever changed is redrawn either way, so the cached image is always
the same as a full repaint — which the tests check pixel by pixel.
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage, QPainter

from appmodel.overlays.label_placement import Box, PlacedLabel
from appmodel.tracking.frame_gate import pause_point
from gui.overlay_painter import OverlayPainter, subdivided
from appmodel.overlays.draw_item import DrawItem
from appmodel.overlays.transforms import MAX_SEGMENT_IN

#: Game changes (snapshot rebuilds) a unit stays hot after it last changed.
HOT_REBUILDS = 8
#: Hot items that cost more than this share of the view's pixels to paint (a big filled hull) stay
#: in the cached image while they look the same (a member moving inside the hull); smaller ones,
#: and big ones that keep changing, are drawn onto every frame.
HOT_MAX_SHARE = 0.015
#: Above this share of the view changed, a tier is repainted whole (cheaper than many regions).
FULL_REPAINT_SHARE = 0.45
#: Outlines with at least this many points that changed in part are repainted only where they differ...
MIN_PARTIAL_POINTS = 16
#: ...when at least this share of their vertices is shared by the old and the new outline.
PARTIAL_SHARE_SHARED = 0.4
#: Projected outlines kept per drawn item before those of items no longer drawn are forgotten.
PRUNE_FACTOR = 4
#: How far beyond a dirty rectangle outlines are kept when cut (more than any pen and its antialiasing).
CUT_MARGIN_PX = 12.0
#: A hot outline of which less than this share of its bounds is in view is cut to the view first.
HOT_CUT_SHARE = 0.6
#: Hot shapes covering more than this share of the view are drawn with the cached image into one
#: picture on the worker (else on a small picture of their own, the cached image shared as it is).
FLATTEN_SHARE = 0.15

#: One-unit items that also hang on a point that stays where it is (the tape's far end): they are not
#: moved with the unit's picture, they follow with the exact drawing.
TIED_LAYERS = frozenset({"tape"})

Entry = tuple[Box, DrawItem]
LabelEntry = tuple[PlacedLabel, DrawItem]


class LayerPart(NamedTuple):
    """One picture of a view's overlays: the image, the view rectangle it covers (x0, y0, x1, y1),
    where that rectangle starts in the image, and the carried unit whose own items it holds (None:
    anything else), which a view may paint moved with that unit (:mod:`appmodel.overlays.moved_layer`)."""

    image: QImage
    box: tuple[int, int, int, int]
    origin: tuple[int, int]
    unit_id: int | None = None


class CachedTier:
    """One cached transparent image and what is painted on it (items with their pixel bounds, and
    label placements)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.image: QImage | None = None
        self.key: Hashable = None
        self.entries: dict[DrawItem, Box] = {}
        self.labels: dict[Hashable, LabelEntry] = {}
        self.empty = True
        self.content: tuple[int, int, int, int] | None = None
        self.identity_hashes: set[int] = set()

    def update(self, painter: OverlayPainter, entries: dict[DrawItem, Box], labels: Sequence[LabelEntry],
               transform: Any, size: tuple[int, int], *, incremental: bool = True) -> tuple[str, int]:
        """Bring the image up to ``entries`` (items in drawing order with their pixel bounds) and
        ``labels``; returns what was done ("none", "region", "full") and the pixels repainted."""
        w, h = size
        key = (transform.cache_key, size)
        label_map = {p.key: (p, item) for p, item in labels}
        dirty: list[Box] | None = None
        if self.image is not None and key == self.key and incremental:
            dirty = self._dirty(painter, entries, label_map, transform)
            area = sum(max(0.0, min(b[2], w) - max(b[0], 0)) * max(0.0, min(b[3], h) - max(b[1], 0)) for b in dirty)
            if area > FULL_REPAINT_SHARE * w * h:
                dirty = None
        items = list(entries)
        if dirty is None:
            done = self._repaint_all(painter, items, labels, transform, size)
        elif dirty:
            done = self._repaint_region(painter, entries, labels, transform, dirty, size)
        else:
            done = ("none", 0)
        self.key, self.entries, self.labels = key, entries, label_map
        self.identity_hashes = {item.identity_hash for item in entries}
        self.empty = not entries and not labels
        self.content = _union(list(entries.values()) + [painter.label_bounds(p) for p, _ in labels], (w, h))
        self.empty = self.content is None
        return done

    # -- what changed -----------------------------------------------------------------------------
    def _dirty(self, painter: OverlayPainter, entries: dict[DrawItem, Box],
               labels: dict[Hashable, LabelEntry], transform: Any) -> list[Box]:
        old = self.entries
        # The same objects (kept by the builders' memo) are unchanged; of the rest, equal identities are.
        gone = {item.identity: (box, item) for item, box in old.items() if item not in entries}
        removed: list[Entry] = []
        added: list[Entry] = []
        for item, box in entries.items():
            if item in old:
                continue
            if gone.pop(item.identity, None) is None:
                added.append((box, item))
        removed = list(gone.values())
        # A big outline that changed in one place is repainted only around the stretch that differs.
        removed, added, dirty = _changed_parts(painter, removed, added, transform)
        for box, item in removed + added:
            dirty += painter.dirty_boxes(item, transform, bounds=box)

        def same(a: LabelEntry | None, b: LabelEntry | None) -> bool:
            return a is not None and b is not None and a[0].text == b[0].text and a[0].box_px == b[0].box_px \
                and a[0].leader_px == b[0].leader_px and a[1].text_color == b[1].text_color
        for k, entry in self.labels.items():
            if not same(entry, labels.get(k)):
                dirty.append(painter.label_bounds(entry[0]))
        for k, entry in labels.items():
            if not same(entry, self.labels.get(k)):
                dirty.append(painter.label_bounds(entry[0]))
        return dirty

    # -- painting ---------------------------------------------------------------------------------
    def _repaint_all(self, painter: OverlayPainter, items: Sequence[DrawItem], labels: Sequence[LabelEntry],
                     transform: Any, size: tuple[int, int]) -> tuple[str, int]:
        if self.image is None or (self.image.width(), self.image.height()) != size:
            self.image = QImage(size[0], size[1], QImage.Format.Format_ARGB32_Premultiplied)
        self.image.fill(Qt.GlobalColor.transparent)
        lp = QPainter(self.image)
        try:
            outlines = painter.outlines(items, transform)
            lp.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            for item in items:
                pause_point()
                poly = outlines.get(item.key) if len(item.points_in) else None
                if poly is not None:
                    painter.paint_shape(lp, item, poly, transform)
            painter.paint_labels(lp, labels)
        finally:
            lp.end()
        return ("full", size[0] * size[1])

    def _repaint_region(self, painter: OverlayPainter, entries: dict[DrawItem, Box], labels: Sequence[LabelEntry],
                        transform: Any, dirty: list[Box], size: tuple[int, int]) -> tuple[str, int]:
        assert self.image is not None
        rects = disjoint_rects(dirty, size)
        if not rects:
            return ("none", 0)
        shaped = list(entries.items())
        boxes = np.asarray([box for _, box in shaped], dtype=np.float64).reshape(-1, 4)
        label_boxes = np.asarray([painter.label_bounds(p) for p, _ in labels], dtype=np.float64).reshape(-1, 4)
        outlines = painter.outlines([item for item, _ in shaped], transform)
        lp = QPainter(self.image)
        try:
            lp.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            for x0, y0, x1, y1 in rects:
                rect = QRect(x0, y0, x1 - x0, y1 - y0)
                lp.setClipRect(rect)
                lp.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
                lp.fillRect(rect, Qt.GlobalColor.transparent)
                lp.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
                grown = (x0 - CUT_MARGIN_PX, y0 - CUT_MARGIN_PX, x1 + CUT_MARGIN_PX, y1 + CUT_MARGIN_PX)
                hit = (boxes[:, 0] < x1) & (x0 < boxes[:, 2]) & (boxes[:, 1] < y1) & (y0 < boxes[:, 3])
                for k in np.flatnonzero(hit):
                    pause_point()
                    item, box = shaped[k]
                    paint_within(painter, lp, item, box, outlines[item.key], transform, grown)
                hit = (label_boxes[:, 0] < x1) & (x0 < label_boxes[:, 2]) & (label_boxes[:, 1] < y1) & (y0 < label_boxes[:, 3])
                if hit.any():
                    painter.paint_labels(lp, [labels[k] for k in np.flatnonzero(hit)])
        finally:
            lp.end()
        return ("region", int(sum((r[2] - r[0]) * (r[3] - r[1]) for r in rects)))


def paint_within(painter: OverlayPainter, lp: QPainter, item: DrawItem, box: Box, poly: Any, transform: Any,
                 grown: Box) -> None:
    """Paint an item for a clipped repaint: whole when it is small or inside ``grown``, else cut."""
    inside = box[0] >= grown[0] and box[1] >= grown[1] and box[2] <= grown[2] and box[3] <= grown[3]
    small = len(item.points_in) <= 2 and (box[2] - box[0]) * (box[3] - box[1]) < 4 * (grown[2] - grown[0]) * (grown[3] - grown[1])
    if inside or item.marker or small:
        painter.paint_shape(lp, item, poly, transform)
        return
    points = painter.projected(item, transform)
    if points is None or len(points) < 2:
        painter.paint_shape(lp, item, poly, transform)
        return
    painter.paint_shape_within(lp, item, points, grown, transform)


class LayerStack:
    """A view's cached overlay image plus the hot items drawn with it each frame (see the module text)."""

    def __init__(self, painter: OverlayPainter) -> None:
        self.painter = painter
        self.tier = CachedTier("overlays")
        self.incremental = True
        self._rebuilds = 0
        self._changed_at: dict[int, int] = {}
        self._seen_units: dict[int, Any] = {}
        self._items: Sequence[DrawItem] | None = None
        self._key: Hashable = None
        self._geo: dict[DrawItem, tuple[Box | None, Any]] = {}
        self._costs: dict[DrawItem, float] = {}
        self._hot_shapes: list[tuple[DrawItem, Any]] = []
        self._hot_labels: list[LabelEntry] = []
        self._hot_box: tuple[int, int, int, int] | None = None
        self._hot_now: frozenset[int] = frozenset()
        self._size = (1, 1)
        self._key_transform: Any = None
        self.last_update = "none"
        self.last_repainted_px = 0

    def note_units(self, units: Iterable[Any]) -> None:
        """A new snapshot: remember which units changed (they are hot for the next rebuilds)."""
        self._rebuilds += 1
        seen = {}
        for u in units:
            seen[u.unit_id] = u
            if u.unit_id in self._seen_units and self._seen_units[u.unit_id] != u:
                self._changed_at[u.unit_id] = self._rebuilds
        self._seen_units = seen

    def hot_units(self) -> frozenset[int]:
        return frozenset(uid for uid, at in self._changed_at.items() if self._rebuilds - at < HOT_REBUILDS)

    @property
    def hot_now(self) -> frozenset[int]:
        """The units hot at the last :meth:`update`: those :meth:`parts` draws as carried."""
        return self._hot_now

    def invalidate(self) -> None:
        self.tier.image = None
        self.tier.key = None
        self._items = None

    def update(self, items: Sequence[DrawItem], transform: Any, size: tuple[int, int]) -> None:
        """Bring the cached image up to ``items`` and pick the hot items (nothing to do if nothing changed)."""
        w, h = int(size[0]), int(size[1])
        key = (transform.cache_key, (w, h))
        if items is self._items and key == self._key and self.tier.image is not None:
            self.last_update, self.last_repainted_px = "none", 0
            return
        hot = self._hot_now = self.hot_units()
        same_view = key == self._key
        geo_old = self._geo if same_view else {}
        costs_old = self._costs if same_view else {}
        if self.painter.cached_outlines(transform) > PRUNE_FACTOR * len(items) + 500:
            self.painter.prune(transform, {item.key for item in items} | {e.key for e in self.tier.entries})
        missing = [item for item in items if item not in geo_old]
        outlines = self.painter.outlines(missing, transform)
        geo: dict[DrawItem, tuple[Box | None, Any]] = {}
        costs: dict[DrawItem, float] = {}
        limit = HOT_MAX_SHARE * w * h  # pixels a hot item may cost to paint on every frame
        cached = self.tier.identity_hashes if same_view else set()
        entries: dict[DrawItem, Box] = {}
        hot_shapes: list[tuple[DrawItem, Any]] = []
        hot_labelled: set[DrawItem] = set()
        for item in items:
            pause_point()
            g = geo_old.get(item)
            if g is None:
                g = (self.painter.item_bounds(item, transform), outlines.get(item.key) if len(item.points_in) else None)
            geo[item] = g
            box = g[0]
            if not hot:
                is_hot = False
            elif item.units is None:
                # A label that counts units (a fan's "6 in the fan", "voice reaches 3", odds) or sits
                # at the selection: drawn over the cached image while anything moves, so its
                # changes repaint nothing cached.
                is_hot = not len(item.points_in)
            else:
                is_hot = any(u in hot for u in item.units)
            if box is not None:
                if is_hot:
                    cost = costs_old.get(item)
                    if cost is None:
                        cost = self.painter.paint_cost_px(item, transform)
                    costs[item] = cost
                    # Small items of a carried unit are drawn every frame; a big one (a comms hull,
                    # the selected unit's rings) too while it keeps changing, else it stays cached.
                    if cost <= limit or item.identity_hash not in cached:
                        hot_shapes.append((item, g[1]))
                        hot_labelled.add(item)
                        continue
                entries[item] = box
            elif is_hot and item.label:
                hot_labelled.add(item)
        pause_point()
        labels = self.painter.layout_labels(items, transform, (w, h))
        pause_point()
        static_labels = [(p, item) for p, item in labels if item not in hot_labelled]
        self._hot_labels = [(p, item) for p, item in labels if item in hot_labelled]
        self.last_update, self.last_repainted_px = self.tier.update(self.painter, entries, static_labels, transform, (w, h),
                                                                    incremental=self.incremental)
        self._hot_shapes = hot_shapes
        hot_boxes = [geo[item][0] for item, _ in hot_shapes] + [self.painter.label_bounds(p) for p, _ in self._hot_labels]
        self._hot_box = _union(hot_boxes, (w, h))
        self._items, self._key, self._geo, self._costs = items, key, geo, costs
        self._key_transform = transform
        self._size = (w, h)

    def paint_hot_shapes(self, p: QPainter, shapes: Sequence[tuple[DrawItem, Any]] | None = None) -> None:
        """The hot shapes (what goes under the cached image), or those of ``shapes``, onto ``p``."""
        shapes = self._hot_shapes if shapes is None else shapes
        if shapes:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            batch: list[Any] = []
            style: tuple[Any, ...] | None = None
            w, h = self._size
            view = (-CUT_MARGIN_PX, -CUT_MARGIN_PX, w + CUT_MARGIN_PX, h + CUT_MARGIN_PX)
            for item, poly in shapes:
                pause_point()
                # Plain lines of one pen (a carried unit's voice edges) go out as one path.
                plain = not item.closed and not item.marker and not item.dashed
                key = (item.color, item.width_px) if plain else None
                if batch and key != style:
                    self.painter.paint_lines(p, batch, *style)  # type: ignore[misc]  # style is a tuple of the painter's extra arguments
                    batch = []
                if plain:
                    batch.append(poly)
                    style = key
                elif not item.fill and not item.dashed and _visible_share(self._geo[item][0], (w, h)) < HOT_CUT_SHARE:
                    # A ring mostly outside the view (a 64" range): Qt would stroke all of it.
                    paint_within(self.painter, p, item, self._geo[item][0], poly, self._key_transform, view)
                else:
                    # Qt's own dashes here: drawn whole every frame, they need not match a cut repaint
                    self.painter.paint_shape(p, item, poly)
            if batch:
                self.painter.paint_lines(p, batch, *style)  # type: ignore[misc]  # style is a tuple of the painter's extra arguments

    def paint_labels_only(self, p: QPainter, labels: Sequence[LabelEntry] | None = None) -> None:
        """The hot labels alone (what goes over the cached image), or those of ``labels``."""
        labels = self._hot_labels if labels is None else labels
        if labels:
            self.painter.paint_labels(p, labels)

    def mover_of(self, item: DrawItem) -> int | None:
        """The carried unit whose own item this is (drawn on its picture, which a view may move with the
        unit until the next exact drawing: :mod:`appmodel.overlays.moved_layer`), or None: items of
        several units (voice edges, lines of sight, hulls), counts, and items tied to a point that
        stays (:data:`TIED_LAYERS`) follow with the exact drawing only."""
        units = item.units
        if units is None or len(units) != 1 or item.layer in TIED_LAYERS:
            return None
        return units[0] if units[0] in self._hot_now else None

    def parts(self) -> list[LayerPart]:
        """The overlays as pictures nobody changes afterwards, in drawing order: the hot
        shapes, each carried unit's own shapes on a picture of their own, the cached image (shared: Qt
        copies it only when the next update paints on it, and while units are carried nothing does),
        the hot labels, each carried unit's own labels. The hot parts are only as big as what is on
        them: no picture the size of the view is filled or blended per frame for them."""
        out: list[LayerPart] = []
        size = self._size

        def small(box: tuple[int, int, int, int] | None, draw: Any, unit_id: int | None = None) -> None:
            if box is None:
                return
            x0, y0, x1, y1 = box
            image = QImage(x1 - x0, y1 - y0, QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(Qt.GlobalColor.transparent)
            lp = QPainter(image)
            try:
                lp.translate(-x0, -y0)
                draw(lp)
            finally:
                lp.end()
            out.append(LayerPart(image, box, (0, 0), unit_id))

        shapes: dict[int | None, list[tuple[DrawItem, Any]]] = {None: []}
        for entry in self._hot_shapes:
            shapes.setdefault(self.mover_of(entry[0]), []).append(entry)
        labels: dict[int | None, list[LabelEntry]] = {None: []}
        for placed in self._hot_labels:
            labels.setdefault(self.mover_of(placed[1]), []).append(placed)
        movers = sorted({uid for uid in (*shapes, *labels) if uid is not None})

        def shapes_of(uid: int | None) -> None:
            group = shapes.get(uid)
            if group:
                small(_union([self._geo[item][0] for item, _ in group], size),
                      lambda lp: self.paint_hot_shapes(lp, group), uid)

        def labels_of(uid: int | None) -> None:
            group = labels.get(uid)
            if group:
                small(_union([self.painter.label_bounds(p) for p, _ in group], size),
                      lambda lp: self.paint_labels_only(lp, group), uid)

        under = _union([self._geo[item][0] for item, _ in shapes[None]], size) if shapes[None] else None
        if under is not None and (under[2] - under[0]) * (under[3] - under[1]) > FLATTEN_SHARE * size[0] * size[1]:
            # What else moves covers much of the view (a comms hull): one picture, made here, costs
            # the UI thread one blend instead of two big ones.
            for uid in movers:
                shapes_of(uid)
            boxes = [b for b in (self.tier.content if not self.tier.empty else None, under,
                                 _union([self.painter.label_bounds(p) for p, _ in labels[None]], size)) if b is not None]
            x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
            x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
            image = QImage(size[0], size[1], QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(Qt.GlobalColor.transparent)
            lp = QPainter(image)
            try:
                self.paint_hot_shapes(lp, shapes[None])
                _blit(lp, self.tier)
                self.paint_labels_only(lp, labels[None])
            finally:
                lp.end()
            out.append(LayerPart(image, (x0, y0, x1, y1), (x0, y0)))
        else:
            shapes_of(None)
            for uid in movers:
                shapes_of(uid)
            tier = self.tier
            if tier.image is not None and not tier.empty and tier.content is not None:
                out.append(LayerPart(QImage(tier.image), tier.content, (tier.content[0], tier.content[1])))
            labels_of(None)
        for uid in movers:
            labels_of(uid)
        return out

    @property
    def has_hot_shapes(self) -> bool:
        return bool(self._hot_shapes)

    @property
    def hot_item_count(self) -> int:
        return len(self._hot_shapes) + len(self._hot_labels)

    def content_px(self) -> tuple[int, int, int, int] | None:
        """The rectangle :meth:`parts` cover (None: nothing), whole pixels inside the view."""
        boxes = [b for b in (self.tier.content if not self.tier.empty else None, self._hot_box) if b is not None]
        if not boxes:
            return None
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _visible_share(box: Box | None, size: tuple[int, int]) -> float:
    """Which share of a box lies inside the view (1.0 for an empty box).

    >>> _visible_share((-100, 0, 100, 50), (400, 300))
    0.5
    """
    if box is None:
        return 1.0
    area = (box[2] - box[0]) * (box[3] - box[1])
    if area <= 0:
        return 1.0
    inside = max(0.0, min(box[2], size[0]) - max(box[0], 0.0)) * max(0.0, min(box[3], size[1]) - max(box[1], 0.0))
    return inside / area


def _union(boxes: Sequence[Box | None], size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The whole-pixel rectangle inside the view covering ``boxes`` (None if they cover nothing)."""
    real = [b for b in boxes if b is not None]
    if not real:
        return None
    b = np.asarray(real, dtype=np.float64)
    x0, y0 = max(0, int(math.floor(b[:, 0].min()))), max(0, int(math.floor(b[:, 1].min())))
    x1, y1 = min(size[0], int(math.ceil(b[:, 2].max())) + 1), min(size[1], int(math.ceil(b[:, 3].max())) + 1)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _blit(p: QPainter, tier: CachedTier) -> None:
    """Blend a tier over the picture: only the rectangle that holds something."""
    if tier.image is None or tier.empty or tier.content is None:
        return
    x0, y0, x1, y1 = tier.content
    p.drawImage(x0, y0, tier.image, x0, y0, x1 - x0, y1 - y0)


def _changed_parts(painter: OverlayPainter, removed: list[Entry], added: list[Entry], transform: Any
                   ) -> tuple[list[Entry], list[Entry], list[Box]]:
    """Pair each removed outline with the added one of the same kind and style (one each) and give
    the boxes around the stretches in which the two differ (:func:`changed_stretches`)."""
    def style(item: DrawItem) -> tuple[Any, ...]:
        kind = item.key[:2] if isinstance(item.key, tuple) else item.key
        # (paired only at one height: the stretches below are projected at it)
        return (item.layer, kind, item.color, item.closed, item.width_px, item.fill, item.dashed, item.marker, item.z_in)

    def pairable(item: DrawItem) -> bool:  # an outline sloping between heights is repainted whole
        return len(item.points_in) >= MIN_PARTIAL_POINTS and not isinstance(item.z_in, tuple)
    by_style_r: dict[tuple[Any, ...], list[Entry]] = {}
    by_style_a: dict[tuple[Any, ...], list[Entry]] = {}
    for e in removed:
        if pairable(e[1]):
            by_style_r.setdefault(style(e[1]), []).append(e)
    for e in added:
        if pairable(e[1]):
            by_style_a.setdefault(style(e[1]), []).append(e)
    partial: list[Box] = []
    paired: set[int] = set()
    for key, olds in by_style_r.items():
        news = by_style_a.get(key, [])
        if len(olds) != 1 or len(news) != 1:
            continue
        old_item, new_item = olds[0][1], news[0][1]
        stretches = changed_stretches(old_item.points_in, new_item.points_in, closed=old_item.closed)
        if stretches is None:
            continue
        pad = painter.pad_px(new_item)
        for chain in stretches:
            clip = getattr(transform, "clipped_to_view", None)
            if clip is not None:  # as the painter cuts the outline itself (OverlayPainter.outlines)
                chain = clip(chain, closed=False, z_in=new_item.label_z_in)
                if len(chain) < 2:
                    continue
            chain = chain if transform.affine else subdivided(chain, MAX_SEGMENT_IN)
            px = (transform.device_from_table(chain, z_in=float(new_item.z_in)) if new_item.z_in
                  else transform.device_from_table(chain))
            partial.append((float(px[:, 0].min()) - pad, float(px[:, 1].min()) - pad,
                            float(px[:, 0].max()) + pad, float(px[:, 1].max()) + pad))
        paired.update((id(old_item), id(new_item)))
    return ([e for e in removed if id(e[1]) not in paired], [e for e in added if id(e[1]) not in paired], partial)


def changed_stretches(a: np.ndarray, b: np.ndarray, *, closed: bool) -> list[np.ndarray] | None:
    """Where two versions of an outline (table inches) differ: for every stretch between two vertices
    both share, in the same order, whose in-between vertices differ, the points of both stretches.
    The two outlines differ only inside the curves these stretches close, so the boxes around them
    cover every changed pixel (a hull whose one corner moved: that corner's stretch). None when the
    shared vertices are too few or not in the same order (then the whole outlines are repainted).

    >>> a = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    >>> b = np.array([[0, 0], [10, 0], [12, 12], [0, 10]], float)
    >>> [s.tolist() for s in changed_stretches(a, b, closed=True)]
    [[[10.0, 0.0], [10.0, 10.0], [0.0, 10.0], [12.0, 12.0]]]
    >>> changed_stretches(a, a + 1, closed=True) is None
    True
    """
    if not closed or len(a) < 3 or len(b) < 3:
        return None
    ta = [tuple(v) for v in np.asarray(a).tolist()]
    tb = [tuple(v) for v in np.asarray(b).tolist()]
    common = set(ta) & set(tb)
    if len(common) < 2 or len(common) < PARTIAL_SHARE_SHARED * min(len(ta), len(tb)):
        return None
    sa, sb = _stretches(ta, common), _stretches(tb, common)
    if sa is None or sb is None or set(sa) != set(sb):
        return None
    out = []
    for ends, inner in sa.items():
        if inner != sb[ends]:
            out.append(np.asarray([ends[0], *inner, ends[1], *reversed(sb[ends])], dtype=np.float64))
    return out


def _stretches(poly: list[tuple[float, float]], common: set[tuple[float, float]]
               ) -> dict[tuple[tuple[float, float], tuple[float, float]], tuple[tuple[float, float], ...]] | None:
    """Between each pair of consecutive shared vertices, the vertices in between (cyclic)."""
    idx = [i for i, v in enumerate(poly) if v in common]
    if len(idx) < 2 or len({poly[i] for i in idx}) != len(idx):
        return None
    n = len(poly)
    out = {}
    for k, i in enumerate(idx):
        j = idx[(k + 1) % len(idx)]
        inner = tuple(poly[(i + m) % n] for m in range(1, (j - i) % n or n))
        out[(poly[i], poly[j])] = inner
    return out


def disjoint_rects(boxes: list[Box], size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """Whole-pixel rectangles inside the view covering ``boxes``, overlapping ones merged into their
    bounding box until none overlap (each pixel is then repainted exactly once).

    >>> disjoint_rects([(0, 0, 10, 10), (5, 5, 20, 20), (50, 50, 60, 60)], (100, 100))
    [(0, 0, 21, 21), (50, 50, 61, 61)]
    """
    w, h = size
    rects = []
    for x0, y0, x1, y1 in boxes:
        left, top = max(0, math.floor(x0)), max(0, math.floor(y0))
        right, bottom = min(w, math.ceil(x1) + 1), min(h, math.ceil(y1) + 1)
        if right > left and bottom > top:
            rects.append((left, top, right, bottom))
    merged = True
    while merged:
        merged = False
        out: list[tuple[int, int, int, int]] = []
        for r in rects:
            for i, o in enumerate(out):
                if r[0] < o[2] and o[0] < r[2] and r[1] < o[3] and o[1] < r[3]:
                    out[i] = (min(r[0], o[0]), min(r[1], o[1]), max(r[2], o[2]), max(r[3], o[3]))
                    merged = True
                    break
            else:
                out.append(r)
        rects = out
    return rects


__all__ = ["CachedTier", "LayerPart", "LayerStack", "TIED_LAYERS", "changed_stretches", "disjoint_rects", "HOT_REBUILDS"]
