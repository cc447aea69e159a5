"""The unit tracker fed what the fast detector gives for still tags: the same detection, bit for bit,
frame after frame. Everything a user sees (poses, events, movement, lifted units) must be what
measuring every detection afresh gives."""
from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.terrain import Terrain
from tests.tracker_helpers import paste_tag, textured_background
from tracker.detections import TagDetections
from tracker.events import EventKind
from tracker.roster import Roster, UnitSpec
from tracker.unit_pose import UnitState
from tracker.unit_tracker import UnitTracker

FPS = 30.0
PX_PER_IN = 20.0


class ScaledTable:
    """A camera looking straight down: table inches are pixels / PX_PER_IN (+ an offset)."""

    def __init__(self, offset_in: float = 0.0) -> None:
        self.offset_in = offset_in

    def table_from_camera(self, pixels: np.ndarray, *, z_in: float | np.ndarray = 0.0) -> np.ndarray:
        p = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
        return np.column_stack([p[:, 0] / PX_PER_IN + self.offset_in, -p[:, 1] / PX_PER_IN])


def tag_corners(x_px: float, y_px: float, heading_deg: float, edge_px: float = 20.0) -> np.ndarray:
    """A tag's corners in the detector's order, its top facing ``heading_deg`` (image y pointing up)."""
    a = math.radians(heading_deg)
    fwd = np.array([math.cos(a), -math.sin(a)])  # image y points down
    left = np.array([-math.sin(a), -math.cos(a)])
    e = edge_px / 2
    c = np.array([x_px, y_px])
    return np.array([c + e * fwd + e * left, c + e * fwd - e * left, c - e * fwd - e * left, c - e * fwd + e * left])


def frame_of(i: int, tags: list[tuple[int, np.ndarray, int]]) -> TagDetections:
    """Detections of frame ``i``: (tag id, corners, hamming) each."""
    if not tags:
        return TagDetections.empty(frame_index=i, t_s=i / FPS)
    corners = np.array([c for _, c, _ in tags], dtype=np.float64)
    return TagDetections(
        tag_ids=np.array([t for t, _, _ in tags], dtype=np.int64),
        corners_px=corners,
        centers_px=corners.mean(axis=1),
        decision_margins=np.full(len(tags), 60.0),
        hammings=np.array([h for _, _, h in tags], dtype=np.int64),
        frame_index=i,
        t_s=i / FPS,
    )


class RepeatingDetector:
    """A detector that reports a tag's last detection again while the tag stands still, and a fresh
    noisy one now and then (every ``fresh_every`` frames) or when the tag moves."""

    def __init__(self, seed: int, fresh_every: int = 9) -> None:
        self.rng = np.random.default_rng(seed)
        self.fresh_every = fresh_every
        self.last: dict[int, tuple[tuple[float, float, float], np.ndarray]] = {}

    def see(self, i: int, tag_id: int, x_px: float, y_px: float, heading_deg: float) -> np.ndarray:
        truth = (x_px, y_px, heading_deg)
        before = self.last.get(tag_id)
        if before is not None and before[0] == truth and (i + tag_id) % self.fresh_every:
            return before[1].copy()  # the same values in a new array, as the detector builds each frame
        corners = tag_corners(*truth) + self.rng.normal(0.0, 0.05, (4, 2))
        self.last[tag_id] = (truth, corners)
        return corners.copy()


def story() -> list[TagDetections]:
    """Seven units over 8 s: still ones, a nudge reported once and then repeated, a long move, a far-off
    corrected decode repeated, a hand over one, one lifted for good, a duplicate id for a while."""
    det = RepeatingDetector(seed=5)
    frames = []
    for i in range(240):
        tags: list[tuple[int, np.ndarray, int]] = []
        tags.append((10, det.see(i, 10, 200.0, 300.0, 30.0), 0))  # still all along
        x11 = 400.0 if i < 100 else 402.0  # nudged 0.1" (past the deadband, under the jump) at 100
        tags.append((11, det.see(i, 11, x11, 300.0, 90.0), 0))
        x12 = 600.0 + 3.0 * min(max(i - 50, 0), 40)  # slides 6" from 50 to 90, then stands
        tags.append((12, det.see(i, 12, x12, 500.0, 180.0), 0))
        # A corrected decode 0.3" off from 130 on, repeated: a move on its second frame.
        off = 6.0 if i >= 130 else 0.0
        tags.append((13, det.see(i, 13, 800.0 + off, 300.0, 0.0), 1 if off else 0))
        if not 60 <= i < 90:  # a hand over it for a second
            tags.append((14, det.see(i, 14, 200.0, 600.0, 270.0), 0))
        if i < 120:  # lifted at 120 for good
            tags.append((15, det.see(i, 15, 400.0, 600.0, 45.0), 0))
        tags.append((16, det.see(i, 16, 600.0, 700.0, 10.0), 0))
        if 150 <= i < 170:  # a second tag 16 on the table for a while
            tags.append((16, det.see(i, 116, 900.0, 700.0, 10.0), 0))
        frames.append(frame_of(i, tags))
    return frames


