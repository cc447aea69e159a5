"""A game recorded by the GUI session (as `sandtable gui` and `sandtable run` record it) carries the odds
the players were shown with each attack, so its debrief lists them instead of "—"; and a hand-set
emission token appears among the debrief's emissions like one the rules set."""
from __future__ import annotations

from pathlib import Path

import pytest

from gui.debrief.facts import EngagementOutcome, read_debrief_facts
from gui.debrief.report import write_debrief_report
from gui.session import AttackDraft, GameSession
from rules.dice import SeededDice
from rules.downrange.examples import in_depth
from rules.ruleset import get_ruleset
from tracker.replay import RecordingReader

ZBL, UTV, GUNNER = 40, 15, 11
#: The players' dice of section 6.5.1, as the attack panel's form takes them.
AUTOCANNON_DICE = [[6, 2], [4, 1], 12, 8, 2, 6, 10]


class Clock:
    """The session's clock, moved on by the test (recordings keep the session time of each event)."""

    def __init__(self) -> None:
        self.t_s = 0.0

    def __call__(self) -> float:
        return self.t_s


def down_range_session_before(section: str, clock: Clock) -> GameSession:
    steps = list(in_depth.STEPS)
    state = None
    for record in in_depth.play(steps[:[s.section for s in steps].index(section)]):
        state = record.state
    return GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(),
                       scenario_path=str(in_depth.SCENARIO_PATH), dice=SeededDice(2), clock=clock)


def report_rows(path: Path, section: str) -> list[list[str]]:
    from tests.test_debrief_report import parse

    return parse(path).rows.get(section, [])


def test_the_debrief_of_a_gui_recording_shows_the_odds_the_players_saw(tmp_path):
    clock = Clock()
    session = down_range_session_before("6.5.1", clock)
    recording = tmp_path / "gui.sqlite"
    session.start_recording(recording)
    clock.t_s = 5.0
    session.set_attack(AttackDraft(ZBL, "Autocannon", (UTV, GUNNER), {"crew_assistants": 1},
                                   {UTV: {"shots": 2}, GUNNER: {"shots": 2, "cover": "partial"}}))
    shown = {o.unit_id: o for o in session.snapshot().odds}
    clock.t_s = 6.0
    session.resolve_attack(AUTOCANNON_DICE)
    session.stop_recording()

    facts = write_debrief_report(recording, tmp_path / "report.html")
    by_target = {e.target_id: e for e in facts.engagements}
    assert set(by_target) == {UTV, GUNNER}
    for uid, e in by_target.items():
        assert e.p_hit == pytest.approx(float(shown[uid].p_hit))
        assert e.p_kill == pytest.approx(float(shown[uid].p_kill_any))
    assert by_target[UTV].outcome is EngagementOutcome.KILLED
    rows = [r for r in report_rows(tmp_path / "report.html", "engagements") if "Autocannon" in r]
    assert len(rows) == 2
    for row in rows:
        target = UTV if "UTV" in " ".join(row) else GUNNER
        assert f"{float(shown[target].p_hit):.0%}" in row and f"{float(shown[target].p_kill_any):.0%}" in row
        assert "—" not in row
    # the odds go with the attack's own event, once
    with RecordingReader(recording) as reader:
        with_odds = [r for r in reader.rules_events() if "odds" in r.payload]
    assert [r.kind for r in with_odds] == ["attack"]


def test_a_missed_rocket_is_recorded_with_the_odds_shown_before_its_first_roll(tmp_path):
    clock = Clock()
    session = down_range_session_before("6.5 b", clock)
    recording = tmp_path / "gui.sqlite"
    session.start_recording(recording)
    session.set_attack(AttackDraft(13, "Carl Gustaf / MAAWS", (ZBL,), {"reaction": True}))
    shown = session.snapshot().odds[0]
    clock.t_s = 3.0
    session.resolve_attack([1])  # a natural 1: the rocket misses and waits for its landing point
    clock.t_s = 9.0
    session.choose_landing((44.0, 16.5))
    session.stop_recording()
    facts = read_debrief_facts(recording)
    (e,) = [e for e in facts.engagements if e.weapon == "Carl Gustaf / MAAWS"]
    assert e.p_hit == pytest.approx(float(shown.p_hit)) and e.t_s == pytest.approx(9.0)


def test_a_hand_set_emission_token_is_listed_with_the_ones_the_rules_set(tmp_path):
    clock = Clock()
    session = GameSession.from_scenario_file(in_depth.SCENARIO_PATH, seed=1, clock=clock)
    recording = tmp_path / "gui.sqlite"
    session.start_recording(recording)
    session.start_round([7, 4])
    session.start_turn()
    clock.t_s = 12.0
    # the Sergeant used his radio off the table's rules: a player puts the token down by hand
    session.edit_unit(in_depth.SERGEANT, {"emission": {"purpose": "radio check", "until_start_of": "Marines",
                                                       "jamming": False}})
    clock.t_s = 20.0
    session.edit_unit(in_depth.SERGEANT, {"emission": None})  # and takes it away again
    session.stop_recording()
    facts = write_debrief_report(recording, tmp_path / "report.html")
    (m,) = facts.emissions
    assert (m.tag_id, m.t_s, m.until_t_s) == (in_depth.SERGEANT, 12.0, 20.0)
    assert m.purpose == "radio check (set by hand)" and m.side == "Marines"
    rows = report_rows(tmp_path / "report.html", "emissions")
    assert any("Sergeant" in " ".join(r) and "radio check (set by hand)" in r for r in rows)
