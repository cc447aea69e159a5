"""The report's after-action review lists what the replay window's event list lists: the same events of
the same kinds, sides, units, cards, topics and comms (who a signal reached, whose radios jamming cut),
built by one builder over the recorded rows -- on the in-depth example (a recording of the rules
alone: signals reached through the tracked positions) and on a game the window recorded with its game
states (jamming)."""
from __future__ import annotations

import pytest

from appmodel.replay_model import ReplayModel
from debrief.aar import aar_data
from debrief.facts import read_debrief_facts
from demo.example_recording import record_in_depth_example


def listed(events) -> list[tuple]:
    return [(round(e.t_s, 3), e.kind, e.text, e.side, e.unit_ids, e.comms, e.topics, e.card) for e in events]


def window_and_report(path):
    replay = ReplayModel(path)
    try:
        return listed(replay.review), read_debrief_facts(path)
    finally:
        replay.close()


def test_the_in_depth_examples_review_is_the_same_in_the_window_and_the_report(tmp_path) -> None:
    window, facts = window_and_report(record_in_depth_example(tmp_path / "example.sqlite"))
    assert listed(facts.review) == window
    kinds = {row[1] for row in window}
    assert {"kill", "attack", "signal", "action", "bookmark", "rules", "tracker"} <= kinds
    data = aar_data(facts)
    names = {u[0]: u[1] for u in data["units"]}
    # The Focus-Signal at 0:12 that the report used to miss: the sergeant's voice chain, as the window says.
    first = data["comms"][0]
    assert first[0] == pytest.approx(12.01) and names[first[2]] == "Sergeant" and first[3]
    assert [e[:2] for e in data["events"]] == [[round(t, 3), k] for t, k, *_ in window]
    assert [k[0] for k in data["kinds"] if not k[3]] == ["tracker"]  # left out until asked, as in the window


def test_jamming_recorded_by_the_window_is_the_same_in_the_report(tmp_path) -> None:
    from rules.action_forms import ActionRequest
    from review_helpers import recorded_jamming_game

    session = recorded_jamming_game(tmp_path, "jam")
    session.resolve_action(ActionRequest("jam", 4))
    session.stop_recording()
    window, facts = window_and_report(tmp_path / "jam.sqlite")
    assert listed(facts.review) == window
    comms = aar_data(facts)["comms"]
    assert [(c[1], c[4]) for c in comms] == [("jamming", ["Enemy radioman"])]
