"""The sand as a map, for the views: the scenario's target terrain sampled on the table's grid, the
rule system's military symbols, and the settings the contour, viewshed and sculpting overlays read
(:class:`SandMap`, a frozen value the session hands every snapshot). Qt-free.

The scanned relief reaches the session as a :class:`rules.terrain_sight.Ground` (``gui --relief``,
:meth:`appmodel.game_session.GameSession.set_ground`); the target comes from the scenario's
``[target_terrain]`` (docs/sand-as-map.md), read here once when the session opens.

>>> from rules.downrange.examples.in_depth import SCENARIO_PATH
>>> import tomllib
>>> m = sand_map_from_scenario(tomllib.loads(SCENARIO_PATH.read_text()), SCENARIO_PATH, "down-range", (72.0, 48.0))
>>> m.target is None, m.symbols.ruleset
(True, 'down-range')
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from rules.terrain_sight import Ground

#: The target's grid spacing on the table, inches (the relief scan's).
TARGET_CELL_IN = 0.25
#: Contour intervals offered in table inches (0.3" is the AR Sandbox's 0.75 cm).
INTERVALS_IN = (0.1, 0.2, 0.3, 0.5, 1.0)
#: Round contour intervals in the map's metres; those giving 3 to 40 lines over the map's relief are offered.
INTERVALS_M = (1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0)


@dataclass(frozen=True)
class ContourChoice:
    """One contour interval a menu offers: ``interval_m`` in the map's metres (the target has a
    scale), else ``interval_in`` in table inches; ``label`` says it as the menu shows it."""

    label: str
    interval_in: float
    interval_m: float | None = None


def map_relief_m(target: Any) -> float:
    """The map's relief (highest less lowest elevation), metres."""
    h = np.asarray(target.model.heights_m, dtype=np.float64)
    return float(np.nanmax(h) - np.nanmin(h)) if np.isfinite(h).any() else 0.0


def metre_intervals(relief_m: float) -> tuple[float, ...]:
    """The round intervals that draw 3 to 40 lines over ``relief_m`` (the nearest few when none do).

    >>> metre_intervals(300.0)
    (10.0, 20.0, 25.0, 50.0, 100.0)
    """
    fit = tuple(v for v in INTERVALS_M if 3 <= relief_m / v <= 40)
    return fit or tuple(sorted(INTERVALS_M, key=lambda v: abs(math.log(max(relief_m, 1e-9) / (10 * v))))[:3])


def default_interval_m(relief_m: float) -> float:
    """The offered interval nearest ten lines over the map's relief.

    >>> default_interval_m(300.0)
    25.0
    """
    return min(metre_intervals(relief_m), key=lambda v: abs(math.log(max(relief_m, 1e-9) / (10 * v))))


