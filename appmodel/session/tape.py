"""The tape measure: a distance between two points on the table, snapped to the units under them.

Worked out from the units as the rules show them (:class:`rules.ruleset.UnitView`), so it needs no
ruleset and no session: a point on a unit's base snaps to that unit, and two units are measured base
to base, as the rules measure range.

>>> from rules.geometry import Circle
>>> from rules.ruleset import UnitView
>>> a = UnitView(1, "Ann", "Blue", "rifle", 10, 10, 0, Circle(10, 10, 0.5), True, "active", (), 6, 6, ())
>>> measure_tape([a], (10.2, 10.0), (20.0, 10.0)).distance_in
9.5
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from rules.geometry import distance_to_point_in, gap_in
from rules.ruleset import UnitView

XY = tuple[float, float]


@dataclass(frozen=True)
class TapeMeasure:
    """A tape between two points or units; ``distance_in`` is base to base for units, as the rules measure."""

    start_in: XY
    end_in: XY
    start_unit: int | None
    end_unit: int | None
    distance_in: float


def unit_at(units: Iterable[UnitView], x_in: float, y_in: float, *, slack_in: float = 0.5) -> int | None:
    """The on-table unit whose base is nearest to a point, within ``slack_in`` of it."""
    best: tuple[float, int] | None = None
    for u in units:
        if not u.on_table:
            continue
        d = distance_to_point_in(u.footprint, x_in, y_in)
        if d <= slack_in and (best is None or d < best[0]):
            best = (d, u.unit_id)
    return best[1] if best else None


def measure_tape(units: Iterable[UnitView], start: XY, end: XY) -> TapeMeasure:
    """The tape from ``start`` to ``end``: an end on a unit's base snaps to the unit's centre and the
    distance is taken from its base's edge (base to base between two units)."""
    views = {u.unit_id: u for u in units}
    a, b = unit_at(views.values(), *start), unit_at(views.values(), *end)
    if a is not None and b is not None and a != b:
        d = gap_in(views[a].footprint, views[b].footprint)
        s, e = (views[a].x_in, views[a].y_in), (views[b].x_in, views[b].y_in)
    elif a is not None:
        d = distance_to_point_in(views[a].footprint, *end)
        s, e = (views[a].x_in, views[a].y_in), end
    elif b is not None:
        d = distance_to_point_in(views[b].footprint, *start)
        s, e = start, (views[b].x_in, views[b].y_in)
    else:
        d = math.hypot(end[0] - start[0], end[1] - start[1])
        s, e = start, end
    return TapeMeasure((float(s[0]), float(s[1])), (float(e[0]), float(e[1])), a, b, float(d))
