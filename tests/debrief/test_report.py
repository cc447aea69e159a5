"""The debrief of a recorded session as a user reads it: the facts of the rulebook's in-depth example, and
the HTML report parsed for its sections, its pictures and every roll of the recording."""
from __future__ import annotations

import base64
import re
import shutil

import pytest

from appmodel.recording.reader import rules_record
from cli.main import main
from demo.example_recording import record_in_depth_example
from debrief.facts import EngagementOutcome, read_debrief_facts
from debrief.report import SECTIONS, write_debrief_report
from tracker.recording import Recorder
from tracker.recording import RecordingReader

from debrief_helpers import parse


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    folder = tmp_path_factory.mktemp("debrief")
    recording = record_in_depth_example(folder / "in_depth.sqlite")
    facts = write_debrief_report(recording, folder / "report.html")
    return recording, folder / "report.html", facts


def test_the_in_depth_example_comes_out_as_the_rulebook_tells_it(example):
    _, _, facts = example
    by_weapon = {}
    for e in facts.engagements:
        by_weapon.setdefault(e.weapon, []).append(e)
    mortar = {e.target_name: e.outcome for e in by_weapon["60 mm mortar"]}
    assert mortar["Rifleman 1"] is mortar["Rifleman 2"] is EngagementOutcome.KILLED
    assert {mortar[n] for n in ("Officer", "Automatic rifleman", "AT missileman")} == {EngagementOutcome.HIT}
    assert by_weapon["60 mm mortar"][0].p_hit == pytest.approx(0.5)  # 4 + 1 against Difficulty 5
    autocannon = {e.target_name: e for e in by_weapon["Autocannon"]}
    assert autocannon["UTV"].outcome is EngagementOutcome.KILLED and (autocannon["UTV"].hits, autocannon["UTV"].shots) == (1, 2)
    assert autocannon["Mortar gunner"].outcome is EngagementOutcome.KILLED
    first_maaws, second_maaws = by_weapon["Carl Gustaf / MAAWS"]
    assert first_maaws.outcome is EngagementOutcome.MISS and first_maaws.target_id is None
    assert second_maaws.outcome is EngagementOutcome.KILLED and second_maaws.target_name == "ZBL-09"
    # engagement lines start where the shooter stood when it fired
    assert autocannon["UTV"].from_in == pytest.approx((44.0, 25.0)) and autocannon["UTV"].to_in == pytest.approx((22.0, 27.0))
    # casualties: the ZBL-09 takes its officer and two riflemen with it; the corpsman brings both mortarmen back
    down_end = facts.down_at(float("inf"))
    names = {u.tag_id: u.name for u in facts.units}
    assert {names[t] for t in down_end if facts.unit(t).side == "Marines"} == {"UTV"}
    assert len([t for t in down_end if facts.unit(t).side == "PLA Marine Corps"]) == 9
    curve = facts.casualties_over_time()["Marines"]
    assert max(n for _, n in curve) == 3 and curve[-1][1] == 1
    # emissions: the sergeant's and the officer's RPV control, the final radio call; nobody had EW
    assert [(m.name, m.purpose) for m in facts.emissions] == [("Sergeant", "RPV control"), ("Officer", "RPV control"), ("Sergeant", "radio call")]
    assert all(m.could_locate == () and "no enemy EW unit" in m.note for m in facts.emissions)
    assert facts.emissions[0].until_t_s is not None and facts.emissions[0].until_t_s > facts.emissions[0].t_s
    assert len(facts.bookmarks) == 2 and facts.problems == ()


