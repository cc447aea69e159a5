"""Templates players place and keep on the table, as in Foundry VTT or Owlbear Rodeo: circles, 45-degree
fans, lines and a tape with waypoints, in table inches, built from the rules' own geometry (a Circle, a
Cone, Segments) so that what they cover is what the rules would measure. Qt-free values and pure
operations; the window places, drags, rotates, pins and removes them, and every view (the projector
too, when the instructor shows them) draws them like any other overlay.

>>> board = TemplateBoard().add("circle", (10.0, 10.0), size_in=3.0)
>>> board = board.add("tape", (0.0, 0.0)).extend_tape(2, (3.0, 4.0)).extend_tape(2, (3.0, 10.0))
>>> [t.label for t in board.templates]
['Circle 3"', 'Tape 11.0" (2 legs)']
>>> board.at(11.0, 10.5).template_id, board.moved(1, 5.0, 0.0).get(1).points_in
(1, ((15.0, 10.0),))
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.geometry import HALF_CONE_DEG, Circle, Cone, Reach, Segment

XY = tuple[float, float]
KINDS = ("circle", "fan", "line", "tape")
DEFAULT_SIZE_IN = {"circle": 3.0, "fan": 24.0, "line": 12.0, "tape": 0.0}
#: A point placed this close to a unit's centre snaps onto it (inches).
SNAP_IN = 1.0
#: A click this close to a line or a tape's leg grabs it (inches).
GRAB_IN = 0.6


@dataclass(frozen=True)
class PlacedTemplate:
    template_id: int
    kind: str
    #: circle: its centre; fan: its apex; line: its start; tape: every waypoint, first to last.
    points_in: tuple[XY, ...]
    size_in: float = 0.0  # circle radius, fan reach, line length
    heading_deg: float = 0.0  # fan axis, line direction (0 = +x, counter-clockwise)
    pinned: bool = False

    def shapes(self) -> tuple[Any, ...]:
        """The rules' geometry of the template (what the views draw and what it covers)."""
        x, y = self.points_in[0]
        if self.kind == "circle":
            return (Circle(x, y, self.size_in),)
        if self.kind == "fan":
            return (Cone(x, y, self.heading_deg, Reach(Circle(x, y, 0.0), self.size_in), HALF_CONE_DEG),)
        if self.kind == "line":
            h = math.radians(self.heading_deg)
            return (Segment(x, y, x + self.size_in * math.cos(h), y + self.size_in * math.sin(h)),)
        return tuple(Segment(a[0], a[1], b[0], b[1]) for a, b in zip(self.points_in, self.points_in[1:]))

    @property
    def length_in(self) -> float:
        if self.kind == "tape":
            return sum(s.length_in for s in self.shapes())
        return self.size_in

    @property
    def label(self) -> str:
        pin = " (pinned)" if self.pinned else ""
        if self.kind == "circle":
            return f'Circle {self.size_in:g}"{pin}'
        if self.kind == "fan":
            return f'Fan 45° {self.size_in:g}"{pin}'
        if self.kind == "line":
            return f'Line {self.size_in:g}"{pin}'
        legs = max(0, len(self.points_in) - 1)
        return f'Tape {self.length_in:.1f}" ({legs} leg{"s" if legs != 1 else ""}){pin}'

    def grabbed_by(self, x_in: float, y_in: float) -> bool:
        shape = self.shapes()
        if self.kind == "circle":
            return math.hypot(x_in - shape[0].x_in, y_in - shape[0].y_in) <= self.size_in
        if self.kind == "fan":
            return shape[0].touches(Circle(x_in, y_in, 0.01))
        return any(s.distance_to_point_in(x_in, y_in) <= GRAB_IN for s in shape) or \
            any(math.hypot(x_in - px, y_in - py) <= GRAB_IN for px, py in self.points_in)

    def covers(self, footprints: Mapping[int, Any]) -> tuple[int, ...]:
        """The units whose bases the template touches (circle and fan; lines and tapes cover nothing)."""
        if self.kind == "circle":
            c = self.shapes()[0]
            from rules.geometry import units_in_blast

            return units_in_blast((c.x_in, c.y_in), c.radius_in, footprints)
        if self.kind == "fan":
            cone = self.shapes()[0]
            return tuple(uid for uid, fp in footprints.items() if cone.touches(fp))
        return ()


