"""The window's height cross-check: a unit whose tag size and base height disagree is named with both
heights, from the real tracker's poses on a rendered table; units as the roster describes them are not."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from appmodel.tracking.height_check import HeightCheck, HeightDisagreement
from calibration.synthetic import SyntheticTable, TagPlacement, overhead_pose, webcam_model
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout
from calibration.terrain import Hill, Terrain
from tracker.frames import Frame
from tracker.pipeline import Tracker
from tracker.roster import Roster, UnitSpec

LAYOUT = TableLayout.default()
CAMERA = webcam_model(1280, 720)
POSE = overhead_pose(LAYOUT, tilt_deg=20.0)
CAL = TableCalibration(model=CAMERA, pose=POSE, layout=LAYOUT, residual_in=0.0, method="pnp")
HILLS = Terrain(hills=(Hill(24.0, 30.0, 10.0, 4.0), Hill(50.0, 18.0, 8.0, 3.0)))


def ground(x: float, y: float) -> float:
    return float(HILLS.height_at(x, y))


# On the hills: 11 stands on its 1" base as typed; 12 stands on a 3" box but is typed 1"; 14's tag is
# printed at 1.5" where the roster says 2"; 15 is on a 1" base, tag as typed, on the flat.
PLACEMENTS = [TagPlacement(11, 24.0, 30.0, ground(24.0, 30.0) + 1.0, 90.0, 2.0),
              TagPlacement(12, 50.0, 20.0, ground(50.0, 20.0) + 3.0, 30.0, 2.0),
              TagPlacement(14, 40.0, 10.0, ground(40.0, 10.0) + 1.0, 0.0, 1.5),
              TagPlacement(15, 60.0, 38.0, ground(60.0, 38.0) + 1.0, 45.0, 2.0)]
ROSTER = Roster(units=(UnitSpec(11, "Sergeant", tag_size_in=2.0), UnitSpec(12, "Gunner on the roof", tag_size_in=2.0),
                       UnitSpec(14, "Medic", tag_size_in=2.0), UnitSpec(15, "Rifleman", tag_size_in=2.0)))


@pytest.fixture(scope="module")
def tracked_frames():
    table = SyntheticTable(LAYOUT, CAMERA, POSE, HILLS)
    tracker = Tracker(roster=ROSTER, calibration=CAL, terrain=HILLS)
    image = table.render(PLACEMENTS).image_bgr
    frames = [tracker.process(Frame(image, i, i / 10)) for i in range(4)]
    assert {p.tag_id for p in frames[-1].poses if p.state.value == "seen"} == {11, 12, 14, 15}
    return tracker, frames


def test_a_unit_on_a_box_typed_as_a_plain_base_and_a_tag_printed_smaller_are_named_with_both_heights(tracked_frames):
    tracker, frames = tracked_frames
    check = HeightCheck.for_tracker(tracker, every_s=0.0)
    assert check is not None
    for tracked in frames:
        check.add(tracked)
    found = {d.tag_id: d for d in check.disagreements()}
    assert set(found) == {12, 14}
    assert found[12].size_says_in == pytest.approx(3.0, abs=0.6) and found[12].base_says_in == 1.0
    assert found[14].size_says_in < -5.0  # a smaller tag looks farther away: below the table, by inches
    lines = check.notes()
    assert lines[0].startswith('Gunner on the roof (tag 12): the tag size says 3.') and 'high, the base height says 1"' in lines[0]
    assert "check the roster's tag_size_in (2\" now) and base_height_in, or rescan the sand" in lines[0]
    assert lines[1].startswith("Medic (tag 14): the tag size puts it ") and "below the ground" in lines[1]


def test_the_roster_corrected_clears_the_doubt(tracked_frames):
    _, frames = tracked_frames
    fixed = Roster(units=(UnitSpec(11, "Sergeant", tag_size_in=2.0), UnitSpec(12, "Gunner on the roof", base_height_in=3.0, tag_size_in=2.0),
                          UnitSpec(14, "Medic", tag_size_in=1.5), UnitSpec(15, "Rifleman", tag_size_in=2.0)))
    tracker = Tracker(roster=fixed, calibration=CAL, terrain=HILLS)
    image = SyntheticTable(LAYOUT, CAMERA, POSE, HILLS).render(PLACEMENTS).image_bgr
    check = HeightCheck.for_tracker(tracker, every_s=0.0)
    for i in range(4):
        check.add(tracker.process(Frame(image, i, i / 10)))
    assert check.disagreements() == ()


def test_a_unit_carried_or_moving_raises_no_doubt_and_one_look_is_not_enough(tracked_frames):
    tracker, frames = tracked_frames
    check = HeightCheck.for_tracker(tracker, every_s=0.0)
    for tracked in frames:
        check.add(replace(tracked, poses=tuple(replace(p, moving=True) for p in tracked.poses)))
    assert check.disagreements() == ()
    check.add(frames[0])
    assert check.disagreements() == ()  # a single frame may be a hand in the way: it takes a few looks
    check.add(frames[1])
    check.add(frames[2])
    assert {d.tag_id for d in check.disagreements()} == {12, 14}


def test_a_unit_taken_off_the_table_is_no_longer_named(tracked_frames):
    from tracker.unit_pose import UnitState

    tracker, frames = tracked_frames
    check = HeightCheck.for_tracker(tracker, every_s=0.0)
    for tracked in frames:
        check.add(tracked)
    assert {d.tag_id for d in check.disagreements()} == {12, 14}
    lifted = tuple(replace(p, state=UnitState.LIFTED) if p.tag_id == 12 else p for p in frames[-1].poses)
    check.add(replace(frames[-1], poses=lifted))
    assert {d.tag_id for d in check.disagreements()} == {14}


def test_it_looks_about_once_a_second_not_at_every_frame(tracked_frames):
    tracker, frames = tracked_frames
    clock = [0.0]
    check = HeightCheck.for_tracker(tracker, clock=lambda: clock[0])
    for i in range(30):
        clock[0] = i / 30
        check.add(frames[i % len(frames)])
    assert check.disagreements() == ()  # one look in the first second
    for i in range(3):
        clock[0] = 1.0 + i * 1.0
        check.add(frames[0])
    assert {d.tag_id for d in check.disagreements()} == {12, 14}


def test_no_check_without_a_roster_or_a_camera_pose():
    assert HeightCheck.for_tracker(Tracker(roster=None, calibration=CAL)) is None
    homography = replace(CAL, method="homography", homography=np.eye(3))
    assert HeightCheck.for_tracker(Tracker(roster=ROSTER, calibration=homography)) is None


def test_the_line_on_a_flat_table_names_no_sand():
    line = HeightDisagreement(12, "Gunner", 2.96, 1.0, 2.0).text()
    assert line == ('Gunner (tag 12): the tag size says 3.0" high, the base height says 1" — check the roster\'s '
                    'tag_size_in (2" now) and base_height_in')


def test_a_roster_without_sizes_is_checked_at_the_layouts_unit_tag_size(tracked_frames):
    tracker, frames = tracked_frames
    bare = Roster(units=tuple(replace(u, tag_size_in=None) for u in ROSTER.units))
    check = HeightCheck.for_tracker(Tracker(roster=bare, calibration=replace(CAL, layout=replace(LAYOUT, unit_tag_size_in=2.0)),
                                            terrain=HILLS), every_s=0.0)
    for tracked in frames:
        check.add(tracked)
    assert {d.tag_id for d in check.disagreements()} == {12, 14}
    assert np.all([d.tag_size_in == 2.0 for d in check.disagreements()])
