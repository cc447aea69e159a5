"""The tracking pipeline's watch on the anchors while the fast detector repeats their detections: a
steady camera says nothing, a nudged one is noticed and re-registered, and the units stay put."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.camera_model import CameraPose
from calibration.synthetic import Faults, SyntheticTable, TagPlacement, overhead_pose, webcam_model
from calibration.table_layout import TableLayout
from calibration.table_registration import register_table
from calibration_scenes import render_and_detect
from tracker.events import EventKind
from tracker.frames import Frame
from tracker.pipeline import Tracker
from tracker.roster import Roster, UnitSpec

LAYOUT = TableLayout.default()
MODEL = webcam_model(1280, 720)
POSE = overhead_pose(LAYOUT, tilt_deg=20.0)
UNIT = TagPlacement(10, 30.0, 20.0, 1.0, 60.0, size_in=2.0)
ROSTER = Roster((UnitSpec(10, "rifles", base_height_in=1.0, tag_size_in=2.0),))


@pytest.fixture(scope="module")
def scenes():
    """A calibrated camera's frame, and the frame after its mount sagged 0.7 degrees."""
    table = SyntheticTable(LAYOUT, MODEL, POSE)
    steady, found = render_and_detect(table, [UNIT], faults=Faults(noise_sigma=2.0, blur_px=0.7))
    calibration = register_table(found.tag_ids, found.corners_px, MODEL, LAYOUT)
    tilt, _ = cv2.Rodrigues(np.array([math.radians(0.7), 0.0, 0.0]))
    nudged_table = table.moved(CameraPose.from_rotation(tilt @ POSE.rotation, tilt @ POSE.translation))
    nudged = nudged_table.render([UNIT], faults=Faults(noise_sigma=2.0, blur_px=0.7))
    return calibration, steady.image_bgr, nudged.image_bgr


def track(calibration, images, *, fast: bool = True):
    with Tracker(roster=ROSTER, calibration=calibration, fast=fast) as tracker:
        return [tracker.process(Frame(image, i, i / 30.0)) for i, image in enumerate(images)]


def anchor_corners(result) -> np.ndarray:
    d = result.detections
    return d.corners_px[d.tag_ids < 10]


def test_a_steady_camera_whose_anchors_are_reported_again_and_again_never_reports_drift(scenes):
    calibration, steady, _ = scenes
    results = track(calibration, [steady] * 20)
    # The detector did repeat the anchors' detections bit for bit, most of the time (what this test is about).
    repeats = [np.array_equal(anchor_corners(a), anchor_corners(b)) for a, b in zip(results[4:], results[5:])]
    assert sum(repeats) >= 0.6 * len(repeats)
    assert not [e for r in results for e in r.events if e.kind in (EventKind.DRIFT, EventKind.REREGISTERED)]
    pose = results[-1].pose(10)
    assert math.hypot(pose.x_in - UNIT.x_in, pose.y_in - UNIT.y_in) < 0.05


@pytest.mark.parametrize("fast", [True, False], ids=["fast detector", "whole frames (the same detections every frame)"])
def test_a_camera_nudged_after_a_steady_spell_is_noticed_and_re_registered_and_units_stay_put(scenes, fast):
    calibration, steady, nudged = scenes
    results = track(calibration, [steady] * 15 + [nudged] * 15, fast=fast)
    kinds = [(e.frame_index, e.kind) for r in results for e in r.events if e.tag_id in (None, 10)]
    drift = [i for i, k in kinds if k is EventKind.DRIFT]
    again = [i for i, k in kinds if k is EventKind.REREGISTERED]
    assert drift and again and 15 <= drift[0] <= again[0] <= 20
    assert [k for _, k in kinds if k is EventKind.DRIFT or k is EventKind.REREGISTERED] == [EventKind.DRIFT, EventKind.REREGISTERED]
    pose = results[-1].pose(10)
    assert pose.state.value == "seen" and math.hypot(pose.x_in - UNIT.x_in, pose.y_in - UNIT.y_in) < 0.05