def snapped(point: XY, units: Iterable[Any], within_in: float = SNAP_IN) -> XY:
    """``point``, or the centre of the nearest unit (rules' UnitView) within ``within_in``."""
    best, best_d = point, within_in
    for u in units:
        if not u.on_table:
            continue
        d = math.hypot(u.x_in - point[0], u.y_in - point[1])
        if d <= best_d:
            best, best_d = (float(u.x_in), float(u.y_in)), d
    return best


@dataclass(frozen=True)
class TemplateBoard:
    """The placed templates (immutable: every operation returns a new board)."""

    templates: tuple[PlacedTemplate, ...] = ()
    next_id: int = field(default=1)
    #: Whether the projector shows them (the instructor's choice).
    on_projector: bool = False

    def get(self, template_id: int) -> PlacedTemplate:
        for t in self.templates:
            if t.template_id == template_id:
                return t
        raise KeyError(f"no template {template_id}")

    def add(self, kind: str, at_in: XY, *, size_in: float | None = None, heading_deg: float = 0.0) -> "TemplateBoard":
        if kind not in KINDS:
            raise ValueError(f"template kind {kind!r}: one of {', '.join(KINDS)}")
        size = DEFAULT_SIZE_IN[kind] if size_in is None else float(size_in)
        if kind != "tape" and not size > 0:
            raise ValueError(f"a {kind} needs a size above 0 inches, not {size:g}")
        t = PlacedTemplate(self.next_id, kind, ((float(at_in[0]), float(at_in[1])),), size, float(heading_deg))
        return replace(self, templates=self.templates + (t,), next_id=self.next_id + 1)

    def _with(self, template_id: int, change: Any) -> "TemplateBoard":
        self.get(template_id)
        return replace(self, templates=tuple(change(t) if t.template_id == template_id else t for t in self.templates))

    def moved(self, template_id: int, dx_in: float, dy_in: float) -> "TemplateBoard":
        """Dragged by (dx, dy); a pinned template stays where it is."""
        return self._with(template_id, lambda t: t if t.pinned else replace(
            t, points_in=tuple((x + dx_in, y + dy_in) for x, y in t.points_in)))

    def rotated(self, template_id: int, degrees: float) -> "TemplateBoard":
        return self._with(template_id, lambda t: t if t.pinned else replace(t, heading_deg=(t.heading_deg + degrees) % 360))

    def aimed(self, template_id: int, at_in: XY) -> "TemplateBoard":
        """A fan's or line's direction toward a point (dragging its far end)."""
        def aim(t: PlacedTemplate) -> PlacedTemplate:
            x, y = t.points_in[0]
            return t if t.pinned else replace(t, heading_deg=math.degrees(math.atan2(at_in[1] - y, at_in[0] - x)) % 360)
        return self._with(template_id, aim)

    def resized(self, template_id: int, size_in: float) -> "TemplateBoard":
        if not size_in > 0:
            raise ValueError(f"a template's size must be above 0 inches, not {size_in:g}")
        return self._with(template_id, lambda t: t if t.pinned else replace(t, size_in=float(size_in)))

    def extend_tape(self, template_id: int, waypoint_in: XY) -> "TemplateBoard":
        return self._with(template_id, lambda t: t if t.pinned or t.kind != "tape" else replace(
            t, points_in=t.points_in + ((float(waypoint_in[0]), float(waypoint_in[1])),)))

    def pinned(self, template_id: int, on: bool = True) -> "TemplateBoard":
        return self._with(template_id, lambda t: replace(t, pinned=on))

    def removed(self, template_id: int) -> "TemplateBoard":
        self.get(template_id)
        return replace(self, templates=tuple(t for t in self.templates if t.template_id != template_id))

    def at(self, x_in: float, y_in: float) -> PlacedTemplate | None:
        """The topmost template a click at (x, y) grabs (the last placed first)."""
        for t in reversed(self.templates):
            if t.grabbed_by(x_in, y_in):
                return t
        return None

    def shown_on_projector(self, on: bool) -> "TemplateBoard":
        return replace(self, on_projector=on)


__all__ = ["KINDS", "PlacedTemplate", "TemplateBoard", "snapped"]
