"""`sandtable demo --example solo --headless --short`: the generic miniatures rules' solo game (one player's
company against counters run by the automation tables) filmed by the synthetic webcam, tracked from the
frames and played through the companion's session; checked on what it writes, as a user would check it."""
from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from cli.main import main
from demo.story import DemoTiming, build_story
from demo_example_runs import (TOLERANCE_IN, check_demo_video, check_tracking,
                                     play_from_scripted_poses, run_once, same_words, settled_s)

pytestmark = pytest.mark.slow

I1, I2, M1 = 10, 11, 12
T1, R1, G1, R3, R4, R5 = 30, 31, 32, 33, 34, 35


@pytest.fixture(scope="module")
def solo(tmp_path_factory, request):
    code, out, stdout, stderr = run_once(request, tmp_path_factory, "demo-solo-short",
                                         ["demo", "--example", "solo", "--headless", "--short"])
    return code, out, stdout, stderr, build_story(example="solo", timing=DemoTiming.short())


@pytest.fixture(scope="module")
def replay(solo):
    from appmodel.replay_model import ReplayModel

    model = ReplayModel(solo[1] / "demo.sqlite")
    yield model
    model.close()


def outcome(events, kind: str, n: int = 0):
    return [e.outcome for e in events if e.kind == kind][n]


def test_the_solo_game_runs_headless_and_writes_video_recording_and_report(solo):
    code, out, stdout, stderr, _ = solo
    assert code == 0, stderr
    for name in ("demo.mp4", "demo.sqlite", "report.html"):
        assert (out / name).is_file() and (out / name).stat().st_size > 10_000
        assert f"wrote {out / name}" in stdout
    assert stdout.startswith("The solo example, ") and "Traceback" not in stderr
    # the dummy found out is removed, not counted as beaten
    assert "At the end: Out of the fight (2): I2 Assault section and R3 Scouts." in stdout


def test_the_counters_the_tables_moved_are_tracked_to_within_a_tenth_of_an_inch_of_where_they_were_put(solo, replay):
    _, out, _, _, story = solo
    from tracker.recording import RecordingReader

    assert sorted({m.tag_id for m in story.moves}) == [T1, R1, R5]
    with RecordingReader(out / "demo.sqlite") as reader:
        for move in story.moves:
            t = settled_s(story, move)
            pose = {p.tag_id: p for p in reader.poses_at(t)}.get(move.tag_id)
            assert pose is not None and pose.state.value == "seen", (move.tag_id, t)
            assert math.hypot(pose.x_in - move.to_xy[0], pose.y_in - move.to_xy[1]) <= TOLERANCE_IN, (move, pose)
    replay.seek(story.duration_s)
    final = {u.unit_id: u for u in replay.session.units()}
    for tag, (x, y) in ((T1, (29.6, 27.0)), (R1, (17.3, 17.4)), (R5, (35.8, 14.2))):  # the script's Red moves
        assert math.hypot(final[tag].x_in - x, final[tag].y_in - y) <= TOLERANCE_IN, tag


def test_standing_counters_are_seen_within_a_tenth_and_moving_ones_lag_two_frames_at_most(solo):
    _, out, _, _, story = solo
    checked = check_tracking(story, out / "demo.sqlite")
    assert checked["failures"] == []
    assert sum(checked["still"].values()) > 400
    for tag in (T1, R1, R5):
        assert checked["still"].get(tag, 0) > 20 and checked["moving"].get(tag, 0) > 3, tag


