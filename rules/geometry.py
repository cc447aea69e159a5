"""Geometry the rules decide and the GUI draws: one pure module, so that drawn and ruled never disagree.

Everything is in table inches and degrees (counter-clockwise from +x). Shapes are frozen dataclasses
with a predicate the rules use (``touches``/``contains``) and an ``outline_in()`` polyline a renderer
draws. Conventions (docs/rules-down-range.md repeats them):

* A unit's footprint is its base: a :class:`Circle` (troops) or an :class:`OrientedRect` (vehicles).
* Range is measured base to base: from the closest point of the attacker's footprint (the muzzle sits
  at the edge of the base) to the closest point of the target's footprint (:func:`gap_in`).
  An explosive's aim point must be within Range of the attacker's footprint; a unit is in a blast
  when the closest point of its footprint is within the Radius of the impact point.
* A fan/suppression cone has its apex at the centre of the attacker's footprint (the weapon's pivot),
  a total angle of 45 degrees, and reaches out to Range from the attacker's footprint. A unit is in the
  cone when some part of its footprint lies inside that region.
* Boundaries count as inside: exactly at maximum range, exactly on the edge of the cone.

>>> a, b = Circle(0, 0, 0.5), Circle(10, 0, 0.5)
>>> gap_in(a, b)
9.0
>>> Cone.from_attacker(a, axis_deg=0, range_in=9.0).touches(b)
True
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Protocol, runtime_checkable

#: Half of the 45-degree cone of an automatic weapon (index and middle finger spread).
HALF_CONE_DEG = 22.5
#: Tolerance for "exactly at the limit counts as inside" against float rounding, in inches / degrees.
EPS = 1e-9
#: Sides of the polygon that stands in for a round base against a vehicle-sized cone (error < 1e-4").
_CIRCLE_POLYGON_SIDES = 256

XY = tuple[float, float]


@dataclass(frozen=True)
class Point:
    """A point on the table."""

    x_in: float
    y_in: float

    @property
    def xy(self) -> XY:
        return (self.x_in, self.y_in)


@dataclass(frozen=True)
class Circle:
    """A round base, blast, smoke cloud or illumination area."""

    x_in: float
    y_in: float
    radius_in: float

    @property
    def center(self) -> Point:
        return Point(self.x_in, self.y_in)

    def outline_in(self, segments: int = 72) -> list[XY]:
        return [
            (self.x_in + self.radius_in * math.cos(2 * math.pi * i / segments),
             self.y_in + self.radius_in * math.sin(2 * math.pi * i / segments))
            for i in range(segments)
        ]

    def contains(self, x_in: float, y_in: float) -> bool:
        return math.hypot(x_in - self.x_in, y_in - self.y_in) <= self.radius_in + EPS

    def touches(self, footprint: "Footprint") -> bool:
        """Some part of ``footprint`` is inside this circle (a unit caught in a blast)."""
        return distance_to_point_in(footprint, self.x_in, self.y_in) <= self.radius_in + EPS


@dataclass(frozen=True)
class OrientedRect:
    """A vehicle's hull: ``length_in`` along ``heading_deg``, ``width_in`` across, centred on (x, y)."""

    x_in: float
    y_in: float
    heading_deg: float
    length_in: float
    width_in: float

    @property
    def center(self) -> Point:
        return Point(self.x_in, self.y_in)

    def corners_in(self) -> list[XY]:
        """Corners counter-clockwise: front-right, front-left, rear-left, rear-right, in table inches."""
        h = math.radians(self.heading_deg)
        ux, uy = math.cos(h), math.sin(h)
        vx, vy = -uy, ux
        hl, hw = self.length_in / 2, self.width_in / 2
        return [
            (self.x_in + sx * hl * ux + sy * hw * vx, self.y_in + sx * hl * uy + sy * hw * vy)
            for sx, sy in ((1, -1), (1, 1), (-1, 1), (-1, -1))
        ]

    def outline_in(self, segments: int = 4) -> list[XY]:
        return self.corners_in()


Footprint = Circle | OrientedRect


@runtime_checkable
class Shape(Protocol):
    """Any shape the rules hand to renderers (an :class:`~rules.ruleset.Overlay`'s): its outline in
    table inches, as many points as ``segments`` asks for round parts (a segment's two ends, a
    corridor's four corners)."""

    def outline_in(self, segments: int = ...) -> list[XY]: ...


