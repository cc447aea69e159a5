"""Several cameras, one table: fused poses, hand-over, gaps, per-camera drift; all against the rig's truth."""
import math

import numpy as np
import pytest

from calibration.camera_model import CameraPose
from calibration.coverage import coverage_map
from calibration.synthetic import Faults, TagPlacement
from calibration.synthetic.camera_rig import CameraRig, RigCamera, seam_layout
from calibration.synthetic.renderer import webcam_model
from calibration.table_layout import TableLayout
from tracker.errors import TrackerError
from tracker.events import EventKind
from tracker.frames import Frame
from tracker.multi_camera import MultiCameraTracker, register_cameras
from tracker.roster import Roster, UnitSpec
from tracker.unit_pose import UnitState
from tracker.unit_tracker import TrackerSettings

FPS = 10.0
FAULTS = Faults(noise_sigma=2.0, blur_px=0.6)


def _frames(rig_frame):
    return {name: Frame(v.image_bgr, rig_frame.frame_index, rig_frame.t_s, v.truth) for name, v in rig_frame.views.items()}


def _roster(*ids, base=1.0):
    return Roster(units=tuple(UnitSpec(tag_id=i, name=f"unit {i}", base_height_in=base) for i in ids))


def _calibrated(rig):
    first = rig.render([])
    return register_cameras(_frames(first), {c.name: c.model for c in rig.cameras}, rig.layout)


def _run(rig, tracker, placements_at, seconds, *, start_frame=0):
    """Render and track; returns [(t, placements, result)]."""
    out = []
    for k in range(int(round(seconds * FPS))):
        i = start_frame + k
        t = i / FPS
        placements = placements_at(t)
        frame = rig.render(placements, t_s=t, frame_index=i, rng=np.random.default_rng(i))
        frames = {name: f for name, f in _frames(frame).items() if name in tracker.camera_names}
        out.append((t, placements, tracker.process(frames)))
    return out


@pytest.fixture(scope="module")
def pair():
    layout = seam_layout(96.0, 48.0)
    rig = CameraRig.side_by_side(layout, cameras=2, size_px=(1280, 720), overlap_in=10.0, faults=FAULTS)
    return rig, _calibrated(rig)


def test_a_unit_seen_by_both_cameras_has_one_pose_weighted_by_each_camera_precision(pair):
    rig, cals = pair
    # one on the seam, one in each camera's own part, one in the overlap nearer to camera 1's centre
    places = {10: (48.0, 24.0), 11: (14.0, 30.0), 12: (84.0, 12.0), 13: (52.0, 40.0)}
    placements = [TagPlacement(i, x, y, 1.0, 30.0 * k) for k, (i, (x, y)) in enumerate(places.items())]
    with MultiCameraTracker(cals, roster=_roster(*places)) as tracker:
        result = _run(rig, tracker, lambda t: placements, 0.3)[-1][2]
    assert [p.tag_id for p in result.poses] == sorted(places), "one pose per unit, no second identity"
    assert result.seen_by[10] == ("cam0", "cam1") and result.seen_by[11] == ("cam0",) and result.seen_by[12] == ("cam1",)
    for p in result.poses:
        x, y = places[p.tag_id]
        assert math.hypot(p.x_in - x, p.y_in - y) < 0.03, (p.tag_id, p.x_in, p.y_in)
    # the fused pose lies between what each camera alone measures, nearer the one that sees it better
    singles = {}
    for name in ("cam0", "cam1"):
        with MultiCameraTracker({name: cals[name]}, roster=_roster(13)) as alone:
            singles[name] = _run(rig, alone, lambda t: placements[3:], 0.3)[-1][2].pose(13)
    fused = result.pose(13)
    a, b = np.array([singles["cam0"].x_in, singles["cam0"].y_in]), np.array([singles["cam1"].x_in, singles["cam1"].y_in])
    f = np.array([fused.x_in, fused.y_in])
    share_cam1 = float(np.dot(f - a, b - a) / max(np.dot(b - a, b - a), 1e-12))
    assert 0.5 < share_cam1 < 1.0, share_cam1


