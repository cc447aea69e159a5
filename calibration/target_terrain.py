"""The ground a scenario is played on: a real elevation model (or a height grid) placed on the table.

A :class:`TargetTerrain` is an elevation model (calibration/elevation_files.py), its horizontal scale
(``metres_per_in``: 1" on the table is that many metres on the ground), its vertical exaggeration
(heights are ``exaggeration`` times steeper than the horizontal scale makes them: hills on a sand table
are usually shown 2-5x), the elevation that sits on the table plane (``base_m``; the lowest point of
the map on the table by default) and its :class:`Placement` (map metres -> table inches). Resampled
onto the table's grid it is a :class:`~calibration.terrain.HeightGrid` in inches like the relief
scan's, so the rules' line of sight, the sculpting guidance and the contours read it the same way.

The scenario names it in a ``[target_terrain]`` table (docs/target-terrain.md lists the fields)::

    [target_terrain]
    file = "valley.tif"          # ESRI ASCII grid (.asc) or GeoTIFF (.tif), or a CSV of inches
    metres_per_in = 25.0         # horizontal scale: 1" on the table = 25 m
    exaggeration = 3.0           # vertical exaggeration
    rotation_deg = 0.0           # the map's east axis against the table's +x, counter-clockwise
    offset_in = [0.0, 0.0]       # where the map's lower-left corner lands on the table
    # corners_in = [[x, y], ...] # or: where the map's corners land (lower-left, lower-right,
    #                            #     upper-right, upper-left; three or four of them)

>>> dem = ElevationModel(np.array([[10.0, 10.0], [0.0, 0.0]]), 100.0, 100.0)   # rising northward
>>> t = TargetTerrain(dem, metres_per_in=10.0, exaggeration=2.0)
>>> g = t.height_grid(20.0, 20.0, cell_in=5.0)
>>> [round(float(v), 2) for v in g.heights_in[:, 2]]          # 10 m x 2 / 10 m per inch = 2" top
[0.0, 0.0, 1.0, 2.0, 2.0]
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from calibration.elevation_files import ElevationFileError, ElevationModel, read_elevation_file
from calibration.errors import CalibrationError, ScenarioFileError
from calibration.terrain import HeightGrid
from calibration.toml_fields import Fields


@dataclass(frozen=True, eq=False)
class Placement:
    """``table_from_map``: the 2x3 affine matrix from map metres (east, north of the map's lower-left
    corner) to table inches. Build it with :meth:`from_rotation` or :meth:`from_corners`."""

    table_from_map: np.ndarray = field(repr=False)

    def __post_init__(self) -> None:
        m = np.asarray(self.table_from_map, dtype=np.float64)
        if m.shape != (2, 3) or abs(np.linalg.det(m[:, :2])) < 1e-12:
            raise CalibrationError("a placement needs an invertible 2x3 table_from_map matrix")
        object.__setattr__(self, "table_from_map", m)

    @classmethod
    def from_rotation(cls, metres_per_in: float, *, rotation_deg: float = 0.0,
                      offset_in: tuple[float, float] = (0.0, 0.0)) -> Placement:
        """The map's lower-left corner at ``offset_in``, its east axis turned ``rotation_deg``
        counter-clockwise from the table's +x."""
        if not metres_per_in > 0:
            raise CalibrationError(f"metres_per_in={metres_per_in}: give the map's metres per table inch (positive)")
        a = math.radians(rotation_deg)
        k = 1.0 / metres_per_in
        return cls(np.array([[k * math.cos(a), -k * math.sin(a), offset_in[0]],
                             [k * math.sin(a), k * math.cos(a), offset_in[1]]]))

    @classmethod
    def from_corners(cls, map_corners_m: np.ndarray, table_corners_in: np.ndarray) -> Placement:
        """The similarity (scale, rotation, offset: a map is not sheared) that best takes the map's
        corners to where they are on the table (least squares, three or more corners)."""
        src = np.asarray(map_corners_m, dtype=np.float64).reshape(-1, 2)
        dst = np.asarray(table_corners_in, dtype=np.float64).reshape(-1, 2)
        if len(src) != len(dst) or len(src) < 2:
            raise CalibrationError(f"{len(dst)} table corners for {len(src)} map corners; give the same number, at least two")
        # x' = a x - b y + tx, y' = b x + a y + ty
        rows = []
        for (x, y), (u, v) in zip(src, dst):
            rows.append(([x, -y, 1.0, 0.0], u))
            rows.append(([y, x, 0.0, 1.0], v))
        a_mat = np.array([r for r, _ in rows])
        rhs = np.array([v for _, v in rows])
        (a, b, tx, ty), *_ = np.linalg.lstsq(a_mat, rhs, rcond=None)
        if math.hypot(a, b) < 1e-12:
            raise CalibrationError("the table corners coincide; give where the map's corners lie on the table")
        return cls(np.array([[a, -b, tx], [b, a, ty]]))

    @property
    def metres_per_in(self) -> float:
        return 1.0 / math.sqrt(abs(np.linalg.det(self.table_from_map[:, :2])))

    @property
    def rotation_deg(self) -> float:
        return math.degrees(math.atan2(self.table_from_map[1, 0], self.table_from_map[0, 0]))

    def table_from_map_points(self, xy_m: np.ndarray) -> np.ndarray:
        p = np.asarray(xy_m, dtype=np.float64).reshape(-1, 2)
        return p @ self.table_from_map[:, :2].T + self.table_from_map[:, 2]

    def map_from_table_points(self, xy_in: np.ndarray) -> np.ndarray:
        p = np.asarray(xy_in, dtype=np.float64).reshape(-1, 2)
        return (p - self.table_from_map[:, 2]) @ np.linalg.inv(self.table_from_map[:, :2]).T