def footprint_from(x_in: float, y_in: float, heading_deg: float, *, radius_in: float | None = None,
                   length_in: float | None = None, width_in: float | None = None) -> Footprint:
    """A round base if ``radius_in`` is given, else a hull ``length_in`` x ``width_in``.

    >>> footprint_from(1, 2, 90, radius_in=0.5)
    Circle(x_in=1, y_in=2, radius_in=0.5)
    """
    if length_in is not None and width_in is not None:
        return OrientedRect(x_in, y_in, heading_deg, length_in, width_in)
    return Circle(x_in, y_in, 0.5 if radius_in is None else radius_in)


# ---------------------------------------------------------------------------------------------
# Distances


def bearing_deg(from_x: float, from_y: float, to_x: float, to_y: float) -> float:
    """Direction from one point to another, degrees counter-clockwise from +x, in [0, 360).

    >>> bearing_deg(0, 0, 0, 5)
    90.0
    """
    return math.degrees(math.atan2(to_y - from_y, to_x - from_x)) % 360.0


def angle_between_deg(a_deg: float, b_deg: float) -> float:
    """Signed smallest rotation from ``a`` to ``b``, in (-180, 180].

    >>> angle_between_deg(350, 10)
    20.0
    """
    d = (b_deg - a_deg) % 360.0
    return d - 360.0 if d > 180.0 else d


def _to_local(rect: OrientedRect, x_in: float, y_in: float) -> XY:
    h = math.radians(rect.heading_deg)
    dx, dy = x_in - rect.x_in, y_in - rect.y_in
    return (dx * math.cos(h) + dy * math.sin(h), -dx * math.sin(h) + dy * math.cos(h))


def distance_to_point_in(footprint: Footprint, x_in: float, y_in: float) -> float:
    """Distance from a point to the closest point of a footprint (0 if the point is on or inside it).

    >>> distance_to_point_in(OrientedRect(0, 0, 0, 4, 2), 5, 0)
    3.0
    """
    if isinstance(footprint, Circle):
        return max(0.0, math.hypot(x_in - footprint.x_in, y_in - footprint.y_in) - footprint.radius_in)
    lx, ly = _to_local(footprint, x_in, y_in)
    qx = max(abs(lx) - footprint.length_in / 2, 0.0)
    qy = max(abs(ly) - footprint.width_in / 2, 0.0)
    return math.hypot(qx, qy)


def closest_point_in(footprint: Footprint, x_in: float, y_in: float) -> Point:
    """The point of a footprint closest to (x, y) (the point itself if inside)."""
    if isinstance(footprint, Circle):
        d = math.hypot(x_in - footprint.x_in, y_in - footprint.y_in)
        if d <= footprint.radius_in:
            return Point(x_in, y_in)
        k = footprint.radius_in / d
        return Point(footprint.x_in + (x_in - footprint.x_in) * k, footprint.y_in + (y_in - footprint.y_in) * k)
    lx, ly = _to_local(footprint, x_in, y_in)
    cx = min(max(lx, -footprint.length_in / 2), footprint.length_in / 2)
    cy = min(max(ly, -footprint.width_in / 2), footprint.width_in / 2)
    h = math.radians(footprint.heading_deg)
    return Point(footprint.x_in + cx * math.cos(h) - cy * math.sin(h),
                 footprint.y_in + cx * math.sin(h) + cy * math.cos(h))


def _polygon_of(footprint: Footprint) -> list[XY]:
    if isinstance(footprint, OrientedRect):
        return footprint.corners_in()
    # Circumscribed polygon: contains the circle, at most r * (1/cos(pi/n) - 1) larger.
    r = footprint.radius_in / math.cos(math.pi / _CIRCLE_POLYGON_SIDES)
    return [(footprint.x_in + r * math.cos(2 * math.pi * i / _CIRCLE_POLYGON_SIDES),
             footprint.y_in + r * math.sin(2 * math.pi * i / _CIRCLE_POLYGON_SIDES))
            for i in range(_CIRCLE_POLYGON_SIDES)]


