"""The tracker on synthetic footage with ground truth: a hand over a unit, a unit lifted and put back,
a unit moved across the table, still units under sensor noise, two tags with one id, and recall of
1" tags at 1080p against the bare detector."""
from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.synthetic import Faults, SyntheticTable, TagPlacement, load_synthetic_scenario
from calibration.table_calibration import TableCalibration
from tracker.detections import detect_tags, make_detector
from tracker.events import EventKind
from tracker.fast_detection import FastTagDetector
from tracker.frames import Frame
from tracker.pipeline import Tracker
from tracker.pose_filter import angle_diff_deg
from tracker.roster import load_roster

SCENARIO = Path(__file__).parents[1] / "data" / "tracker_occlusion.toml"


@pytest.fixture(scope="module")
def run():
    """Track the whole occlusion scenario once; every test reads the same run."""
    scenario = load_synthetic_scenario(SCENARIO)
    cal = TableCalibration(scenario.table.model, scenario.table.pose, scenario.layout, residual_in=0.0)
    results, truths = [], []
    with Tracker(roster=load_roster(SCENARIO), calibration=cal, terrain=scenario.terrain) as tracker:
        for i in range(scenario.frame_count):
            rendered = scenario.render_frame(i)
            results.append(tracker.process(Frame(rendered.image_bgr, i, i / scenario.fps)))
            truths.append({t.tag_id: t for t in rendered.truth})
    events = [e for r in results for e in r.events]
    return results, truths, events


def kinds(events, tag_id):
    return [e.kind for e in events if e.tag_id == tag_id]


def test_still_units_under_sensor_noise_keep_still(run):
    results, truths, _ = run
    for tag_id in (13, 14):
        poses = [r.pose(tag_id) for r in results[5:]]
        xy = np.array([(p.x_in, p.y_in) for p in poses])
        spread_in = np.max(np.linalg.norm(xy - xy.mean(axis=0), axis=1)) * 2
        headings = [angle_diff_deg(p.heading_deg, poses[0].heading_deg) for p in poses]
        assert spread_in < 0.02, f"unit {tag_id} jitters {spread_in:.4f} in"
        assert max(headings) - min(headings) < 0.5
        truth = truths[-1][tag_id]
        assert math.hypot(poses[-1].x_in - truth.x_in, poses[-1].y_in - truth.y_in) < 0.05
        assert poses[-1].moved_this_turn_in == 0.0 and not poses[-1].moved_this_turn


def test_a_moved_unit_is_followed_within_two_frames_and_its_path_counted(run):
    results, truths, events = run
    lags = []
    for i, r in enumerate(results):
        pose, truth = r.pose(12), truths[i][12]
        if pose.state.value == "seen" and 20 <= i <= 70 and pose.last_seen_t_s == r.t_s:
            # how many frames of motion the reported position is behind (4 in/s = 0.133 in/frame)
            lags.append(math.hypot(pose.x_in - truth.x_in, pose.y_in - truth.y_in) / (4.0 / 30.0))
    assert lags and np.percentile(lags, 90) <= 2.0, f"lag in frames: {np.round(lags, 2)}"
    final = results[-1].pose(12)
    assert abs(final.moved_this_turn_in - 8.0) < 0.25  # 28 -> 36 in
    assert final.moved_this_turn
    assert abs(angle_diff_deg(final.heading_deg, 45.0 + 90.0)) < 1.0  # tag heading + facing offset
    assert EventKind.MOVED in kinds(events, 12) and EventKind.STOPPED in kinds(events, 12)


def test_a_hand_over_a_unit_for_a_second_hides_it_without_moving_it(run):
    results, _, events = run
    mine = kinds(events, 10)
    assert EventKind.HIDDEN in mine and EventKind.REAPPEARED in mine
    assert EventKind.LIFTED not in mine and EventKind.LOST not in mine
    during = results[45].pose(10)  # t = 1.5 s, under the hand
    assert during.state.value == "stale" and (round(during.x_in, 2), round(during.y_in, 2)) == (30.0, 24.0)
    back = next(e for e in events if e.tag_id == 10 and e.kind is EventKind.REAPPEARED)
    assert back.payload["moved"] is False
    assert results[-1].pose(10).moved_this_turn_in == 0.0


def test_a_unit_lifted_off_the_table_is_an_event_and_putting_it_back_too(run):
    results, _, events = run
    mine = kinds(events, 11)
    assert EventKind.LIFTED in mine and EventKind.RETURNED in mine
    lifted = next(e for e in events if e.tag_id == 11 and e.kind is EventKind.LIFTED)
    assert 1.0 < lifted.t_s <= 2.3  # gone at 1.0 s, judged after lift_after_s
    assert results[75].pose(11).state.value == "lifted"  # kept, not deleted
    back = next(e for e in events if e.tag_id == 11 and e.kind is EventKind.RETURNED)
    assert back.payload["moved"] is True and abs(back.payload["distance"] - math.hypot(3, 3)) < 0.05
    final = results[-1].pose(11)
    assert final.state.value == "seen" and abs(final.x_in - 45.0) < 0.05


