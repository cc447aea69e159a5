"""The synthetic table seen by several cameras: one scene, a frame and a truth per camera."""
import numpy as np
import pytest

from calibration.camera_model import CameraPose
from calibration.errors import CalibrationError
from calibration.synthetic import Faults, TagPlacement
from calibration.synthetic.camera_rig import CameraRig, RigCamera, seam_layout
from tracker.detections import detect_tags, make_detector

import cv2


@pytest.fixture(scope="module")
def rig():
    layout = seam_layout(96.0, 48.0)
    return CameraRig.side_by_side(layout, cameras=2, size_px=(1280, 720), overlap_in=10.0, faults=Faults(noise_sigma=2.0))


def _detect(view):
    gray = cv2.cvtColor(view.image_bgr, cv2.COLOR_BGR2GRAY)
    return detect_tags(make_detector(), gray)


def test_every_camera_sees_at_least_two_anchors_including_the_seam_pair(rig):
    for cam in rig.cameras:
        seen = rig.anchors_seen(cam.name)
        assert len(seen) >= 4, (cam.name, seen)
        assert {4, 5} <= set(seen), "the seam anchors are what both views share"


def test_a_tag_on_the_seam_is_in_both_views_and_detected_where_each_truth_says(rig):
    placements = [TagPlacement(10, 48.0, 24.0, 1.0, 30.0), TagPlacement(11, 10.0, 24.0, 1.0, 90.0), TagPlacement(12, 86.0, 20.0, 1.0, 0.0)]
    frame = rig.render(placements)
    assert frame.seen_by(10) == ("cam0", "cam1")
    assert frame.seen_by(11) == ("cam0",)
    assert frame.seen_by(12) == ("cam1",)
    for name, view in frame.views.items():
        dets = _detect(view)
        for tag_id in (10, 11, 12):
            truth = view.truth_of(tag_id)
            corners = dets.corners_of(tag_id)
            if truth.visible:
                assert corners is not None, (name, tag_id)
                assert np.abs(corners - truth.corners_px).max() < 0.5, (name, tag_id)
            else:
                assert corners is None, (name, tag_id)


def test_each_camera_has_its_own_noise_and_faults():
    layout = seam_layout(96.0, 48.0)
    base = CameraRig.side_by_side(layout, cameras=2, size_px=(320, 180))
    cams = [RigCamera("clean", base.cameras[0].model, base.cameras[0].pose),
            RigCamera("noisy", base.cameras[0].model, base.cameras[0].pose, Faults(noise_sigma=6.0))]
    rig = CameraRig(layout, cams)
    frame = rig.render([])
    clean, noisy = frame.views["clean"].image_bgr.astype(float), frame.views["noisy"].image_bgr.astype(float)
    assert np.std(noisy - clean) > 4.0  # same pose and lens: only the noise differs
    twin = CameraRig(layout, [cams[1], RigCamera("noisy2", cams[1].model, cams[1].pose, cams[1].faults)]).render([])
    assert not np.array_equal(twin.views["noisy"].image_bgr, twin.views["noisy2"].image_bgr), "noise is drawn per camera"


def test_moving_one_camera_leaves_the_others_as_they_were(rig):
    cam1 = rig.camera("cam1")
    eye = cam1.pose.camera_position_in + np.array([2.0, 1.0, 0.0])
    bumped = rig.moved("cam1", CameraPose.looking_at(tuple(eye), (eye[0], eye[1], 0.0)))
    placements = [TagPlacement(10, 60.0, 24.0, 1.0, 90.0)]
    before, after = rig.render(placements), bumped.render(placements)
    assert np.array_equal(before.views["cam0"].image_bgr, after.views["cam0"].image_bgr)
    shift = after.views["cam1"].truth_of(10).center_px - before.views["cam1"].truth_of(10).center_px
    assert np.hypot(*shift) > 10.0


def test_rig_refuses_repeated_camera_names_and_unknown_cameras(rig):
    cam = rig.cameras[0]
    with pytest.raises(CalibrationError, match="names repeat"):
        CameraRig(rig.layout, [cam, cam])
    with pytest.raises(CalibrationError, match="no camera 'cam7'"):
        rig.moved("cam7", cam.pose)


def test_seam_layout_has_one_anchor_pair_per_seam_and_refuses_more_than_ids_allow():
    assert [a.tag_id for a in seam_layout(144.0, 72.0, cols=3).anchors] == [0, 1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(CalibrationError, match="ids 4-9 allow 6"):
        seam_layout(200.0, 48.0, cols=5)
