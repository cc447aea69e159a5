"""`sandtable demo --example patrol --headless --short`: Force on Force's market patrol filmed by the synthetic
webcam, every figure tracked from the frames, the script's rolls played through the companion's session;
checked on what it writes (video, recording, report), as a user would check it.

Tracking is judged as for the Down Range demo (tests/demo/test_headless.py), with crowding decided by
whether two tags' cards actually overlap (fireteam figures stand 1.8" apart: their cards never touch).
"""
from __future__ import annotations

import math
import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from cli.main import main
from demo.story import DemoTiming, build_story
from demo_example_runs import (TOLERANCE_IN, check_demo_video, check_tracking,
                                     play_from_scripted_poses, run_once, same_words, settled_s)

pytestmark = pytest.mark.slow

RPG_GUNNER, HALE, BRAVO_4 = 44, 20, 17


@pytest.fixture(scope="module")
def patrol(tmp_path_factory, request):
    code, out, stdout, stderr = run_once(request, tmp_path_factory, "demo-patrol-short",
                                         ["demo", "--example", "patrol", "--headless", "--short"])
    return code, out, stdout, stderr, build_story(example="patrol", timing=DemoTiming.short())


@pytest.fixture(scope="module")
def replay(patrol):
    from appmodel.replay_model import ReplayModel

    model = ReplayModel(patrol[1] / "demo.sqlite")
    yield model
    model.close()


def test_the_patrol_runs_headless_and_writes_video_recording_and_report(patrol):
    code, out, stdout, stderr, _ = patrol
    assert code == 0, stderr
    for name in ("demo.mp4", "demo.sqlite", "report.html"):
        assert (out / name).is_file() and (out / name).stat().st_size > 10_000
        assert f"wrote {out / name}" in stdout
    assert stdout.startswith("The patrol example, ") and "Traceback" not in stderr
    assert 'At the end: Out of the fight (3): Bravo 1, Bravo 2 and "Cell 1 e".' in stdout


def test_every_figure_the_script_moves_is_tracked_to_within_a_tenth_of_an_inch_of_where_it_was_put(patrol, replay):
    _, out, _, _, story = patrol
    from tracker.recording import RecordingReader

    moved = sorted({m.tag_id for m in story.moves})
    assert moved == [14, 15, 16, 17, HALE, 41, 42, 43]  # Bravo, Sgt. Hale, Cell 3 (reinforcements)
    with RecordingReader(out / "demo.sqlite") as reader:
        for move in story.moves:
            settled = settled_s(story, move)
            pose = {p.tag_id: p for p in reader.poses_at(settled)}.get(move.tag_id)
            assert pose is not None and pose.state.value == "seen", (move.tag_id, settled)
            assert math.hypot(pose.x_in - move.to_xy[0], pose.y_in - move.to_xy[1]) <= TOLERANCE_IN, (move, pose)
    # ... and the rules have them there: the replay's figures stand where the script left them
    replay.seek(story.duration_s)
    final = {u.unit_id: u for u in replay.session.units()}
    for f in story.reference[-1].state.figures:
        assert math.hypot(final[f.figure_id].x_in - f.x_in, final[f.figure_id].y_in - f.y_in) <= TOLERANCE_IN, f.name


def test_standing_figures_clear_of_others_are_seen_within_a_tenth_and_moving_ones_lag_two_frames_at_most(patrol):
    _, out, _, _, story = patrol
    checked = check_tracking(story, out / "demo.sqlite")
    assert checked["failures"] == []
    assert sum(checked["still"].values()) > 2500 and sum(checked["moving"].values()) > 40
    for tag in (14, 15, 16, 17, 41, 42, 43):  # the moved fireteam figures are checked standing where they went
        assert checked["still"].get(tag, 0) > 20, tag
    for tag in (14, 15, 16, 17):  # ... and on the way (Cell 3 moves while the tracker's sweep is still finding it)
        assert checked["moving"].get(tag, 0) > 5, tag


def test_the_rooftop_gunner_is_measured_three_inches_up_and_the_rules_know_it(patrol, replay):
    _, out, _, _, story = patrol
    from tracker.recording import RecordingReader

    with RecordingReader(out / "demo.sqlite") as reader:
        pose = {p.tag_id: p for p in reader.poses_at(story.duration_s)}[RPG_GUNNER]
    assert pose.z_in == pytest.approx(4.0, abs=0.1)  # the 3" rise and his 1" base, from the scenario's terrain
    replay.seek(story.duration_s)
    assert replay.session.state.figure(RPG_GUNNER).z_in == pytest.approx(3.0, abs=0.1)