def test_two_tags_with_the_same_id_are_flagged_as_a_conflict():
    table = SyntheticTable(texture_seed=2)
    cal = TableCalibration(table.model, table.pose, table.layout, residual_in=0.0)
    one = [TagPlacement(15, 30.0, 24.0, 1.0, 90.0, size_in=1.5)]
    two = one + [TagPlacement(15, 44.0, 24.0, 1.0, 90.0, size_in=1.5)]
    events = []
    with Tracker(calibration=cal) as tracker:
        for i, placements in enumerate([one] * 2 + [two] * 20):  # the sweep finds the newcomer within 16 frames
            frame = table.render(placements, faults=Faults(noise_sigma=1.0))
            result = tracker.process(Frame(frame.image_bgr, i, i / 30))
            events += result.events
    conflicts = [e for e in events if e.kind is EventKind.CONFLICT]
    assert len(conflicts) == 1 and conflicts[0].tag_id == 15  # reported once, not every frame
    assert len(conflicts[0].payload["where"]) == 2
    pose = result.pose(15)
    assert pose.conflict and abs(pose.x_in - 30.0) < 0.1  # keeps following the one it was


def test_unknown_tags_are_reported_once_and_anchors_are_never_units(tmp_path):
    scenario = tmp_path / "roster.toml"
    scenario.write_text('format = "sandtable-scenario"\nversion = 1\n[[units]]\ntag_id = 10\nname = "Known"\n')
    table = SyntheticTable(texture_seed=3)
    events = []
    with Tracker(roster=load_roster(scenario)) as tracker:
        for i in range(3):
            frame = table.render([TagPlacement(10, 30.0, 24.0, 1.0, 90.0, size_in=1.5), TagPlacement(33, 40.0, 24.0, 1.0, 90.0, size_in=1.5)])
            result = tracker.process(Frame(frame.image_bgr, i, i / 30))
            events += result.events
    assert [e.tag_id for e in events if e.kind is EventKind.UNKNOWN_TAG] == [33]
    assert [p.tag_id for p in result.poses] == [10]  # anchors 0-3 and the unknown tag are not units


@pytest.mark.slow
def test_full_resolution_recall_on_one_inch_tags_at_1080p_matches_the_bare_detector():
    from calibration.camera_model import CameraModel, CameraPose

    w, h = 1920, 1080
    fx = (w / 2) / math.tan(math.radians(32.0))
    model = CameraModel(w, h, fx, fx, (w - 1) / 2, (h - 1) / 2, (-0.08, 0.02, 0.0, 0.0, 0.0), source="synthetic")
    pose = CameraPose.looking_at((36.0, 15.6, 60.0), (36.0, 24.0, 0.0))
    table = SyntheticTable(model=model, pose=pose, texture_seed=4)
    rng = np.random.default_rng(11)
    spots = [(x, y) for x in np.arange(8, 66, 7.0) for y in np.arange(10, 39, 7.0)][:40]
    velocity = [(rng.uniform(-3, 3), rng.uniform(-3, 3)) if i < 12 else (0.0, 0.0) for i in range(40)]
    faults = Faults(noise_sigma=2.0, blur_px=0.7, motion_blur=True, jpeg_quality=90)
    bare = make_detector(nthreads=2)
    fast = FastTagDetector()
    found_bare = found_fast = visible = 0
    for i in range(5):
        t = i / 30
        placements = [
            TagPlacement(10 + k, x + v[0] * t, y + v[1] * t, 1.0, 30.0 * k, velocity_in_s=v) for k, ((x, y), v) in enumerate(zip(spots, velocity))
        ]
        frame = table.render(placements, faults=faults, rng=np.random.default_rng(i))
        units = {tr.tag_id for tr in frame.truth if tr.tag_id >= 10 and tr.visible}
        edge = np.median([np.linalg.norm(tr.corners_px[0] - tr.corners_px[1]) for tr in frame.truth if tr.tag_id >= 10])
        assert 22 < edge < 30  # a 1" tag at 1080p over a 6' table
        visible += len(units)
        # everything the bare detector reports, decodes with corrected bits included (its default)
        by_bare = detect_tags(bare, cv2.cvtColor(frame.image_bgr, cv2.COLOR_BGR2GRAY), max_hamming=2)
        found_bare += len(units & set(by_bare.tag_ids.tolist()))
        found_fast += len(units & set(fast.detect(frame.image_bgr, frame_index=i, t_s=t).tag_ids.tolist()))
        if i > 0:
            assert fast.last_work.searched_share < 0.4  # it did not just search everything
    fast.close()
    assert found_fast >= found_bare >= 0.95 * visible
