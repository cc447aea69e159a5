"""A real elevation model read from its files, placed on the table at its scale, as the table's heights."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import tifffile

from calibration.elevation_files import ElevationFileError, ElevationModel, read_elevation_file
from calibration.errors import ScenarioFileError
from calibration.table_setup import read_scenario_top
from calibration.target_terrain import Placement, TargetTerrain, read_target_terrain

CELL_M = 30.0


def cone_dem(rows: int = 40, cols: int = 60) -> np.ndarray:
    """A 300 m hill rising from 100 m, its top at column 40, row 10 (north is row 0)."""
    r, c = np.mgrid[0:rows, 0:cols]
    return 100.0 + np.maximum(0.0, 300.0 - 20.0 * np.hypot(r - 10, c - 40))


def write_asc(path: Path, grid: np.ndarray, *, nodata: float | None = None, centre: bool = False) -> Path:
    rows, cols = grid.shape
    corner = ("xllcenter", "yllcenter") if centre else ("xllcorner", "yllcorner")
    shift = CELL_M / 2 if centre else 0.0
    head = [f"ncols {cols}", f"nrows {rows}", f"{corner[0]} {500000 + shift}", f"{corner[1]} {4100000 + shift}",
            f"cellsize {CELL_M}"]
    if nodata is not None:
        head.append(f"NODATA_value {nodata}")
    path.write_text("\n".join(head) + "\n" + "\n".join(" ".join(f"{v:.3f}" for v in row) for row in grid) + "\n")
    return path


def write_geotiff(path: Path, grid: np.ndarray, *, compression: str | None = "lzw", geographic: bool = False,
                  nodata: str | None = None) -> Path:
    rows, cols = grid.shape
    if geographic:  # a degree grid at latitude 60 degrees
        scale, tie = (0.001, 0.001, 0.0), (0, 0, 0, 10.0, 60.0 + rows * 0.001 / 2, 0)
        keys = (1, 1, 0, 1, 1024, 0, 1, 2)
    else:
        scale, tie = (CELL_M, CELL_M, 0.0), (0, 0, 0, 500000.0, 4100000.0 + rows * CELL_M, 0)
        keys = (1, 1, 0, 1, 1024, 0, 1, 1)
    tags = [(33550, "d", 3, scale, False), (33922, "d", 6, tie, False), (34735, "H", len(keys), keys, False)]
    if nodata is not None:
        tags.append((42113, "s", 0, nodata, False))
    tifffile.imwrite(path, grid.astype(np.float32), compression=compression, extratags=tags)
    return path


def test_an_ascii_grid_and_a_geotiff_of_the_same_ground_read_the_same(tmp_path: Path) -> None:
    grid = cone_dem()
    asc = read_elevation_file(write_asc(tmp_path / "hill.asc", grid))
    tif = read_elevation_file(write_geotiff(tmp_path / "hill.tif", grid))
    for dem in (asc, tif):
        assert dem.heights_m.shape == grid.shape and dem.cell_x_m == CELL_M
        assert dem.origin_m == pytest.approx((500000.0, 4100000.0))
        np.testing.assert_allclose(dem.heights_m, grid, atol=1e-3)
    # the top: row 10 from the north of 40 rows, column 40 -> centre 1215 m east, 885 m north
    assert asc.elevation_at(40.5 * CELL_M, (40 - 10.5) * CELL_M) == pytest.approx(400.0)


def test_the_cell_centre_header_and_nodata_are_honoured(tmp_path: Path) -> None:
    grid = cone_dem()
    grid[0, 0] = -9999
    dem = read_elevation_file(write_asc(tmp_path / "hill.asc", grid, nodata=-9999, centre=True))
    assert dem.origin_m == pytest.approx((500000.0, 4100000.0)) and np.isnan(dem.heights_m[0, 0])
    tif = read_elevation_file(write_geotiff(tmp_path / "hill.tif", grid, compression="zlib", nodata="-9999"))
    assert np.isnan(tif.heights_m[0, 0]) and np.isfinite(tif.heights_m[1, 1])


def test_a_geographic_geotiff_is_converted_to_metres_at_its_latitude(tmp_path: Path) -> None:
    dem = read_elevation_file(write_geotiff(tmp_path / "deg.tif", cone_dem(), geographic=True))
    assert dem.cell_y_m == pytest.approx(111.32, rel=1e-3)
    assert dem.cell_x_m == pytest.approx(111.32 * np.cos(np.radians(60.0)), rel=1e-3)


@pytest.mark.parametrize("name,content,match", [
    ("short.asc", "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n4 5\n", "truncated"),
    ("nocell.asc", "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\n1 2\n3 4\n", "cellsize"),
    ("map.png", "not a map", "unknown elevation format"),
])
def test_broken_files_are_refused_with_what_to_fix(tmp_path: Path, name: str, content: str, match: str) -> None:
    (tmp_path / name).write_text(content)
    with pytest.raises(ElevationFileError, match=match):
        read_elevation_file(tmp_path / name)


def test_a_plain_tiff_without_placement_is_refused(tmp_path: Path) -> None:
    tifffile.imwrite(tmp_path / "photo.tif", np.zeros((4, 4), np.float32))
    with pytest.raises(ElevationFileError, match="GeoTIFF placement"):
        read_elevation_file(tmp_path / "photo.tif")


def test_placements_round_trip_and_corners_recover_a_rotation() -> None:
    p = Placement.from_rotation(25.0, rotation_deg=30.0, offset_in=(10.0, 5.0))
    pts = np.array([[0.0, 0.0], [1000.0, 200.0], [-50.0, 700.0]])
    np.testing.assert_allclose(p.map_from_table_points(p.table_from_map_points(pts)), pts, atol=1e-9)
    corners_m = np.array([[0, 0], [1800, 0], [1800, 1200], [0, 1200]], float)
    q = Placement.from_corners(corners_m, p.table_from_map_points(corners_m))
    assert q.metres_per_in == pytest.approx(25.0) and q.rotation_deg == pytest.approx(30.0)
    np.testing.assert_allclose(q.table_from_map, p.table_from_map, atol=1e-9)


def test_the_hill_lands_where_the_placement_puts_it_at_the_scaled_height() -> None:
    dem = ElevationModel(cone_dem(), CELL_M, CELL_M)
    # 25 m per inch, 3x exaggeration, the map turned 90 degrees, its lower-left corner at (60", -5")
    t = TargetTerrain(dem, 25.0, 3.0, Placement.from_rotation(25.0, rotation_deg=90.0, offset_in=(60.0, -5.0)))
    heights, covered = t.sample(72.0, 48.0, cell_in=0.25)
    top_map = np.array([[40.5 * CELL_M, (40 - 10.5) * CELL_M]])
    top_table = t.placement.table_from_map_points(top_map)[0]
    assert top_table == pytest.approx((60.0 - 885.0 / 25.0, -5.0 + 1215.0 / 25.0))
    r, c = np.unravel_index(np.argmax(heights), heights.shape)
    assert (c * 0.25, r * 0.25) == pytest.approx(tuple(top_table), abs=0.5)
    # 300 m over the map's lowest point, 3x exaggerated at 25 m per inch: 36"
    assert heights.max() == pytest.approx(300.0 * 3.0 / 25.0, rel=0.02)
    assert t.metres_from_inches(heights.max()) == pytest.approx(400.0, rel=0.01)
    assert not covered[0, 0] and heights[0, 0] == 0.0      # the map does not reach the near-left corner


def scenario(tmp_path: Path, target: str) -> Path:
    write_asc(tmp_path / "hill.asc", cone_dem())
    p = tmp_path / "game.toml"
    p.write_text('format = "sandtable-scenario"\nversion = 1\nruleset = "generic"\n\n[target_terrain]\n' + target)
    return p


def test_the_scenario_names_the_ground_with_its_scale_and_corners(tmp_path: Path) -> None:
    p = scenario(tmp_path, 'file = "hill.asc"\nexaggeration = 2.0\n'
                           'corners_in = [[0.0, 0.0], [72.0, 0.0], [72.0, 48.0]]\n')
    t = read_target_terrain(read_scenario_top(p), p)
    assert t is not None and t.exaggeration == 2.0
    assert t.metres_per_in == pytest.approx(60 * CELL_M / 72.0)       # 1800 m over 72"
    g = t.height_grid(72.0, 48.0, cell_in=0.5)
    assert g.heights_in.shape == (97, 145) and g.heights_in.max() == pytest.approx(300 * 2 / 25.0, rel=0.02)


@pytest.mark.parametrize("target,match", [
    ('file = "hill.asc"\n', "metres_per_in"),
    ('file = "hill.asc"\nmetres_per_in = 25\nrotation_deg = 10\ncorners_in = [[0,0],[1,0],[1,1]]\n', "one way"),
    ('file = "hill.asc"\nmetres_per_inch = 25\n', "did you mean 'metres_per_in'"),
    ('file = "nowhere.tif"\nmetres_per_in = 25\n', "does not exist"),
])
def test_scenario_mistakes_are_refused_with_a_fix(tmp_path: Path, target: str, match: str) -> None:
    p = scenario(tmp_path, target)
    with pytest.raises(ScenarioFileError, match=match):
        read_target_terrain(read_scenario_top(p), p)


@pytest.mark.parametrize("name", ["calibration.elevation_files", "calibration.target_terrain"])
def test_docstring_examples_run(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_the_rules_line_of_sight_reads_the_target_and_the_viewshed_agrees() -> None:
    from rules.terrain_sight import Ground, propose_sight
    from rules.viewshed import Sight, viewshed

    dem = ElevationModel(cone_dem(), CELL_M, CELL_M)
    t = TargetTerrain(dem, 25.0, 1.0, Placement.from_rotation(25.0, offset_in=(0.0, 0.0)))
    g = t.height_grid(72.0, 48.0, cell_in=0.5)
    ground = Ground(g.heights_in, g.cell_in)
    top = (40.5 * CELL_M / 25.0, (40 - 10.5) * CELL_M / 25.0)         # the hill's top: 48.6", 35.4"
    before, behind = (top[0] - 20.0, top[1]), (top[0] + 20.0, top[1])
    assert not propose_sight(ground, before, behind).line_of_sight    # 12" of hill between them
    v = viewshed(ground, before, range_in=45.0)
    assert v.at(*behind) is Sight.HIDDEN and v.at(top[0] - 10.0, top[1]) is Sight.SEEN


def test_a_csv_target_puts_each_height_on_its_node_as_the_terrain_height_map_does(tmp_path: Path) -> None:
    """A CSV of heights (as `sandtable scan` writes and `[terrain] height_map` reads) holds nodes:
    row r, column c is the height at x = c * cell_in, y = r * cell_in, not half a cell further on."""
    from calibration.table_setup import read_terrain

    heights = np.full((9, 13), 0.25)  # a quarter inch of sand everywhere
    heights[4, 6] = 2.0          # a 2" spike on the node at (3", 2")
    heights[0, 0] = 0.5          # the near-left corner raised: the CSV's heights are over the table plane
    (tmp_path / "ground.csv").write_text("\n".join(",".join(f"{v:g}" for v in row) for row in heights) + "\n")
    p = tmp_path / "game.toml"
    p.write_text('format = "sandtable-scenario"\nversion = 1\nruleset = "generic"\n\n'
                 '[terrain]\nheight_map = "ground.csv"\ncell_in = 0.5\n\n'
                 '[target_terrain]\nfile = "ground.csv"\ncell_in = 0.5\n')
    top = read_scenario_top(p)
    t = read_target_terrain(top, p)
    assert t is not None
    grid, covered = t.sample(6.0, 4.0, cell_in=0.5)
    assert grid.shape == heights.shape and covered.all()
    np.testing.assert_allclose(grid, heights, atol=1e-9)   # every node where the CSV puts it, at its height
    played = read_terrain(top, p)
    at = np.array([3.0, 2.6, 0.0, 5.9]), np.array([2.0, 2.0, 0.0, 3.8])
    np.testing.assert_allclose(t.height_grid(6.0, 4.0, cell_in=0.5).height_at(*at), played.height_at(*at), atol=1e-9)


def test_an_ascii_grid_cell_lands_at_its_centre_on_the_table_with_either_corner_header(tmp_path: Path) -> None:
    """ESRI's xllcorner is the grid's outer corner, xllcenter the lower-left cell's centre: both files
    describe the same raster, and a cell's height lands at its centre's table inches."""
    grid = np.zeros((8, 12))
    grid[2, 9] = 120.0            # row 2 from the north, column 9
    for centre in (False, True):
        dem = read_elevation_file(write_asc(tmp_path / f"spike-{centre}.asc", grid, centre=centre))
        assert dem.origin_m == pytest.approx((500000.0, 4100000.0))
        t = TargetTerrain(dem, CELL_M / 2, 1.0)                   # one cell = 2"
        x_in, y_in = (9 + 0.5) * 2.0, (8 - 2 - 0.5) * 2.0           # the cell's centre: (19", 11")
        h = t.height_grid(24.0, 16.0, cell_in=0.5).height_at(np.array([x_in]), np.array([y_in]))[0]
        assert h == pytest.approx(120.0 / (CELL_M / 2))