def test_every_roll_comes_out_as_the_script_says(patrol, replay):
    """The recorded rules events are the script's own, one for one (the same words; distances measured
    from tracked positions may differ by a tenth), and the outcomes the script's steps state hold."""
    _, _, _, _, story = patrol
    replay.seek(story.duration_s)
    events = replay.session.state.events
    expected = story.reference[-1].state.events
    assert [e.kind for e in events] == [e.kind for e in expected]
    for got, want in zip(events, expected):
        assert same_words(got.summary, want.summary), (got.summary, want.summary)

    initiative = [e.outcome for e in events if e.kind == "initiative"]
    assert [(i["method"], i["holder"]) for i in initiative] == [("scenario", "US Army"), ("test", "Insurgents"),
                                                               ("test", "US Army")]
    turn2 = {r["pool"]["side"]: (r["pool"]["dice"], r["pool"]["sides"], r["faces"], r["successes"]) for r in initiative[1]["rolls"]}
    assert turn2 == {"US Army": (3, 8, [2, 3, 7], 1), "Insurgents": (2, 6, [4, 6], 2)}  # 3D8 against 2D6
    turn3 = {r["pool"]["side"]: r["successes"] for r in initiative[2]["rolls"]}
    assert turn3 == {"US Army": 2, "Insurgents": 1}
    fires = [e.outcome["test"] for e in events if e.kind == "fire"]
    assert [(f["label"], f["winner"]) for f in fires] == [
        ("Alpha fires at Cell 1", "Alpha"), ("RPG team fires at Bravo", "RPG team"), ("Cell 1 fires at Alpha", None),
        ("Cell 2 fires at Bravo", "Cell 2"), ("Alpha fires at RPG team", "Alpha")]
    activations = [e.summary for e in events if e.kind == "activation"]
    assert sum("Cell 2 rolls D6 for Troop Quality: 2, under 4: fails" in s for s in activations) == 1
    morale = next(e.summary for e in events if e.kind == "test")
    assert "Bravo rolls D10 for Morale: 7" in morale and "passes" in morale  # Sgt. Hale's D10, not Bravo's D8
    rooftop = next(e for e in events if e.kind == "fire" and e.outcome["test"]["label"].startswith("RPG team"))
    assert "firing down 3.0\"" in rooftop.summary and rooftop.outcome["check"]["in_line_of_fire"] == []
    statuses = {f.name: f.status.value for f in replay.session.state.figures}
    assert [n for n, s in statuses.items() if s != "active"] == ["Bravo 1", "Bravo 2", "Cell 1 e"]
    alpha = next(g for g in replay.session.groups() if g.name == "Alpha")
    assert len(alpha.member_ids) == 4 and alpha.in_cohesion  # Alpha Two merged back


def test_the_regulars_fire_through_friends_is_refused_and_logged(patrol, replay):
    _, _, _, _, story = patrol
    log = [e.text for e in replay.log_at(story.duration_s)]
    assert any("Not allowed: Regulars may not fire with friends in the line of fire: Bravo" in t for t in log)


def test_bravo_is_flagged_out_of_cohesion_while_bravo_4_lags_and_back_in_after_it_regroups(patrol, replay):
    _, _, _, _, story = patrol
    sections = {c.title: c for c in story.captions}

    def bravo_at(t_s: float):
        replay.seek(t_s)
        return next(g for g in replay.session.groups() if g.name == "Bravo")

    assert bravo_at(sections["Bravo moves"].t_end_s - 0.05).in_cohesion is False
    assert bravo_at(sections["Bravo regroups"].t_end_s).in_cohesion is True


def test_the_report_names_the_initiative_tests_the_fires_and_the_bookmarks(patrol):
    from pathlib import Path

    from debrief.report import SECTIONS
    from debrief_helpers import parse

    _, out, _, _, _ = patrol
    page = parse(Path(out) / "report.html")
    # Force on Force and the generic rules have no emissions: no empty "Signals and emissions" section or count
    assert set(SECTIONS) - {"emissions"} <= set(page.sections) and page.external == []
    assert "emissions" not in page.sections and "Signals and emissions" not in Path(out, "report.html").read_text()
    log = page.sections["log"]
    assert "Insurgents have initiative for this turn" in log and "US Army has initiative for this turn" in log
    assert "RPG team fires at Bravo" in log and "Cell 2 hesitates" in log and "Cell 3 arrives" in log
    rolls = page.sections["rolls"]
    assert "initiative test of US Army" in rolls and "(2, 3, 7)" in rolls and "(4, 6)" in rolls
    assert "Turn 2 initiative" in page.sections["bookmarks"] and "From the rooftop" in page.sections["bookmarks"]
    engagements = page.sections["engagements"]  # the five fires, with the odds shown in Force on Force's words
    assert engagements.count("won the test") == 4 and engagements.count("nobody won") == 1
    assert "RPG team 5 against Bravo 3" in engagements and "wins 25%" in engagements
    casualties = page.sections["casualties"]
    assert all(name in casualties for name in ("Bravo 1", "Bravo 2", "Cell 1 e"))


def test_the_video_shows_the_table_with_overlays_and_the_caption(patrol):
    _, out, _, _, story = patrol
    check_demo_video(out / "demo.mp4", story)


def test_the_patrol_as_text_walks_through_every_step(capsys):
    assert main(["demo", "--example", "patrol", "--text"]) == 0
    text = capsys.readouterr().out
    assert text.count("\n== ") == 15 and "== 10. Turn 2 initiative" in text
    assert "Insurgents have initiative for this turn and becomes the initiative force." in text
    assert text.rstrip().endswith('Out of the fight (3): Bravo 1, Bravo 2 and "Cell 1 e".')  # not a cut-off "e."


def test_the_director_reaches_the_scripts_outcomes_from_perfectly_tracked_poses():
    """Without a camera: the story's beats played on a real session fed the story's own positions."""
    story = build_story(example="patrol", timing=DemoTiming.short())
    session, _ = play_from_scripted_poses(story)
    assert [e.summary for e in session.state.events] == [e.summary for e in story.reference[-1].state.events]
    bookmarks = [e.text.split(":")[0] for e in session.log if e.kind == "bookmark"]
    assert bookmarks == ["From the rooftop", "Turn 2 initiative"]


@pytest.mark.parametrize("argv, words", [
    (["demo", "--example", "skirmish"], "no such example; use one of in-depth, patrol, solo"),
    (["demo", "--example", "patrol", "--until", "6.5.1"], "not a step of the example; the steps are 1 (Turn 1), "),
])
def test_demo_example_mistakes_are_one_line(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
