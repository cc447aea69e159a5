"""The projector as an inverse camera: calibrated from scans of the flat table and a board on 4"
blocks, it lights points on a hillside where the rules mean them; a plane homography does not."""
import cv2
import numpy as np
import pytest

from calibration.errors import CalibrationFileError, ProjectorCalibrationError
from calibration.projector_model import calibrate_projector_3d, load_projector_model, save_projector_model
from calibration.synthetic.projected_light import where_light_lands
from relief_helpers import (
    HILLS, PROJECTOR_MODEL, PROJECTOR_POSE, calibrated_projector, decoded, table_calibration,
)


def landing_error_in(pixels: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """How far (inches, on the ground) the light of ``pixels`` falls from the relief points ``targets``."""
    landed = where_light_lands(PROJECTOR_MODEL, PROJECTOR_POSE, pixels, HILLS)
    return np.linalg.norm(landed[:, :2] - targets[:, :2], axis=1)


def hillside_points() -> np.ndarray:
    rng = np.random.default_rng(5)
    xy = np.vstack([rng.uniform([16, 22], [32, 38], (150, 2)), rng.uniform([44, 12], [56, 24], (150, 2))])
    z = HILLS.height_at(xy[:, 0], xy[:, 1])
    pts = np.column_stack([xy, z])
    return pts[z > 1.0]


def test_the_3d_model_recovers_the_projectors_lens_and_position():
    cal = calibrated_projector()
    assert cal.heights_in == (0.0, 4.0)
    assert cal.residual_in < 0.03
    assert np.linalg.norm(cal.position_in - PROJECTOR_POSE.camera_position_in) < 1.0
    assert cal.model.fx_px == pytest.approx(PROJECTOR_MODEL.fx_px, rel=0.02)


def test_overlays_on_a_hillside_land_within_a_tenth_of_an_inch_where_a_homography_misses_by_more_than_an_inch():
    cal = calibrated_projector()
    pts = hillside_points()
    ours = landing_error_in(cal.projector_from_table(pts), pts)
    # the plane homography, fitted as well as a plane allows: to the flat table's own scan
    cam, proj = decoded("flat").correspondences()
    xy = table_calibration().table_from_camera(cam[::7], z_in=0.0)
    h, _ = cv2.findHomography(xy, proj[::7], 0)
    flat = cv2.perspectiveTransform(pts[:, :2].reshape(-1, 1, 2), h).reshape(-1, 2)
    plane = landing_error_in(flat, pts)
    rms = lambda e: float(np.sqrt(np.mean(e**2)))  # noqa: E731  (a one-line local helper reads better as a lambda)
    assert rms(ours) <= 0.1
    assert rms(plane) > 1.0
    assert ours.max() < 0.25


def test_one_height_is_not_enough_and_says_what_to_do():
    flat = decoded("flat")
    with pytest.raises(ProjectorCalibrationError, match="moved the projected pattern on 0 camera pixels; lay it in the projected area"):
        calibrate_projector_3d(flat, [(flat, 4.0)], table_calibration(), PROJECTOR_MODEL.width_px, PROJECTOR_MODEL.height_px)


def test_the_model_file_loads_back_exactly_and_refuses_damage(tmp_path):
    cal = calibrated_projector()
    path = tmp_path / "projector3d.json"
    save_projector_model(cal, path)
    back = load_projector_model(path)
    pts = hillside_points()
    assert np.array_equal(back.projector_from_table(pts), cal.projector_from_table(pts))
    assert back.residual_in == cal.residual_in and back.heights_in == cal.heights_in
    path.write_text(path.read_text()[:200])
    with pytest.raises(CalibrationFileError, match="corrupt or truncated"):
        load_projector_model(path)


def test_either_projector_file_loads_for_the_window(tmp_path):
    from calibration.ground_projection import GroundProjection, load_projector_for_ground
    from calibration.projector import ProjectorCalibration, save_projector_calibration

    save_projector_model(calibrated_projector(), tmp_path / "p3d.json")
    ground = load_projector_for_ground(tmp_path / "p3d.json", HILLS)
    assert isinstance(ground, GroundProjection) and not ground.affine
    top = np.array([[24.0, 30.0]])
    assert np.allclose(ground.projector_from_table(top), calibrated_projector().projector_from_table(top, z_in=4.0))
    assert np.allclose(ground.table_from_projector(ground.projector_from_table(top)), top, atol=1e-3)
    save_projector_calibration(ProjectorCalibration(1280, 800, np.diag([10.0, 10.0, 1.0]), 0.0, 0.0, 16), tmp_path / "plane.json")
    assert isinstance(load_projector_for_ground(tmp_path / "plane.json", HILLS), ProjectorCalibration)
    with pytest.raises(CalibrationFileError):
        load_projector_for_ground(tmp_path / "missing.json")