def test_the_report_has_every_section_and_needs_nothing_but_itself(example):
    _, report, facts = example
    page = parse(report)
    assert set(SECTIONS) <= set(page.sections)
    assert page.external == []  # no stylesheet, script, image or link outside the file
    assert len(page.images) == 3  # the map, the exposure heat maps, the casualties
    for image in page.images:
        assert image["src"].startswith("data:image/png;base64,")
        png = base64.b64decode(image["src"].split(",", 1)[1])
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    assert "<h1>Debrief: Down Range in-depth example</h1>" in report.read_text(encoding="utf-8")
    assert "1 of 10" in page.sections["summary"] and "6 of 7" in page.sections["summary"]
    for bookmark in facts.bookmarks:
        assert bookmark.note in page.sections["bookmarks"]
    assert "no enemy EW unit in the fight" in page.sections["emissions"]


def test_every_roll_of_the_recording_appears_with_its_odds(example):
    recording, report, _ = example
    rows = parse(report).rows["rolls"][1:]  # after the header
    with RecordingReader(recording) as reader:
        recorded = [(r.t_s, roll) for r in reader.rules_events()
                    for roll in rules_record(r.t_s, r.kind, r.payload).body.get("rolls", [])]
    assert len(recorded) == 36
    for t_s, roll in recorded:
        label, total, faces = roll["label"], roll["dice_total"], roll["faces"]
        at = [row for row in rows if row[0] == f"{int(t_s // 60)}:{t_s % 60:04.1f}"]
        if label.startswith("Defense of "):  # the Defense dice are shown with the Damage they met
            target = label.removeprefix("Defense of ")
            assert any(row[1] == f"Damage against {target}" and f"(rolled {total})" in row[3] for row in at), label
            continue
        matching = [row for row in at if row[1].lower().startswith(label.lower())]
        assert matching, f"{label} at {t_s} is missing from the report"
        rolled = matching[0][5]
        if faces and len(faces) > 1:
            assert rolled.startswith("(" + ", ".join(map(str, faces)) + ")"), (label, rolled)
        else:
            assert rolled.split(" → ")[0] == str(total), (label, rolled)
        assert "%" in matching[0][4]  # its odds
    by_label = {row[1]: row for row in rows}
    assert by_label["Skill roll of Mortar gunner with the 60 mm mortar"][4].startswith("50.0% (1/2)")
    assert by_label["Skill roll of ZBL-09 with the Autocannon at UTV, attack 1 of 2"][4].startswith("55.6% (5/9)")
    assert by_label["Skill roll of AT missileman with the AT missile (example 6.5.3)"][4].startswith("25.0% (1/4)")
    assert by_label["Damage against UTV"][6] == "killed" and by_label["Skill roll of Mortar gunner with the 60 mm mortar"][5] == "4 → 5"


