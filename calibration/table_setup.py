"""The table of a scenario file: its size and anchors ([table]) and its terrain ([terrain]).

Everything that measures on a real or synthetic table needs these two from the game's scenario file
(docs/scenario-format.md); the rest of the file belongs to the rules, the roster and the synthetic
table. Typos in these sections are refused with the nearest correct spelling.

>>> from pathlib import Path
>>> setup = load_table_setup(Path(__file__).parent / "synthetic" / "scenarios" / "skirmish.toml")
>>> setup.layout.width_in, len(setup.terrain.hills), float(setup.terrain.height_at(46.0, 34.0))
(72.0, 2, 3.0)
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.errors import CalibrationError, ScenarioFileError
from calibration.layout_file import layout_from_fields, load_layout
from calibration.table_layout import DEFAULT_TABLE_IN, TableLayout
from calibration.terrain import HeightGrid, Hill, Terrain
from calibration.toml_fields import Fields, read_toml

SCENARIO_FORMAT = "sandtable-scenario"
SCENARIO_VERSION = 1


@dataclass(frozen=True, eq=False)
class TableSetup:
    """A scenario's table: anchor layout and terrain."""

    layout: TableLayout
    terrain: Terrain


def load_table_setup(path: str | Path) -> TableSetup:
    """The [table] and [terrain] of a scenario file (defaults: a 72" x 48" flat table, four anchors)."""
    p = Path(path)
    top = read_scenario_top(p)
    return TableSetup(read_table(top, p), read_terrain(top, p))


def read_scenario_top(p: Path) -> Fields:
    """Parse a scenario file and check its format and version."""
    data = read_toml(p, error=ScenarioFileError, what="scenario")
    if data.get("format") != SCENARIO_FORMAT:
        raise ScenarioFileError(
            f"{p.name}: format = {data.get('format')!r}; a scenario file starts with format = \"{SCENARIO_FORMAT}\""
        )
    if data.get("version") != SCENARIO_VERSION:
        raise ScenarioFileError(f"{p.name}: version = {data.get('version')!r}; this program reads scenario version {SCENARIO_VERSION}")
    return Fields(data, p.name, error=ScenarioFileError)


def read_table(top: Fields, path: Path) -> TableLayout:
    t = top.table("table")
    if t is None:
        return TableLayout.default()
    t.refuse_unknown({"width_in", "depth_in", "layout"})
    if t.has("layout"):
        layout_path = path.parent / t.string("layout")
        layout = load_layout(layout_path)
        for key, value in (("width_in", layout.width_in), ("depth_in", layout.depth_in)):
            if t.has(key) and t.number(key) != value:
                raise t.fail(key, f"disagrees with the layout file {layout_path.name!r} ({value:g}); give the size in one place")
        return layout
    size = (t.number("width_in", DEFAULT_TABLE_IN[0], positive=True), t.number("depth_in", DEFAULT_TABLE_IN[1], positive=True))
    return layout_from_fields(Fields({"width_in": size[0], "depth_in": size[1]}, t.where, error=ScenarioFileError))


def read_terrain(top: Fields, path: Path) -> Terrain:
    t = top.table("terrain")
    if t is None:
        return Terrain()
    t.refuse_unknown({"hills", "height_map", "cell_in"})
    hills = []
    for hf in t.tables("hills"):
        hf.refuse_unknown({"x_in", "y_in", "radius_in", "height_in"})
        hills.append(Hill(hf.number("x_in"), hf.number("y_in"), hf.number("radius_in", positive=True), hf.number("height_in", minimum=0)))
    grid = None
    if t.has("height_map"):
        grid_path = path.parent / t.string("height_map")
        try:
            heights = np.loadtxt(grid_path, delimiter=",", ndmin=2)
        except (OSError, ValueError) as exc:
            raise t.fail("height_map", f"cannot be read as a CSV of heights in inches ({exc})") from None
        try:
            grid = HeightGrid(heights, t.number("cell_in", 1.0, positive=True))
        except CalibrationError as exc:
            raise t.fail("height_map", f"is not a usable height map: {exc}") from None
    return Terrain(hills=tuple(hills), grid=grid)