def _segment_point_distance(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _point_in_convex(poly: Sequence[XY], x: float, y: float) -> bool:
    sign = 0
    n = len(poly)
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if abs(cross) <= 1e-12:
            continue
        s = 1 if cross > 0 else -1
        if sign == 0:
            sign = s
        elif s != sign:
            return False
    return True


def _convex_polygon_distance(p: Sequence[XY], q: Sequence[XY]) -> float:
    """Distance between two convex polygons, 0 if they overlap."""
    if any(_point_in_convex(q, x, y) for x, y in p) or any(_point_in_convex(p, x, y) for x, y in q):
        return 0.0
    if _edges_cross(p, q):
        return 0.0
    best = math.inf
    for poly_a, poly_b in ((p, q), (q, p)):
        n = len(poly_b)
        for x, y in poly_a:
            for i in range(n):
                ax, ay = poly_b[i]
                bx, by = poly_b[(i + 1) % n]
                best = min(best, _segment_point_distance(ax, ay, bx, by, x, y))
    return best


def _edges_cross(p: Sequence[XY], q: Sequence[XY]) -> bool:
    def orient(a: XY, b: XY, c: XY) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    for i in range(len(p)):
        a, b = p[i], p[(i + 1) % len(p)]
        for j in range(len(q)):
            c, d = q[j], q[(j + 1) % len(q)]
            if orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0:
                return True
    return False


def gap_in(a: Footprint, b: Footprint) -> float:
    """Distance between the closest points of two footprints (0 if they touch or overlap).

    >>> gap_in(Circle(0, 0, 0.5), OrientedRect(10, 0, 90, 4, 2))
    8.5
    """
    if isinstance(a, Circle) and isinstance(b, Circle):
        return max(0.0, math.hypot(a.x_in - b.x_in, a.y_in - b.y_in) - a.radius_in - b.radius_in)
    if isinstance(a, Circle):
        return max(0.0, distance_to_point_in(b, a.x_in, a.y_in) - a.radius_in)
    if isinstance(b, Circle):
        return max(0.0, distance_to_point_in(a, b.x_in, b.y_in) - b.radius_in)
    return _convex_polygon_distance(a.corners_in(), b.corners_in())


# ---------------------------------------------------------------------------------------------
# Reach (range rings), cones and blasts


@dataclass(frozen=True)
class Reach:
    """Every point within ``distance_in`` of a footprint: a weapon's range ring, a voice or jamming radius.

    For a round base it is a circle of radius ``distance + base radius``; for a hull, a rounded
    rectangle. ``distance_in`` may be ``math.inf`` (artillery): the whole table.
    """

    around: Footprint
    distance_in: float

    def contains(self, x_in: float, y_in: float) -> bool:
        return distance_to_point_in(self.around, x_in, y_in) <= self.distance_in + EPS

    def touches(self, footprint: Footprint) -> bool:
        """Some part of ``footprint`` is within reach (base to base)."""
        return gap_in(self.around, footprint) <= self.distance_in + EPS

    def outline_in(self, segments: int = 96) -> list[XY]:
        if math.isinf(self.distance_in):
            return []
        if isinstance(self.around, Circle):
            return Circle(self.around.x_in, self.around.y_in, self.around.radius_in + self.distance_in).outline_in(segments)
        # Rounded rectangle: each corner (counter-clockwise from front-right) gets a quarter circle
        # from the outward normal of the edge before it to that of the edge after it.
        points: list[XY] = []
        per_corner = max(2, segments // 4)
        for i, (cx, cy) in enumerate(self.around.corners_in()):
            start = self.around.heading_deg - 90.0 + 90.0 * i
            for k in range(per_corner + 1):
                ang = math.radians(start + 90.0 * k / per_corner)
                points.append((cx + self.distance_in * math.cos(ang), cy + self.distance_in * math.sin(ang)))
        return points


def _wedge_halfplanes(apex: XY, axis_deg: float, half_deg: float) -> list[tuple[XY, XY]]:
    """The wedge as two directed lines; inside is to the left of both."""
    right = math.radians(axis_deg - half_deg)
    left = math.radians(axis_deg + half_deg)
    ax, ay = apex
    return [((ax, ay), (ax + math.cos(right), ay + math.sin(right))),
            ((ax + math.cos(left), ay + math.sin(left)), (ax, ay))]


def _clip(poly: Sequence[XY], a: XY, b: XY) -> list[XY]:
    """Sutherland-Hodgman: keep the part of ``poly`` left of the line a->b (boundary kept)."""
    def side(p: XY) -> float:
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])

    out: list[XY] = []
    n = len(poly)
    for i in range(n):
        cur, nxt = poly[i], poly[(i + 1) % n]
        sc, sn = side(cur), side(nxt)
        if sc >= -1e-12:
            out.append(cur)
        if (sc >= -1e-12) != (sn >= -1e-12) and sc != sn:
            t = sc / (sc - sn)
            out.append((cur[0] + t * (nxt[0] - cur[0]), cur[1] + t * (nxt[1] - cur[1])))
    return out


