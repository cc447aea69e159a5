"""The demo's story and director without a camera: the in-depth example laid out in time, its beats played
on a real GameSession from the story's own poses, and what a player's declarations become on the attack panel.
(The tracked version, from rendered frames, is tests/demo/test_headless.py.)"""
from __future__ import annotations

import math

import pytest

from demo.director import draft_from_setup, poses_for_session
from demo.story import BeatKind, DemoTiming, build_story
from appmodel.game_session import GameSession
from rules.downrange.examples import in_depth
from rules.downrange.ruleset import setup_from_request
from demo_example_runs import play_from_scripted_poses
from tracker.unit_pose import UnitPose, UnitState


def attacks_of_script() -> list:
    return [item for step in in_depth.STEPS for item in step.items if isinstance(item, in_depth.Attack)]


def outcome(result) -> dict[int, tuple[bool, tuple[str, ...]]]:
    """Who was killed, and each shot's outcome, per target: what the rulebook's text states."""
    return {t.unit_id: (t.killed, tuple(s.outcome.value for s in t.shots)) for t in result.targets}


@pytest.mark.parametrize("attack", attacks_of_script(), ids=lambda a: f"{a.setup.attacker}-{a.setup.weapon}")
def test_every_declaration_of_the_script_reaches_the_rules_through_the_attack_panels_draft(attack) -> None:
    assert setup_from_request(draft_from_setup(attack.setup).request()) == attack.setup


def test_the_story_keeps_every_move_within_its_step_and_units_never_jump() -> None:
    story = build_story(timing=DemoTiming.short())
    assert [c.section for c in story.captions] == [s.section for s in in_depth.STEPS]
    for c, nxt in zip(story.captions, story.captions[1:]):
        assert c.t_end_s == pytest.approx(nxt.t_start_s)
    for move in story.moves:
        step = story.caption_at(move.t_start_s)
        assert step.t_start_s <= move.t_start_s and move.t_end_s <= step.t_end_s + 1e-9
    fps = story.timing.fps
    for path in story.paths:  # at most 1" between two frames: a hand slides a miniature, it does not teleport
        prev = None
        for i in range(story.frame_count):
            pose = path.pose_at(i / fps)
            if pose is not None and prev is not None:
                assert math.hypot(pose[0] - prev[0], pose[1] - prev[1]) < 1.0 + 1e-9, (path.tag_id, i / fps)
            prev = pose


def test_squad_members_leave_the_hatch_one_after_another() -> None:
    story = build_story()
    t0, t1 = story.step_start_s("6.3 a"), story.step_start_s("6.3 b")
    squad = (32, 33, 34, 36, 37)
    for k in range(int(t0 * 10), int(t1 * 10)):
        t = k / 10
        spots = [story.scripted_pose(tag, t) for tag in squad]
        placed = [p for p in spots if p is not None]
        for i, a in enumerate(placed):
            for b in placed[i + 1:]:
                assert math.hypot(a[0] - b[0], a[1] - b[1]) > 1.4, t  # two 1" tags never overlap


def test_the_story_ends_where_the_text_leaves_every_unit() -> None:
    story = build_story(timing=DemoTiming.short())
    final = story.reference[-1].state
    for u in final.units:
        pose = story.scripted_pose(u.unit_id, story.duration_s)
        if u.unit_id in story.riders:
            continue
        if not u.on_table:
            assert pose is None, u.name
        else:
            assert pose[:2] == pytest.approx((u.x_in, u.y_in)), u.name


def test_the_director_plays_the_example_to_the_rulebooks_outcomes_from_tracked_poses() -> None:
    story = build_story(timing=DemoTiming.short())
    session, director = play_from_scripted_poses(story, z_in=1.0)
    played = [p.resolution.result for p in director.played
              if p.beat.kind in (BeatKind.RESOLVE, BeatKind.LANDING) and not p.resolution.pending]
    expected = [a for record in story.reference for a in record.attacks]
    assert [outcome(r) for r in played] == [outcome(r) for r in expected]
    status = {u.name: u.status for u in session.units()}
    assert status["UTV"] == "down" and status["ZBL-09"] == "down" and status["Automatic rifleman"] == "down"
    assert status["AT missileman"] == "down" and status["Rifleman 3"] == "down"
    assert status["Mortar gunner"] == "active" and status["Assistant gunner"] == "active"  # treated by the corpsman
    assert session.state.round == story.reference[-1].state.round


def test_a_missed_explosive_lands_where_the_player_says_and_takes_the_players_damage_dice() -> None:
    steps = in_depth.STEPS
    index = [s.section for s in steps].index("6.5.3")
    state = None
    for record in in_depth.play(steps[:index]):
        state = record.state
    session = GameSession(session_ruleset(), state, scenario=in_depth.load_scenario())
    attack = next(i for i in steps[index].items if isinstance(i, in_depth.Attack))
    session.set_attack(draft_from_setup(attack.setup))
    res = session.resolve_attack([(6, 2)])
    assert res.pending and session.pending is not None
    res = session.choose_landing(attack.landing, [8, 7])
    killed = {t.name for t in res.result.targets if t.killed}
    assert killed == {"AT missileman", "Rifleman 3"}
    assert [r.dice_total for r in res.result.targets[0].shots[0:0]] == []  # nothing left pending
    assert session.pending is None


def session_ruleset():
    from rules.ruleset import get_ruleset

    return get_ruleset("down-range")


def test_hidden_and_lost_poses_never_reach_the_rules() -> None:
    def pose(state: UnitState) -> UnitPose:
        return UnitPose(36, "Rifleman 4", "PLA", 46.9, 25.8, 1.0, 180.0, state, 3.0, 0.0)

    kept = poses_for_session([pose(s) for s in UnitState])
    assert sorted(p.state.value for p in kept) == ["lifted", "seen"]
