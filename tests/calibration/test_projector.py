"""Projector calibration: the pattern seen on the table gives table inches -> projector pixels, and
overlays drawn through it land where they should."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationFileError, ProjectorCalibrationError
from calibration.projection import camera_from_table
from calibration.projector import (
    ProjectorPattern,
    calibrate_projector,
    load_projector_calibration,
    save_projector_calibration,
)
from calibration.synthetic import Faults, Projector, SyntheticTable, overhead_pose, webcam_model
from calibration.table_layout import TableLayout
from calibration.table_registration import register_table
from calibration_scenes import detect

LAYOUT = TableLayout.default()
CAMERA = webcam_model(1280, 720)
CAMERA_POSE = overhead_pose(LAYOUT, tilt_deg=20.0)
# A ceiling projector with lens shift (its picture starts at the optical axis and rises from there),
# hung over the near edge of the table: the usual classroom mount.
PROJECTOR = CameraModel(1280, 720, 1300.0, 1300.0, 639.5, 700.0, source="synthetic")
PROJECTOR_POSE = CameraPose.looking_at((36.0, 1.0, 80.0), (36.0, 1.0, 0.0))
PATTERN = ProjectorPattern(1280, 720)
FAULTS = Faults(noise_sigma=2.0, blur_px=0.7)


def lit_by(image_gray_or_bgr) -> Projector:
    img = image_gray_or_bgr if image_gray_or_bgr.ndim == 3 else cv2.cvtColor(image_gray_or_bgr, cv2.COLOR_GRAY2BGR)
    return Projector(PROJECTOR, PROJECTOR_POSE, img, brightness=0.9, room_light=0.35)


@pytest.fixture(scope="module")
def table_cal():
    dark = SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE)
    found = detect(dark.render([], faults=FAULTS).image_bgr)
    return register_table(found.tag_ids, found.corners_px, CAMERA, LAYOUT)


@pytest.fixture(scope="module")
def projector_cal(table_cal):
    table = SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, projector=lit_by(PATTERN.image()))
    found = detect(table.render([], faults=FAULTS).image_bgr)
    return calibrate_projector(PATTERN, found.tag_ids, found.corners_px, table_cal)


def test_the_pattern_tags_are_where_the_pattern_says():
    found = detect(cv2.cvtColor(PATTERN.image(), cv2.COLOR_GRAY2BGR))
    assert sorted(found.tag_ids.tolist()) == list(PATTERN.tag_ids)
    for tag_id, corners in zip(found.tag_ids, found.corners_px):
        assert np.abs(corners - PATTERN.corners_px(int(tag_id))).max() < 0.3
    assert all(400 <= t <= 499 for t in PATTERN.tag_ids)


def test_the_mapping_matches_the_true_projector_to_a_few_hundredths(projector_cal):
    assert len(projector_cal.tags_seen) >= 20
    assert projector_cal.residual_in < 0.03
    xs, ys = np.meshgrid(np.linspace(4, 68, 9), np.linspace(6, 42, 6))
    pts = np.column_stack([xs.ravel(), ys.ravel()])
    truth = camera_from_table(pts, PROJECTOR, PROJECTOR_POSE)
    err_in = np.linalg.norm(projector_cal.projector_from_table(pts) - truth, axis=1) / projector_cal.px_per_in_at(36, 24)
    assert err_in.max() < 0.05
    back = projector_cal.table_from_projector(projector_cal.projector_from_table(pts))
    assert np.abs(back - pts).max() < 1e-9


def test_overlays_drawn_through_the_mapping_land_where_the_rules_put_them(projector_cal, table_cal):
    targets = np.array([[12.0, 10.0], [36.0, 24.0], [60.0, 38.0], [20.0, 40.0]])
    overlay = np.zeros((PROJECTOR.height_px, PROJECTOR.width_px, 3), np.uint8)
    for p in projector_cal.projector_from_table(targets):
        # a 1"-radius dot, drawn in projector pixels as the GUI would
        r = 1.0 * projector_cal.px_per_in_at(*targets[0])
        cv2.circle(overlay, (int(round(p[0] * 16)), int(round(p[1] * 16))), int(round(r * 16)), (255, 255, 255), -1, cv2.LINE_AA, shift=4)
    dark = SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, projector=lit_by(np.zeros_like(overlay)))
    lit = dark.with_projector(lit_by(overlay))
    diff = cv2.absdiff(lit.render([]).image_bgr, dark.render([]).image_bgr).max(axis=2)
    n, _, _, centroids = cv2.connectedComponentsWithStats((diff > 20).astype(np.uint8))
    seen = table_cal.table_from_camera(centroids[1:])
    assert n - 1 == len(targets)
    for t in targets:
        # blob centroids in a wide-angle picture are not exactly the dots' centres; 0.1" is a sliver of a 1" dot
        assert np.min(np.linalg.norm(seen - t, axis=1)) < 0.1


def test_too_little_of_the_pattern_seen_is_a_clear_error(table_cal):
    ids = np.array(PATTERN.tag_ids[:2])
    corners = np.stack([PATTERN.corners_px(t) for t in ids])
    with pytest.raises(ProjectorCalibrationError, match="saw 2 of the 40 projected pattern tags .*dim the room"):
        calibrate_projector(PATTERN, ids, corners, table_cal)


def test_the_projector_file_loads_back_exactly_and_refuses_damage(projector_cal, tmp_path):
    path = tmp_path / "projector.json"
    save_projector_calibration(projector_cal, path)
    back = load_projector_calibration(path)
    assert np.array_equal(back.homography, projector_cal.homography)
    assert (back.residual_in, back.tags_seen, back.width_px) == (projector_cal.residual_in, projector_cal.tags_seen, 1280)
    data = json.loads(path.read_text())
    data["projector_from_table"] = [[1, 0], [0, 1]]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationFileError, match="'projector_from_table'"):
        load_projector_calibration(path)
    path.write_text(path.read_text()[:40])
    with pytest.raises(CalibrationFileError, match="sandtable calibrate projector"):
        load_projector_calibration(path)