def test_a_unit_walking_from_one_view_to_the_other_is_handed_over_without_a_jump_or_event(pair):
    rig, cals = pair
    speed = 8.0  # in/s

    def walk(t):
        return [TagPlacement(20, min(20.0 + speed * t, 76.0), 24.0, 1.0, 0.0, velocity_in_s=(speed, 0.0))]

    with MultiCameraTracker(cals, roster=_roster(20)) as tracker:
        steps = _run(rig, tracker, walk, 56.0 / speed)
    events = [e for _, _, r in steps for e in r.events if e.tag_id == 20]
    kinds = [e.kind for e in events]
    assert kinds.count(EventKind.APPEARED) == 1
    assert not {EventKind.HIDDEN, EventKind.REAPPEARED, EventKind.LOST, EventKind.CONFLICT} & set(kinds), kinds
    cams = [r.seen_by.get(20) for _, _, r in steps]
    assert ("cam0",) in cams and ("cam0", "cam1") in cams and ("cam1",) in cams
    errors = []
    for (_t, placed, r) in steps[1:]:
        p = r.pose(20)
        assert p.state is UnitState.SEEN
        assert p.measured, f"t={_t}: held at its last place, not measured, while walking through the views"
        errors.append(math.hypot(p.x_in - placed[0].x_in, p.y_in - placed[0].y_in))
    assert max(errors) < 0.1, max(errors)  # no measured position more than 0.1" from the truth
    # no jump: frame-to-frame steps follow the true steps, also while the cameras change
    xs = np.array([r.pose(20).x_in for _, _, r in steps[1:]])
    truth = np.array([placed[0].x_in for _, placed, _ in steps[1:]])
    assert np.max(np.abs(np.diff(xs) - np.diff(truth))) < 0.08


@pytest.fixture(scope="module")
def gapped():
    """Two cameras hung low over a 120x30" strip, aimed 70" apart: a gap between their views."""
    layout = TableLayout.default(120.0, 30.0)
    model = webcam_model(1280, 720)
    cams = [RigCamera(f"cam{i}", model, CameraPose.looking_at((x, 15.0, 34.0), (x, 15.0, 0.0)), FAULTS) for i, x in enumerate((25.0, 95.0))]
    rig = CameraRig(layout, cams)
    return rig, _calibrated(rig)


def test_the_rig_with_a_gap_really_has_one_and_the_coverage_says_where(gapped):
    rig, cals = gapped
    cover = coverage_map(list(cals.values()), list(cals), cell_in=1.0)
    assert cover.count_at(60.0, 15.0) == 0 and cover.count_at(20.0, 15.0) == 1 and cover.count_at(100.0, 15.0) == 1
    assert 0.0 < cover.gap_fraction < 0.5
    assert "no camera sees x" in cover.summary()


def test_a_unit_in_a_gap_stays_stale_not_lost_and_the_status_shows_it(gapped):
    rig, cals = gapped
    settings = TrackerSettings(lost_after_s=1.0)

    def scene(t):
        placed = [TagPlacement(30, 20.0, 10.0, 1.0, 90.0)]  # stands in camera 0's view all along
        if t < 1.0:
            placed.append(TagPlacement(31, 25.0, 20.0, 1.0, 90.0))  # taken off in plain view at 1 s
        walker = 40.0 + 10.0 * min(max(t - 0.5, 0.0), 2.0)  # walks from x=40 into the gap (x=60) ...
        if t >= 5.0:
            walker = 80.0 + 0 * t  # ... and is put down in camera 1's view at 5 s
        placed.append(TagPlacement(32, walker, 15.0, 1.0, 0.0, velocity_in_s=(10.0, 0.0) if 0.5 <= t < 2.5 else (0.0, 0.0)))
        return placed

    with MultiCameraTracker(cals, roster=_roster(30, 31, 32), settings=settings) as tracker:
        steps = _run(rig, tracker, scene, 7.5)  # camera 1's sweep finds the new tag within 2 s at 10 frames/s
    events = [e for _, _, r in steps for e in r.events]
    at_4s = next(r for t, _, r in steps if t >= 4.5)
    assert at_4s.pose(32).state is UnitState.STALE and 32 in at_4s.in_gap
    assert at_4s.to_json()["units"][2].get("in_gap") is True
    assert at_4s.pose(31).state is UnitState.LOST and 31 not in at_4s.in_gap, "in plain view, gone: lost as before"
    assert not [e for e in events if e.tag_id == 32 and e.kind is EventKind.LOST]
    back = [e for e in events if e.tag_id == 32 and e.kind is EventKind.REAPPEARED]
    assert len(back) == 1 and back[0].payload["moved"] is True
    assert [e.kind for e in events if e.tag_id == 32].count(EventKind.APPEARED) == 1
    final = steps[-1][2].pose(32)
    assert final.state is UnitState.SEEN and abs(final.x_in - 80.0) < 0.05