def roster() -> Roster:
    return Roster(tuple(UnitSpec(t, f"unit {t}", base_height_in=1.0, facing_offset_deg=5.0 * (t - 10)) for t in range(10, 17)))


def pose_fields(p) -> tuple:
    return (p.tag_id, p.x_in, p.y_in, p.z_in, p.heading_deg, p.state, p.t_s, p.moved_this_turn_in,
            p.turned_this_turn_deg, p.last_seen_t_s, p.moving, p.conflict, p.center_px)


def event_fields(e) -> tuple:
    return (e.kind, e.t_s, e.frame_index, e.tag_id, e.name, e.payload)


def run_both(frames: list[TagDetections], mapping) -> list[tuple]:
    """Feed the frames to a tracker as they come, and to one made to measure every detection afresh
    (a new terrain object each frame: what it measured before no longer holds); pairs of updates."""
    as_fed = UnitTracker(roster(), mapping=mapping)
    afresh = UnitTracker(roster(), mapping=mapping)
    out = []
    for i, dets in enumerate(frames):
        if i == 200:
            as_fed.start_turn()
            afresh.start_turn()
        afresh.terrain = Terrain()
        out.append((as_fed.update(dets), afresh.update(dets)))
    return out


@pytest.mark.parametrize("mapping", [ScaledTable(), None], ids=["table inches", "image pixels"])
def test_repeated_detections_give_the_poses_and_events_of_measuring_each_frame_afresh(mapping):
    pairs = run_both(story(), mapping)
    for got, expected in pairs:
        assert [pose_fields(p) for p in got.poses] == [pose_fields(p) for p in expected.poses], got.frame_index
        assert [event_fields(e) for e in got.events] == [event_fields(e) for e in expected.events], got.frame_index
    # The story did what it says: every kind of event happened (else this test would prove little).
    kinds = {(e.tag_id, e.kind) for got, _ in pairs for e in got.events}
    assert {(11, EventKind.MOVED), (12, EventKind.MOVED), (12, EventKind.STOPPED), (13, EventKind.MOVED),
            (14, EventKind.HIDDEN), (14, EventKind.REAPPEARED), (15, EventKind.HIDDEN), (16, EventKind.CONFLICT)} <= kinds


def test_a_nudge_reported_once_and_then_repeated_is_a_move():
    pairs = run_both(story(), ScaledTable())
    moved = [e for got, _ in pairs for e in got.events if e.tag_id == 11 and e.kind is EventKind.MOVED]
    assert len(moved) == 1 and moved[0].frame_index == 101  # the second frame at the new place
    final = pairs[-1][0].pose(11)
    assert abs(final.x_in - 402.0 / PX_PER_IN) < 0.01 and final.state is UnitState.SEEN


