"""Registering the table from its anchors: accurate, robust to a hidden or bumped anchor, honest when not."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import RegistrationError
from calibration.synthetic import Faults, SyntheticTable, overhead_pose, webcam_model
from calibration.table_layout import AnchorTag, TableLayout
from calibration.table_registration import register_table
from calibration_scenes import exact_anchor_corners, render_and_detect, scattered_units, tag_corners_px

LAYOUT = TableLayout.default()
MODEL = webcam_model(1280, 720)
POSE = overhead_pose(LAYOUT, tilt_deg=25.0)
FAULTS = Faults(noise_sigma=2.0, blur_px=0.7)


@pytest.fixture(scope="module")
def scene():
    table = SyntheticTable(LAYOUT, MODEL, POSE)
    frame, found = render_and_detect(table, scattered_units(3), faults=FAULTS, rng=np.random.default_rng(3))
    return frame, found


def unit_errors_in(cal, frame, found):
    errs = []
    for tag_id, corners in zip(found.tag_ids, found.corners_px):
        if tag_id < 10:
            continue
        truth = frame.truth_of(int(tag_id))
        x, y, _ = cal.tag_pose_in(corners, z_in=truth.z_in)
        errs.append(math.hypot(x - truth.x_in, y - truth.y_in))
    return np.array(errs)


def test_registration_from_the_anchors_measures_units_to_a_few_thousandths(scene):
    frame, found = scene
    cal = register_table(found.tag_ids, found.corners_px, MODEL, LAYOUT)
    assert cal.method == "pnp" and cal.anchors_used == (0, 1, 2, 3) and not cal.anchors_rejected
    assert cal.residual_in < 0.02
    assert np.linalg.norm(cal.pose.camera_position_in - POSE.camera_position_in) < 0.5
    errs = unit_errors_in(cal, frame, found)
    assert len(errs) >= 20
    assert np.sqrt(np.mean(errs**2)) < 0.02 and errs.max() < 0.05


def test_a_hidden_anchor_is_not_needed(scene):
    frame, found = scene
    keep = found.tag_ids != 2
    cal = register_table(found.tag_ids[keep], found.corners_px[keep], MODEL, LAYOUT)
    assert cal.anchors_used == (0, 1, 3)
    errs = unit_errors_in(cal, frame, found)
    assert errs.max() < 0.08


def test_a_bumped_anchor_is_rejected_and_reported():
    # anchor 1 was knocked 0.8" along the edge and turned 10 degrees; the calibration still believes the layout
    bumped = TableLayout(72.0, 48.0, tuple(
        AnchorTag(a.tag_id, a.x_in - (0.8 if a.tag_id == 1 else 0.0), a.y_in, a.size_in, 100.0 if a.tag_id == 1 else 90.0)
        for a in LAYOUT.anchors
    ))
    table = SyntheticTable(bumped, MODEL, POSE)
    frame, found = render_and_detect(table, scattered_units(4, count=12), faults=FAULTS)
    cal = register_table(found.tag_ids, found.corners_px, MODEL, LAYOUT)
    assert cal.anchors_rejected == (1,) and cal.anchors_used == (0, 2, 3)
    assert any("anchor(s) 1" in n and "bumped" in n for n in cal.notes)
    assert cal.residual_in < 0.03
    assert unit_errors_in(cal, frame, found).max() < 0.08


def test_too_few_anchors_is_a_clear_error(scene):
    _, found = scene
    only0 = found.tag_ids == 0
    with pytest.raises(RegistrationError, match=r"only anchor\(s\) 0 of 0, 1, 2, 3 usable; need at least 2"):
        register_table(found.tag_ids[only0], found.corners_px[only0], MODEL, LAYOUT)
    units_only = found.tag_ids >= 10
    with pytest.raises(RegistrationError, match="none of 0, 1, 2, 3"):
        register_table(found.tag_ids[units_only], found.corners_px[units_only], MODEL, LAYOUT)


def test_an_anchor_seen_twice_is_trusted_in_neither_place(scene):
    _, found = scene
    ids = np.append(found.tag_ids, 3)
    corners = np.concatenate([found.corners_px, found.corners_px[found.tag_ids == 0]])
    cal = register_table(ids, corners, MODEL, LAYOUT)
    assert 3 in cal.anchors_rejected and 3 not in cal.anchors_used
    assert any("seen twice" in n for n in cal.notes)


def test_an_uncalibrated_camera_still_registers_and_says_what_it_costs(scene):
    _, found = scene
    cal = register_table(found.tag_ids, found.corners_px, CameraModel.default(1280, 720), LAYOUT)
    assert cal.method in ("pnp", "homography")
    assert any("uncalibrated camera" in n and "sandtable calibrate camera" in n for n in cal.notes)


def test_a_model_that_cannot_explain_the_anchors_falls_back_to_a_flat_homography(scene):
    frame, found = scene
    # the camera file of another camera (a longer lens) loaded by mistake
    wrong = CameraModel(1280, 720, MODEL.fx_px * 1.6, MODEL.fx_px * 1.6, 639.5, 359.5, MODEL.dist_coeffs)
    cal = register_table(found.tag_ids, found.corners_px, wrong, LAYOUT)
    assert cal.method == "homography" and not cal.height_aware
    assert any("ignores heights" in n for n in cal.notes)
    # on the anchors' own plane the homography still maps the anchors' centres closely
    for a in LAYOUT.anchors:
        x, y, _ = cal.tag_pose_in(found.corners_of(a.tag_id))
        assert math.hypot(x - a.x_in, y - a.y_in) < 0.3
    assert cal.tag_height_from_size(found.corners_of(0), 2.0) is None


def _lens_reaches_corners(k1: float, k2: float, corner_radius: float) -> bool:
    r = np.linspace(0.0, 3.0, 3001)
    slope = 1.0 + 3.0 * k1 * r**2 + 5.0 * k2 * r**4
    folds = np.flatnonzero(slope <= 0.0)
    if folds.size == 0:
        return True
    r_fold = r[folds[0]]
    return r_fold * (1.0 + k1 * r_fold**2 + k2 * r_fold**4) > corner_radius


@settings(max_examples=40, deadline=None)
@given(
    tilt_deg=st.floats(0.0, 30.0),
    height_in=st.floats(50.0, 90.0),
    k1=st.floats(-0.35, 0.05),
    k2=st.floats(-0.05, 0.12),
    yaw_deg=st.floats(-8.0, 8.0),
    seed=st.integers(0, 10_000),
)
def test_any_plausible_camera_is_recovered_and_maps_units_at_any_height(tilt_deg, height_in, k1, k2, yaw_deg, seed):
    model = CameraModel(1920, 1080, 1150.0, 1150.0, 959.5, 539.5, (k1, k2, 0.0, 0.0, 0.0), source="synthetic")
    # A real lens images every pixel of its sensor: its radial distortion keeps growing until it has
    # reached the picture's corners. Stronger barrel terms fold back inside the picture, where one
    # pixel stands for two directions and no model can be undistorted.
    assume(_lens_reaches_corners(k1, k2, math.hypot(960.0, 540.0) / 1150.0))
    back = height_in * math.tan(math.radians(tilt_deg))
    pose = CameraPose.looking_at((36.0, 24.0 - back, height_in), (36.0, 24.0, 0.0), roll_deg=yaw_deg)
    ids, corners = exact_anchor_corners(LAYOUT, model, pose)
    rng = np.random.default_rng(seed)
    visible = np.all((corners > 2) & (corners < [1917, 1077]), axis=(1, 2))
    assume(visible.sum() >= 3)  # a camera that sees too little of the table cannot register it
    noisy = corners + rng.normal(0.0, 0.05, corners.shape)  # a good detector's corner noise
    cal = register_table(ids[visible], noisy[visible], model, LAYOUT)
    assert cal.method == "pnp" and cal.residual_in < 0.02
    x, y, z = rng.uniform(10, 62), rng.uniform(8, 40), rng.uniform(0, 5)
    px = tag_corners_px(x, y, z, 33.0, 1.0, model, pose)
    gx, gy, heading = cal.tag_pose_in(px, z_in=z)
    assert math.hypot(gx - x, gy - y) < 0.03
    assert abs((heading - 33.0 + 180) % 360 - 180) < 0.5


def test_anchors_at_different_heights_register_too():
    # one anchor sits on a 0.75" riser at the table edge (a layout file can say so)
    raised = TableLayout(72.0, 48.0, tuple(
        AnchorTag(a.tag_id, a.x_in, a.y_in, a.size_in, a.heading_deg, 0.75 if a.tag_id == 2 else 0.0) for a in LAYOUT.anchors
    ))
    model = CameraModel(1920, 1080, 1150.0, 1150.0, 959.5, 539.5, (-0.25, 0.08, 0.0, 0.0, 0.0), source="synthetic")
    pose = CameraPose.looking_at((36.0, -6.0, 60.0), (36.0, 24.0, 0.0))
    ids = np.array([a.tag_id for a in raised.anchors])
    corners = np.stack([tag_corners_px(a.x_in, a.y_in, a.z_in, a.heading_deg, a.size_in, model, pose) for a in raised.anchors])
    cal = register_table(ids, corners, model, raised)
    assert cal.method == "pnp" and cal.residual_in < 1e-3
    assert np.linalg.norm(cal.pose.camera_position_in - pose.camera_position_in) < 0.01
    # the same frame read with a layout that forgets the riser puts anchor 2 off its mark
    flat = register_table(ids, corners, model, LAYOUT)
    assert flat.anchors_rejected == (2,) or flat.residual_in > cal.residual_in


def test_the_flat_fallback_still_places_units_on_the_table_plane(scene):
    frame, found = scene
    wrong = CameraModel(1280, 720, MODEL.fx_px * 1.6, MODEL.fx_px * 1.6, 639.5, 359.5, MODEL.dist_coeffs)
    cal = register_table(found.tag_ids, found.corners_px, wrong, LAYOUT)
    assert cal.method == "homography"
    tag_id = next(int(t) for t in found.tag_ids if t >= 10)
    where = cal.locate_tag(found.corners_of(tag_id), base_height_in=1.5)
    assert where.z_in == 1.5  # the height is reported as given, the position is on the anchors' plane
    back = cal.camera_from_table(np.array([[where.x_in, where.y_in]]))
    assert np.allclose(cal.table_from_camera(back), [[where.x_in, where.y_in]], atol=1e-6)
