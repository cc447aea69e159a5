"""Draws :class:`~appmodel.overlays.draw_item.DrawItem` values with a QPainter through a transform.

The only code that turns overlay geometry into pixels. Projected outlines are cached per transform
(``transform.cache_key``) and per item key, so a ring whose unit did not move is projected once,
not every frame; all missing outlines of a frame are projected in one call (one ``projectPoints`` for
the camera view). Each outline also has its pixel bounds (pen width and antialiasing included), which
the compositor uses to repaint only the places that changed. Labels are placed by
:func:`appmodel.overlays.label_placement.place_labels` (no two overlap; the placement of the last frame is kept
where it still fits) and drawn on top, with a leader line when pushed away from what they describe.
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPainterPath, QPen, QPolygonF,
                           QTransform)
from PySide6.QtSvg import QSvgRenderer

from appmodel.overlays.clip_geometry import clip_polygon, clip_polyline, dash_runs
from appmodel.overlays.label_placement import Box, LabelRequest, PlacedLabel, place_labels
from appmodel.overlays.draw_item import REQUIRED_PRIORITY, DrawItem
from appmodel.overlays.transforms import MAX_SEGMENT_IN

#: Entries kept per transform before the outline cache is cleared (units moving every frame).
MAX_CACHED_OUTLINES = 20000
#: Pictures (rasters, drawn symbols) kept before the caches are cleared.
MAX_CACHED_IMAGES = 256
#: Pixels added around an outline's bounds for antialiasing and round pen caps.
AA_MARGIN_PX = 2.0
#: A dashed outline: dashes and gaps in pen widths (Qt's DashLine pattern).
DASH_WIDTHS, GAP_WIDTHS = 4.0, 2.0


def subdivided(points: np.ndarray, max_length: float, *, closed: bool = False) -> np.ndarray:
    """A polyline with every segment longer than ``max_length`` split into equal parts (the points
    of :func:`appmodel.overlays.transforms.densify`, computed without a loop over the segments: a camera view
    subdivides every outline it projects). A closed outline's closing segment is split too; its
    first point is not repeated at the end. Columns past the first two (a height) are interpolated
    along; lengths are measured in the first two.

    >>> subdivided(np.array([[0.0, 0.0], [12.0, 0.0]]), 5.0).tolist()
    [[0.0, 0.0], [4.0, 0.0], [8.0, 0.0], [12.0, 0.0]]
    >>> len(subdivided(np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0]]), 1.0, closed=True))
    7
    >>> subdivided(np.array([[0.0, 0.0, 3.0], [2.0, 0.0, 0.0]]), 1.0)[:, 2].tolist()
    [3.0, 1.5, 0.0]
    """
    p = np.asarray(points, dtype=np.float64)
    p = p.reshape(-1, p.shape[1] if p.ndim == 2 else 2)
    if len(p) < 2:
        return p
    a = p if closed else p[:-1]
    b = np.roll(p, -1, axis=0) if closed else p[1:]
    d = b - a
    counts = np.maximum(1, np.ceil(np.hypot(d[:, 0], d[:, 1]) / max_length).astype(np.int64))
    if counts.max() == 1:
        return p
    seg = np.repeat(np.arange(len(a)), counts)
    k = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    t = k / counts[seg]
    out = a[seg] + d[seg] * t[:, None]
    return out if closed else np.concatenate([out, p[-1:]])


def densify_px(points_px: np.ndarray, max_px: float) -> np.ndarray:
    """Split an open polyline's segments longer than ``max_px`` (pixels).

    >>> densify_px(np.array([[0.0, 0.0], [10.0, 0.0]]), 4.0).shape
    (4, 2)
    """
    return subdivided(points_px, max_px)


def _path(runs: Sequence[np.ndarray]) -> QPainterPath:
    """Open polylines as one path (one stroke call for a ring's hundred dashes)."""
    path = QPainterPath()
    for run in runs:
        path.addPolygon(_polygon(run))
    return path


def _polygon_by_points(points_px: np.ndarray) -> QPolygonF:
    xs, ys = np.asarray(points_px, dtype=np.float64).reshape(-1, 2).T.tolist()
    return QPolygonF(list(map(QPointF, xs, ys)))


def _polygon_by_buffer(points_px: np.ndarray) -> QPolygonF:
    # A QPolygonF is a contiguous array of (x, y) doubles: size it, then copy the numpy rows into
    # its memory in one go (as pyqtgraph does) instead of making a QPointF per point (15x faster).
    pts = np.ascontiguousarray(points_px, dtype=np.float64).reshape(-1, 2)
    poly = QPolygonF()
    if len(pts):
        poly.resize(len(pts))
        np.frombuffer(_VoidPtr(poly.data(), pts.nbytes, True), dtype=np.float64).reshape(-1, 2)[:] = pts
    return poly


try:  # shiboken6 comes with PySide6; the point-by-point way stays as the fallback
    from shiboken6 import VoidPtr as _VoidPtr

    _check = np.array([[1.5, -2.0], [3.25, 4.0]])
    _polygon = _polygon_by_buffer if _polygon_by_buffer(_check) == _polygon_by_points(_check) else _polygon_by_points
except Exception:  # pragma: no cover - an unusual PySide6 build
    _polygon = _polygon_by_points


#: A raster is drawn in at most this many tiles a side in a view that bends straight lines.
RASTER_TILES = 16


def _raster_grid(item: DrawItem, transform: Any) -> np.ndarray:
    """The device pixels of a raster's (tiles+1) x (tiles+1) grid of tile corners (row 0 along its
    first edge), so each tile is stretched over its own projected quadrilateral."""
    rows, cols = item.raster.shape[:2]
    n_r, n_c = max(1, min(RASTER_TILES, rows)), max(1, min(RASTER_TILES, cols))
    (x0, y0), (x1, _), (_, y1) = item.points_in[0], item.points_in[1], item.points_in[2]
    yy, xx = np.meshgrid(np.linspace(y0, y1, n_r + 1), np.linspace(x0, x1, n_c + 1), indexing="ij")
    return transform.device_from_table(np.column_stack([xx.ravel(), yy.ravel()])).reshape(n_r + 1, n_c + 1, 2)


def _with_heights(item: DrawItem) -> np.ndarray:
    """An item's points with their heights as a third column (N, 3)."""
    p = item.points_in
    z = item.z_in
    if isinstance(z, tuple) and len(z) == len(p):
        return np.column_stack([p, np.asarray(z, dtype=np.float64)])
    return np.column_stack([p, np.full(len(p), item.label_z_in)])


class OverlayPainter:
    """Paints draw items; keep one per view (its caches belong to that view's transforms)."""

    def __init__(self, *, font_px: float = 15.0) -> None:
        self.font = QFont()
        self.font.setPixelSize(int(font_px))
        self.font.setBold(True)
        self._metrics = QFontMetricsF(self.font)
        self._outlines: dict[Hashable, dict[Hashable, QPolygonF]] = {}
        self._bounds: dict[Hashable, dict[Hashable, Box]] = {}
        self._points: dict[Hashable, dict[Hashable, np.ndarray]] = {}
        self._dashes: dict[Hashable, dict[Hashable, tuple[list[np.ndarray], np.ndarray, QPainterPath]]] = {}
        self._pens: dict[tuple[str, float, bool], QPen] = {}
        self._brushes: dict[tuple[str, int], QBrush] = {}
        self._text_sizes: dict[str, tuple[float, float]] = {}
        self._label_bg = QColor(0, 0, 0, 150)
        self._placed: dict[Hashable, PlacedLabel] = {}
        self._requests: dict[DrawItem, LabelRequest] = {}
        self._requests_for: Hashable = None
        #: Rectangles of the view (device pixels) no label covers: what the view draws over them (the
        #: camera and top-down views' badge; :func:`~appmodel.overlays.label_placement.place_labels`).
        self.label_taken_px: tuple[Box, ...] = ()
        self._placed_for: Hashable = None
        self.projected_last_frame = 0
        #: Per-cell pictures by item key, and drawn unit symbols by (SVG, height).
        self._images: dict[Hashable, QImage] = {}
        #: A raster's corners projected on a grid of tiles, per transform (views that bend lines).
        self._grids: dict[Hashable, dict[Hashable, np.ndarray]] = {}
        self._symbols: dict[tuple[str, float], QImage] = {}

    def set_font_px(self, font_px: float) -> None:
        if int(font_px) != self.font.pixelSize():
            self.font.setPixelSize(max(8, int(font_px)))
            self._metrics = QFontMetricsF(self.font)
            self._text_sizes.clear()

    def _pen(self, color: str, width: float, dashed: bool) -> QPen:
        key = (color, width, dashed)
        pen = self._pens.get(key)
        if pen is None:
            pen = QPen(QColor(color), width)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            if dashed:
                pen.setStyle(Qt.PenStyle.DashLine)
            self._pens[key] = pen
        return pen

    def _brush(self, color: str, alpha: int) -> QBrush:
        key = (color, alpha)
        brush = self._brushes.get(key)
        if brush is None:
            c = QColor(color)
            c.setAlpha(alpha)
            brush = QBrush(c)
            self._brushes[key] = brush
        return brush

    # -- geometry ---------------------------------------------------------------------------------
    def outlines(self, items: Sequence[DrawItem], transform: Any) -> dict[Hashable, QPolygonF]:
        """Projected outlines of ``items`` under ``transform`` (cached; missing ones in one batch)."""
        key = transform.cache_key
        cache = self._outlines.setdefault(key, {})
        bounds = self._bounds.setdefault(key, {})
        points = self._points.setdefault(key, {})
        if len(self._outlines) > 4:
            # Views zoom and pan: keep only the current transform's outlines.
            self._outlines = {key: cache}
            self._bounds = {key: bounds}
            self._points = {key: points}
        if len(cache) > MAX_CACHED_OUTLINES:
            cache.clear()
            bounds.clear()
            points.clear()
        missing: list[DrawItem] = []
        seen: set[Hashable] = set()
        for item in items:
            if len(item.points_in) and item.key not in cache and item.key not in seen:
                missing.append(item)
                seen.add(item.key)
        self.projected_last_frame = len(missing)
        if missing:
            # Items above the table (a figure on a rooftop) carry their height through subdivision as a
            # third column; a frame of table-level items projects exactly as before, at z = 0.
            raised = any(item.z_in for item in missing)
            chunks = []
            # Cut to what the view sees where its lens model holds, in inches, BEFORE the lens: a ring
            # larger than the camera's view would otherwise fold back across the picture.
            clip = getattr(transform, "clipped_to_view", None)
            for item in missing:
                pts = _with_heights(item) if raised else item.points_in
                if clip is not None and len(pts) > 1 and item.marker != "raster":
                    pts = clip(pts, closed=item.closed, z_in=item.label_z_in)
                # a raster's quadrilateral stays four corners: the picture is stretched over them
                if not transform.affine and len(pts) > 1 and item.marker != "raster":
                    pts = subdivided(pts, MAX_SEGMENT_IN, closed=item.closed)
                chunks.append(pts)
            everything = np.concatenate(chunks)
            projected = (transform.device_from_table(everything[:, :2], z_in=everything[:, 2]) if raised
                         else transform.device_from_table(everything))
            if not transform.affine:
                grids = self._grids.setdefault(key, {})
                if len(self._grids) > 4:
                    self._grids = {key: grids}
                for item in missing:
                    if item.marker == "raster":
                        grids[item.key] = _raster_grid(item, transform)
            start = 0
            for item, pts in zip(missing, chunks):
                part = projected[start:start + len(pts)]
                cache[item.key] = _polygon(part)
                points[item.key] = part
                start += len(pts)
                if not len(part):  # wholly out of the view: nothing to paint, no bounds
                    bounds.pop(item.key, None)
                    continue
                bounds[item.key] = (float(part[:, 0].min()), float(part[:, 1].min()),
                                    float(part[:, 0].max()), float(part[:, 1].max()))
        return cache

    def projected(self, item: DrawItem, transform: Any) -> np.ndarray | None:
        """The item's outline in device pixels (after :meth:`outlines`), as drawn."""
        return self._points.get(transform.cache_key, {}).get(item.key)

    @staticmethod
    def pad_px(item: DrawItem) -> float:
        """How far an item's pixels reach beyond its outline (half the pen, antialiasing, markers)."""
        return item.width_px / 2 + AA_MARGIN_PX + (item.width_px * 3.5 if item.marker else 0.0)

    def cached_outlines(self, transform: Any) -> int:
        return len(self._outlines.get(transform.cache_key, {}))

    def prune(self, transform: Any, keep: set[Hashable]) -> None:
        """Forget the projections of items no longer drawn (units carried across the table leave a
        trail of them), keeping ``keep``; cheaper than clearing everything and projecting again."""
        view = transform.cache_key
        for cache in (self._outlines.get(view), self._bounds.get(view), self._points.get(view), self._dashes.get(view)):
            if cache:
                for key in [k for k in cache if k not in keep]:
                    del cache[key]
        if len(self._text_sizes) > 4000:
            self._text_sizes.clear()

    def item_bounds(self, item: DrawItem, transform: Any) -> Box | None:
        """The pixels an item's shape may touch under ``transform`` (after :meth:`outlines`), or None
        for a label-only item."""
        if not len(item.points_in):
            return None
        b = self._bounds.get(transform.cache_key, {}).get(item.key)
        if b is None:
            return None
        pad = self.pad_px(item)
        return (b[0] - pad, b[1] - pad, b[2] + pad, b[3] + pad)

    def dirty_boxes(self, item: DrawItem, transform: Any, *, bounds: Box | None = None, chunk_px: float = 96.0) -> list[Box]:
        """Rectangles covering the pixels an item paints: its bounds for a filled shape or a small
        one; for a long thin outline (a diagonal voice edge, an unfilled ring) one box per stretch of
        about ``chunk_px``, so repainting where it was does not repaint the whole square it spans.
        ``bounds``: the bounds remembered when it was painted (used if its outline is gone)."""
        box = self.item_bounds(item, transform) or bounds
        if box is None:
            return []
        pts = self.projected(item, transform)
        if pts is None and bounds is not None:
            return [bounds]
        if item.fill or item.marker or pts is None or len(pts) < 2 or \
                max(box[2] - box[0], box[3] - box[1]) <= 2 * chunk_px:
            return [box]
        if item.closed:
            pts = np.concatenate([pts, pts[:1]])
        seg = np.hypot(*np.diff(pts, axis=0).T)
        along = np.concatenate([[0.0], np.cumsum(seg)])
        pieces = max(1, int(math.ceil(along[-1] / chunk_px)))
        if pieces == 1:
            return [box]
        # A chunk boundary falls on a vertex: split long segments first so chunks stay short.
        pts = densify_px(pts, chunk_px / 2)
        along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(pts, axis=0).T))])
        which = np.minimum((along / chunk_px).astype(int), pieces - 1)
        pad = self.pad_px(item)
        out = []
        for k in range(pieces):
            idx = np.flatnonzero(which == k)
            if not len(idx):
                continue
            lo, hi = idx[0], min(idx[-1] + 1, len(pts) - 1)  # include the next vertex: the chunk's last segment
            part = pts[lo:hi + 1]
            out.append((float(part[:, 0].min()) - pad, float(part[:, 1].min()) - pad,
                        float(part[:, 0].max()) + pad, float(part[:, 1].max()) + pad))
        return out

    def paint_cost_px(self, item: DrawItem, transform: Any) -> float:
        """About how many pixels painting an item touches: the stroke's length times its width,
        plus the bounds of a fill (what decides whether drawing it every frame is cheap)."""
        box = self.item_bounds(item, transform)
        if box is None:
            return 0.0
        pts = self.projected(item, transform)
        length = 0.0
        if pts is not None and len(pts) > 1:
            length = float(np.hypot(*np.diff(pts, axis=0).T).sum())
        # An aliased fill costs about a tenth of an antialiased stroke per pixel.
        area = 0.1 * (box[2] - box[0]) * (box[3] - box[1]) if item.fill else 0.0
        return length * (item.width_px + 2 * AA_MARGIN_PX) + area

    # -- labels -----------------------------------------------------------------------------------
    def text_size(self, text: str) -> tuple[float, float]:
        size = self._text_sizes.get(text)
        if size is None:
            size = (self._metrics.horizontalAdvance(text) + 8, self._metrics.height() + 2)
            self._text_sizes[text] = size
        return size

    def label_requests(self, items: Sequence[DrawItem], transform: Any,
                       size: tuple[int, int] | None = None) -> list[tuple[LabelRequest, DrawItem]]:
        """Every item's label as a placement request in device pixels. Requests are kept per item
        (the builders hand back the same item while it does not change), so a frame projects only
        the anchors of new items, in one call."""
        labelled = [i for i in items if i.label and i.text_in is not None]
        if not labelled:
            return []
        view = (transform.cache_key, tuple(size) if size else None)
        old = self._requests if self._requests_for == view else {}
        fresh = [i for i in labelled if i not in old]
        made: dict[DrawItem, LabelRequest] = {}
        if fresh:
            pts = np.array([i.text_in for i in fresh] + [i.anchor_in or i.text_in for i in fresh], dtype=np.float64)
            heights = [i.label_z_in for i in fresh]
            if any(heights):  # a label of a figure on a rooftop goes where the camera sees the figure
                px = transform.device_from_table(pts, z_in=np.array(heights + heights)).tolist()
            else:
                px = transform.device_from_table(pts).tolist()
            n = len(fresh)
            for k, item in enumerate(fresh):
                prio = item.label_priority
                at, anchor = (px[k][0], px[k][1]), (px[n + k][0], px[n + k][1])
                if item.label_on_outline and size:
                    at = anchor = self._visible_spot(item, transform, at, self.text_size(item.label), size)
                made[item] = LabelRequest((item.layer, item.key), item.label, self.text_size(item.label), at, anchor, prio,
                                          required=prio >= REQUIRED_PRIORITY, short_text=item.short_label,
                                          short_size_px=self.text_size(item.short_label) if item.short_label else None)
        requests = {i: old.get(i) or made[i] for i in labelled}
        self._requests, self._requests_for = requests, view
        return [(r, i) for i, r in requests.items()]

    @property
    def placed_labels(self) -> list[PlacedLabel]:
        """The labels as the last frame placed them (device pixels)."""
        return list(self._placed.values())

    def _visible_spot(self, item: DrawItem, transform: Any, at: tuple[float, float], text: tuple[float, float],
                      size: tuple[int, int]) -> tuple[float, float]:
        """``at`` if a label there is in view, else the point of the item's outline nearest to it
        where it is."""
        mx, my = text[0] / 2 + 2, text[1] / 2 + 2
        w, h = size
        if mx <= at[0] <= w - mx and my <= at[1] <= h - my:
            return at
        pts = self.projected(item, transform)
        if pts is None or not len(pts):
            return at
        ok = (pts[:, 0] >= mx) & (pts[:, 0] <= w - mx) & (pts[:, 1] >= my) & (pts[:, 1] <= h - my)
        if not ok.any():
            return at
        vis = pts[ok]
        k = int(np.argmin((vis[:, 0] - at[0]) ** 2 + (vis[:, 1] - at[1]) ** 2))
        return (float(vis[k, 0]), float(vis[k, 1]))

    def layout_labels(self, items: Sequence[DrawItem], transform: Any, size: tuple[int, int] | None, *,
                      remember: bool = True) -> list[tuple[PlacedLabel, DrawItem]]:
        """Place the items' labels (stable: the last placement under the same transform is kept where
        it still fits; ``remember=False`` for one-off extras that must not disturb it)."""
        requests = self.label_requests(items, transform, size)
        taken = self.label_taken_px
        view_key = (transform.cache_key, tuple(size) if size else None, taken)
        previous = self._placed if view_key == self._placed_for else None
        bounds = (0.0, 0.0, float(size[0]), float(size[1])) if size else None
        # Labels keep off unit bases when they can (a name over another unit hides it).
        cache = self._bounds.get(transform.cache_key, {})
        bases = [cache[i.key] for i in items if i.layer == "units" and isinstance(i.key, tuple) and i.key[0] == "base"
                 and i.key in cache]
        placed = place_labels([r for r, _ in requests], bounds_px=bounds, previous=previous, obstacles_px=bases,
                              taken_px=taken)
        by_key = {r.key: item for r, item in requests}
        if remember:
            self._placed = {p.key: p for p in placed}
            self._placed_for = view_key
        return [(p, by_key[p.key]) for p in placed]

    # -- painting ---------------------------------------------------------------------------------
    def paint(self, painter: QPainter, items: Sequence[DrawItem], transform: Any, *, label_scale: float = 1.0,
              size: tuple[int, int] | None = None, remember_labels: bool = True) -> None:
        """Draw ``items`` in order: shapes first, then every label on top (placed without overlaps)."""
        outlines = self.outlines(items, transform)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for item in items:
            poly = outlines.get(item.key) if len(item.points_in) else None
            if poly is not None:
                self.paint_shape(painter, item, poly, transform)
        self.paint_labels(painter, self.layout_labels(items, transform, size, remember=remember_labels))

    def dashes(self, item: DrawItem, transform: Any) -> tuple[list[np.ndarray], np.ndarray, QPainterPath] | None:
        """A dashed item's dashes (device pixels), their bounds (N, 4), and all of them as one path
        (cached per transform, after :meth:`outlines`)."""
        cache = self._dashes.setdefault(transform.cache_key, {})
        if len(self._dashes) > 4:
            self._dashes = {transform.cache_key: cache}
        found = cache.get(item.key)
        if found is None:
            pts = self.projected(item, transform)
            if pts is None:
                return None
            runs = dash_runs(pts, closed=item.closed, dash_px=DASH_WIDTHS * item.width_px, gap_px=GAP_WIDTHS * item.width_px)
            bounds = np.array([[r[:, 0].min(), r[:, 1].min(), r[:, 0].max(), r[:, 1].max()] for r in runs]).reshape(-1, 4)
            found = (runs, bounds, _path(runs))
            if len(cache) > MAX_CACHED_OUTLINES:
                cache.clear()
            cache[item.key] = found
        return found

    def paint_shape(self, painter: QPainter, item: DrawItem, poly: QPolygonF, transform: Any = None) -> None:
        """One item's shape. Fills are drawn without antialiasing (their edge lies under the
        antialiased outline drawn next, and an antialiased fill of a big translucent hull costs
        several times more), outlines with it. With a ``transform``, dashed outlines are drawn as
        their dashes (:meth:`dashes`: the same pixels whether drawn whole or cut to a rectangle);
        without, with Qt's dashed pen. Leaves antialiasing on."""
        if item.marker == "raster":
            self._raster(painter, item, poly, transform)
            return
        if item.marker:
            self._marker(painter, item, poly)
            return
        if item.closed and item.fill:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self._brush(item.color, item.fill))
            painter.drawPolygon(poly)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        dashes = self.dashes(item, transform) if item.dashed and transform is not None else None
        if dashes is not None:
            painter.setPen(self._pen(item.color, item.width_px, False))
            painter.drawPath(dashes[2])
            return
        painter.setPen(self._pen(item.color, item.width_px, item.dashed))
        if item.closed:
            painter.drawPolygon(poly)
        else:
            painter.drawPolyline(poly)

    def paint_shape_within(self, painter: QPainter, item: DrawItem, points_px: np.ndarray, rect: Box,
                           transform: Any = None) -> None:
        """Paint only the part of an item inside ``rect`` (the dirty rectangle grown by more than the
        pen): the outline is cut first (:mod:`appmodel.overlays.clip_geometry`) so Qt rasterises a few segments,
        not the whole ring; dashes keep their phase along the whole outline."""
        if item.closed and item.fill:
            part = clip_polygon(points_px, rect)
            if len(part) >= 3:
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(self._brush(item.color, item.fill))
                painter.drawPolygon(_polygon(part))
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        if item.dashed:
            dashes = self.dashes(item, transform) if transform is not None else None
            if dashes is not None:
                runs, b = dashes[0], dashes[1]
                near = np.flatnonzero((b[:, 0] <= rect[2]) & (b[:, 2] >= rect[0]) & (b[:, 1] <= rect[3]) & (b[:, 3] >= rect[1]))
                if len(near):
                    painter.setPen(self._pen(item.color, item.width_px, False))
                    painter.drawPath(_path([runs[k] for k in near]))
                return
        pen = self._pen(item.color, item.width_px, item.dashed)
        for run, start_px in clip_polyline(points_px, rect, closed=item.closed):
            if item.dashed:
                pen = QPen(pen)
                pen.setDashOffset(start_px / item.width_px)
            painter.setPen(pen)
            painter.drawPolyline(_polygon(run))

    def paint_lines(self, painter: QPainter, polys: Sequence[QPolygonF], color: str, width: float) -> None:
        """Several open polylines of one solid pen in one stroke call."""
        path = QPainterPath()
        for poly in polys:
            path.addPolygon(poly)
        painter.setPen(self._pen(color, width, False))
        painter.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        painter.drawPath(path)

    def _raster(self, painter: QPainter, item: DrawItem, poly: QPolygonF, transform: Any = None) -> None:
        """A per-cell picture stretched over its projected quadrilateral (one pixel per grid node); in a
        view that bends straight lines (the camera's lens), tile by tile over a projected grid."""
        image = self._images.get(item.key)
        if image is None:
            rgba = np.ascontiguousarray(item.raster, dtype=np.uint8)
            rows, cols = rgba.shape[:2]
            # QImage wraps the buffer; copy() makes it own its pixels (the array may go away)
            image = QImage(rgba.data, cols, rows, 4 * cols, QImage.Format.Format_RGBA8888).copy()
            if len(self._images) > MAX_CACHED_IMAGES:
                self._images.clear()
            self._images[item.key] = image
        if poly.size() < 4 or image.isNull():
            return
        grid = self._grids.get(transform.cache_key, {}).get(item.key) if transform is not None else None
        if grid is None:
            grid = np.array([[[poly.at(0).x(), poly.at(0).y()], [poly.at(1).x(), poly.at(1).y()]],
                             [[poly.at(3).x(), poly.at(3).y()], [poly.at(2).x(), poly.at(2).y()]]])
        n_rows, n_cols = grid.shape[0] - 1, grid.shape[1] - 1
        w, h = image.width(), image.height()
        painter.save()
        # crisp cells: each pixel is one grid node's verdict, not a blend of its neighbours'
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        base = painter.transform()
        for i in range(n_rows):
            for j in range(n_cols):
                sx0, sx1 = w * j / n_cols, w * (j + 1) / n_cols
                sy0, sy1 = h * i / n_rows, h * (i + 1) / n_rows
                source = QPolygonF([QPointF(sx0, sy0), QPointF(sx1, sy0), QPointF(sx1, sy1), QPointF(sx0, sy1)])
                quad = QPolygonF([QPointF(*grid[i, j]), QPointF(*grid[i, j + 1]), QPointF(*grid[i + 1, j + 1]),
                                  QPointF(*grid[i + 1, j])])
                to_device = QTransform()
                if not QTransform.quadToQuad(source, quad, to_device):
                    continue
                painter.setTransform(to_device * base)
                painter.drawImage(QRectF(sx0, sy0, sx1 - sx0, sy1 - sy0), image, QRectF(sx0, sy0, sx1 - sx0, sy1 - sy0))
        painter.restore()

    def symbol_image(self, svg: str, height_px: float) -> QImage:
        """A unit symbol drawn from its SVG (QtSvg), cached per SVG (its SIDC and size) and height."""
        key = (svg, round(height_px, 1))
        image = self._symbols.get(key)
        if image is None:
            renderer = QSvgRenderer(svg.encode("utf-8"))
            size = renderer.defaultSize()
            aspect = size.width() / size.height() if size.height() > 0 else 1.0
            h = max(1, int(round(height_px)))
            image = QImage(QSize(max(1, int(round(h * aspect))), h), QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(Qt.GlobalColor.transparent)
            p = QPainter(image)
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            renderer.render(p)
            p.end()
            if len(self._symbols) > MAX_CACHED_IMAGES:
                self._symbols.clear()
            self._symbols[key] = image
        return image

    def _marker(self, painter: QPainter, item: DrawItem, poly: QPolygonF) -> None:
        c = poly.at(0)
        r = item.width_px * 2.5
        if item.marker == "symbol":
            image = self.symbol_image(item.symbol_svg, 2 * r)
            painter.drawImage(QPointF(c.x() - image.width() / 2, c.y() - image.height() / 2), image)
            return
        if item.marker == "x":
            painter.setPen(self._pen(item.color, item.width_px, False))
            painter.drawLine(QPointF(c.x() - r, c.y() - r), QPointF(c.x() + r, c.y() + r))
            painter.drawLine(QPointF(c.x() - r, c.y() + r), QPointF(c.x() + r, c.y() - r))
        else:
            painter.setPen(self._pen("#000000", 1.0, False))
            painter.setBrush(self._brush(item.color, 255))
            painter.drawEllipse(c, r, r)

    def paint_labels(self, painter: QPainter, labels: Sequence[tuple[PlacedLabel, DrawItem]]) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setFont(self.font)
        for placed, item in labels:
            self.paint_label(painter, placed, item)

    def paint_label(self, painter: QPainter, placed: PlacedLabel, item: DrawItem) -> None:
        x0, y0, x1, y1 = placed.box_px
        box = QRectF(x0, y0, x1 - x0, y1 - y0)
        if placed.leader_px is not None:
            (ax, ay), (bx, by) = placed.leader_px
            painter.setPen(self._pen(item.text_color, 1.5, False))
            painter.drawLine(QPointF(ax, ay), QPointF(bx, by))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self._brush(item.text_color, 255))
            painter.drawEllipse(QPointF(ax, ay), 2.0, 2.0)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._label_bg)
        painter.drawRoundedRect(box, 4, 4)
        painter.setPen(QColor(item.text_color))
        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), placed.text)

    @staticmethod
    def label_bounds(placed: PlacedLabel) -> Box:
        x0, y0, x1, y1 = placed.bounds_px
        return (x0 - AA_MARGIN_PX - 2, y0 - AA_MARGIN_PX - 2, x1 + AA_MARGIN_PX + 2, y1 + AA_MARGIN_PX + 2)


def placements_by_key(labels: Sequence[tuple[PlacedLabel, DrawItem]]) -> Mapping[Hashable, tuple[PlacedLabel, DrawItem]]:
    return {p.key: (p, item) for p, item in labels}
