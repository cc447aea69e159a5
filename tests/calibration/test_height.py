"""Height-aware mapping: units on bases and hills map to where they stand; tag height from apparent size."""
from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.synthetic import Faults, SyntheticTable, TagPlacement, overhead_pose, webcam_model
from calibration.table_layout import TableLayout
from calibration.table_registration import register_table
from calibration.terrain import HeightGrid, Hill, Terrain
from calibration_scenes import render_and_detect

LAYOUT = TableLayout.default()
MODEL = webcam_model(1280, 720)
POSE = overhead_pose(LAYOUT, tilt_deg=30.0)
TERRAIN = Terrain(hills=(Hill(46.0, 32.0, 10.0, 4.0), Hill(20.0, 30.0, 7.0, 2.0)))
BASE_IN = 1.0


@pytest.fixture(scope="module")
def hill_scene():
    table = SyntheticTable(LAYOUT, MODEL, POSE, TERRAIN)
    spots = [(46.0, 32.0), (42.0, 28.0), (50.0, 36.0), (40.0, 35.0), (20.0, 30.0), (24.0, 27.0), (30.0, 12.0), (60.0, 12.0)]
    placements = [
        TagPlacement(10 + i, x, y, float(TERRAIN.height_at(x, y)) + BASE_IN, 40.0 * i, size_in=1.5)
        for i, (x, y) in enumerate(spots)
    ]
    frame, found = render_and_detect(table, placements, faults=Faults(noise_sigma=1.5, blur_px=0.6))
    cal = register_table(found.tag_ids, found.corners_px, MODEL, LAYOUT)
    return frame, found, cal


def test_units_on_hills_map_to_where_they_stand(hill_scene):
    frame, found, cal = hill_scene
    checked = 0
    for tag_id, corners in zip(found.tag_ids, found.corners_px):
        if tag_id < 10:
            continue
        truth = frame.truth_of(int(tag_id))
        where = cal.locate_tag(corners, base_height_in=BASE_IN, terrain=TERRAIN)
        assert math.hypot(where.x_in - truth.x_in, where.y_in - truth.y_in) < 0.03
        assert where.z_in == pytest.approx(truth.z_in, abs=0.03)
        assert abs((where.heading_deg - truth.heading_deg + 180) % 360 - 180) < 2.0  # one frame of a 24 px tag
        checked += 1
    assert checked == 8


def test_ignoring_the_hill_would_misplace_the_unit_by_inches(hill_scene):
    frame, found, cal = hill_scene
    truth = frame.truth_of(10)  # on top of the 4" hill
    flat = cal.locate_tag(found.corners_of(10), base_height_in=BASE_IN)  # as if on the flat table
    naive = cal.locate_tag(found.corners_of(10))  # no height at all
    assert math.hypot(flat.x_in - truth.x_in, flat.y_in - truth.y_in) > 1.0
    assert math.hypot(naive.x_in - truth.x_in, naive.y_in - truth.y_in) > 1.2


def test_a_measured_height_grid_works_like_the_hills_it_measures(hill_scene):
    frame, found, cal = hill_scene
    ys, xs = np.mgrid[0:49, 0:73].astype(float)
    grid = Terrain(grid=HeightGrid(TERRAIN.height_at(xs, ys), cell_in=1.0))
    truth = frame.truth_of(11)
    where = cal.locate_tag(found.corners_of(11), base_height_in=BASE_IN, terrain=grid)
    assert math.hypot(where.x_in - truth.x_in, where.y_in - truth.y_in) < 0.06


def test_tag_height_is_estimated_from_its_apparent_size():
    table = SyntheticTable(LAYOUT, MODEL, POSE)
    heights = [0.0, 2.0, 4.0, 6.0, 8.0]
    placements = [TagPlacement(10 + i, 16.0 + 10.0 * i, 22.0, z, 90.0, size_in=2.5) for i, z in enumerate(heights)]
    frame, found = render_and_detect(table, placements, faults=Faults(noise_sigma=1.0, blur_px=0.5))
    cal = register_table(found.tag_ids, found.corners_px, MODEL, LAYOUT)
    estimates = [cal.tag_height_from_size(found.corners_of(10 + i), 2.5) for i in range(len(heights))]
    assert all(e is not None for e in estimates)
    assert np.all(np.diff(estimates) > 0)  # higher tags are seen as higher
    assert np.max(np.abs(np.array(estimates) - heights)) < 0.6
    # the anchors lie on the table
    assert abs(cal.tag_height_from_size(found.corners_of(0), 2.0)) < 0.5
