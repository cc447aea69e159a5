"""`sandtable demo --headless --short` as CI runs it: the in-depth example filmed by the synthetic webcam,
tracked from the frames, played through the session; checked on what it writes (video, recording, report).

Tracker accuracy is judged against the script the way a viewer would: a unit standing still (the
script has not moved it for half a second) and clear of other tags (no card overlapping it in the
last two seconds, the time the tracker's sweep needs to find a tag it lost) must be seen and within
0.1" of where the script put it; a moving unit may lag, but by two frames at most (within 0.1" of
where the script had it at some moment of the last two frames)."""
from __future__ import annotations

import math
import os
import shutil

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from cli.main import main
from debrief.facts import EngagementOutcome, read_debrief_facts
from gui.demo.headless import CROWDED, prepare_output_folder
from demo.story import DemoTiming, build_story
from appmodel.errors import UsageError
from demo_example_runs import check_demo_video, check_tracking, run_once
from tracker.recording import RecordingReader

pytestmark = pytest.mark.slow

TOLERANCE_IN = 0.1
LAG_FRAMES = 2


@pytest.fixture(scope="module")
def demo(tmp_path_factory, request):
    """One run of the short demo for the whole test session: with pytest-xdist the workers share its
    folder and the first one to get there runs it while the other waits (it takes half a minute)."""
    code, out, stdout, stderr = run_once(request, tmp_path_factory, "demo-short", ["demo", "--headless", "--short"])
    return code, out, stdout, stderr, build_story(timing=DemoTiming.short())


def test_the_headless_demo_writes_video_recording_and_report_and_says_where(demo):
    code, out, stdout, stderr, _ = demo
    assert code == 0
    for name in ("demo.mp4", "demo.sqlite", "report.html"):
        assert (out / name).is_file() and (out / name).stat().st_size > 10_000
        assert f"wrote {out / name}" in stdout
    assert "playing the example" in stderr and "Traceback" not in stderr  # progress goes to stderr


def test_the_video_is_the_overlaid_camera_view_with_its_caption(demo):
    # overlays: saturated side colours (blue Marines, red PLA rings) that sand never has
    _, out, _, _, story = demo
    check_demo_video(out / "demo.mp4", story)


def _crowded_times(story) -> dict[int, list[float]]:
    """When each tag had a neighbour close enough for the cards to overlap (from the script)."""
    out: dict[int, list[float]] = {}
    sizes = {p.tag_id: p.tag_size_in for p in story.paths}
    for i in range(story.frame_count):
        t = i / story.timing.fps
        on = {p.tag_id: p.pose_at(t) for p in story.paths}
        on = {tag: pose for tag, pose in on.items() if pose is not None}
        for a, pa in on.items():
            for b, pb in on.items():
                if a != b and math.hypot(pa[0] - pb[0], pa[1] - pb[1]) < CROWDED * (sizes[a] + sizes[b]):
                    out.setdefault(a, []).append(t)
    return out


def test_tracked_positions_match_the_script_within_a_tenth_of_an_inch(demo):
    _, out, _, _, story = demo
    checked = check_tracking(story, out / "demo.sqlite", crowded=_crowded_times(story))
    assert checked["failures"] == []  # (tag, time, what): not seen, or more than a tenth off, or lagging
    assert sum(checked["still"].values()) > 2000 and sum(checked["moving"].values()) > 200


