"""The log's lines as players read and export them: the rules' sentences with their warnings, the
tracker's notices in words, and a file a spreadsheet or a text editor opens."""
from __future__ import annotations

import json
from types import SimpleNamespace

from appmodel.session.game_log import GameLog, LogEntry, bookmark_text, clock_text, rules_lines, tracker_event_text
from rules.events import RulesEvent

SHOT = RulesEvent(1, "attack", 2, "Blue", "Ruiz fires at the gunner: hit.")
MOVE = RulesEvent(2, "move", 2, "Blue", "Diaz moved 7.5\".", warnings=("Diaz moved 1.5\" past his 6\".",))


def test_a_resolutions_sentences_are_logged_with_the_events_warnings() -> None:
    lines = rules_lines([SHOT, MOVE], ["Ruiz fires.", "The gunner is down."], 12.0, 2)
    assert [(e.kind, e.text) for e in lines] == [
        ("rules", "Ruiz fires."), ("rules", "The gunner is down."), ("warning", "Diaz moved 1.5\" past his 6\".")]
    assert {(e.t_s, e.round) for e in lines} == {(12.0, 2)}


def test_without_sentences_each_event_is_summarised_and_a_warning_event_is_a_warning() -> None:
    lines = rules_lines([SHOT, MOVE], [], 3.0, None)
    assert [(e.kind, e.text) for e in lines] == [
        ("rules", SHOT.summary), ("warning", MOVE.summary), ("warning", MOVE.warnings[0])]


def test_a_warning_equal_to_its_summary_is_logged_once() -> None:
    alone = RulesEvent(3, "warning", 1, None, "Out of command.", warnings=("Out of command.",))
    assert [e.text for e in rules_lines([alone], [], 0.0, 1)] == ["Out of command."]


def event(kind: str, **kw: object) -> SimpleNamespace:
    base = {"kind": SimpleNamespace(value=kind), "name": "", "tag_id": None, "payload": {}, "t_s": 1.0}
    return SimpleNamespace(**{**base, **kw})


def test_tracker_events_a_player_should_hear_about_are_put_in_words() -> None:
    assert tracker_event_text(event("lifted", name="Sgt. Ruiz", tag_id=4)) == "Sgt. Ruiz was lifted off the table."
    assert tracker_event_text(event("lost", tag_id=9)) == "tag 9 has not been seen for a while (lost)."
    assert "remove the copy" in tracker_event_text(event("conflict", tag_id=3))
    assert tracker_event_text(event("seen", tag_id=4)) is None, "routine sightings stay out of the log"


def test_bookmarks_without_a_note_say_when_they_were_made() -> None:
    assert bookmark_text("  ", 3725) == "Bookmark at 1:02:05"
    assert bookmark_text(" Ambush ", 10) == "Ambush"
    assert clock_text(-3) == "0:00"


def test_the_log_exports_as_text_or_json_lines(tmp_path) -> None:
    log = GameLog()
    log.add(LogEntry(75.4, "note", "Smoke on the ridge.", 2))
    log.add(LogEntry(80.0, "tracker", "The camera is back."))
    text = log.export(tmp_path / "game.txt").read_text(encoding="utf-8")
    assert text == "[1:15] R2 Smoke on the ridge.\n[1:20] The camera is back.\n"
    rows = [json.loads(line) for line in log.export(tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows == [{"t_s": 75.4, "kind": "note", "round": 2, "text": "Smoke on the ridge."},
                    {"t_s": 80.0, "kind": "tracker", "round": None, "text": "The camera is back."}]


def test_replacing_the_log_shows_the_lines_of_that_moment() -> None:
    log = GameLog()
    log.add(LogEntry(1.0, "note", "a"))
    log.replace([LogEntry(0.5, "rules", "b")])
    assert [e.text for e in log.entries] == ["b"]