def test_a_still_unit_repeated_for_minutes_keeps_its_pose_frozen_after_sixty_measurements():
    """The still pose averages 60 measurements, then holds: a unit does not creep with slow light
    changes. Repeated detections count as measurements, as they did when each was measured."""
    tracker = UnitTracker(roster(), mapping=ScaledTable())
    first = tag_corners(200.0, 300.0, 30.0)
    for i in range(100):
        tracker.update(frame_of(i, [(10, first.copy(), 0)]))
    held = tracker.poses()[0]
    # Slow drift of the detection within the deadband (0.04" in 10 s), each new detection repeated.
    for i in range(100, 400):
        drift = 0.8 * ((i - 100) // 10) / 30
        update = tracker.update(frame_of(i, [(10, tag_corners(200.0 + drift, 300.0, 30.0), 0)]))
    now = update.pose(10)
    assert (now.x_in, now.y_in, now.heading_deg) == (held.x_in, held.y_in, held.heading_deg)
    assert now.last_seen_t_s == update.t_s and not update.events


def test_a_still_unit_repeated_and_then_moved_reports_the_move_and_its_length():
    tracker = UnitTracker(roster(), mapping=ScaledTable())
    still = tag_corners(200.0, 300.0, 30.0)
    events = []
    for i in range(100):
        update = tracker.update(frame_of(i, [(10, still.copy(), 0)]))
        events += update.events
        assert update.pose(10).last_seen_t_s == update.t_s  # seen now, not when first measured
    for i in range(100, 140):  # slid 2" along x in 20 frames, then stands
        x = 200.0 + 2.0 * min(i - 99, 20)
        events += tracker.update(frame_of(i, [(10, tag_corners(x, 300.0, 30.0), 0)])).events
    kinds = [e.kind for e in events]
    assert kinds == [EventKind.APPEARED, EventKind.MOVED, EventKind.STOPPED]
    final = tracker.poses()[0]
    assert abs(final.x_in - 240.0 / PX_PER_IN) < 1e-9 and abs(final.moved_this_turn_in - 2.0) < 1e-9


def test_after_re_registration_a_repeated_detection_is_measured_with_the_new_calibration():
    tracker = UnitTracker(roster(), mapping=ScaledTable())
    corners = tag_corners(200.0, 300.0, 30.0)
    for i in range(10):
        tracker.update(frame_of(i, [(10, corners.copy(), 0)]))
    assert abs(tracker.poses()[0].x_in - 10.0) < 1e-9
    tracker.set_mapping(ScaledTable(offset_in=0.5))  # the camera was found 0.5" off: re-registered
    events = []
    for i in range(10, 30):
        events += tracker.update(frame_of(i, [(10, corners.copy(), 0)])).events
    assert abs(tracker.poses()[0].x_in - 10.5) < 1e-9
    assert [e.kind for e in events] == [EventKind.MOVED, EventKind.STOPPED]  # as any 0.5" jump would


def test_a_unit_whose_detection_was_repeated_is_found_lifted_when_taken_away():
    """Its surroundings changed while it stood (a building put down beside it at 1 s): the lifted test
    compares with how they looked just before it went, so snapshots go on while it is repeated."""
    background = textured_background(640, 480, seed=3, colour=False)
    with_unit = background.copy()
    corners = paste_tag(with_unit, 20, (320.0, 240.0), 24.0)
    building = (slice(160, 320), slice(240, 305))  # over the left half of the ring around the unit
    later_background, later = background.copy(), with_unit.copy()
    later_background[building] = later[building] = 90
    tracker = UnitTracker(Roster((UnitSpec(20, "scout"),)))
    events = []
    for i in range(90):  # 3 s standing, the detector repeating its detection (new arrays, same values)
        image = with_unit if i < 30 else later
        events += tracker.update(frame_of(i, [(20, corners.copy(), 0)]), image=image.copy()).events
    for i in range(90, 150):  # taken away: the table around it as before, the spot changed
        events += tracker.update(frame_of(i, []), image=later_background.copy()).events
    kinds = [e.kind for e in events]
    assert kinds == [EventKind.APPEARED, EventKind.HIDDEN, EventKind.LIFTED]
    assert tracker.poses()[0].state is UnitState.LIFTED


def test_a_unit_whose_detection_was_repeated_is_only_hidden_under_a_hand():
    background = textured_background(640, 480, seed=3, colour=False)
    with_unit = background.copy()
    corners = paste_tag(with_unit, 20, (320.0, 240.0), 24.0)
    covered = with_unit.copy()
    covered[150:330, 230:410] = 200  # a hand over the unit and the table around it
    tracker = UnitTracker(Roster((UnitSpec(20, "scout"),)))
    events = []
    for i in range(90):
        events += tracker.update(frame_of(i, [(20, corners.copy(), 0)]), image=with_unit.copy()).events
    for i in range(90, 150):
        events += tracker.update(frame_of(i, []), image=covered.copy()).events
    assert [e.kind for e in events] == [EventKind.APPEARED, EventKind.HIDDEN]
    assert tracker.poses()[0].state is UnitState.STALE


def test_a_corrected_facing_in_the_roster_turns_a_unit_whose_detection_repeats():
    tracker = UnitTracker(Roster((UnitSpec(10, "gun", facing_offset_deg=0.0),)), mapping=ScaledTable())
    corners = tag_corners(200.0, 300.0, 30.0)
    for i in range(10):
        tracker.update(frame_of(i, [(10, corners.copy(), 0)]))
    before = tracker.poses()[0].heading_deg
    tracker.roster = Roster((UnitSpec(10, "gun", facing_offset_deg=90.0),))  # its front is the tag's side
    for i in range(10, 30):
        tracker.update(frame_of(i, [(10, corners.copy(), 0)]))
    assert abs((tracker.poses()[0].heading_deg - before) % 360.0 - 90.0) < 1e-9


def test_every_unit_of_an_open_roster_is_followed_through_repeated_detections():
    tracker = UnitTracker(Roster(), mapping=ScaledTable())  # no roster: every non-anchor tag is a unit
    still, events = tag_corners(200.0, 300.0, 30.0), []
    for i in range(60):
        x = 400.0 + 2.0 * min(max(i - 20, 0), 10)  # unit 11 slides 1" from 20 to 30
        update = tracker.update(frame_of(i, [(10, still.copy(), 0), (11, tag_corners(x, 300.0, 0.0), 0)]))
        events += update.events
    assert [(e.tag_id, e.kind) for e in events] == [
        (10, EventKind.APPEARED), (11, EventKind.APPEARED), (11, EventKind.MOVED), (11, EventKind.STOPPED)]
    assert [p.last_seen_t_s for p in update.poses] == [update.t_s, update.t_s]
    assert abs(update.pose(11).moved_this_turn_in - 1.0) < 1e-9 and update.pose(10).moved_this_turn_in == 0.0


def test_the_poses_reported_are_frozen_values_like_any_other_pose():
    import dataclasses

    from tracker.unit_pose import UnitPose

    update = UnitTracker(roster(), mapping=ScaledTable()).update(frame_of(0, [(10, tag_corners(200.0, 300.0, 30.0), 0)]))
    pose = update.pose(10)
    assert pose == UnitPose(**{f.name: getattr(pose, f.name) for f in dataclasses.fields(UnitPose)})
    assert hash(pose) == hash(dataclasses.replace(pose))
    with pytest.raises(dataclasses.FrozenInstanceError):
        pose.x_in = 0.0  # type: ignore[misc]  # assigning to a frozen field on purpose: the test expects the error