def _circle_wedge_distance(apex: XY, axis_deg: float, half_deg: float, circle: Circle) -> float | None:
    """Distance from the apex to the part of ``circle`` inside the wedge, None if they do not meet."""
    ax, ay = apex
    d = math.hypot(circle.x_in - ax, circle.y_in - ay)
    if d <= circle.radius_in:
        return 0.0
    off = abs(angle_between_deg(axis_deg, bearing_deg(ax, ay, circle.x_in, circle.y_in)))
    if off <= half_deg + EPS:
        return d - circle.radius_in
    # Otherwise the closest admissible point is where an edge ray first enters the circle.
    best: float | None = None
    for edge in (axis_deg - half_deg, axis_deg + half_deg):
        ux, uy = math.cos(math.radians(edge)), math.sin(math.radians(edge))
        along = (circle.x_in - ax) * ux + (circle.y_in - ay) * uy
        perp = abs(-(circle.x_in - ax) * uy + (circle.y_in - ay) * ux)
        if perp > circle.radius_in + EPS or along < 0:
            continue
        near = max(0.0, along - math.sqrt(max(0.0, circle.radius_in**2 - perp**2)))
        best = near if best is None else min(best, near)
    return best


@dataclass(frozen=True)
class Cone:
    """A 45-degree cone of fire: apex at the weapon's pivot, axis ``axis_deg``, out to ``reach``.

    ``reach`` is the attacker's range ring (range measured from its base), so a cone and a range
    check agree on every unit.
    """

    apex_x_in: float
    apex_y_in: float
    axis_deg: float
    reach: Reach
    half_angle_deg: float = HALF_CONE_DEG

    @classmethod
    def from_attacker(cls, footprint: Footprint, *, axis_deg: float, range_in: float,
                      half_angle_deg: float = HALF_CONE_DEG) -> "Cone":
        c = footprint.center
        return cls(c.x_in, c.y_in, axis_deg % 360.0, Reach(footprint, range_in), half_angle_deg)

    def in_wedge(self, footprint: Footprint) -> bool:
        """Some part of ``footprint`` lies within the cone's angle (whatever the range)."""
        return _wedge_part(self, footprint) is not None

    def touches(self, footprint: Footprint) -> bool:
        """Some part of ``footprint`` lies inside the cone and within its reach."""
        clear = _clear_cone_answer(self, footprint)
        if clear is not None:
            return clear
        part = _wedge_part(self, footprint)
        if part is None:
            return False
        if math.isinf(self.reach.distance_in):
            return True
        around = self.reach.around
        if isinstance(part, float):
            # Exact for a round target seen from a round base centred on the apex.
            assert isinstance(around, Circle)
            return part - around.radius_in <= self.reach.distance_in + EPS
        return _polygon_gap(part, around) <= self.reach.distance_in + EPS

    def outline_in(self, segments: int = 48) -> list[XY]:
        """Apex, then the far edge of the reach from one side of the cone to the other."""
        apex = (self.apex_x_in, self.apex_y_in)
        points = [apex]
        for i in range(segments + 1):
            ang = self.axis_deg - self.half_angle_deg + 2 * self.half_angle_deg * i / segments
            t = self._exit_distance(math.radians(ang))
            points.append((apex[0] + t * math.cos(math.radians(ang)), apex[1] + t * math.sin(math.radians(ang))))
        return points

    def _exit_distance(self, angle_rad: float) -> float:
        around, r = self.reach.around, self.reach.distance_in
        if math.isinf(r):
            return 1e4
        if isinstance(around, Circle) and (around.x_in, around.y_in) == (self.apex_x_in, self.apex_y_in):
            return around.radius_in + r
        if isinstance(around, OrientedRect) and (around.x_in, around.y_in) == (self.apex_x_in, self.apex_y_in):
            return _rounded_rect_exit(around, r, angle_rad)
        lo, hi = 0.0, r + 2 * max(getattr(around, "length_in", 0.0), getattr(around, "radius_in", 0.0)) + 1.0
        ux, uy = math.cos(angle_rad), math.sin(angle_rad)
        for _ in range(60):
            mid = (lo + hi) / 2
            if distance_to_point_in(around, self.apex_x_in + mid * ux, self.apex_y_in + mid * uy) <= r:
                lo = mid
            else:
                hi = mid
        return lo


def _rounded_rect_exit(rect: OrientedRect, reach_in: float, angle_rad: float) -> float:
    """Where a ray from a hull's centre leaves the region within ``reach_in`` of the hull (a vehicle's
    range ring): the straight side it meets, or the quarter circle around the corner it passes.
    The closed form of the bisection in :meth:`Cone._exit_distance` (same point, in one step).

    >>> round(_rounded_rect_exit(OrientedRect(0, 0, 0, 4, 2), 10.0, 0.0), 9)
    12.0
    >>> round(_rounded_rect_exit(OrientedRect(0, 0, 0, 4, 2), 10.0, math.atan2(1.0, 2.0)), 6)
    12.236068
    """
    h = math.radians(rect.heading_deg)
    ux = math.cos(angle_rad) * math.cos(h) + math.sin(angle_rad) * math.sin(h)
    uy = -math.cos(angle_rad) * math.sin(h) + math.sin(angle_rad) * math.cos(h)
    hl, hw = rect.length_in / 2, rect.width_in / 2
    t = math.inf
    if abs(ux) > 1e-15:
        t = min(t, (hl + reach_in) / abs(ux))
    if abs(uy) > 1e-15:
        t = min(t, (hw + reach_in) / abs(uy))
    px, py = t * abs(ux), t * abs(uy)
    if px <= hl or py <= hw:
        return t  # on one of the straight sides
    # Around the corner (hl, hw) (by symmetry): |t u - c| = reach, the farther root.
    b = abs(ux) * hl + abs(uy) * hw
    c = hl * hl + hw * hw - reach_in * reach_in
    return b + math.sqrt(max(0.0, b * b - c))