def test_sandtable_debrief_writes_the_report_with_progress_on_stderr(example, tmp_path, capsys):
    recording, _, _ = example
    out = tmp_path / "game.html"
    assert main(["debrief", str(recording), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "wrote" in captured.out and "6 attacks" in captured.out
    assert not re.search(r"\b1 (unit|attack|roll|emission|bookmark)s\b", captured.out), captured.out
    from cli.commands.debrief import _counted

    assert (_counted(1, "attack"), _counted(0, "bookmark"), _counted(6, "attack")) == ("1 attack", "0 bookmarks", "6 attacks")
    assert "rules events" in captured.err and "[##############################]" in captured.err
    assert set(SECTIONS) <= set(parse(out).sections)


def test_a_recording_cut_off_mid_game_still_reports_with_a_note_of_what_is_missing(example, tmp_path):
    recording, _, _ = example
    live = tmp_path / "live.sqlite"
    with RecordingReader(recording) as full:
        events = full.rules_events()
        roster_meta = {k: v for k, v in full.meta.items() if k in ("scenario_toml", "scenario_path", "ruleset")}
        half = [r for r in events if r.t_s < 50.0]
        poses = [(t, full.poses_at(t)) for t in (0.0, 20.0, 40.0, 49.0)]
    recorder = Recorder(live, metadata=roster_meta)
    for i, (t, frame_poses) in enumerate(poses):
        recorder.record_frame(i, t, frame_poses)
    for r in half:
        recorder.record_rules_event(r.t_s, r.kind, r.payload)
    recorder.flush()
    # what a kill leaves on disk: the database and its write-ahead log, never closed
    cut = tmp_path / "cut.sqlite"
    shutil.copy(live, cut)
    shutil.copy(f"{live}-wal", f"{cut}-wal")
    recorder.close()
    out = tmp_path / "cut.html"
    facts = write_debrief_report(cut, out)
    assert any("not closed cleanly" in p for p in facts.problems)
    page = parse(out)
    assert "not closed cleanly" in page.sections["notes"]
    assert "Rifleman 1" in page.sections["engagements"] and "MAAWS gunner" in page.sections["engagements"]
    assert "Sergeant with the M4" not in page.sections["casualties"]  # 6.5.2 came after the cut


def test_a_recording_without_rules_or_scenario_reports_tracking_only(tmp_path):
    from tracker.unit_pose import UnitPose, UnitState

    path = tmp_path / "plain.sqlite"
    with Recorder(path) as rec:
        for i in range(30):
            t = i / 10
            rec.record_frame(i, t, [UnitPose(12, "tag 12", "", 10.0 + t, 20.0, 1.0, 0.0, UnitState.SEEN, t, t)])
    facts = write_debrief_report(path, tmp_path / "plain.html")
    assert facts.engagements == () and facts.rules == () and 12 in facts.trails
    assert facts.trails[12].length_in == pytest.approx(2.9)
    page = parse(tmp_path / "plain.html")
    assert "No attack was resolved" in page.sections["engagements"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["debrief"], "give a RECORDING"),
        (["debrief", "missing.sqlite"], "no recording at 'missing.sqlite'"),
        (["debrief", "{tmp}/notes.txt"], "not an SQLite file"),
        (["debrief", "{rec}", "--out", "{tmp}/no/such/folder/r.html"], "does not exist; create it first"),
    ],
)
def test_a_user_mistake_is_one_line_and_exit_code_2(example, tmp_path, capsys, argv, message):
    (tmp_path / "notes.txt").write_text("not a recording")
    argv = [a.format(tmp=tmp_path, rec=example[0]) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_an_older_recording_in_the_flat_shape_with_the_sessions_bookkeeping_gives_the_same_facts(example, tmp_path):
    """Recordings once held the event's keys and its odds side by side (the demo wrote them so), and the
    GUI adds its own log lines, view and state snapshots: the reader migrates the one and skips the other."""
    recording, _, facts = example
    gui_made = tmp_path / "gui.sqlite"
    with RecordingReader(recording) as reader, Recorder(gui_made, metadata=dict(reader.meta)) as rec:
        for t in sorted({0.0, *(r.t_s for r in reader.rules_events())}):
            rec.record_frame(int(t * 100), t, list(reader.poses_at(t)))
        rec.record_rules_event(0.0, "state:start", {"state": {"units": []}, "sentences": []})
        rec.record_rules_event(0.0, "view", {"selected_unit": None, "selected_weapon": None, "blast_point": None})
        for r in reader.rules_events():
            event = r.payload["event"]  # the one shape written now: {"event": ..., "odds": [...]}
            flat = {**event, **({"odds": r.payload["odds"]} if "odds" in r.payload else {})}
            rec.record_rules_event(r.t_s, r.kind, flat)
            rec.record_rules_event(r.t_s, "log", {"kind": "rules", "text": event["summary"], "round": event["round"]})
        for b in reader.bookmarks():
            rec.add_bookmark(b.t_s, b.note)
    again = read_debrief_facts(gui_made)
    assert [r.summary for r in again.rules] == [r.summary for r in facts.rules]
    assert [(e.attacker_name, e.target_name, e.outcome, e.p_kill) for e in again.engagements] == \
        [(e.attacker_name, e.target_name, e.outcome, e.p_kill) for e in facts.engagements]
    assert again.casualties == facts.casualties and again.emissions == facts.emissions
    assert len(again.rolls()) == len(facts.rolls())