@dataclass(frozen=True, eq=False)
class TargetTerrain:
    """An elevation model placed on the table, with its scales (see the module's docstring)."""

    model: ElevationModel
    metres_per_in: float
    exaggeration: float = 1.0
    placement: Placement | None = None
    base_m: float | None = None
    #: the map has a real horizontal scale (an elevation model, or a CSV given metres_per_in): its
    #: contours are labelled in metres; a bare CSV of inches has none
    has_scale: bool = True

    def __post_init__(self) -> None:
        if not self.metres_per_in > 0:
            raise CalibrationError(f"metres_per_in={self.metres_per_in}: give the map's metres per table inch (positive)")
        if not self.exaggeration > 0:
            raise CalibrationError(f"exaggeration={self.exaggeration}: give a positive vertical exaggeration (1 = true to scale)")
        if self.placement is None:
            object.__setattr__(self, "placement", Placement.from_rotation(self.metres_per_in))

    @property
    def metres_per_in_vertical(self) -> float:
        """Metres of elevation per inch of sand."""
        return self.metres_per_in / self.exaggeration

    def inches_from_metres(self, elevation_m: np.ndarray | float) -> np.ndarray:
        """Table height (inches over the table plane) of an elevation in metres."""
        base = self.base_m if self.base_m is not None else float(np.nanmin(self.model.heights_m))
        return (np.asarray(elevation_m, dtype=np.float64) - base) / self.metres_per_in_vertical

    def metres_from_inches(self, height_in: np.ndarray | float) -> np.ndarray:
        """The map elevation (metres) of a table height: contour labels in the map's own units."""
        base = self.base_m if self.base_m is not None else float(np.nanmin(self.model.heights_m))
        return np.asarray(height_in, dtype=np.float64) * self.metres_per_in_vertical + base

    def contour_options(self, interval_m: float) -> dict[str, Any]:
        """Keyword arguments for :func:`calibration.contours.contour_lines` that put the lines at round
        elevations of the map (every ``interval_m`` metres) and label them in metres."""
        if not interval_m > 0:
            raise CalibrationError(f"interval_m={interval_m}: give a positive contour interval in metres (e.g. 50)")
        return {"interval_in": interval_m / self.metres_per_in_vertical,
                "base_in": float(self.inches_from_metres(0.0)),
                "label": lambda h_in: f"{float(self.metres_from_inches(h_in)):.0f} m"}

    def sample(self, width_in: float, depth_in: float, *, cell_in: float = 0.25) -> tuple[np.ndarray, np.ndarray]:
        """(heights_in, covered) on the table's grid (x = col * cell_in, y = row * cell_in): the
        target's height at every node, and where the map covers the table (elsewhere: 0, the table)."""
        if not cell_in > 0:
            raise CalibrationError(f"cell_in={cell_in}: give a positive grid spacing in inches")
        cols, rows = int(round(width_in / cell_in)) + 1, int(round(depth_in / cell_in)) + 1
        yy, xx = np.mgrid[0:rows, 0:cols] * cell_in
        assert self.placement is not None
        m = self.placement.map_from_table_points(np.column_stack([xx.ravel(), yy.ravel()]))
        elev = self.model.elevation_at(m[:, 0], m[:, 1]).reshape(rows, cols)
        covered = np.isfinite(elev)
        heights = np.where(covered, self.inches_from_metres(np.where(covered, elev, 0.0)), 0.0)
        return heights, covered

    def height_grid(self, width_in: float, depth_in: float, *, cell_in: float = 0.25) -> HeightGrid:
        """The target as the table's height grid (inches; 0 where the map does not reach)."""
        heights, _ = self.sample(width_in, depth_in, cell_in=cell_in)
        return HeightGrid(heights, cell_in)


