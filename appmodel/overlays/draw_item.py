"""What the overlay builders hand the painter: :class:`DrawItem` (a shape and/or a label in table
inches, with its colour and style), the label priorities, and the small helpers every builder module
shares (a rules shape's outline remembered by value, a ring's label spot, colour mixing). Qt-free.

The builders live in :mod:`appmodel.overlays.registry` (Down Range's kinds, the shared ones and the registry),
:mod:`appmodel.overlays.forceonforce` (Force on Force: cohesion, leaders, line of fire, Hot Spots) and
:mod:`appmodel.overlays.generic` (the generic rules: range bands, scatter, area of effect, command
range, the solo tables' moves).

>>> from rules.geometry import Circle
>>> ring = outline(Circle(10.0, 5.0, 2.0))
>>> ring.shape, top_of(ring), bottom_of(ring)
((40, 2), (10.0, 7.0), (10.0, 3.0))
>>> lighter("#2f6fd0", 0.5)
'#97b7e8'
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from appmodel.overlays.draw_memo import DrawMemo, NoMemo
from rules.geometry import Circle, Cone, OrientedRect, Reach, Shape

XY = tuple[float, float]

#: Samples of a ring: enough that a 48" ring seen through a wide-angle lens is a smooth curve
#: (the painter also subdivides long straight segments for the camera view).
RING_SEGMENTS = 192
#: Label priorities by layer: higher ones are placed first and win the space; REQUIRED_PRIORITY and
#: above are always placed (moved, with a leader line, rather than dropped).
LABEL_PRIORITY = {"odds": 100, "selected": 95, "tape": 92, "blast": 85, "scatter": 84, "line_of_fire": 82,
                  "fan": 75, "voice": 70, "sight": 66, "automation": 62, "range": 60, "bands": 59, "movement": 58,
                  "command": 56, "other": 55, "jamming": 50, "hot_spots": 45, "emissions": 42, "areas": 40,
                  "cohesion": 35, "units": 30, "contours": 12, "grid": 10}
REQUIRED_PRIORITY = 90
#: What a rules flag looks like on the table: a figure out of cohesion, a scatter, a miss.
WARNING = "#ff4d4d"
#: Who stands in a line of fire (and other "mind these units" highlights).
CAUTION = "#ffb000"
NO_MEMO = NoMemo()


@dataclass(frozen=True, eq=False)
class DrawItem:
    """One thing to draw: a polyline or polygon (``points_in``, (N, 2) inches) and/or a label.

    ``key`` identifies the geometry for caching its projection (equal keys = equal points).
    ``width_px`` is a screen width (the painter scales it for zoom only in the top-down view);
    ``fill`` is a fill opacity 0-255 in ``color``; ``text_in`` is where the label goes.
    """

    layer: str
    key: Hashable
    points_in: np.ndarray
    color: str
    closed: bool = False
    width_px: float = 2.0
    fill: int = 0
    dashed: bool = False
    label: str = ""
    text_in: XY | None = None
    text_color: str = "#ffffff"
    #: "x" draws a cross over points_in[0] of size width_px*4; "dot" a filled dot; "symbol" the SVG
    #: ``symbol_svg`` centred on points_in[0], width_px*5 pixels high; "raster" the ``raster`` image
    #: stretched over the quadrilateral points_in (its first row along points_in[0] -> [1]).
    marker: str = ""
    #: What the label describes (a unit's centre): a label pushed aside gets a leader line to it.
    anchor_in: XY | None = None
    #: Placement priority (see LABEL_PRIORITY; 0: the layer's).
    priority: int = 0
    #: Tried when the full label finds no room (a unit's tag id instead of its name).
    short_label: str = ""
    #: A ring's label: when its spot is out of the view, it slides along the outline to the nearest
    #: point that is in view (a 64" range ring seen by a camera that shows the table only).
    label_on_outline: bool = False
    #: The units whose poses this item is drawn from (() for none, None for "any unit": a count).
    #: While a unit is being moved, the compositor draws its items over cached layers of the rest;
    #: a hint for speed only — whatever changed is redrawn either way.
    units: tuple[int, ...] | None = ()
    #: The height the item stands at, inches above the table: a figure's base on a 3" rooftop is drawn
    #: at 3.0 in the camera view (the top-down view and the projector ignore it). A tuple gives each
    #: point of ``points_in`` its own height (a line of fire from a rooftop down to the street); its
    #: label goes at their mean. A nonzero height is appended to ``key`` (the painter caches projected
    #: outlines by key, and one outline at two heights projects to two places).
    z_in: float | tuple[float, ...] = 0.0
    #: A marker="symbol" item's SVG text (appmodel.overlays.unit_symbols): the painter caches its picture by it.
    symbol_svg: str = ""
    #: A marker="raster" item's pixels: (rows, cols, 4) uint8 RGBA, row 0 at points_in[0]'s edge (one
    #: pixel per grid cell: a viewshed, sculpting guidance, elevation tints). ``key`` names its content.
    raster: Any = None

    def __post_init__(self) -> None:
        if self.z_in:
            z = self.z_in if isinstance(self.z_in, (int, float)) else tuple(float(v) for v in self.z_in)
            object.__setattr__(self, "z_in", z)
            tail = (("z", z),)
            object.__setattr__(self, "key", self.key + tail if isinstance(self.key, tuple) else (self.key, *tail))

    @property
    def label_z_in(self) -> float:
        """The height of the item's label and its anchor (the mean of per-point heights)."""
        z = self.z_in
        return float(z) if isinstance(z, (int, float)) else (sum(z) / len(z) if z else 0.0)

    @cached_property
    def identity(self) -> tuple[Any, ...]:
        """Everything that decides how the item looks (equal identities draw equal pixels under one
        transform): the compositor repaints only the places whose identities changed."""
        return (self.layer, self.key, self.color, self.closed, self.width_px, self.fill, self.dashed, self.label,
                self.text_in, self.text_color, self.marker, self.anchor_in, self.priority, self.short_label, self.z_in)

    @cached_property
    def identity_hash(self) -> int:
        return hash(self.identity)

    @property
    def label_priority(self) -> int:
        return self.priority or LABEL_PRIORITY.get(self.layer, 20)