#: How clearly a shortcut of :func:`_clear_cone_answer` must decide (inches; degrees for the angle)
#: before it is trusted: closer cases go through the exact test, so boundary rows keep their answer.
_CLEAR_MARGIN = 1e-7


def _clear_cone_answer(cone: Cone, footprint: Footprint) -> bool | None:
    """True/False when a round target is clearly inside or clearly outside ``cone``; None otherwise.

    Only for the case the exact test makes slow: a round base against a cone whose reach is not a
    circle around the apex (a vehicle's hull), where the exact test clips a 256-sided polygon. Both
    answers follow from the exact test's own geometry: the polygon lies within ``r / cos(pi/256)`` of
    the base's centre (too far from the hull: no part can be in reach), and a centre inside the wedge
    and within reach is a point of the clipped part (so the gap is at most the centre's).

    >>> hull = OrientedRect(0, 0, 0, 4, 2)
    >>> cone = Cone.from_attacker(hull, axis_deg=0, range_in=10)
    >>> _clear_cone_answer(cone, Circle(8, 0, 0.5)), _clear_cone_answer(cone, Circle(30, 0, 0.5))
    (True, False)
    """
    if not isinstance(footprint, Circle) or math.isinf(cone.reach.distance_in):
        return None
    around = cone.reach.around
    if isinstance(around, Circle) and (around.x_in, around.y_in) == (cone.apex_x_in, cone.apex_y_in):
        return None  # the exact test is already a closed formula
    reach = cone.reach.distance_in
    centre_gap = distance_to_point_in(around, footprint.x_in, footprint.y_in)
    outer = footprint.radius_in / math.cos(math.pi / _CIRCLE_POLYGON_SIDES)
    if centre_gap - outer > reach + EPS + _CLEAR_MARGIN:
        return False
    if math.hypot(footprint.x_in - cone.apex_x_in, footprint.y_in - cone.apex_y_in) <= _CLEAR_MARGIN:
        return None
    off = abs(angle_between_deg(cone.axis_deg, bearing_deg(cone.apex_x_in, cone.apex_y_in, footprint.x_in, footprint.y_in)))
    if off <= cone.half_angle_deg - _CLEAR_MARGIN and centre_gap <= reach + EPS - _CLEAR_MARGIN:
        return True
    return None


def _polygon_gap(poly: Sequence[XY], footprint: Footprint) -> float:
    if isinstance(footprint, Circle):
        if _point_in_convex(poly, footprint.x_in, footprint.y_in):
            return 0.0
        n = len(poly)
        d = min(_segment_point_distance(*poly[i], *poly[(i + 1) % n], footprint.x_in, footprint.y_in) for i in range(n))
        return max(0.0, d - footprint.radius_in)
    return _convex_polygon_distance(poly, footprint.corners_in())


def _wedge_part(cone: Cone, footprint: Footprint) -> float | list[XY] | None:
    """The part of a footprint inside the cone's wedge: a distance from the apex (round target and
    round attacker: exact), a clipped polygon, or None if none of it is inside."""
    apex = (cone.apex_x_in, cone.apex_y_in)
    if isinstance(footprint, Circle) and isinstance(cone.reach.around, Circle) and \
            (cone.reach.around.x_in, cone.reach.around.y_in) == apex:
        return _circle_wedge_distance(apex, cone.axis_deg, cone.half_angle_deg, footprint)
    if isinstance(footprint, Circle):
        if _circle_wedge_distance(apex, cone.axis_deg, cone.half_angle_deg, footprint) is None:
            return None
    poly: list[XY] = _polygon_of(footprint)
    if _point_in_convex(poly, *apex):
        return [apex]
    for a, b in _wedge_halfplanes(apex, cone.axis_deg, cone.half_angle_deg):
        poly = _clip(poly, a, b)
        if not poly:
            return None
    # Clipping by two half-planes also keeps the opposite wedge's region only if the polygon crosses
    # the apex, which the containment test above already handled.
    return poly


