"""Which part of the table each camera sees: gaps, overlaps, and the picture that shows them."""
import numpy as np
import pytest

from calibration.camera_model import CameraPose
from calibration.coverage import coverage_image, coverage_map, seen_by
from calibration.synthetic.camera_rig import CameraRig, seam_layout
from calibration.synthetic.renderer import webcam_model
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout


def _cal(layout, x_in, height_in=34.0):
    model = webcam_model(640, 360)
    pose = CameraPose.looking_at((x_in, layout.depth_in / 2, height_in), (x_in, layout.depth_in / 2, 0.0))
    return TableCalibration(model=model, pose=pose, layout=layout, residual_in=0.0)


def test_points_far_outside_a_wide_lens_view_are_not_folded_back_into_it():
    layout = TableLayout.default(400.0, 30.0)
    cal = _cal(layout, 25.0)
    inside, far = np.array([[25.0, 15.0]]), np.array([[300.0, 15.0]])
    assert seen_by(cal, inside).tolist() == [True]
    assert seen_by(cal, far).tolist() == [False]


def test_two_cameras_aimed_apart_leave_a_gap_that_the_summary_and_picture_show():
    layout = TableLayout.default(120.0, 30.0)
    cals = [_cal(layout, 25.0), _cal(layout, 95.0)]
    cover = coverage_map(cals, ["left", "right"], cell_in=1.0)
    assert cover.count_at(25.0, 15.0) == 1 and cover.count_at(95.0, 15.0) == 1 and cover.count_at(60.0, 15.0) == 0
    assert cover.overlap_fraction == 0.0 and cover.gap_fraction > 0.0
    text = cover.summary()
    assert "no camera sees x" in text and "100%" not in text
    img = coverage_image(cover, cals, px_per_in=4.0)
    assert img.shape == (120, 480, 3)
    gap = img[60, 240].astype(int)  # the table's middle: red, hatched
    left = img[60, 100].astype(int)
    assert gap[2] > gap[0] + 60 and abs(int(left[2]) - int(gap[2])) > 40


def test_overlapping_views_are_counted_twice():
    layout = seam_layout(96.0, 48.0)
    rig = CameraRig.side_by_side(layout, cameras=2, size_px=(640, 360))
    cals = [TableCalibration(model=c.model, pose=c.pose, layout=layout, residual_in=0.0) for c in rig.cameras]
    cover = coverage_map(cals, ["cam0", "cam1"], cell_in=2.0)
    assert cover.count_at(48.0, 24.0) == 2 and cover.count_at(5.0, 24.0) == 1
    assert 0.0 < cover.overlap_fraction < 1.0


def test_no_calibrations_is_refused():
    with pytest.raises(ValueError, match="at least one"):
        coverage_map([])


def test_every_label_of_the_picture_is_drawn_whole_inside_it(monkeypatch):
    """A camera hanging at the table's edge had its name cut off by the picture's border."""
    import cv2

    layout = TableLayout.default(120.0, 30.0)
    cals = [_cal(layout, 2.0), _cal(layout, 118.0)]  # cameras over the left and right edges
    drawn = []
    real = cv2.putText

    def recording(img, text, org, font, scale, colour, thickness=1, *rest):
        drawn.append((text, org, font, scale, thickness))
        return real(img, text, org, font, scale, colour, thickness, *rest)

    monkeypatch.setattr(cv2, "putText", recording)
    img = coverage_image(coverage_map(cals, ["left-camera.json", "right-camera.json"], cell_in=1.0), cals, px_per_in=4.0)
    h, w = img.shape[:2]
    names = [d for d in drawn if d[0].endswith("camera.json")]
    assert len(names) == 2
    for text, (x, y), font, scale, thickness in drawn:
        (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
        assert 0 <= x and x + tw <= w and y - th >= 0 and y + base <= h, text
