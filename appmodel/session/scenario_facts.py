"""What the session reads from a scenario file besides the rules' own game: the table's size, each
side's colour, the units carrying a radio, the height of a figure's base, the size and turn of its tag
(docs/scenario-format.md).

>>> table_size_in({"table": {"width_in": 48}})
(48.0, 48.0)
>>> side_colors({"sides": [{"name": "Blue"}, {"name": "Red", "color": "#ff0000"}]}, ["Blue", "Green"])
{'Blue': '#2f6fd0', 'Red': '#ff0000', 'Green': '#2a9d55'}
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: Default overlay colours of sides that give none (scenario ``[[sides]] color``), in order.
DEFAULT_SIDE_COLORS = ("#2f6fd0", "#d03a2f", "#2a9d55", "#c58b12", "#8e44ad", "#16a2b8")


def table_size_in(scenario: Mapping[str, Any]) -> tuple[float, float]:
    """The table's width and depth in inches (72 x 48 when the scenario gives none)."""
    table = scenario.get("table", {}) if isinstance(scenario.get("table"), Mapping) else {}
    return float(table.get("width_in", 72.0)), float(table.get("depth_in", 48.0))


def side_colors(scenario: Mapping[str, Any], unit_sides: Iterable[str]) -> dict[str, str]:
    """Each side's overlay colour: the scenario's, else the next default; sides only units name
    (not listed under ``[[sides]]``) take the following defaults."""
    colors: dict[str, str] = {}
    sides = [s for s in scenario.get("sides", []) if isinstance(s, Mapping)]
    for i, side in enumerate(sides):
        colors[str(side.get("name"))] = str(side.get("color") or DEFAULT_SIDE_COLORS[i % len(DEFAULT_SIDE_COLORS)])
    for side_name in unit_sides:
        if side_name not in colors:
            colors[side_name] = DEFAULT_SIDE_COLORS[len(colors) % len(DEFAULT_SIDE_COLORS)]
    return colors


def radio_units(scenario: Mapping[str, Any]) -> frozenset[int]:
    """The tags of units whose equipment includes a radio (the voice-chain overlay links them)."""
    return frozenset(int(u["tag_id"]) for u in scenario.get("units", [])
                     if any("radio" in str(e).lower() for e in u.get("equipment", ())))


def _unit_entry(scenario: Mapping[str, Any], unit_id: int) -> Mapping[str, Any]:
    for u in scenario.get("units", ()):
        if isinstance(u, Mapping) and u.get("tag_id") == unit_id:
            return u
    return {}


def base_height_in(scenario: Mapping[str, Any], unit_id: int) -> float:
    """The height of a figure's base (the tag sits on it), 1 inch unless the scenario's unit says."""
    return float(_unit_entry(scenario, unit_id).get("base_height_in", 1.0))


def tag_size_in(scenario: Mapping[str, Any], unit_id: int) -> float | None:
    """The edge of the unit's printed tag when the scenario gives it, else None (the layout's unit tag size).

    >>> tag_size_in({"units": [{"tag_id": 40, "tag_size_in": 1.5}]}, 40), tag_size_in({}, 40)
    (1.5, None)
    """
    size = _unit_entry(scenario, unit_id).get("tag_size_in")
    return None if size is None else float(size)


def facing_offset_deg(scenario: Mapping[str, Any], unit_id: int) -> float:
    """How far the unit's front is turned from its tag's top edge (the tag's heading is the unit's minus this)."""
    return float(_unit_entry(scenario, unit_id).get("facing_offset_deg", 0.0))