def pts(points: Iterable[XY]) -> np.ndarray:
    """Points as an (N, 2) float array of inches.

    >>> pts([(1, 2), (3, 4)]).tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    """
    return np.asarray(list(points), dtype=np.float64).reshape(-1, 2)


def outline(shape: object, segments: int = RING_SEGMENTS, memo: DrawMemo = NO_MEMO) -> np.ndarray:
    """The outline of a rules shape as (N, 2) inches (remembered by the shape's value in ``memo``)."""
    return memo.get(("outline", shape, segments), lambda: _outline_now(shape, segments))


def _outline_now(shape: object, segments: int) -> np.ndarray:
    if isinstance(shape, Reach):
        out = pts(shape.outline_in(segments))
    elif isinstance(shape, Circle):
        out = pts(shape.outline_in(max(24, min(segments, int(8 * shape.radius_in) + 24))))
    elif isinstance(shape, Cone):
        out = pts(shape.outline_in(64))
    elif isinstance(shape, OrientedRect):
        out = pts(shape.corners_in())
    elif isinstance(shape, Shape):
        out = pts(shape.outline_in())
    else:
        out = np.zeros((0, 2))
    out.setflags(write=False)  # shared between frames through the memo
    return out


def top_of(points: np.ndarray) -> XY:
    """Where a ring's label goes: its top point (largest y), so labels of nested rings do not collide."""
    if len(points) == 0:
        return (0.0, 0.0)
    i = int(np.argmax(points[:, 1]))
    return (float(points[i, 0]), float(points[i, 1]))


