"""The contour interval the instructor chose in the window, as a recording keeps it (Qt-free).

The window's Overlays > Contour interval choice (``SandMap.contour_interval_in`` /
``contour_interval_m``) is kept in the recording's ``meta`` table under ``contour_interval``, as JSON
``{"interval_in": 0.3, "interval_m": null}``: written when the recording starts and again whenever the
instructor picks another, so the last one chosen is what the file says. The debrief draws the target
terrain's contours at that interval unless ``--contour-interval`` says otherwise: in the map's metres
when the target has a scale (``interval_m``), else in table inches (``interval_in``).

>>> from appmodel.overlays.sand_map_model import SandMap
>>> text = contour_interval_json(SandMap(contour_interval_in=0.5))
>>> text
'{"interval_in": 0.5, "interval_m": null}'
>>> read_contour_interval({CONTOUR_INTERVAL_KEY: text})
RecordedContours(interval_in=0.5, interval_m=None)
>>> read_contour_interval({CONTOUR_INTERVAL_KEY: "{not json"}) is None, read_contour_interval({}) is None
(True, True)
>>> RecordedContours(0.5, 25.0).interval(in_map_units=True), RecordedContours(0.5, None).interval(in_map_units=True)
(25.0, None)
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The recording's ``meta`` key.
CONTOUR_INTERVAL_KEY = "contour_interval"


@dataclass(frozen=True)
class RecordedContours:
    """The contour interval a recording says the window drew: table inches, and the map's metres when
    the target had a scale (None: the window drew in inches)."""

    interval_in: float | None
    interval_m: float | None

    def interval(self, *, in_map_units: bool) -> float | None:
        """The interval in the debrief's units: the map's metres for a map with a scale, else inches."""
        return self.interval_m if in_map_units else self.interval_in


def contour_interval_json(sand: Any) -> str:
    """What the recording keeps of ``sand``'s (a :class:`~appmodel.overlays.sand_map_model.SandMap`) interval."""
    metres = sand.contour_interval_m
    return json.dumps({"interval_in": float(sand.contour_interval_in),
                       "interval_m": float(metres) if metres is not None else None})


def _positive(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) and value > 0 else None


def read_contour_interval(meta: Mapping[str, Any]) -> RecordedContours | None:
    """The interval a recording's ``meta`` holds (None: a recording made before it was kept, or a
    damaged entry: the debrief then draws its default interval)."""
    text = meta.get(CONTOUR_INTERVAL_KEY)
    if not text:
        return None
    try:
        data = json.loads(str(text))
    except ValueError:
        return None
    if not isinstance(data, Mapping):
        return None
    recorded = RecordedContours(_positive(data.get("interval_in")), _positive(data.get("interval_m")))
    return recorded if recorded.interval_in is not None or recorded.interval_m is not None else None


__all__ = ["CONTOUR_INTERVAL_KEY", "RecordedContours", "contour_interval_json", "read_contour_interval"]
