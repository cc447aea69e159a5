"""The replay's after-action review events, read from the in-depth example's recording: every attack a
kill, hit or miss as the ruleset says, the actions without dice (boardings, treatments, Main Effort) in
the ruleset's words with their cards, signals with who they reached, the acting side of a Reaction,
bookmarks, and the filters the window's list uses."""
from __future__ import annotations

import pytest

from appmodel.recording.review import passes
from appmodel.replay_model import ReplayModel
from demo.example_recording import record_in_depth_example
from clock_helpers import HandClock
from review_helpers import JAMMING_SCENARIO, recorded_jamming_game


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    path = record_in_depth_example(tmp_path_factory.mktemp("review") / "example.sqlite")
    model = ReplayModel(path)
    yield model
    model.close()


def test_every_attack_is_an_engagement_of_the_kind_its_outcome_says(replay):
    attacks = [e for e in replay.review if e.kind in ("kill", "hit", "attack")]
    assert [e.t_s for e in attacks] == replay.engagement_times
    kills = [e for e in attacks if e.kind == "kill"]
    assert len(kills) == 5 and all("killed" in " ".join(e.card.outcome) for e in kills)
    miss = next(e for e in attacks if e.kind == "attack")
    assert "MAAWS" in miss.text and "killed" not in miss.text


def test_actions_without_dice_are_listed_in_the_rulesets_words_with_a_card(replay):
    actions = [e for e in replay.review if e.kind == "action"]
    texts = [e.text for e in actions]
    assert "Corpsman treats Mortar gunner: saved (injured)" in texts
    assert any("boards ZBL-09" in t for t in texts)
    assert any("designates ZBL-09 as the Main Effort" in t for t in texts)
    board = next(e for e in actions if "Officer boards" in e.text)
    assert board.card is not None and board.card.title == board.text and not board.card.dice


def test_a_reaction_is_the_reacting_units_side_and_names_its_units(replay):
    reaction = next(e for e in replay.review if e.kind == "kill" and "Sergeant fires the M4/M16 as a Reaction" in e.text)
    assert reaction.side == "Marines"
    assert {10, 31} <= set(reaction.unit_ids)  # the sergeant and the automatic rifleman


def test_signals_say_who_sent_them_and_who_they_reached(replay):
    signals = [e for e in replay.review if e.kind == "signal"]
    assert len(signals) == 3
    last = signals[-1]
    assert last.comms is not None and replay.unit_name(last.comms.from_id) == "Sergeant"
    reached = {replay.unit_name(u) for u in last.comms.to_ids}
    assert "Corpsman" in reached and "Sergeant" not in reached
    assert all(replay.unit_name(u) != "Officer" for u in last.comms.to_ids)  # the enemy hears nothing
    assert [c for c in replay.comms if c.kind == "signal"] == [e.comms for e in signals]
    assert any(c.kind == "command" and "Main Effort" in c.text for c in replay.comms)  # orders are comms too


def test_filters_choose_by_kind_side_and_unit(replay):
    marines = [e for e in replay.review if passes(e, side="Marines")]
    assert marines and all(e.side in ("Marines", None) for e in marines)
    assert any(e.kind == "bookmark" for e in marines)  # nobody's: shown under every side
    sergeant = [e for e in replay.review if passes(e, unit_id=10, kinds={"kill"})]
    assert sergeant and all(10 in e.unit_ids and e.kind == "kill" for e in sergeant)
    first_kill = replay.next_review_after(0.0, kinds={"kill"}, side="PLA Marine Corps")
    assert first_kill is not None and first_kill.kind == "kill" and first_kill.side == "PLA Marine Corps"
    assert replay.review_between(0.0, first_kill.t_s, kinds={"kill"}, side="PLA Marine Corps") == [first_kill]


def test_jamming_is_on_the_comms_lane_with_the_radios_it_cut(tmp_path):
    from rules.action_forms import ActionRequest

    session = recorded_jamming_game(tmp_path, "jam")
    session.resolve_action(ActionRequest("jam", 4))
    session.stop_recording()
    model = ReplayModel(tmp_path / "jam.sqlite")
    try:
        jams = [e for e in model.review if e.kind == "jamming"]
        assert len(jams) == 1 and jams[0].side == "Blue"
        link = jams[0].comms
        assert link is not None and link.kind == "jamming" and model.unit_name(link.from_id) == "Sparks"
        assert [model.unit_name(u) for u in link.to_ids] == ["Enemy radioman"]  # its own side's radios are not cut
        assert "Enemy radioman cannot use their radios" in jams[0].text
    finally:
        model.close()


