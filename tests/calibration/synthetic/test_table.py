"""The synthetic table draws tags exactly where its ground truth says, with the faults of real footage."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.camera_model import CameraPose
from calibration.synthetic import Faults, Hand, SyntheticTable, TagPlacement, overhead_pose, webcam_model
from calibration.table_layout import TableLayout, heading_from_corners_in
from calibration.terrain import Hill, Terrain
from tracker.detections import detect_tags, make_detector

LAYOUT = TableLayout.default()


@pytest.fixture(scope="module")
def detector():
    return make_detector()


@pytest.fixture(scope="module")
def table():
    # 1280x720 wide-angle webcam: strong barrel distortion, so exactness at the image edges is tested too
    return SyntheticTable(LAYOUT, webcam_model(1280, 720), overhead_pose(LAYOUT, tilt_deg=25.0))


def grid_placements(rng, *, size_in=1.5, z_range=(0.0, 4.0)):
    xs, ys = np.meshgrid(np.arange(8.0, 68.0, 8.0), np.arange(8.0, 44.0, 9.0))
    return [
        TagPlacement(10 + i, float(x + rng.uniform(-1, 1)), float(y + rng.uniform(-1, 1)),
                     float(rng.uniform(*z_range)), float(rng.uniform(0, 360)), size_in=size_in)
        for i, (x, y) in enumerate(zip(xs.ravel(), ys.ravel()))
    ]


def detect(detector, image_bgr):
    return detect_tags(detector, cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY))


def test_detected_corners_match_the_truth_without_bias(table, detector):
    errors = []
    for seed in range(2):
        frame = table.render(grid_placements(np.random.default_rng(seed)))
        found = detect(detector, frame.image_bgr)
        assert set(found.tag_ids.tolist()) == frame.visible_ids
        for tag_id, corners in zip(found.tag_ids, found.corners_px):
            errors.append(corners - frame.truth_of(int(tag_id)).corners_px)
    err = np.asarray(errors).reshape(-1, 2)
    bias = err.mean(axis=0)
    rms = float(np.sqrt(np.mean(err**2)))
    assert np.all(np.abs(bias) < 0.03), f"detected corners are biased by {bias} px against the truth"
    assert rms < 0.15 and np.abs(err).max() < 0.6, f"corner error rms {rms:.3f} px, max {np.abs(err).max():.3f} px"


def test_truth_heading_and_corner_order_follow_the_table_convention(table, detector):
    # A tag turned to heading h: its detected corners, mapped back with the known pose, give heading h.
    from calibration.projection import table_from_camera

    for heading in (0.0, 90.0, 137.0, 270.0):
        frame = table.render([TagPlacement(10, 36.0, 24.0, 1.0, heading, size_in=2.0)])
        found = detect(detector, frame.image_bgr)
        corners_in = table_from_camera(found.corners_of(10), table.model, table.pose, z_in=1.0)
        got = heading_from_corners_in(corners_in)
        assert abs((got - heading + 180) % 360 - 180) < 0.5


def test_a_hand_hides_the_tags_under_it_and_only_those(table, detector):
    placements = [TagPlacement(10, 20.0, 20.0, 1.0, 90.0, 1.5), TagPlacement(11, 50.0, 30.0, 1.0, 90.0, 1.5)]
    frame = table.render(placements, hands=[Hand(20.5, 20.0, 3.0)])
    assert frame.truth_of(10).occluded and not frame.truth_of(11).occluded
    found = set(detect(detector, frame.image_bgr).tag_ids.tolist())
    assert 11 in found and 10 not in found
    # the hand is drawn: skin colour where the tag was
    cx, cy = np.rint(frame.truth_of(10).center_px).astype(int)
    b, g, r = frame.image_bgr[cy, cx].astype(int)
    assert r > g > b and r > 150


def test_tags_outside_the_picture_are_flagged_and_not_drawn(detector):
    # a camera close over one corner sees only part of the table
    model = webcam_model(640, 360)
    pose = CameraPose.looking_at((12.0, 10.0, 20.0), (12.0, 10.0, 0.0))
    table = SyntheticTable(LAYOUT, model, pose)
    frame = table.render([TagPlacement(10, 12.0, 10.0, 0.5, 90.0, 2.0), TagPlacement(11, 60.0, 40.0, 0.5, 90.0, 2.0)])
    assert frame.truth_of(10).in_view and not frame.truth_of(11).in_view
    assert not frame.truth_of(2).in_view  # the far anchor
    assert set(detect(detector, frame.image_bgr).tag_ids.tolist()) == frame.visible_ids


def test_a_unit_on_a_hill_is_drawn_at_its_height(detector):
    terrain = Terrain(hills=(Hill(40.0, 24.0, 10.0, 4.0),))
    table = SyntheticTable(LAYOUT, webcam_model(1280, 720), overhead_pose(LAYOUT, tilt_deg=25.0), terrain)
    on_hill = TagPlacement(10, 40.0, 24.0, 4.0 + 1.0, 30.0, size_in=1.5)
    frame = table.render([on_hill])
    found = detect(detector, frame.image_bgr)
    err = found.corners_of(10) - frame.truth_of(10).corners_px
    assert np.abs(err).max() < 0.5
    flat = SyntheticTable(LAYOUT, table.model, table.pose).truth([TagPlacement(10, 40.0, 24.0, 1.0, 30.0, 1.5)])
    # parallax: the same spot one hill lower appears elsewhere in the picture
    assert np.linalg.norm(flat[-1].center_px - frame.truth_of(10).center_px) > 5


def test_faults_are_reproducible_for_a_seed_and_differ_between_seeds(table):
    faults = Faults(noise_sigma=3.0, blur_px=0.8, jpeg_quality=80, uneven_light=0.3)
    placements = [TagPlacement(10, 30.0, 20.0, 1.0, 45.0)]
    a = table.render(placements, faults=faults, rng=np.random.default_rng(5)).image_bgr
    b = table.render(placements, faults=faults, rng=np.random.default_rng(5)).image_bgr
    c = table.render(placements, faults=faults, rng=np.random.default_rng(6)).image_bgr
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_sensor_noise_has_the_requested_strength(table):
    clean = table.render([]).image_bgr.astype(np.float64)
    noisy = table.render([], faults=Faults(noise_sigma=4.0), rng=np.random.default_rng(1)).image_bgr.astype(np.float64)
    # mid-grey sand only, where clipping at 0/255 cannot shrink the noise
    mask = (clean > 30) & (clean < 225)
    sigma = float(np.std((noisy - clean)[mask]))
    assert 3.7 < sigma < 4.3


def test_uneven_light_darkens_the_corners_of_the_picture(table):
    even = table.render([]).image_bgr.astype(np.float64)
    uneven = table.render([], faults=Faults(uneven_light=0.5)).image_bgr.astype(np.float64)
    h, w = even.shape[:2]
    ratio_centre = uneven[h // 2 - 20 : h // 2 + 20, w // 2 - 20 : w // 2 + 20].mean() / even[h // 2 - 20 : h // 2 + 20, w // 2 - 20 : w // 2 + 20].mean()
    ratio_corner = uneven[-40:, -40:].mean() / even[-40:, -40:].mean()
    assert ratio_corner < ratio_centre - 0.15


def test_motion_blur_smears_a_moving_tag_along_its_motion(table):
    still = TagPlacement(10, 36.0, 24.0, 1.0, 90.0, 1.5)
    moving = TagPlacement(10, 36.0, 24.0, 1.0, 90.0, 1.5, velocity_in_s=(30.0, 0.0))  # 1" per 1/30 s exposure
    faults = Faults(motion_blur=True, exposure_s=1 / 30)
    empty = table.render([]).image_bgr.astype(int)

    def extent(image):
        changed = np.abs(image.astype(int) - empty).sum(axis=2) > 30
        cols, rows = np.flatnonzero(changed.any(axis=0)), np.flatnonzero(changed.any(axis=1))
        return np.ptp(cols), np.ptp(rows), (cols.min() + cols.max()) / 2

    w_still, h_still, _ = extent(table.render([still], faults=faults).image_bgr)
    w_moving, h_moving, centre_x = extent(table.render([moving], faults=faults).image_bgr)
    truth = table.truth([still])[-1]
    px_per_in = np.linalg.norm(truth.corners_px[0] - truth.corners_px[1]) / 1.5
    assert w_moving - w_still == pytest.approx(px_per_in, abs=3)   # smeared by one inch along x
    assert abs(h_moving - h_still) <= 1                             # ...and not across
    assert abs(centre_x - truth.center_px[0]) < 2.0                 # the truth is mid-exposure


def test_a_tall_model_in_front_hides_a_tag_behind_it(detector):
    # painter's order: nearer blocks are drawn last
    pose = CameraPose.looking_at((36.0, -30.0, 30.0), (36.0, 24.0, 0.0))
    table = SyntheticTable(LAYOUT, webcam_model(960, 540), pose)
    near = TagPlacement(10, 36.0, 20.0, 6.0, 90.0, 2.0)
    behind = TagPlacement(11, 36.0, 23.5, 0.5, 90.0, 2.0)
    for order in ([near, behind], [behind, near]):
        found = set(detect(detector, table.render(order).image_bgr).tag_ids.tolist())
        assert 10 in found and 11 not in found


def test_a_nudged_camera_shows_the_same_table_elsewhere_in_the_picture(table):
    pose = table.pose
    pan, _ = cv2.Rodrigues(np.array([0.0, math.radians(1.0), 0.0]))  # turn the camera 1 degree about its axis
    nudged = CameraPose.from_rotation(pan @ pose.rotation, pan @ pose.translation)
    moved = table.moved(nudged)
    a = table.truth([])[0].center_px
    b = moved.truth([])[0].center_px
    assert np.linalg.norm(a - b) > 3
    assert moved.render([]).image_bgr.shape == table.render([]).image_bgr.shape
