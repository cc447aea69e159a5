"""Gun-team riders follow the tracked tag: the mortar gunner's token carries the assistant gunner (one
tag for two units), through the session's pose handling, the real tracker and a replay; a team-mate
with a tag of its own moves on its own, and a hidden tag never pulls its token back."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

GUNNER, ASSISTANT, SERGEANT = 11, 12, 10  # 11 and 12 start on one spot (14, 24): one token


def pose(tag, x, y, t, moved, state=UnitState.SEEN, heading=0.0):
    return UnitPose(tag, "", "Marines", x, y, 1.0, heading, state, t, moved)


def where(session, uid):
    u = session.unit(uid)
    return (round(u.x_in, 3), round(u.y_in, 3), u.on_table)


def test_the_assistant_rides_on_the_gunners_token_wherever_it_is_carried():
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.start_round()
    s.start_turn()  # in play: a carry is a move (in the set-up it only places the token)
    assert where(s, GUNNER)[:2] == where(s, ASSISTANT)[:2] == (14.0, 24.0)
    for t, (x, y) in enumerate([(15.0, 24.5), (16.5, 25.0), (18.0, 26.0)], start=1):
        s.apply_poses([pose(GUNNER, x, y, t, 1.5 * t, heading=30.0)], t_s=float(t))
        assert where(s, ASSISTANT) == where(s, GUNNER) == (x, y, True)
    assert s.unit(ASSISTANT).heading_deg == pytest.approx(30.0)
    # the team's Move is spent together
    assert s.unit(ASSISTANT).move_left_in == pytest.approx(s.unit(GUNNER).move_left_in)
    assert s.unit(GUNNER).move_left_in < 8.0
    s.apply_poses([pose(GUNNER, 18.0, 26.0, 4, 4.5, UnitState.LIFTED)], t_s=4.0)
    assert not s.unit(ASSISTANT).on_table and not s.unit(GUNNER).on_table
    s.apply_poses([pose(GUNNER, 20.0, 26.0, 5, 4.5)], t_s=5.0)
    assert where(s, ASSISTANT) == where(s, GUNNER) == (20.0, 26.0, True)


def test_a_hidden_tag_is_its_last_sighting_and_never_pulls_a_unit_back():
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.apply_poses([pose(GUNNER, 16.0, 24.0, 1, 2.0)], t_s=1.0)
    # a hand over the token: the tracker repeats the last pose as stale, then lost
    s.apply_poses([pose(GUNNER, 16.0, 24.0, 2, 2.0, UnitState.STALE)], t_s=2.0)
    s.apply_poses([pose(GUNNER, 15.0, 24.0, 3, 2.0, UnitState.LOST)], t_s=3.0)
    assert where(s, GUNNER) == where(s, ASSISTANT) == (16.0, 24.0, True)


def test_a_team_mate_with_its_own_tag_leaves_the_token_alone_and_stays_apart():
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.apply_poses([pose(GUNNER, 14.0, 24.0, 0, 0.0)], t_s=0.0)
    # the players give the assistant a token of its own and set it 3" away: both tags are in view
    for t in range(1, 5):
        s.apply_poses([pose(GUNNER, 14.0, 24.0, t, 0.0), pose(ASSISTANT, 17.0, 24.0, t, 3.0)], t_s=float(t))
        assert where(s, GUNNER) == (14.0, 24.0, True), f"frame {t}: the gunner was dragged along"
        assert where(s, ASSISTANT) == (17.0, 24.0, True), f"frame {t}: the assistant was pulled back"
    # the order of the poses in a frame does not matter
    s.apply_poses([pose(ASSISTANT, 18.0, 24.0, 5, 4.0), pose(GUNNER, 14.0, 24.0, 5, 0.0)], t_s=5.0)
    assert where(s, GUNNER)[:2] == (14.0, 24.0) and where(s, ASSISTANT)[:2] == (18.0, 24.0)


def test_riders_follow_the_real_tracker_on_the_synthetic_table():
    """One tag in the picture for the two units: the tracker sees tag 11 only, and the session moves
    both; the picture itself shows one token (the feed draws one tag per shared spot)."""
    from appmodel.tracking.synthetic_feed import SyntheticFeed
    from tracker.frames import Frame
    from tracker.pipeline import Tracker
    from tracker.roster import load_roster

    world = GameSession.from_scenario_file(SCENARIO_PATH)  # where the tokens really are
    live = GameSession.from_scenario_file(SCENARIO_PATH)  # what the companion believes
    feed = SyntheticFeed(world.table_size_in, width_px=1280, height_px=720)
    ids = {p.tag_id for p in feed.placements(world.units())}
    assert GUNNER in ids and ASSISTANT not in ids
    path = [(14.0, 24.0), (14.0, 24.0), (15.5, 24.5), (17.0, 25.0), (18.5, 25.5), (18.5, 25.5), (18.5, 25.5)]
    with Tracker(roster=load_roster(SCENARIO_PATH), calibration=feed.calibration) as tracker:
        for i, (x, y) in enumerate(path):
            world.apply_poses([pose(GUNNER, x, y, i, None)], t_s=float(i))
            result = tracker.process(Frame(feed.render(world.units()), i, i / 10))
            live.apply_poses(result.poses, t_s=result.t_s)
    assert ASSISTANT not in {p.tag_id for p in result.poses}
    gx, gy, _ = where(live, GUNNER)
    assert (gx, gy) == pytest.approx((18.5, 25.5), abs=0.1)
    assert where(live, ASSISTANT) == where(live, GUNNER)
    assert where(live, SERGEANT)[:2] == pytest.approx((18.0, 21.0), abs=0.1)


def test_a_replay_moves_the_rider_with_the_recorded_token(tmp_path):
    from appmodel.replay_model import ReplayModel

    s = GameSession.from_scenario_file(SCENARIO_PATH)
    recorder = s.start_recording(tmp_path / "team.sqlite")
    for i, (x, y) in enumerate([(14.0, 24.0), (16.0, 25.0), (19.0, 26.0)]):
        poses = [pose(GUNNER, x, y, float(i), 2.0 * i)]
        recorder.record_frame(i, float(i), poses)
        s.apply_poses(poses, t_s=float(i))
    s.stop_recording()
    replay = ReplayModel(tmp_path / "team.sqlite")
    try:
        replay.seek(1.2)
        assert where(replay.session, ASSISTANT) == where(replay.session, GUNNER) == (16.0, 25.0, True)
        replay.seek(2.0)
        assert where(replay.session, ASSISTANT)[:2] == (19.0, 26.0)
    finally:
        replay.close()
