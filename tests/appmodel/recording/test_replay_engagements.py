"""The replay jumps from engagement to engagement (the newcomer's review, #6: "." stopped at every
tracker event and never got past the last attack)."""
from __future__ import annotations

from appmodel.game_session import AttackDraft, GameSession
from appmodel.replay_model import ReplayModel
from rules.dice import SeededDice
from rules.downrange.examples import in_depth
from rules.ruleset import get_ruleset
from clock_helpers import HandClock

ZBL, UTV, GUNNER = 40, 15, 11
AUTOCANNON_DICE = [[6, 2], [4, 1], 12, 8, 2, 6, 10]


def test_next_engagement_goes_from_attack_to_attack_past_other_moments(tmp_path):
    clock = HandClock()
    steps = list(in_depth.STEPS)
    state = None
    for record in in_depth.play(steps[:[s.section for s in steps].index("6.5.1")]):
        state = record.state
    session = GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(),
                          scenario_path=str(in_depth.SCENARIO_PATH), dice=SeededDice(2), clock=clock)
    recording = tmp_path / "game.sqlite"
    session.start_recording(recording)
    clock.t_s = 2.0
    session.bookmark("before the shot")
    clock.t_s = 3.0
    session.note("a note in the log")
    clock.t_s = 6.0
    session.set_attack(AttackDraft(ZBL, "Autocannon", (UTV, GUNNER), {"crew_assistants": 1},
                                   {UTV: {"shots": 2}, GUNNER: {"shots": 2, "cover": "partial"}}))
    session.resolve_attack(AUTOCANNON_DICE)
    clock.t_s = 9.0
    session.note("after the shot")
    session.stop_recording()

    replay = ReplayModel(recording)
    try:
        assert replay.engagement_times == [6.0]
        assert replay.next_engagement_after(0.0) == 6.0  # past the bookmark and the note
        assert replay.next_engagement_after(6.0) is None
        assert replay.previous_engagement_before(9.0) == 6.0
        assert replay.next_moment_after(0.0).t_s < 6.0  # "." still stops on everything else
    finally:
        replay.close()