def read_target_terrain(top: Fields, path: Path) -> TargetTerrain | None:
    """The scenario's ``[target_terrain]`` (None when it has none); file paths are relative to the
    scenario's folder. A CSV file is a height grid in inches (as ``[terrain] height_map``: its values
    on the nodes x = col * cell_in, y = row * cell_in, over the table plane), placed with its
    ``cell_in`` as metres_per_in = 1 (one 'metre' per inch) unless told otherwise; its ``offset_in``
    and ``corners_in`` name where its first and last nodes land."""
    t = top.table("target_terrain")
    if t is None:
        return None
    t.refuse_unknown({"file", "metres_per_in", "exaggeration", "base_m", "rotation_deg", "offset_in", "corners_in", "cell_in"})
    file = path.parent / t.string("file")
    try:
        if file.suffix.lower() == ".csv":
            heights = np.loadtxt(file, delimiter=",", ndmin=2)
            cell = t.number("cell_in", 1.0, positive=True)
            model = ElevationModel(heights[::-1], cell, cell, source=file.name)  # CSV row 0 is y = 0 (the near edge)
            default_scale = 1.0
        else:
            model = read_elevation_file(file)
            default_scale = None
    except ElevationFileError as exc:
        raise t.fail("file", f"is not a usable elevation model: {exc}") from None
    except (OSError, ValueError) as exc:
        raise t.fail("file", f"cannot be read ({exc})") from None
    if default_scale is None and not t.has("metres_per_in") and not t.has("corners_in"):
        raise ScenarioFileError(f"{t.where}: give metres_per_in (1\" on the table = how many metres) or corners_in")
    scale = t.number("metres_per_in", default_scale or 1.0, positive=True)
    # A CSV holds nodes (row r, column c is the height at x = c * cell_in, y = r * cell_in, as
    # `[terrain] height_map` reads it); the elevation model holds cells with the value at their
    # centre: the node (0, 0) is the centre of the model's lower-left cell, half a cell in.
    first = (model.cell_x_m / 2, model.cell_y_m / 2) if default_scale is not None else (0.0, 0.0)
    if t.has("corners_in"):
        if t.has("rotation_deg") or t.has("offset_in"):
            raise t.fail("corners_in", "comes with rotation_deg or offset_in; place the map one way, by corners or by rotation and offset")
        corners = np.asarray(t.data["corners_in"], dtype=np.float64)
        if corners.ndim != 2 or corners.shape[1] != 2 or not 3 <= len(corners) <= 4:
            raise t.fail("corners_in", "must list three or four [x, y] table points: lower-left, lower-right, upper-right(, upper-left)")
        (x0, y0), w, d = first, model.width_m - first[0], model.depth_m - first[1]
        map_corners = np.array([[x0, y0], [w, y0], [w, d], [x0, d]], dtype=np.float64)[: len(corners)]
        placement = Placement.from_corners(map_corners, corners)
        if t.has("metres_per_in") and abs(placement.metres_per_in / scale - 1) > 0.02:
            raise t.fail("metres_per_in", f"disagrees with the corners ({placement.metres_per_in:.3g} m per inch); "
                         "give the scale in one place")
        scale = placement.metres_per_in
    else:
        offset = t.data.get("offset_in", [0.0, 0.0])
        if not (isinstance(offset, list) and len(offset) == 2):
            raise t.fail("offset_in", "must be [x, y] in table inches")
        turn = t.number("rotation_deg", 0.0)
        lands = Placement.from_rotation(scale, rotation_deg=turn).table_from_map_points(np.array([first]))[0]
        placement = Placement.from_rotation(scale, rotation_deg=turn,
                                            offset_in=(float(offset[0]) - lands[0], float(offset[1]) - lands[1]))
    # a CSV's heights are already inches over the table plane: its base is 0, not its lowest node
    base = t.number("base_m") if t.has("base_m") else (0.0 if default_scale is not None else None)
    return TargetTerrain(model, scale, t.number("exaggeration", 1.0, positive=True), placement, base,
                         has_scale=default_scale is None or t.has("metres_per_in"))
