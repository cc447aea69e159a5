"""Lens calibration from photos of the printed board recovers the lens; bad photos are set aside."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.board import TAG_ID_RANGES, BoardSpec
from calibration.camera_model import CameraPose
from calibration.errors import CalibrationError
from calibration.lens_calibration import calibrate_lens, model_difference_px
from calibration.synthetic import Faults, webcam_model
from calibration.synthetic.board_photos import board_photo_poses, render_board_photo
from calibration_scenes import detect

TRUE_LENS = webcam_model(960, 540)
BOARD = BoardSpec()


@pytest.fixture(scope="module")
def views():
    out = []
    for k, pose in enumerate(board_photo_poses(TRUE_LENS, BOARD, 10, seed=4)):
        photo = render_board_photo(TRUE_LENS, pose, BOARD, faults=Faults(noise_sigma=2.0, blur_px=0.6), rng=np.random.default_rng(k))
        found = detect(photo.image_bgr)
        out.append((found.tag_ids, found.corners_px))
    return out


def test_ten_photos_of_the_board_recover_the_wide_angle_lens(views):
    result = calibrate_lens(views, TRUE_LENS.size_px, board=BOARD)
    assert result.photos_used == tuple(range(10)) and not result.photos_rejected
    assert result.rms_px < 0.3
    assert result.model.fx_px == pytest.approx(TRUE_LENS.fx_px, rel=0.005)
    assert result.model.dist_coeffs[0] == pytest.approx(TRUE_LENS.dist_coeffs[0], abs=0.01)
    # the fitted lens straightens the picture like the true one, to a fraction of a pixel over the
    # inner 90% of it (what is left once the pose absorbs a hair of focal length and centre)
    assert model_difference_px(TRUE_LENS, result.model, margin=0.05, up_to_homography=True) < 0.3
    assert model_difference_px(TRUE_LENS, result.model, margin=0.05) < 2.0
    assert result.coverage > 0.75 and result.advice() == []


def test_photos_without_the_board_or_with_a_bad_one_are_set_aside_with_the_reason(views):
    nothing = (np.zeros(0, dtype=np.int64), np.zeros((0, 4, 2)))
    few = (views[0][0][:3], views[0][1][:3])
    shaken = (views[1][0], views[1][1] + np.random.default_rng(0).normal(0, 2.5, views[1][1].shape))
    result = calibrate_lens([nothing, few, shaken] + views[2:], TRUE_LENS.size_px, board=BOARD)
    reasons = dict(result.photos_rejected)
    assert "no board tags found" in reasons[0]
    assert "only 3 board tags found" in reasons[1]
    assert "reprojection error" in reasons[2]
    assert result.photos_used == tuple(range(3, 11))
    assert result.model.fx_px == pytest.approx(TRUE_LENS.fx_px, rel=0.01)


def test_too_few_usable_photos_is_a_clear_error(views):
    with pytest.raises(CalibrationError, match=r"only 2 of 2 photos show the board well enough \(need 4\)"):
        calibrate_lens(views[:2], TRUE_LENS.size_px, board=BOARD)


def test_photos_only_in_the_middle_of_the_picture_ask_for_the_corners():
    views = []
    for k in range(5):
        eye = (4.7 + k * 0.8, 3.3 - k * 0.5, 26.0 + 2 * k)
        pose = CameraPose.looking_at(eye, (4.7, 3.3, 0.0), roll_deg=10.0 * k)
        photo = render_board_photo(TRUE_LENS, pose, BOARD, rng=np.random.default_rng(k))
        views.append((photo.tag_ids, photo.corners_px))
    result = calibrate_lens(views, TRUE_LENS.size_px, board=BOARD)
    assert result.coverage < 0.75
    assert any("near the corners" in a for a in result.advice())


def test_board_ids_cannot_be_mistaken_for_anchors_units_or_the_projector_pattern():
    lo, hi = TAG_ID_RANGES["lens board"]
    assert all(lo <= t <= hi for t in BOARD.tag_ids)
    for name, (a, b) in TAG_ID_RANGES.items():
        if name != "lens board":
            assert b < lo or a > hi