def test_the_attacks_come_out_as_the_rulebook_says(demo):
    _, out, _, _, story = demo
    facts = read_debrief_facts(out / "demo.sqlite")
    by_weapon: dict[str, list] = {}
    for e in facts.engagements:
        by_weapon.setdefault(e.weapon, []).append(e)
    mortar = {e.target_name: e.outcome for e in by_weapon["60 mm mortar"]}
    assert mortar["Rifleman 1"] is mortar["Rifleman 2"] is EngagementOutcome.KILLED  # 6.4.4
    assert {mortar[n] for n in ("Officer", "Automatic rifleman", "AT missileman")} == {EngagementOutcome.HIT}
    assert by_weapon["60 mm mortar"][0].p_hit == pytest.approx(0.5)  # the odds shown before the roll
    autocannon = {e.target_name: e for e in by_weapon["Autocannon"]}  # 6.5.1
    assert autocannon["UTV"].outcome is EngagementOutcome.KILLED and (autocannon["UTV"].hits, autocannon["UTV"].shots) == (1, 2)
    assert autocannon["Mortar gunner"].outcome is EngagementOutcome.KILLED
    assert {e.target_name: e.outcome for e in by_weapon["M4/M16"]} == {"Automatic rifleman": EngagementOutcome.KILLED}
    at_missile = {e.target_name: e.outcome for e in by_weapon["AT missile (example 6.5.3)"]}
    assert at_missile == {"AT missileman": EngagementOutcome.KILLED, "Rifleman 3": EngagementOutcome.KILLED}
    first_maaws, second_maaws = by_weapon["Carl Gustaf / MAAWS"]
    assert first_maaws.outcome is EngagementOutcome.MISS  # 6.5 b: a 1, sails off harmlessly
    assert second_maaws.outcome is EngagementOutcome.KILLED and second_maaws.target_name == "ZBL-09"  # 6.6 b
    # the engagement lines start where the tracker had the shooter
    assert autocannon["UTV"].from_in == pytest.approx((44.0, 25.0), abs=TOLERANCE_IN)
    down = {facts.unit(t).name for t in facts.down_at(math.inf)}
    assert down == {"UTV", "Officer", "Automatic rifleman", "AT missileman", "Rifleman 1", "Rifleman 2", "Rifleman 3",
                    "Rifleman 4", "Rifleman 5", "ZBL-09"}  # the corpsman brought both mortarmen back (6.6.1)
    reference = [a for record in story.reference for a in record.attacks]
    assert len({(e.t_s, e.weapon) for e in facts.engagements}) == len(reference) == 6  # every attack, once


def test_the_recording_holds_the_tracker_events_and_the_rules_with_their_odds(demo):
    _, out, _, _, _ = demo
    with RecordingReader(out / "demo.sqlite") as reader:
        assert reader.problems == () or all("video" in p for p in reader.problems)
        kinds = {e.kind.value for e in reader.events_between()}
        assert {"appeared", "moved", "stopped", "lifted", "turn_started"} <= kinds
        attacks = [r for r in reader.rules_events() if r.kind == "attack"]
        assert len(attacks) == 6 and all(r.payload.get("odds") for r in attacks)
        assert reader.meta["command"].startswith("sandtable demo --headless")
        assert '"format": "sandtable-table-calibration"' in reader.meta["calibration_json"]
        assert len(reader.bookmarks()) == 2


def test_the_report_has_its_sections_and_the_examples_events(demo):
    from debrief.report import SECTIONS
    from debrief_helpers import parse

    _, out, _, _, _ = demo
    page = parse(out / "report.html")
    assert set(SECTIONS) <= set(page.sections) and page.external == []
    assert "ZBL-09" in page.sections["engagements"] and "Carl Gustaf / MAAWS" in page.sections["engagements"]
    assert "Rifleman 3" in page.sections["casualties"] and "1/2" in page.sections["rolls"]


def test_running_again_replaces_the_demos_own_files_but_never_a_recording_it_did_not_write(demo, tmp_path):
    _, out, _, _, _ = demo
    again = tmp_path / "again"
    again.mkdir()
    shutil.copyfile(out / "demo.sqlite", again / "demo.sqlite")
    assert prepare_output_folder(again) == again and not (again / "demo.sqlite").exists()
    foreign = tmp_path / "demo.sqlite"
    from tracker.recording import Recorder

    Recorder(foreign, metadata={"command": "sandtable track 0"}).close()
    with pytest.raises(UsageError, match="not a recording of the demo"):
        prepare_output_folder(tmp_path)
    assert foreign.exists()


@pytest.mark.parametrize("argv, words", [
    (["demo", "--until", "7.1"], "not a step of the example"),
    (["demo", "--text", "--short"], "--text prints the rules walkthrough"),
    (["demo", "--screenshot", "x.png", "--headless"], "--screenshot pictures the demo window"),
])
def test_demo_mistakes_are_one_line(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
