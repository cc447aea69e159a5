"""Draws :class:`~gui.overlay_shapes.DrawItem` values with a QPainter through a transform.

The only code that turns overlay geometry into pixels. Projected outlines are cached per transform
(``transform.cache_key``) and per item key, so a ring whose unit did not move is projected once,
not every frame; all missing outlines of a frame are projected in one call (one ``projectPoints`` for
the camera view). Pens, brushes and label sizes are cached too.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF

from gui.overlay_shapes import DrawItem
from gui.transforms import densify

#: Entries kept per transform before the outline cache is cleared (units moving every frame).
MAX_CACHED_OUTLINES = 20000


def _polygon(points_px: np.ndarray) -> QPolygonF:
    # QPolygonF from a list of QPointF: building it point by point is the portable way in PySide6.
    return QPolygonF([QPointF(float(x), float(y)) for x, y in points_px])


class OverlayPainter:
    """Paints draw items; keep one per view (its caches belong to that view's transforms)."""

    def __init__(self, *, font_px: float = 15.0) -> None:
        self.font = QFont()
        self.font.setPixelSize(int(font_px))
        self.font.setBold(True)
        self._metrics = QFontMetricsF(self.font)
        self._outlines: dict[Hashable, dict[Hashable, QPolygonF]] = {}
        self._pens: dict[tuple[str, float, bool], QPen] = {}
        self._brushes: dict[tuple[str, int], QBrush] = {}
        self._text_sizes: dict[str, tuple[float, float]] = {}
        self._label_bg = QColor(0, 0, 0, 150)
        self.projected_last_frame = 0

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

    def outlines(self, items: Sequence[DrawItem], transform: Any) -> dict[Hashable, QPolygonF]:
        """Projected outlines of ``items`` under ``transform`` (cached; missing ones in one batch)."""
        cache = self._outlines.setdefault(transform.cache_key, {})
        if len(self._outlines) > 4:
            # Views zoom and pan: keep only the current transform's outlines.
            self._outlines = {transform.cache_key: cache}
        if len(cache) > MAX_CACHED_OUTLINES:
            cache.clear()
        missing: list[DrawItem] = []
        seen: set[Hashable] = set()
        for item in items:
            if len(item.points_in) and item.key not in cache and item.key not in seen:
                missing.append(item)
                seen.add(item.key)
        self.projected_last_frame = len(missing)
        if missing:
            chunks = []
            for item in missing:
                pts = item.points_in
                if not transform.affine and len(pts) > 1:
                    pts = densify(pts, closed=item.closed)
                chunks.append(pts)
            projected = transform.device_from_table(np.concatenate(chunks))
            start = 0
            for item, pts in zip(missing, chunks):
                cache[item.key] = _polygon(projected[start:start + len(pts)])
                start += len(pts)
        return cache

    def paint(self, painter: QPainter, items: Sequence[DrawItem], transform: Any, *, label_scale: float = 1.0) -> None:
        """Draw ``items`` in order: shapes first, then every label on top."""
        outlines = self.outlines(items, transform)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        labels: list[tuple[DrawItem, QPointF]] = []
        no_brush = QBrush(Qt.BrushStyle.NoBrush)
        for item in items:
            poly = outlines.get(item.key) if len(item.points_in) else None
            if poly is not None:
                if item.marker:
                    self._marker(painter, item, poly)
                else:
                    painter.setPen(self._pen(item.color, item.width_px, item.dashed))
                    if item.closed:
                        painter.setBrush(self._brush(item.color, item.fill) if item.fill else no_brush)
                        painter.drawPolygon(poly)
                    else:
                        painter.drawPolyline(poly)
            if item.label and item.text_in is not None:
                at = transform.device_from_table(np.array([item.text_in]))[0]
                labels.append((item, QPointF(float(at[0]), float(at[1]))))
        if labels:
            self._labels(painter, labels)

    def _marker(self, painter: QPainter, item: DrawItem, poly: QPolygonF) -> None:
        c = poly.at(0)
        r = item.width_px * 2.5
        if item.marker == "x":
            painter.setPen(self._pen(item.color, item.width_px, False))
            painter.drawLine(QPointF(c.x() - r, c.y() - r), QPointF(c.x() + r, c.y() + r))
            painter.drawLine(QPointF(c.x() - r, c.y() + r), QPointF(c.x() + r, c.y() - r))
        else:
            painter.setPen(self._pen("#000000", 1.0, False))
            painter.setBrush(self._brush(item.color, 255))
            painter.drawEllipse(c, r, r)

    def _labels(self, painter: QPainter, labels: list[tuple[DrawItem, QPointF]]) -> None:
        painter.setFont(self.font)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._label_bg)
        boxes = []
        for item, at in labels:
            size = self._text_sizes.get(item.label)
            if size is None:
                size = (self._metrics.horizontalAdvance(item.label) + 8, self._metrics.height() + 2)
                self._text_sizes[item.label] = size
            box = QRectF(at.x() - size[0] / 2, at.y() - size[1] / 2, size[0], size[1])
            boxes.append(box)
        # One path for all label backgrounds: a single fill instead of one per label.
        path = QPainterPath()
        for box in boxes:
            path.addRoundedRect(box, 4, 4)
        painter.drawPath(path)
        for (item, _), box in zip(labels, boxes):
            painter.setPen(QColor(item.text_color))
            painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), item.label)