def test_review_topics_moments_are_one_choice_to_stop_at(tmp_path):
    from rules.action_forms import ActionRequest

    clock = HandClock()
    session = recorded_jamming_game(tmp_path, "topics", clock=clock,
                                    extra='[[review_topics]]\nname = "The jammer"\nunits = ["Sparks"]\nkinds = ["jam"]\n'
                                          '[[review_topics]]\nname = "First contact"\n')
    clock.t_s = 2.0
    session.bookmark("the radioman is spotted", topic="First contact")
    clock.t_s = 4.0
    session.resolve_action(ActionRequest("signal", 1, {"purpose": "other"}))
    clock.t_s = 6.0
    session.resolve_action(ActionRequest("jam", 4))
    session.stop_recording()
    model = ReplayModel(tmp_path / "topics.sqlite")
    try:
        moments = [e for e in model.review if passes(e, kinds={"topic"})]
        assert [(e.t_s, e.kind, e.topics) for e in moments] == [(2.0, "bookmark", ("First contact",)),
                                                                (6.0, "jamming", ("The jammer",))]
        assert model.next_review_after(2.0, kinds={"topic"}).kind == "jamming"  # past the signal
    finally:
        model.close()


def test_the_replay_reads_each_state_again_and_keeps_only_a_few_decoded(tmp_path):
    from appmodel.game_session import GameSession
    from appmodel.replay_model import STATES_KEPT
    from rules.downrange.examples.in_depth import SCENARIO_PATH
    from rules.downrange.pieces import Status

    clock = HandClock()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1, clock=clock)
    session.start_recording(tmp_path / "many.sqlite")
    changes = 3 * STATES_KEPT
    for i in range(changes):
        clock.t_s = 1.0 + i
        status = Status.DOWN if i % 2 == 0 else Status.ACTIVE
        session.apply_rules(lambda s, status=status: s.update_unit(31, status=status), kind="edit")
        if i == 5:  # two changes at one moment: each is found again in its place
            session.apply_rules(lambda s: s.update_unit(31, status=Status.REMOVED), kind="edit")
    session.stop_recording()
    model = ReplayModel(tmp_path / "many.sqlite")
    try:
        for i in list(range(changes)) + [3, 0, changes - 2]:
            model.seek(1.5 + i)
            want = "removed" if i == 5 else ("down" if i % 2 == 0 else "active")
            assert model.session.unit(31).status == want, f"at {1.5 + i} s"
        assert len(model._states) <= STATES_KEPT
    finally:
        model.close()


def test_a_ruleset_that_says_who_a_signal_reached_is_taken_at_its_word(tmp_path, monkeypatch):
    """A ruleset's own comms views (who it reached, whose radios it cut, by name) go on the lane as they
    are; the overlays only fill in for a ruleset that says nothing."""
    from dataclasses import dataclass

    from appmodel.game_session import GameSession
    from rules.action_forms import ActionRequest
    from rules.ruleset import get_ruleset

    @dataclass(frozen=True)
    class Said:
        unit_id: int
        kind: str
        to_ids: tuple[int, ...] = ()
        cut_names: tuple[str, ...] = ()

    def comms(self, event):
        if event.kind == "jamming":
            return (Said(4, "jamming", cut_names=("Sergeant",)),)  # what no overlay would say: its word is taken
        if event.kind == "signal":
            return (Said(1, "signal", to_ids=(9,)),)
        return ()

    monkeypatch.setattr(type(get_ruleset("down-range")), "comms", comms, raising=False)
    scenario = tmp_path / "said.toml"
    scenario.write_text(JAMMING_SCENARIO, encoding="utf-8")
    session = GameSession.from_scenario_file(scenario, seed=1)
    session.start_recording(tmp_path / "said.sqlite")
    session.resolve_action(ActionRequest("signal", 1, {"purpose": "other"}))
    session.resolve_action(ActionRequest("jam", 4))
    session.stop_recording()
    model = ReplayModel(tmp_path / "said.sqlite")
    try:
        assert [(c.kind, c.from_id, c.to_ids) for c in model.comms] == [("signal", 1, (9,)), ("jamming", 4, (1,))]
    finally:
        model.close()


def test_a_step_of_play_ending_a_hair_short_of_a_kill_stops_at_it_and_the_next_step_does_not(replay):
    # The window's playback sums ticks of clock time: a sum may end 1e-12 s short of the kill (the
    # report's player once stepped over such a kill on the next frame).
    kill = replay.next_review_after(0.0, kinds={"kill"})
    assert kill is not None
    assert replay.review_between(kill.t_s - 0.25, kill.t_s - 1e-12, kinds={"kill"}) == [kill]
    assert replay.review_between(kill.t_s, kill.t_s + 0.25, kinds={"kill"}) == []  # standing on it: behind
