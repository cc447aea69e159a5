"""The camera picture rectified onto the table: coordinates that round-trip, and a tag drawn where it lies."""
import math

import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.rectify import rectified_from_table, rectified_size_px, rectify, rectify_maps, table_from_rectified
from calibration.synthetic import SyntheticTable, TagPlacement
from calibration.table_calibration import TableCalibration
from calibration.tag_bitmaps import TAG_CELLS, tag_bitmap

TABLE_IN = (72.0, 48.0)


@pytest.fixture(scope="module")
def table() -> SyntheticTable:
    return SyntheticTable(supersample=2)


@pytest.fixture(scope="module")
def calibration(table: SyntheticTable) -> TableCalibration:
    return TableCalibration(model=table.model, pose=table.pose, layout=table.layout, residual_in=0.0)


def test_table_and_rectified_pixels_round_trip_with_row_zero_at_the_far_edge():
    rng = np.random.default_rng(4)
    pts = rng.uniform((0.0, 0.0), TABLE_IN, size=(50, 2))
    px = rectified_from_table(pts, TABLE_IN, px_per_in=12.5)
    np.testing.assert_allclose(table_from_rectified(px, TABLE_IN, px_per_in=12.5), pts, atol=1e-12)
    # the far-left corner of the table is the top-left corner of the first pixel
    np.testing.assert_allclose(rectified_from_table(np.array([[0.0, 48.0]]), TABLE_IN, px_per_in=10.0), [[-0.5, -0.5]])
    assert rectified_size_px(TABLE_IN, px_per_in=10.0) == (720, 480)


def test_each_rectified_pixel_samples_the_camera_pixel_that_sees_its_table_point(calibration):
    maps = rectify_maps(calibration, TABLE_IN, px_per_in=10.0)
    assert maps.size_px == (720, 480) and not maps.map_x_px.flags.writeable
    rng = np.random.default_rng(5)
    cols, rows = rng.integers(0, 720, 40), rng.integers(0, 480, 40)
    cam = np.column_stack([maps.map_x_px[rows, cols], maps.map_y_px[rows, cols]]).astype(np.float64)
    back = calibration.table_from_camera(cam)
    want = table_from_rectified(np.column_stack([cols, rows]), TABLE_IN, px_per_in=10.0)
    # float32 maps: a thousandth of a camera pixel, far under a thousandth of an inch
    assert np.max(np.linalg.norm(back - want, axis=1)) < 1e-3


def _cell_centres_in(x_in: float, y_in: float, heading_deg: float, size_in: float, offset_cells: tuple[float, float]) -> np.ndarray:
    """Table points of every cell of a flat tag (row-major, row 0 at the tag's top), nudged by ``offset_cells``."""
    a = math.radians(heading_deg - 90.0)
    u_axis, v_axis = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    cell = size_in / TAG_CELLS
    rows, cols = np.mgrid[0:TAG_CELLS, 0:TAG_CELLS]
    u = (cols.ravel() + 0.5 + offset_cells[0] - TAG_CELLS / 2) * cell
    v = (TAG_CELLS / 2 - rows.ravel() - 0.5 - offset_cells[1]) * cell
    return np.array([x_in, y_in]) + u[:, None] * u_axis + v[:, None] * v_axis


@pytest.mark.parametrize(("x_in", "y_in", "heading_deg"), [(20.0, 12.0, 30.0), (55.0, 38.0, 200.0)])
def test_a_tag_on_the_table_appears_in_the_rectified_picture_cell_for_cell(table, calibration, x_in, y_in, heading_deg):
    """Every one of the tag's 64 cells is black or white as printed, sampled at points a quarter of a cell
    from the cell's corners, so the picture is placed (and turned) right to about a tenth of an inch (0.12" off fails)."""
    size_in, px_per_in = 4.0, 20.0
    frame = table.render([TagPlacement(10, x_in, y_in, 0.0, heading_deg, size_in)]).image_bgr
    flat = rectify(frame, rectify_maps(calibration, TABLE_IN, px_per_in=px_per_in))
    assert flat.shape == (960, 1440, 3)
    grey = flat.mean(axis=2)
    want_white = tag_bitmap(10).ravel().astype(bool)
    for offset in [(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)]:
        px = rectified_from_table(_cell_centres_in(x_in, y_in, heading_deg, size_in, offset), TABLE_IN, px_per_in=px_per_in)
        c, r = np.rint(px).astype(int).T
        seen_white = grey[r, c] > 128
        assert (seen_white == want_white).all(), f"cells read wrong at offset {offset}: {np.flatnonzero(seen_white != want_white)}"


def test_an_empty_table_size_is_refused_with_the_values():
    with pytest.raises(CalibrationError, match=r"\(0.0, 48.0\)"):
        rectified_size_px((0.0, 48.0))
