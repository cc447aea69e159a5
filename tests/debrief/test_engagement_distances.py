"""The debrief's engagements table gives the distance the rules measured: the number in their own sentence
("Alpha fires at RPG team (38.6" centre to centre ...)", "I1 fires the Rifle at R1, 9.2" away"), not one
worked out again from tracked positions or from the scenario's units as they were before a split.

The Force on Force patrol and the generic solo game are played by the demo's director on a real GUI
session fed the script's own positions (no camera), recorded with those poses; Down Range's is the
in-depth example's recording."""
from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from demo.example_recording import record_in_depth_example
from debrief.facts import DebriefFacts, Engagement
from debrief.report import write_debrief_report
from debrief_helpers import parse

FOF_FIRE = re.compile(r'^(?P<firer>.+) fires at (?P<target>.+) \((?P<d>\d+\.\d)" centre to centre')
GENERIC_SHOT = re.compile(r'^(?P<firer>\S+) fires the .+ at (?P<target>.+), (?P<d>\d+\.\d)" away')


def play_and_debrief(example: str, folder: Path) -> tuple[DebriefFacts, list[list[str]]]:
    """The example's short story played on a recording session, its poses recorded frame by frame;
    the debrief's facts and its engagements table (header first)."""
    from demo.director import DemoDirector
    from demo.story import DemoTiming, build_story
    from appmodel.game_session import GameSession
    from demo_example_runs import scripted_poses

    story = build_story(example=example, timing=DemoTiming.short())
    session = GameSession.from_scenario(story.scenario, source=str(story.scenario_path), seed=1)
    session.set_time(0.0)
    recorder = session.start_recording(folder / f"{example}.sqlite")
    director = DemoDirector(story, session)
    for i in range(story.frame_count):
        t = i / story.timing.fps
        session.set_time(t)
        director.advance(t)
        poses = scripted_poses(story, t)
        session.apply_poses(poses, t_s=t)
        recorder.record_frame(i, t, poses)
    director.advance(math.inf)
    session.stop_recording()
    facts = write_debrief_report(recorder.path, folder / f"{example}.html")
    return facts, parse(folder / f"{example}.html").rows["engagements"]


@pytest.fixture(scope="module")
def patrol(tmp_path_factory):
    return play_and_debrief("patrol", tmp_path_factory.mktemp("patrol"))


@pytest.fixture(scope="module")
def solo(tmp_path_factory):
    return play_and_debrief("solo", tmp_path_factory.mktemp("solo"))


def rows_by_engagement(facts: DebriefFacts, rows: list[list[str]]) -> list[tuple[Engagement, dict[str, str]]]:
    """Each engagement with its row of the report, cells by the table's headings."""
    header, body = rows[0], rows[1:]
    assert len(body) == len(facts.engagements)
    out = []
    for e, row in zip(facts.engagements, body):
        cells = dict(zip(header, row))
        assert e.attacker_name in cells.get("attacker", cells.get("shooter", ""))
        out.append((e, cells))
    return out


def sentence_of(facts: DebriefFacts, e: Engagement, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The rules' sentence of this engagement's fire or shot, when it names this attacker and target."""
    for fact in facts.rules:
        if abs(fact.t_s - e.t_s) > 1e-9:
            continue
        found = pattern.match(fact.sentences[0]) if fact.sentences else None
        if found and found["firer"] == e.attacker_name and found["target"] == e.target_name:
            return found
    return None


def test_force_on_force_fires_show_the_centre_to_centre_distance_of_the_rules_sentence(patrol):
    facts, rows = patrol
    pairs = rows_by_engagement(facts, rows)
    heading = next(h for h in rows[0] if h.startswith("distance"))
    assert heading == "distance (centre to centre)"
    checked = []
    for e, cells in pairs:
        said = sentence_of(facts, e, FOF_FIRE)
        assert said is not None, f"no rules sentence for {e.attacker_name} firing at {e.target_name}"
        assert cells[heading] == f'{said["d"]}"', (e.attacker_name, e.target_name, cells[heading], said[0])
        # The map's arrow joins the centres the rules measured between.
        assert math.dist(e.from_in, e.to_in) == pytest.approx(float(said["d"]), abs=0.05)
        checked.append((e.t_s, e.attacker_name, e.target_name))
    assert len(checked) == 5
    # The case that was wrong: Alpha fires after figures split off it (its centre is no longer the scenario's).
    split_at = min(f.t_s for f in facts.rules if f.kind == "split")
    assert any(name == "Alpha" and t > split_at for t, name, _ in checked)


def test_generic_shots_show_the_base_to_base_distance_of_the_rules_sentence(solo):
    facts, rows = solo
    pairs = rows_by_engagement(facts, rows)
    heading = next(h for h in rows[0] if h.startswith("distance"))
    assert heading == "distance (base to base)"
    aimed = caught = close = 0
    for e, cells in pairs:
        if e.weapon == "Close combat":
            assert cells[heading] == "adjacent"  # the rules measure no distance: the bases must touch
            close += 1
            continue
        said = sentence_of(facts, e, GENERIC_SHOT)
        if said is None:  # a unit caught where the shot came down, not the one aimed at
            assert cells[heading] == "in the blast", (e.target_name, cells[heading])
            caught += 1
            continue
        assert cells[heading] == f'{said["d"]}"', (e.attacker_name, e.target_name, cells[heading], said[0])
        aimed += 1
    assert (aimed, caught, close) == (3, 2, 4)


def test_down_range_attacks_show_the_distance_the_rules_measured(tmp_path):
    recording = record_in_depth_example(tmp_path / "in_depth.sqlite")
    facts = write_debrief_report(recording, tmp_path / "report.html")
    rows = parse(tmp_path / "report.html").rows["engagements"]
    pairs = rows_by_engagement(facts, rows)
    heading = "distance (base to base)"
    assert heading in rows[0]
    measured = {}
    for fact in facts.rules:
        outcome = fact.payload.get("outcome") or {}
        for target in outcome.get("targets", []) if isinstance(outcome, dict) else []:
            measured[(fact.t_s, target["name"])] = (target["distance_in"], target.get("in_blast"))
    blast = plain = 0
    for e, cells in pairs:
        if e.target_id is None:
            continue
        distance, in_blast = measured[(e.t_s, e.target_name)]
        if in_blast:
            assert cells[heading] == f'{distance:.1f}" from the blast centre'
            blast += 1
        else:
            assert cells[heading] == f'{distance:.1f}"'
            plain += 1
    # Section 6.5.1's autocannon, measured base to base as the rules did.
    assert plain == 3 and blast == 9
    autocannon = {e.target_name: cells[heading] for e, cells in pairs if e.weapon == "Autocannon"}
    assert autocannon == {"UTV": '18.5"', "Mortar gunner": '27.2"'}

