"""Contour lines lie where the ground has their height, with labels in the map's units; tints rise with it."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.contours import contour_levels, contour_lines, elevation_tints
from calibration.elevation_files import ElevationModel
from calibration.errors import CalibrationError
from calibration.target_terrain import TargetTerrain
from calibration.terrain import HeightGrid


def test_every_point_of_every_line_is_at_its_level() -> None:
    y, x = np.mgrid[0:97, 0:145] * 0.25
    h = 3.0 * np.exp(-((x - 12) ** 2 + (y - 12) ** 2) / 40) + 2.0 * np.exp(-((x - 26) ** 2 + (y - 10) ** 2) / 20)
    grid = HeightGrid(h, 0.25)
    lines = contour_lines(h, 0.25, interval_in=0.3)
    assert {round(c.level_in, 6) for c in lines} == {round(v, 6) for v in np.arange(1, 10) * 0.3}
    for c in lines:
        z = grid.height_at(c.points_in[:, 0], c.points_in[:, 1])
        assert np.abs(z - c.level_in).max() < 0.02, c.level_in
        # the label sits on its line, its text along it and upright
        assert np.hypot(*(c.points_in - c.label_xy_in).T).min() < 0.25
        assert -90 <= c.label_angle_deg <= 90
    assert [c.index for c in lines if c.level_in == pytest.approx(1.5)] == [True] * sum(
        c.level_in == pytest.approx(1.5) for c in lines)


def test_labels_in_the_maps_own_units() -> None:
    dem = ElevationModel(100.0 + 10.0 * np.arange(40)[::-1, None] * np.ones((1, 60)), 30.0, 30.0)  # rising north
    t = TargetTerrain(dem, metres_per_in=25.0, exaggeration=2.0)     # 12.5 m of elevation per inch of sand
    g = t.height_grid(72.0, 48.0, cell_in=0.5)
    lines = contour_lines(g.heights_in, 0.5, interval_in=50.0 / t.metres_per_in_vertical,
                          label=lambda h: f"{float(t.metres_from_inches(h)):.0f} m")
    assert [c.label for c in lines] == ["150 m", "200 m", "250 m", "300 m", "350 m", "400 m", "450 m"]


def test_levels_and_bad_intervals() -> None:
    assert contour_levels(np.array([[0.1, 1.0]]), 0.25).tolist() == [0.25, 0.5, 0.75]
    with pytest.raises(CalibrationError, match="interval_in=0"):
        contour_levels(np.zeros((2, 2)), 0)


def test_tints_run_from_green_lowlands_to_white_tops() -> None:
    rgb = elevation_tints(np.linspace(0, 4, 9)[None, :])[0]
    assert tuple(rgb[0]) == (46, 125, 50) and tuple(rgb[-1]) == (250, 250, 250)
    assert elevation_tints(np.array([[np.nan, 1.0]]))[0, 0].tolist() == [0, 0, 0]


def test_a_maps_contours_fall_on_round_elevations() -> None:
    # 123 m at the foot, 513 m at the top: the lines belong at 150, 200, ... 500 m, not at 123 + 50 k
    dem = ElevationModel(123.0 + 10.0 * np.arange(40)[::-1, None] * np.ones((1, 60)), 30.0, 30.0)
    t = TargetTerrain(dem, metres_per_in=25.0, exaggeration=2.0)
    g = t.height_grid(72.0, 48.0, cell_in=0.5)
    lines = contour_lines(g.heights_in, 0.5, **t.contour_options(50.0))
    assert [c.label for c in lines] == ["150 m", "200 m", "250 m", "300 m", "350 m", "400 m", "450 m", "500 m"]
    grid = HeightGrid(g.heights_in, 0.5)
    for c in lines:
        z_m = t.metres_from_inches(grid.height_at(c.points_in[:, 0], c.points_in[:, 1]))
        assert np.abs(z_m - float(c.label.split()[0])).max() < 0.5
