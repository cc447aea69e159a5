"""table -> pixel -> table returns the same point at any height, for any plausible camera."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.camera_model import CameraModel, CameraPose
from calibration.projection import camera_from_table, table_from_camera


@settings(max_examples=60, deadline=None)
@given(
    tilt_deg=st.floats(0, 35),
    height_in=st.floats(40, 90),
    k1=st.floats(-0.35, 0.1),
    k2=st.floats(-0.1, 0.15),
    z_in=st.floats(0, 6),
    seed=st.integers(0, 2**31 - 1),
)
def test_table_to_pixel_to_table_returns_the_same_point(tilt_deg, height_in, k1, k2, z_in, seed):
    model = CameraModel(1920, 1080, 1400.0, 1400.0, 959.5, 539.5, (k1, k2, 0.0005, -0.0003, 0.0))
    offset = height_in * np.tan(np.radians(tilt_deg))
    pose = CameraPose.looking_at((36.0, 24.0 - offset, height_in), (36.0, 24.0, 0.0))
    rng = np.random.default_rng(seed)
    pts = np.column_stack([rng.uniform(20, 52, 30), rng.uniform(10, 38, 30)])
    px = camera_from_table(pts, model, pose, z_in=z_in)
    inside = (px[:, 0] > 0) & (px[:, 0] < 1919) & (px[:, 1] > 0) & (px[:, 1] < 1079)
    back = table_from_camera(px[inside], model, pose, z_in=z_in)
    assert np.max(np.abs(back - pts[inside]), initial=0.0) < 1e-4


def test_a_camera_looking_straight_down_shows_the_table_like_a_map():
    model = CameraModel.default(1920, 1080)
    pose = CameraPose.looking_at((36.0, 24.0, 60.0), (36.0, 24.0, 0.0))
    centre, right, up = camera_from_table(np.array([[36.0, 24.0], [46.0, 24.0], [36.0, 34.0]]), model, pose)
    assert np.allclose(centre, (959.5, 539.5))
    assert right[0] > centre[0] and abs(right[1] - centre[1]) < 1e-6  # +x to the right
    assert up[1] < centre[1] and abs(up[0] - centre[0]) < 1e-6  # +y toward the top edge


def test_parallax_a_raised_point_maps_back_only_at_its_own_height():
    model = CameraModel.default(1920, 1080)
    pose = CameraPose.looking_at((36.0, 0.0, 60.0), (36.0, 24.0, 0.0))
    top_of_model = np.array([[60.0, 40.0]])
    px = camera_from_table(top_of_model, model, pose, z_in=4.0)
    assert np.allclose(table_from_camera(px, model, pose, z_in=4.0), top_of_model, atol=1e-6)
    naive = table_from_camera(px, model, pose, z_in=0.0)
    assert np.linalg.norm(naive - top_of_model) > 1.0  # what ignoring height would cost