def test_a_bumped_camera_is_re_registered_while_the_other_keeps_tracking(pair):
    rig, cals = pair
    # unit 40 only camera 0 sees, unit 41 only camera 1
    placements = [TagPlacement(40, 12.0, 24.0, 1.0, 90.0), TagPlacement(41, 86.0, 30.0, 1.0, 45.0)]
    cam1 = rig.camera("cam1")
    eye = cam1.pose.camera_position_in + np.array([1.5, -1.0, 0.5])
    bumped = rig.moved("cam1", CameraPose.looking_at(tuple(eye), (eye[0] + 2.0, eye[1], 0.0), roll_deg=3.0))
    with MultiCameraTracker(cals, roster=_roster(40, 41)) as tracker:
        before = _run(rig, tracker, lambda t: placements, 1.0)
        after = _run(bumped, tracker, lambda t: placements, 1.0, start_frame=len(before))
    events = [e for _, _, r in before + after for e in r.events]
    drift = [e for e in events if e.kind is EventKind.DRIFT]
    rereg = [e for e in events if e.kind is EventKind.REREGISTERED]
    assert [e.payload["camera"] for e in drift] == ["cam1"] and [e.payload["camera"] for e in rereg] == ["cam1"]
    assert not [e for e in events if e.tag_id in (40, 41) and e.kind is not EventKind.APPEARED], "no move, no hiding"
    last = after[-1][2]
    for p, placed in zip(last.poses, placements):
        assert p.state is UnitState.SEEN and math.hypot(p.x_in - placed.x_in, p.y_in - placed.y_in) < 0.03
    status = {c.name: c for c in last.cameras}
    assert status["cam1"].re_registrations == 1 and status["cam0"].re_registrations == 0
    assert status["cam1"].residual_in < 0.05


def test_one_id_in_two_places_seen_by_different_cameras_is_a_conflict_not_one_fused_tag(pair):
    rig, cals = pair
    placements = [TagPlacement(50, 12.0, 24.0, 1.0, 90.0), TagPlacement(50, 86.0, 24.0, 1.0, 90.0)]
    with MultiCameraTracker(cals, roster=_roster(50)) as tracker:
        steps = _run(rig, tracker, lambda t: placements, 0.3)
    conflicts = [e for _, _, r in steps for e in r.events if e.kind is EventKind.CONFLICT]
    assert conflicts and all(e.payload["count"] == 2 for e in conflicts)
    where = sorted(round(w["table_in"][0]) for w in conflicts[-1].payload["where"])
    assert where == [12, 86]
    assert steps[-1][2].pose(50).conflict


def test_cameras_calibrated_on_different_layouts_are_refused_with_the_fix(pair):
    _, cals = pair
    from dataclasses import replace

    other = replace(cals["cam1"], layout=TableLayout.default(96.0, 48.0))
    with pytest.raises(TrackerError, match="same layout file"):
        MultiCameraTracker({"cam0": cals["cam0"], "cam1": other}, detect=False)
