"""Drift watch: a nudged camera is noticed and re-registered; noise, a hand or one bumped anchor is not drift."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.camera_model import CameraPose
from calibration.drift import DriftWatch
from calibration.synthetic import Faults, Hand, SyntheticTable, TagPlacement, overhead_pose, webcam_model
from calibration.table_layout import AnchorTag, TableLayout
from calibration.table_registration import register_table
from calibration_scenes import render_and_detect

LAYOUT = TableLayout.default()
MODEL = webcam_model(1280, 720)
POSE = overhead_pose(LAYOUT, tilt_deg=20.0)
FAULTS = Faults(noise_sigma=2.0, blur_px=0.7)
UNIT = TagPlacement(10, 30.0, 20.0, 1.0, 60.0, size_in=2.0)


@pytest.fixture(scope="module")
def table():
    return SyntheticTable(LAYOUT, MODEL, POSE)


@pytest.fixture(scope="module")
def calibration(table):
    _, found = render_and_detect(table, [UNIT], faults=FAULTS)
    return register_table(found.tag_ids, found.corners_px, MODEL, LAYOUT)


def nudged_pose(degrees: float) -> CameraPose:
    tilt, _ = cv2.Rodrigues(np.array([math.radians(degrees), 0.0, 0.0]))  # the camera mount sags
    return CameraPose.from_rotation(tilt @ POSE.rotation, tilt @ POSE.translation)


def test_a_steady_camera_with_noisy_frames_never_reports_drift(table, calibration):
    watch = DriftWatch(calibration, threshold_in=0.1)
    for seed in range(4):
        _, found = render_and_detect(table, [UNIT], faults=FAULTS, rng=np.random.default_rng(seed))
        status = watch.check(found.tag_ids, found.corners_px)
        assert not status.drifted and not status.re_registered
        assert status.residual_in < 0.05 and status.anchors_seen == 4
    assert watch.calibration is calibration


def test_a_nudged_camera_is_noticed_and_re_registered_so_units_stay_put(table, calibration):
    moved = table.moved(nudged_pose(0.7))
    watch = DriftWatch(calibration, threshold_in=0.1, confirm_frames=2)
    frame, found = render_and_detect(moved, [UNIT], faults=FAULTS)
    # through the old calibration the unit now seems to have moved
    stale = calibration.tag_pose_in(found.corners_of(10), z_in=1.0)
    assert math.hypot(stale[0] - UNIT.x_in, stale[1] - UNIT.y_in) > 0.3
    first = watch.check(found.tag_ids, found.corners_px)
    assert first.drifted and not first.re_registered and "moved" in first.message
    second = watch.check(found.tag_ids, found.corners_px)
    assert second.re_registered and watch.calibration is second.calibration
    assert second.calibration.residual_in < 0.03
    x, y, _ = second.calibration.tag_pose_in(found.corners_of(10), z_in=1.0)
    assert math.hypot(x - UNIT.x_in, y - UNIT.y_in) < 0.05
    third = watch.check(found.tag_ids, found.corners_px)
    assert not third.drifted  # settled on the new pose


def test_a_hand_over_an_anchor_is_not_drift(table, calibration):
    watch = DriftWatch(calibration, threshold_in=0.1, confirm_frames=1)
    frame, found = render_and_detect(table, [UNIT], faults=FAULTS, hands=[Hand(3.0, 3.0, 3.5, z_in=5.0)])
    assert frame.truth_of(0).occluded
    status = watch.check(found.tag_ids, found.corners_px)
    assert status.anchors_seen == 3 and not status.drifted


def test_one_bumped_anchor_is_reported_not_mistaken_for_drift(calibration):
    bumped = TableLayout(72.0, 48.0, tuple(
        AnchorTag(a.tag_id, a.x_in + (0.6 if a.tag_id == 3 else 0.0), a.y_in) for a in LAYOUT.anchors
    ))
    table = SyntheticTable(bumped, MODEL, POSE)
    watch = DriftWatch(calibration, threshold_in=0.1, confirm_frames=1)
    _, found = render_and_detect(table, [UNIT], faults=FAULTS)
    status = watch.check(found.tag_ids, found.corners_px)
    assert not status.drifted and status.bumped_ids == (3,)
    assert "anchor 3 is off its mark" in status.message


def test_no_anchors_in_view_is_no_verdict(calibration):
    watch = DriftWatch(calibration)
    status = watch.check(np.array([10]), np.zeros((1, 4, 2)))
    assert math.isnan(status.residual_in) and not status.drifted and status.anchors_seen == 0