@dataclass(frozen=True, eq=False)
class SandMap:
    """What the sand-as-map overlays read besides the snapshot's scanned ``ground``.

    ``target``: the scenario's :class:`calibration.target_terrain.TargetTerrain` (None without one);
    ``target_ground``: it sampled on the table's grid (heights in inches, 0 off the map) and
    ``target_covered`` where the map reaches; ``symbols``: the rule system's
    :class:`rules.military_symbols.SymbolTable` with the scenario's overrides (None if it has none).
    ``contour_source``: "relief" (the scanned sand, else the target) or "target";
    ``contour_interval_in`` in table inches, or ``contour_interval_m`` in the map's metres when the
    target has a scale; ``tints``: elevation tints under the lines. Sculpting: white within
    ``deadband_in``, full colour at ``saturation_in``; the match score counts cells within
    ``tolerance_in``. ``symbol_size_px``: a unit symbol's height on screen."""

    target: Any = None
    target_ground: Ground | None = None
    target_covered: np.ndarray | None = None
    symbols: Any = None
    contour_source: str = "relief"
    contour_interval_in: float = 0.3
    contour_interval_m: float | None = None
    tints: bool = False
    deadband_in: float = 0.1
    saturation_in: float = 0.4
    tolerance_in: float = 0.1
    symbol_size_px: float = 30.0

    def with_(self, **changes: Any) -> SandMap:
        return replace(self, **changes)

    @property
    def in_map_units(self) -> bool:
        """Contours are drawn and labelled in the map's metres: the target has a real scale."""
        return self.target is not None and bool(getattr(self.target, "has_scale", False))

    def contour_choices(self) -> tuple[ContourChoice, ...]:
        """The intervals an instructor can pick: round metres of the map when it has a scale, else inches."""
        if self.in_map_units:
            per_in = float(self.target.metres_per_in_vertical)
            return tuple(ContourChoice(f"{v:g} m", v / per_in, v) for v in metre_intervals(map_relief_m(self.target)))
        return tuple(ContourChoice(f'{v:g}"' + (" (0.75 cm)" if v == 0.3 else ""), v) for v in INTERVALS_IN)

    def contour_choice(self) -> ContourChoice | None:
        """The offered choice the settings hold now (None: an interval the menu does not list)."""
        for c in self.contour_choices():
            if (c.interval_m is not None and c.interval_m == self.contour_interval_m
                    or c.interval_m is None and self.contour_interval_m is None and c.interval_in == self.contour_interval_in):
                return c
        return None

    def with_contours(self, choice: ContourChoice) -> SandMap:
        """These settings drawing contours every ``choice``."""
        if choice.interval_m is not None:
            return replace(self, contour_interval_m=choice.interval_m, contour_interval_in=choice.interval_in)
        return replace(self, contour_interval_m=None, contour_interval_in=choice.interval_in)

    def with_remembered_interval(self, *, interval_in: float | None, interval_m: float | None) -> SandMap:
        """These settings at an interval remembered from an earlier run, when the menu offers it here:
        ``interval_m`` for a map with a scale, else ``interval_in``; unchanged when it is not offered
        (another map's metres, or none remembered).

        >>> SandMap().with_remembered_interval(interval_in=0.5, interval_m=None).contour_interval_in
        0.5
        >>> SandMap().with_remembered_interval(interval_in=0.7, interval_m=25.0).contour_interval_in
        0.3
        """
        for c in self.contour_choices():
            wanted = c.interval_m if c.interval_m is not None else c.interval_in
            remembered = interval_m if c.interval_m is not None else interval_in
            if remembered is not None and math.isclose(wanted, remembered):
                return self.with_contours(c)
        return self

    def contour_ground(self, scanned: Ground | None) -> tuple[Ground | None, bool]:
        """The relief the contours are drawn from and whether it is the target (labels in its metres)."""
        if self.contour_source == "target" or scanned is None:
            return self.target_ground, self.target_ground is not None
        return scanned, False

    def sight_ground(self, scanned: Ground | None) -> Ground | None:
        """The ground a viewshed is computed over: the scanned sand, else the target."""
        return scanned if scanned is not None else self.target_ground


NO_SAND_MAP = SandMap()


def sand_map_from_scenario(scenario: Mapping[str, Any], scenario_path: str | Path | None, ruleset_name: str,
                           table_size_in: tuple[float, float]) -> SandMap:
    """The :class:`SandMap` of a parsed scenario: its target terrain (errors as
    :class:`calibration.errors.ScenarioFileError`, one line naming the field) and its symbols."""
    target = ground = covered = None
    if scenario.get("target_terrain") is not None and scenario_path is not None:
        from calibration.table_setup import read_scenario_top
        from calibration.target_terrain import read_target_terrain

        path = Path(scenario_path)
        target = read_target_terrain(read_scenario_top(path), path)
        if target is not None:
            heights, covered = target.sample(*table_size_in, cell_in=TARGET_CELL_IN)
            ground = Ground(heights, TARGET_CELL_IN)
    sand = SandMap(target, ground, covered, symbol_table(ruleset_name, scenario))
    if sand.in_map_units:  # a real map: its contours at a round interval of its own metres, labelled so
        sand = sand.with_(contour_interval_m=default_interval_m(map_relief_m(target)))
    return sand


def symbol_table(ruleset_name: str, scenario: Mapping[str, Any]) -> Any:
    """The rule system's :class:`rules.military_symbols.SymbolTable` with the scenario's ``[symbols]``
    (None for a rule system without a symbols file: its units are drawn as dots)."""
    from rules.errors import RulesError
    from rules.military_symbols import load_symbol_table

    try:
        return load_symbol_table(ruleset_name, scenario)
    except RulesError as exc:
        if "no symbols file" in str(exc):  # a rule system without symbols draws its dots only
            return None
        raise
