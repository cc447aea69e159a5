"""`sandtable debrief A.sqlite B.sqlite --compare`: two runs of one scenario in one report."""
from __future__ import annotations

import pytest

from cli.main import main
from debrief.facts import EngagementOutcome, read_debrief_facts
from debrief.report import clock
from demo.example_recording import record_in_depth_example
from tracker.recording import Recorder

from debrief_helpers import parse


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compare")
    # the same scenario played at two paces: the second group took 3 s a step, the first 4 s
    a = record_in_depth_example(folder / "group_a.sqlite", step_s=4.0)
    b = record_in_depth_example(folder / "group_b.sqlite", step_s=3.0)
    return folder, a, b


def test_the_report_names_both_runs_and_their_first_contact(runs, capsys):
    folder, a, b = runs
    out = folder / "cmp.html"
    assert main(["debrief", str(a), str(b), "--compare", "--out", str(out), "--no-progress"]) == 0
    page = parse(out)
    glance = {row[0]: row[1:] for row in page.rows["summary"]}
    assert glance["recording"] == ["group_a.sqlite", "group_b.sqlite"]
    firsts = []
    for recording, cell in zip((a, b), glance["time to first contact"]):
        first = min(read_debrief_facts(recording).engagements, key=lambda e: e.t_s)
        firsts.append(clock(first.t_s))
        assert cell.startswith(clock(first.t_s)) and first.attacker_name in cell and first.target_name in cell
    assert firsts[0] != firsts[1]  # the two paces really give two different times
    said = capsys.readouterr().out
    assert f"first contact {firsts[0]}" in said and f"first contact {firsts[1]}" in said
    assert len(page.images) == 1 and page.images[0]["src"].startswith("data:image/png;base64,")
    assert page.external == []


def test_the_deciding_rolls_are_each_runs_least_likely_successes(runs):
    folder, a, b = runs
    out = folder / "cmp2.html"
    assert main(["debrief", str(a), str(b), "--compare", "--out", str(out), "--no-progress"]) == 0
    rows = parse(out).rows["deciding"]
    body = [r for r in rows if r[0] != "time"]
    assert len(body) == 10  # five per run
    for recording, part in zip((a, b), (body[:5], body[5:])):
        facts = read_debrief_facts(recording)
        chances = [int(r[2].split("%")[0]) for r in part]
        assert chances == sorted(chances)
        assert {r[3] for r in part} <= {EngagementOutcome.KILLED.value, EngagementOutcome.HIT.value, EngagementOutcome.WON.value}
        # nothing that went the attacker's way was less likely than the last one listed
        odds = [e.p_kill if e.outcome is EngagementOutcome.KILLED else e.p_hit for e in facts.engagements
                if e.outcome in (EngagementOutcome.KILLED, EngagementOutcome.HIT)]
        assert round(min(p for p in odds if p is not None) * 100) == chances[0]


def test_recordings_of_different_scenarios_are_refused_in_one_line_unless_forced(runs, tmp_path, capsys):
    from tracker.unit_pose import UnitPose, UnitState

    _, a, _ = runs
    other = tmp_path / "plain.sqlite"
    with Recorder(other) as rec:
        for i in range(20):
            t = i / 10
            rec.record_frame(i, t, [UnitPose(12, "tag 12", "", 10.0 + t, 20.0, 1.0, 0.0, UnitState.SEEN, t, t)])
    out = tmp_path / "cmp.html"
    assert main(["debrief", str(a), str(other), "--compare", "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not the same scenario" in err[0] and "--force" in err[0]
    assert not out.exists()
    assert main(["debrief", str(a), str(other), "--compare", "--out", str(out), "--force", "--no-progress"]) == 0
    assert "not the same scenario" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("argv, message", [
    (["debrief", "{a}", "--compare"], "exactly two recordings (got 1)"),
    (["debrief", "{a}", "{b}"], "2 recordings given"),
    (["debrief", "{a}", "--force"], "--force only applies to --compare"),
])
def test_a_mistaken_comparison_is_one_line(runs, capsys, argv, message):
    _, a, b = runs
    assert main([x.format(a=a, b=b) for x in argv] + ["--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_exposure_is_shown_per_run_when_the_debrief_measures_it(runs):
    from dataclasses import dataclass

    from debrief.compare import compare, render_comparison

    @dataclass(frozen=True)
    class Exposed:  # the shape of debrief.exposure's per-unit rows (written in parallel on another branch)
        name: str
        side: str
        exposed_s: float

    @dataclass(frozen=True)
    class Measured:
        line_of_sight: str
        units: tuple[Exposed, ...]

    _, a, b = runs
    facts_a, facts_b = read_debrief_facts(a), read_debrief_facts(b)
    plain = render_comparison(*compare(facts_a, facts_b))
    assert 'id="exposure"' not in plain
    shown = render_comparison(*compare(facts_a, facts_b, exposures=(
        Measured("flat table, eyes 1.5\" up", (Exposed("Sergeant", "Marines", 12.25),)),
        Measured("flat table, eyes 1.5\" up", (Exposed("Sergeant", "Marines", 30.0),)))))
    section = shown[shown.index('id="exposure"'):]
    assert "flat table" in section and "12.2" in section and "30.0" in section and "exposed s" in section
