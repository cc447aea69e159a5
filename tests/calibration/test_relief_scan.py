"""The relief scan: the sand's heights measured by camera and projector, against the true hills."""
import numpy as np
import pytest

from calibration.errors import CalibrationFileError
from calibration.relief_scan import load_relief, save_relief, scan_relief
from calibration.table_setup import read_terrain
from calibration.toml_fields import Fields
from relief_helpers import HILLS, LAYOUT, calibrated_projector, decoded, table_calibration


@pytest.fixture(scope="module")
def relief():
    return scan_relief(decoded("hills"), table_calibration(), calibrated_projector())


def grid_truth(relief):
    rows, cols = relief.heights_in.shape
    yy, xx = np.mgrid[0:rows, 0:cols] * relief.cell_in
    return xx, yy, HILLS.height_at(xx, yy)


def test_the_scanned_heights_match_the_true_relief_within_five_hundredths_rms(relief):
    xx, yy, truth = grid_truth(relief)
    inner = (xx > 2) & (xx < LAYOUT.width_in - 2) & (yy > 2) & (yy < LAYOUT.depth_in - 2)
    both = relief.seen & inner
    err = relief.heights_in[both] - truth[both]
    assert both.sum() > 0.95 * inner.sum()
    assert np.sqrt(np.mean(err**2)) <= 0.05
    assert np.percentile(np.abs(err), 99) < 0.1
    # the hills' tops are where and how high they are
    assert relief.heights_in[120, 96] == pytest.approx(4.0, abs=0.05)   # (24, 30)
    assert relief.heights_in[72, 200] == pytest.approx(3.0, abs=0.05)   # (50, 18)
    assert relief.cell_in == 0.25
    assert 0 < relief.error_in < 0.05


def test_the_estimated_error_is_of_the_size_of_the_real_one(relief):
    xx, yy, truth = grid_truth(relief)
    both = relief.seen & (xx > 2) & (xx < 70) & (yy > 2) & (yy < 46)
    real = float(np.sqrt(np.mean((relief.heights_in[both] - truth[both]) ** 2)))
    assert real / 4 < relief.error_in < real * 4


def test_the_scan_file_is_the_height_map_a_scenario_reads_and_keeps_the_unseen_area(relief, tmp_path):
    path = tmp_path / "relief.json"
    csv = save_relief(relief, path)
    assert csv.name == "relief.heights.csv"
    back = load_relief(path)
    assert np.array_equal(back.seen, relief.seen)
    assert back.unseen_fraction == pytest.approx(relief.unseen_fraction)
    assert back.unseen_fraction > 0  # the table's edges beyond the camera's view
    # a scenario's [terrain] pointing at the CSV gets the scanned ground
    top = Fields({"terrain": {"height_map": csv.name, "cell_in": relief.cell_in}}, "scenario.toml", error=ValueError)
    terrain = read_terrain(top, tmp_path / "scenario.toml")
    assert float(terrain.height_at(24.0, 30.0)) == pytest.approx(4.0, abs=0.06)
    path.write_text("{}")
    with pytest.raises(CalibrationFileError, match="sandtable scan"):
        load_relief(path)


def test_a_cell_built_from_one_stray_point_is_flagged_thin_and_not_trusted():
    from calibration.relief_scan import relief_from_points

    rng = np.random.default_rng(3)
    # a flat table well covered at 10 points per cell, with noise 0.05", and one far cell hit by one stray pixel
    xs, ys = np.meshgrid(np.arange(0, 4, 0.25), np.arange(0, 4, 0.25))
    pts = [np.column_stack([xs.ravel() + dx, ys.ravel() + dy, rng.normal(0, 0.05, xs.size)])
           for dx, dy in rng.uniform(-0.1, 0.1, (10, 2))]
    stray = np.array([[6.0, 6.0, 2.0]])
    scan = relief_from_points(np.vstack(pts + [stray]), 8.0, 8.0, cell_in=0.25)
    r, c = 24, 24
    assert scan.thin[r, c] and scan.thin_cells == 1
    # one point has no spread of its own: it must not claim a better error than the well-covered cells
    assert scan.cell_error_in[r, c] >= np.nanmedian(scan.cell_error_in[:16, :16])
    assert "1 cells measured from fewer than 3 points" in scan.summary()


def test_the_thin_cells_are_kept_in_the_file(tmp_path):
    from calibration.relief_scan import relief_from_points

    pts = np.array([[x, y, 0.0] for x in np.arange(0, 2, 0.25) for y in np.arange(0, 2, 0.25) for _ in range(4)]
                   + [[3.0, 3.0, 1.0]])
    scan = relief_from_points(pts, 4.0, 4.0, cell_in=0.25)
    save_relief(scan, tmp_path / "relief.json")
    back = load_relief(tmp_path / "relief.json")
    assert back.thin_cells == scan.thin_cells == 1 and back.thin[12, 12]


def test_a_relief_that_saw_almost_nothing_is_not_a_relief():
    from calibration.relief_scan import relief_from_points

    pts = np.array([[1.0, 1.0, 0.0]] * 5)
    problem = relief_from_points(pts, 48.0, 48.0).problem()
    assert problem is not None and "of the table" in problem and "pattern order" in problem


def test_the_relief_file_is_readable_by_others_not_private(relief, tmp_path):
    import os
    import stat

    old = os.umask(0o022)
    try:
        save_relief(relief, tmp_path / "relief.json")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "relief.json").st_mode) == 0o644
