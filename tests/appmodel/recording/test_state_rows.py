"""A long game's recorded states read one after another (each reading only the events the one before did
not have): the replay shows at every moment, played forwards or jumped to in any order, the game state
the session had then, also after a change that rewrote the history."""
from __future__ import annotations

import dataclasses
import json

from appmodel.recording.state_rows import StateRows, read_state_text
from appmodel.replay_model import ReplayModel
from clock_helpers import HandClock


def _recorded_game(path):
    """A recording whose game log grows at every change (and is cut back once, as an undo would), with
    the session's state after each change."""
    from appmodel.game_session import GameSession
    from rules.downrange.examples.in_depth import SCENARIO_PATH
    from rules.downrange.pieces import Status

    clock = HandClock()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1, clock=clock)
    session.start_recording(path)
    truth = []
    for i in range(30):
        clock.t_s = 1.0 + i
        if i == 20:  # the history rewritten: the last three events taken back
            session.apply_rules(lambda s: dataclasses.replace(s, events=s.events[:-3]), kind="edit")
        else:
            status = Status.DOWN if i % 2 == 0 else Status.ACTIVE
            session.apply_rules(lambda s, i=i, status=status: s.update_unit(31, status=status)
                                .log("rules", f"change {i}"), kind="edit")
        truth.append((clock.t_s, session.state))
    session.stop_recording()
    return truth


def test_the_replay_shows_the_recorded_state_at_every_moment_forwards_and_at_every_jump(tmp_path) -> None:
    truth = _recorded_game(tmp_path / "game.sqlite")
    model = ReplayModel(tmp_path / "game.sqlite")
    try:
        order = list(range(len(truth))) + [25, 3, 29, 0, 21, 20, 19, 10, 11, 28]
        for k in order:
            t, state = truth[k]
            model.seek(t + 0.5)
            shown = model.session.state
            assert [e.summary for e in shown.events] == [e.summary for e in state.events], f"at {t + 0.5} s"
            assert shown == state, f"at {t + 0.5} s"
    finally:
        model.close()


def test_a_state_row_whose_events_begin_as_the_last_ones_read_parses_only_the_new_ones() -> None:
    events = [{"kind": "rules", "seq": n, "summary": f"event {n}"} for n in range(5)]
    first = read_state_text(json.dumps({"sentences": [], "state": {"events": events[:3], "round": 1}}, sort_keys=True))
    later = read_state_text(json.dumps({"sentences": ["x"], "state": {"events": events, "round": 2}}, sort_keys=True),
                            first.events_text, first.count)
    assert (later.skipped, later.count) == (3, 5)
    assert later.payload == {"sentences": ["x"], "state": {"events": events[3:], "round": 2}}
    rewritten = [dict(events[0]), {**events[1], "summary": "taken back"}, *events[2:]]
    whole = read_state_text(json.dumps({"state": {"events": rewritten}}, sort_keys=True), later.events_text, later.count)
    assert (whole.skipped, whole.payload["state"]["events"]) == (0, rewritten)


def test_a_damaged_state_row_reads_as_no_state() -> None:
    rows = StateRows()
    assert rows.load(None, '{"state": {"events": [') is None
    assert rows.load(None, None) is None