def angular_extent_deg(footprint: Footprint, apex_x_in: float, apex_y_in: float) -> tuple[float, float] | None:
    """(bearing to the centre, half-width) of a footprint seen from a point; None if the point is inside.

    >>> angular_extent_deg(Circle(10, 0, 0), 0, 0)
    (0.0, 0.0)
    """
    c = footprint.center
    centre = bearing_deg(apex_x_in, apex_y_in, c.x_in, c.y_in)
    if isinstance(footprint, Circle):
        d = math.hypot(c.x_in - apex_x_in, c.y_in - apex_y_in)
        if d <= footprint.radius_in:
            return None
        return centre, math.degrees(math.asin(footprint.radius_in / d))
    if _point_in_convex(footprint.corners_in(), apex_x_in, apex_y_in):
        return None
    offs = [angle_between_deg(centre, bearing_deg(apex_x_in, apex_y_in, x, y)) for x, y in footprint.corners_in()]
    lo, hi = min(offs), max(offs)
    mid = centre + (lo + hi) / 2
    return mid % 360.0, (hi - lo) / 2


def common_cone_axis_deg(attacker: Footprint, targets: Sequence[Footprint], *, range_in: float,
                         prefer_deg: float | None = None, half_angle_deg: float = HALF_CONE_DEG) -> float | None:
    """An axis whose cone holds some part of every target within range, or None if no 45-degree
    window fits them all ("a unit can't attack one target in front of it and another behind it").

    The axis closest to ``prefer_deg`` (e.g. the unit's facing) is chosen when several fit.

    >>> round(common_cone_axis_deg(Circle(0, 0, 0.5), [Circle(10, 0, 0.5), Circle(10, 4, 0.5)], range_in=20), 1)
    11.0
    >>> common_cone_axis_deg(Circle(0, 0, 0.5), [Circle(10, 0, 0.5), Circle(-10, 0, 0.5)], range_in=20) is None
    True
    """
    if not targets:
        return prefer_deg % 360.0 if prefer_deg is not None else 0.0
    c = attacker.center
    arcs: list[tuple[float, float]] = []
    for t in targets:
        extent = angular_extent_deg(t, c.x_in, c.y_in)
        if extent is None:
            continue  # the target overlaps the pivot: every axis reaches it
        mid, half = extent
        arcs.append((mid, half + half_angle_deg))
    if arcs:
        ref = arcs[0][0]
        lo = max(angle_between_deg(ref, m) - w for m, w in arcs)
        hi = min(angle_between_deg(ref, m) + w for m, w in arcs)
        if lo > hi + EPS:
            return None
    else:
        ref, lo, hi = 0.0, -180.0, 180.0
    candidates: list[float] = []
    if prefer_deg is not None:
        p = angle_between_deg(ref, prefer_deg)
        candidates.append(min(max(p, lo), hi))
    candidates += [(lo + hi) / 2] + [lo + (hi - lo) * k / 16 for k in range(17)]
    for rel in candidates:
        axis = (ref + rel) % 360.0
        cone = Cone.from_attacker(attacker, axis_deg=axis, range_in=range_in, half_angle_deg=half_angle_deg)
        if all(cone.touches(t) for t in targets):
            return axis
    return None


# ---------------------------------------------------------------------------------------------
# Voice chains and jamming


@dataclass(frozen=True)
class CommsNode:
    """A unit in a communication graph: its base and how far its voice carries (its Move)."""

    unit_id: int
    footprint: Footprint
    voice_range_in: float