def bottom_of(points: np.ndarray) -> XY:
    """The lowest point of an outline (smallest y): a second family of ring labels, clear of the first."""
    if len(points) == 0:
        return (0.0, 0.0)
    i = int(np.argmin(points[:, 1]))
    return (float(points[i, 0]), float(points[i, 1]))


def lighter(color: str, amount: float = 0.45) -> str:
    """A colour mixed toward white (movement and secondary rings).

    >>> lighter("#000000", 0.5)
    '#808080'
    """
    c = color.lstrip("#")
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    mix = [round(v + (255 - v) * amount) for v in (r, g, b)]
    return "#" + "".join(f"{v:02x}" for v in mix)


def base_radius(u: Any) -> float:
    """About how far a unit's base reaches from its centre (a round base's radius, half a hull's length)."""
    fp = u.footprint
    return fp.radius_in if isinstance(fp, Circle) else fp.length_in / 2


def height_of(u: Any) -> float:
    """The height of the ground a unit stands on (``UnitView.z_in``; 0 for the table plane)."""
    return float(u.z_in)


def heights_along(points: np.ndarray, a: XY, b: XY, z_a: float, z_b: float) -> float | tuple[float, ...]:
    """Heights for the points of a shape laid from ``a`` (at ``z_a``) to ``b`` (at ``z_b``): each
    point's share of the way along a-b, so a corridor from a rooftop to the street slopes down.
    One height when both ends are level.

    >>> heights_along(pts([(0, 1), (10, 1), (10, -1), (0, -1)]), (0.0, 0.0), (10.0, 0.0), 3.0, 0.0)
    (3.0, 0.0, 0.0, 3.0)
    >>> heights_along(pts([(0, 1), (10, 1)]), (0.0, 0.0), (10.0, 0.0), 0.0, 0.0)
    0.0
    """
    if abs(z_a - z_b) < 1e-9:
        return float(z_a)
    d = np.array([b[0] - a[0], b[1] - a[1]])
    t = np.clip((np.asarray(points, dtype=np.float64).reshape(-1, 2) - np.array(a)) @ d / max(float(d @ d), 1e-12),
                0.0, 1.0)
    return tuple(float(v) for v in z_a + t * (z_b - z_a))


def ring_around(u: Any, layer: str, color: str, memo: DrawMemo, *, pad_in: float = 0.45, width_px: float = 2.5,
                dashed: bool = False) -> DrawItem:
    """A highlight ring around a unit's base (in a fan, caught in a blast, in a line of fire), at the
    height the unit stands."""
    r = base_radius(u) + pad_in
    z = height_of(u)
    key = (f"{layer} ring", u.unit_id, u.x_in, u.y_in, r)
    return memo.get((key, color, width_px, dashed, z), lambda: DrawItem(
        layer, key, outline(Circle(u.x_in, u.y_in, r), 40, memo), color, closed=True, width_px=width_px, dashed=dashed,
        units=(u.unit_id,), z_in=z))


def arrow_head(a: XY, b: XY, *, size_in: float = 0.7, spread_deg: float = 56.0) -> np.ndarray:
    """The two barbs of an arrow pointing from ``a`` to ``b`` (``spread_deg`` between them), as one
    open polyline through ``b``.

    >>> arrow_head((0.0, 0.0), (10.0, 0.0), size_in=1.0, spread_deg=180.0).round(6).tolist()
    [[10.0, 1.0], [10.0, 0.0], [10.0, -1.0]]
    """
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    half = math.radians(spread_deg / 2)
    left, right = ((b[0] + size_in * math.cos(t), b[1] + size_in * math.sin(t)) for t in (ang + math.pi - half,
                                                                                           ang + math.pi + half))
    return pts([left, b, right])


__all__ = ["CAUTION", "DrawItem", "LABEL_PRIORITY", "NO_MEMO", "REQUIRED_PRIORITY", "RING_SEGMENTS", "WARNING", "XY",
           "arrow_head", "base_radius", "bottom_of", "height_of", "heights_along", "lighter", "outline", "pts",
           "ring_around", "top_of"]