def test_every_shot_close_combat_and_table_roll_comes_out_as_the_script_says(solo, replay):
    _, _, _, _, story = solo
    replay.seek(story.duration_s)
    state = replay.session.state
    events = state.events
    expected = story.reference[-1].state.events
    assert [e.kind for e in events] == [e.kind for e in expected]
    for got, want in zip(events, expected):
        assert same_words(got.summary, want.summary), (got.summary, want.summary)

    rifle = outcome(events, "attack", 0)  # I1 at R1, 9.2": Medium, 4+; 5 hits; 3 against defence 0
    assert (rifle["plan"]["band"], rifle["plan"]["to_hit"], rifle["to_hit_face"], rifle["hit"]) == ("Medium", 4, 5, True)
    assert rifle["identified"] == [R1] and rifle["damages"][0]["status_after"] == "Superficial Damage"
    mortar = outcome(events, "attack", 1)  # M1 at T1: Very Long, 6 to hit; 2 misses and scatters 5" East
    assert (mortar["plan"]["band"], mortar["to_hit_face"], mortar["hit"]) == ("Very Long", 2, False)
    scatter = mortar["scatter"]
    assert (scatter["distance_in"], scatter["direction_faces"], scatter["direction"]) == (5.0, [3, 6], "E")
    assert scatter["distance_in"] < scatter["cap_in"] == pytest.approx(24.5 / 2, abs=0.1)  # capped at half the range
    assert (scatter["landing_x_in"], scatter["landing_y_in"]) == pytest.approx((35.0, 36.0), abs=TOLERANCE_IN)
    assert [(d["name"], d["points"], d["full"], d["status_after"]) for d in mortar["damages"]] == \
        [("G1", 2, False, "Superficial Damage")]  # half of 3 against defence 3
    assert sorted(mortar["identified"]) == [T1, G1] and mortar["shots_left"] == 7
    assert state.unit(R4).on_table is False  # the dummy, found out, is removed
    close = outcome(events, "close combat", 0)  # I2 8 against R3 5, then R3 7 against I2 5: each loses a level
    assert [(r["attacker_score"], r["defender_score"], r["loser"]) for r in close["rounds"]] == [(8, 5, R3), (7, 5, I2)]
    assert close["attacker_status"][-1] == close["defender_status"][-1] == "Superficial Damage"
    back = outcome(events, "close combat", 1)  # R3 attacks I2: loses round 1 (no effect), then drops to Damaged
    assert [r["loser"] for r in back["rounds"]] == [R3, R3] and back["attacker_status"][-1] == "Damaged"
    automation = outcome(events, "automation")
    moves = {m["name"]: (m["moves"], m["route"]) for m in automation["moves"]}
    assert moves == {"T1": (True, "OfL Esy"), "R1": (True, "OfR Dir"), "G1": (False, ""), "R3": (False, ""),
                     "R5": (True, "Rnd Dir")}
    tank = outcome(events, "attack", 2)  # T1 at I2, Short, 3+: 4 hits; R3 inside the 3" area takes half
    assert (tank["plan"]["band"], tank["hit"]) == ("Short", True)
    assert {d["name"]: d["status_after"] for d in tank["damages"]} == {"I2": "Destroyed", "R3": "Destroyed"}
    statuses = {u.unit_id: u.status for u in replay.session.units()}
    assert statuses[I2] == statuses[R3] == "down" and statuses[R4] == "removed"
    assert all(statuses[t] == "active" for t in (I1, M1, T1, R1, G1, R5))


def test_the_report_names_the_shots_the_scatter_and_the_tables_decisions(solo):
    from debrief.report import SECTIONS
    from debrief_helpers import parse

    _, out, _, _, _ = solo
    page = parse(Path(out) / "report.html")
    # Force on Force and the generic rules have no emissions: no empty "Signals and emissions" section or count
    assert set(SECTIONS) - {"emissions"} <= set(page.sections) and page.external == []
    assert "emissions" not in page.sections and "Signals and emissions" not in Path(out, "report.html").read_text()
    log = page.sections["log"]
    assert "I1 fires the Rifle at R1" in log and "M1 fires the Mortar at T1" in log and "It scatters 5\" E" in log
    assert "R4 is identified: a dummy" in log and "The tables play Red" in log and "T1 fires the Tank gun at I2" in log
    rolls = page.sections["rolls"]
    assert "scatter distance" in rolls and "scatter direction" in rolls and "route of T1" in rolls
    assert "Mortar miss" in page.sections["bookmarks"] and "The tables play Red" in page.sections["bookmarks"]
    engagements = page.sections["engagements"]  # each shot per unit it reached, close combat round by round
    assert "Mortar" in engagements and "caught 66%, destroyed 2%" in engagements  # the odds shown before the roll
    assert engagements.count("-> Destroyed") == 2 and "Close combat" in engagements  # I2 and R3
    casualties = page.sections["casualties"]
    assert "Assault section" in casualties and "Scouts" in casualties and "Dummy" not in casualties


def test_the_video_shows_the_table_with_overlays_and_the_caption(solo):
    _, out, _, _, story = solo
    check_demo_video(out / "demo.mp4", story)


def test_the_solo_game_as_text_walks_through_every_step(capsys):
    assert main(["demo", "--example", "solo", "--text", "--until", "Mortar miss"]) == 0
    text = capsys.readouterr().out
    assert text.count("\n== ") == 3 and "== 3. Mortar miss" in text
    assert "It scatters 5\" E (distance 5; direction 3, 6) and lands at (35.0, 36.0)." in text


def test_the_director_reaches_the_scripts_outcomes_from_perfectly_tracked_poses():
    """Without a camera: the story's beats played on a real session fed the story's own positions."""
    story = build_story(example="solo", timing=DemoTiming.short())
    session, _ = play_from_scripted_poses(story)
    assert [e.summary for e in session.state.events] == [e.summary for e in story.reference[-1].state.events]
    assert [e.text.split(":")[0] for e in session.log if e.kind == "bookmark"] == ["Mortar miss", "The tables play Red"]