@dataclass(frozen=True)
class CommsGraph:
    """Directed voice edges (A -> B when B is within A's voice range, base to base) and the
    connected groups a renderer shades."""

    nodes: tuple[CommsNode, ...]
    edges: tuple[tuple[int, int], ...]
    groups: tuple[frozenset[int], ...]

    @cached_property
    def _heard_by(self) -> dict[int, list[int]]:
        """Who hears each unit directly (made once per graph: a graph is asked of many units)."""
        out: dict[int, list[int]] = {}
        for a, b in self.edges:
            out.setdefault(a, []).append(b)
        return out

    def reachable_from(self, source_ids: int | Iterable[int]) -> frozenset[int]:
        """Every unit the information reaches from ``source_ids`` by relaying, sources included."""
        start = {source_ids} if isinstance(source_ids, int) else set(source_ids)
        out = self._heard_by
        seen = set(start)
        stack = list(start)
        while stack:
            for nxt in out.get(stack.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return frozenset(seen)

    def segments_in(self) -> list[tuple[XY, XY]]:
        """Edges as centre-to-centre segments, for drawing."""
        where = {n.unit_id: n.footprint.center.xy for n in self.nodes}
        return [(where[a], where[b]) for a, b in self.edges]


def comms_graph(nodes: Sequence[CommsNode]) -> CommsGraph:
    """Build the voice graph of one side's units.

    >>> g = comms_graph([CommsNode(1, Circle(0, 0, 0.5), 8), CommsNode(2, Circle(8, 0, 0.5), 8),
    ...                  CommsNode(3, Circle(30, 0, 0.5), 8)])
    >>> g.edges, sorted(g.reachable_from(1))
    (((1, 2), (2, 1)), [1, 2])
    """
    return _comms_graph(tuple(nodes))


@lru_cache(maxsize=16)
def _comms_graph(nodes: tuple[CommsNode, ...]) -> CommsGraph:
    # Remembered by its (frozen) nodes: a view redrawn while one unit is carried asks for every
    # side's graph each frame, and the sides that did not move hand back the same graph.
    edges: list[tuple[int, int]] = []
    # Round bases (most units) take gap_in's circle formula inline: the same arithmetic, without a
    # call per pair (a side of 20 units asks 380 pairs every time the GUI redraws a moving unit).
    circles = [(n.footprint.x_in, n.footprint.y_in, n.footprint.radius_in) if isinstance(n.footprint, Circle) else None
               for n in nodes]
    hypot = math.hypot
    for a, ca in zip(nodes, circles):
        reach = a.voice_range_in + EPS
        for b, cb in zip(nodes, circles):
            if a.unit_id == b.unit_id:
                continue
            if ca is not None and cb is not None:
                gap = max(0.0, hypot(ca[0] - cb[0], ca[1] - cb[1]) - ca[2] - cb[2])
            else:
                gap = gap_in(a.footprint, b.footprint)
            if gap <= reach:
                edges.append((a.unit_id, b.unit_id))
    parent = {n.unit_id: n.unit_id for n in nodes}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a_id, b_id in edges:
        parent[find(a_id)] = find(b_id)
    groups: dict[int, set[int]] = {}
    for n in nodes:
        groups.setdefault(find(n.unit_id), set()).add(n.unit_id)
    ordered = sorted((frozenset(g) for g in groups.values()), key=lambda g: min(g))
    return CommsGraph(tuple(nodes), tuple(edges), tuple(ordered))


def units_within(reach: Reach, footprints: Mapping[int, Footprint]) -> tuple[int, ...]:
    """Ids of the footprints that a reach touches (jamming coverage, who hears a shout).

    >>> units_within(Reach(Circle(0, 0, 0.5), 36), {7: Circle(36.9, 0, 0.5), 8: Circle(40, 0, 0.5)})
    (7,)
    """
    return tuple(uid for uid, fp in footprints.items() if reach.touches(fp))


def units_in_blast(center: XY, radius_in: float, footprints: Mapping[int, Footprint]) -> tuple[int, ...]:
    """Ids of every footprint with a point within ``radius_in`` of the impact point, friend or foe."""
    blast = Circle(center[0], center[1], radius_in)
    return tuple(uid for uid, fp in footprints.items() if blast.touches(fp))


def range_rings(footprint: Footprint, distances_in: Sequence[float]) -> tuple[Reach, ...]:
    """Range rings (e.g. range and range + radius of an explosive) around a base."""
    return tuple(Reach(footprint, d) for d in distances_in)


# ---------------------------------------------------------------------------------------------
# Segments, line-of-fire corridors and multi-figure units (Force on Force, the generic rules)


@dataclass(frozen=True)
class Segment:
    """A straight line on the table: a line of sight, a scatter path, a suggested move.

    >>> Segment(0, 0, 3, 4).length_in
    5.0
    """

    ax_in: float
    ay_in: float
    bx_in: float
    by_in: float

    @property
    def length_in(self) -> float:
        return math.hypot(self.bx_in - self.ax_in, self.by_in - self.ay_in)

    @property
    def bearing_deg(self) -> float:
        return bearing_deg(self.ax_in, self.ay_in, self.bx_in, self.by_in)

    def distance_to_point_in(self, x_in: float, y_in: float) -> float:
        return _segment_point_distance(self.ax_in, self.ay_in, self.bx_in, self.by_in, x_in, y_in)

    def outline_in(self, segments: int = 1) -> list[XY]:
        """The two ends (a renderer draws an open polyline)."""
        return [(self.ax_in, self.ay_in), (self.bx_in, self.by_in)]


@dataclass(frozen=True)
class Corridor:
    """Every point within ``half_width_in`` of a segment and between its ends (flat ends): the lane
    between a firing unit and its target in which other units are "in the line of fire".

    >>> lane = Corridor(0, 0, 20, 0, 2.0)
    >>> lane.touches(Circle(10, 2.4, 0.5)), lane.touches(Circle(10, 2.6, 0.5))
    (True, False)
    >>> lane.touches(Circle(20.4, 0, 0.5)), lane.touches(Circle(20.6, 0, 0.5))  # beyond the target: not between
    (True, False)
    """

    ax_in: float
    ay_in: float
    bx_in: float
    by_in: float
    half_width_in: float

    @property
    def line(self) -> Segment:
        return Segment(self.ax_in, self.ay_in, self.bx_in, self.by_in)

    @property
    def rect(self) -> OrientedRect:
        """The corridor as a hull: centred on the segment's middle, along it, 2 x half-width across."""
        line = self.line
        return OrientedRect((self.ax_in + self.bx_in) / 2, (self.ay_in + self.by_in) / 2, line.bearing_deg,
                            max(line.length_in, EPS), 2 * self.half_width_in)

    def touches(self, footprint: Footprint) -> bool:
        """Some part of ``footprint`` lies in the corridor (boundary counts as inside)."""
        return gap_in(self.rect, footprint) <= EPS

    def contains(self, x_in: float, y_in: float) -> bool:
        return distance_to_point_in(self.rect, x_in, y_in) <= EPS

    def outline_in(self, segments: int = 4) -> list[XY]:
        return self.rect.corners_in()


def rough_centre(footprints: Sequence[Footprint]) -> Point:
    """The rough centre of a unit of several figures: the mean of their centres.

    >>> rough_centre([Circle(0, 0, 0.5), Circle(2, 0, 0.5), Circle(1, 3, 0.5)])
    Point(x_in=1.0, y_in=1.0)
    """
    if not footprints:
        raise ValueError("a unit without figures has no centre")
    xs = [f.center.x_in for f in footprints]
    ys = [f.center.y_in for f in footprints]
    return Point(sum(xs) / len(xs), sum(ys) / len(ys))


def _convex_hull(points: Sequence[XY]) -> list[XY]:
    """Andrew's monotone chain, counter-clockwise, without repeated points."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return list(pts)

    def cross(o: XY, a: XY, b: XY) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[XY] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[XY] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


@dataclass(frozen=True)
class Cluster:
    """The figures of a unit made of several figures (a Force on Force fireteam), linked when their
    bases are within ``link_in`` of each other, edge to edge. The unit holds together (cohesion) when
    the links join every figure into one group.

    ``groups`` are the connected groups, largest first; ``outline_in()`` is the hull of the bases (the
    area the unit holds), ``segments_in()`` the links to draw.
    """

    members: tuple[tuple[int, Footprint], ...]
    link_in: float
    links: tuple[tuple[int, int], ...]
    groups: tuple[frozenset[int], ...]

    @property
    def is_connected(self) -> bool:
        return len(self.groups) <= 1

    @property
    def stragglers(self) -> frozenset[int]:
        """Figures outside the largest group (the ones that must regroup)."""
        return frozenset().union(*self.groups[1:]) if len(self.groups) > 1 else frozenset()

    @property
    def centre(self) -> Point:
        return rough_centre([fp for _, fp in self.members])

    def segments_in(self) -> list[tuple[XY, XY]]:
        where = {i: fp.center.xy for i, fp in self.members}
        return [(where[a], where[b]) for a, b in self.links]

    def outline_in(self, segments: int = 24) -> list[XY]:
        points: list[XY] = []
        for _, fp in self.members:
            points += fp.outline_in(segments) if isinstance(fp, Circle) else fp.corners_in()
        return _convex_hull(points)


def cluster(members: Sequence[tuple[int, Footprint]], *, link_in: float) -> Cluster:
    """Link the figures of one unit whose bases are within ``link_in`` (edge to edge).

    >>> c = cluster([(1, Circle(0, 0, 0.5)), (2, Circle(2, 0, 0.5)), (3, Circle(6, 0, 0.5))], link_in=1.0)
    >>> c.links, c.is_connected, sorted(c.stragglers)
    (((1, 2),), False, [3])
    """
    links: list[tuple[int, int]] = []
    parent = {i: i for i, _ in members}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for k, (a, fa) in enumerate(members):
        for b, fb in members[k + 1:]:
            if gap_in(fa, fb) <= link_in + EPS:
                links.append((a, b))
                parent[find(a)] = find(b)
    groups: dict[int, set[int]] = {}
    for i, _ in members:
        groups.setdefault(find(i), set()).add(i)
    ordered = sorted((frozenset(g) for g in groups.values()), key=lambda g: (-len(g), min(g)))
    return Cluster(tuple(members), link_in, tuple(links), tuple(ordered))
