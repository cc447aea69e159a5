"""A recording started mid-game begins with the game as it stood (the newcomer's review, #3): kill the
Officer, then start recording; the debrief must count him out of the fight and the replay must show
him down at time 0, read back from a real SQLite recording."""
from __future__ import annotations

from appmodel.game_session import GameSession
from appmodel.replay_model import ReplayModel
from debrief.facts import read_debrief_facts
from rules.downrange.examples import in_depth
from clock_helpers import HandClock

OFFICER = 30


def test_a_recording_started_after_a_kill_starts_with_the_casualty(tmp_path):
    clock = HandClock()
    session = GameSession.from_scenario_file(in_depth.SCENARIO_PATH, seed=1, clock=clock)
    side = session.unit(OFFICER).side
    on_side = [u for u in session.units() if u.side == side]
    clock.t_s = 40.0
    session.edit_unit(OFFICER, {"status": "down"})  # killed before anyone pressed Ctrl+R
    assert session.unit(OFFICER).status != "active"
    recording = tmp_path / "late.sqlite"
    clock.t_s = 60.0
    session.start_recording(recording)
    clock.t_s = 70.0
    session.bookmark("after the kill")
    session.stop_recording()

    facts = read_debrief_facts(recording)
    assert OFFICER in facts.down_at(0.0)
    (change,) = [c for c in facts.casualties if c.tag_id == OFFICER]
    assert change.name == "Officer" and change.change == "down" and "before the recording started" in change.cause
    still = [u for u in facts.units if u.side == side and u.tag_id not in facts.down_at(float("inf"))]
    assert len(still) == len(on_side) - 1

    replay = ReplayModel(recording)
    try:
        at_start = {u.unit_id: u for u in replay.session.ruleset.units(replay.state_at(0.0))}
        assert at_start[OFFICER].status != "active"
    finally:
        replay.close()


def test_a_recording_from_the_first_turn_has_no_casualty_at_start(tmp_path):
    clock = HandClock()
    session = GameSession.from_scenario_file(in_depth.SCENARIO_PATH, seed=1, clock=clock)
    recording = tmp_path / "early.sqlite"
    session.start_recording(recording)
    clock.t_s = 5.0
    session.stop_recording()
    facts = read_debrief_facts(recording)
    assert facts.down_at(0.0) == frozenset()
