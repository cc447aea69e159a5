"""Review topics planned in the scenario: a game played through the session and recorded to real SQLite,
with bookmarks carrying notes and topics, debriefs into a "Review topics" section listing each topic's
bookmarks and the matching events; a topic naming an unknown unit or kind is refused in one line."""
from __future__ import annotations

from pathlib import Path

import pytest

from appmodel.errors import UsageError
from appmodel.game_session import GameSession
from appmodel.session.review_topics import review_topics
from debrief.facts import read_debrief_facts
from debrief.report import render_report
from rules.downrange.examples.in_depth import SCENARIO_PATH
from rules.downrange.pieces import Status
from rules.ruleset import ActionRequest
from tracker.recording import open_recording
from clock_helpers import HandClock

SERGEANT, MAAWS, CORPSMAN, GUNNER = 10, 13, 14, 11

TOPICS = '''
[[review_topics]]
name = "Casualty evacuation"
units = ["Corpsman"]
kinds = ["treat"]

[[review_topics]]
name = "Comms"
kinds = ["signal"]
until_s = 6

[[review_topics]]
name = "The jammer"
kinds = ["jam"]
'''


def scenario_with(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "in_depth_topics.toml"
    path.write_text(Path(SCENARIO_PATH).read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


def played(tmp_path: Path) -> Path:
    clock = HandClock()
    session = GameSession.from_scenario_file(scenario_with(tmp_path, TOPICS), seed=5, clock=clock)
    assert [t.name for t in session.review_topics] == ["Casualty evacuation", "Comms", "The jammer"]
    corpsman = session.unit(CORPSMAN)
    session.set_state(session.state.update_unit(GUNNER, status=Status.DOWN, x_in=corpsman.x_in + 1.2, y_in=corpsman.y_in))
    path = tmp_path / "game.sqlite"
    session.start_recording(path)
    clock.t_s = 3.0
    session.resolve_action(ActionRequest("treat", CORPSMAN, {"patient": GUNNER}), [6])
    clock.t_s = 4.0
    session.bookmark("Corpsman reached him under fire", "Casualty evacuation")
    clock.t_s = 5.0
    session.resolve_action(ActionRequest("signal", SERGEANT), [])
    clock.t_s = 9.0
    session.bookmark("", "Comms", at_s=5.5)  # asked for at 5.5 s, the dialog closed at 9 s
    clock.t_s = 7.0
    session.resolve_action(ActionRequest("sprint", MAAWS), [])
    session.resolve_action(ActionRequest("signal", SERGEANT), [])  # after Comms' window: not listed
    session.bookmark("Good cover", "Ad hoc")  # a topic typed in the dialog, not planned
    session.bookmark("plain mark")
    session.stop_recording()
    return path


def test_the_debrief_lists_each_topics_bookmarks_and_matching_events(tmp_path: Path) -> None:
    facts = read_debrief_facts(played(tmp_path))
    by_name = {t.name: t for t in facts.topics}
    assert list(by_name) == ["Casualty evacuation", "Comms", "The jammer", "Ad hoc"]
    evac = [(m.t_s, m.source) for m in by_name["Casualty evacuation"].moments]
    assert evac[0][0] == 3.0 and evac[0][1] != "bookmark" and evac[1:] == [(4.0, "bookmark")]
    assert by_name["Casualty evacuation"].moments[1].text == "Corpsman reached him under fire"
    comms = by_name["Comms"].moments
    assert [(m.t_s, m.source) for m in comms] == [(5.0, "signal"), (5.5, "bookmark")]
    assert comms[1].text == "Bookmark at " + comms[1].text.split("at ")[1]  # no note: the moment's own words
    assert by_name["The jammer"].moments == ()
    assert [m.text for m in by_name["Ad hoc"].moments] == ["Good cover"]
    assert [(b.note, b.topic) for b in facts.bookmarks][-1] == ("plain mark", "")

    html = render_report(facts)
    section = html.split('<section id="topics">')[1].split("</section>")[0]
    assert "<h2>Review topics</h2>" in section and "Casualty evacuation" in section
    assert "Corpsman reached him under fire" in section and "Nothing was recorded for this topic." in section
    assert section.index("Corpsman reached him") < section.index("Comms")  # under its own topic

    from cli.debrief_pack import pack_blocks
    from printing.document import Table

    (table,) = [b for b in pack_blocks(facts) if isinstance(b, Table) and b.headers[0] == "topic"]
    topics_in_pdf = [row[0].split(" (")[0] for row in table.rows if row[0]]
    assert topics_in_pdf == ["Casualty evacuation", "Comms", "The jammer", "Ad hoc"]
    assert ("", "0:04.0", "bookmark", "Corpsman reached him under fire") in table.rows


def test_older_bookmarks_without_topics_still_read(tmp_path: Path) -> None:
    clock = HandClock()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=5, clock=clock)
    path = tmp_path / "old.sqlite"
    session.start_recording(path)
    session._rows.bookmark(1.0, "an old note [not a topic]")  # written as every older recording wrote it
    session.stop_recording()
    facts = read_debrief_facts(path)
    assert [(b.note, b.topic) for b in facts.bookmarks] == [("an old note [not a topic]", "")]
    assert facts.topics == ()
    with open_recording(path) as reader:
        assert [b.note for b in reader.bookmarks()] == ["an old note [not a topic]"]


@pytest.mark.parametrize("entry, message", [
    ('name = "Bravo"\nunits = ["Nobody"]', "review topic 'Bravo' names unit 'Nobody', which is not among the scenario's units"),
    ('name = "Bravo"\nunits = [99]', "review topic 'Bravo' names unit 99"),
    ('name = "Bravo"\nkinds = ["teleport"]', "review topic 'Bravo' names kind 'teleport'; known kinds: attack"),
    ('units = ["Corpsman"]', "review topic 1 has no name"),
])
def test_a_bad_topic_is_refused_in_one_line(tmp_path: Path, entry: str, message: str) -> None:
    path = scenario_with(tmp_path, f"\n[[review_topics]]\n{entry}\n")
    with pytest.raises(UsageError) as caught:
        GameSession.from_scenario_file(path, seed=5)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(UsageError, match="review topic"):
        from appmodel.scenarios.check import check_scenario
        check_scenario(path)


def test_topics_name_units_by_tag_or_name() -> None:
    scenario = {"units": [{"tag_id": 12, "name": "Alpha"}, {"tag_id": 13, "name": "Bravo"}],
                "review_topics": [{"name": "Alpha and Bravo", "units": ["alpha", 13], "from_s": 60}]}
    (topic,) = review_topics(scenario)
    assert topic.unit_tags == (12, 13) and topic.in_window(60) and not topic.in_window(59)
