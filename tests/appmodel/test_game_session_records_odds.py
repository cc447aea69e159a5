"""A game recorded by the GUI session (as `sandtable gui` and `sandtable run` record it) carries the odds
the players were shown with each attack, so its debrief lists them instead of "—"; and a hand-set
emission token appears among the debrief's emissions like one the rules set."""
from __future__ import annotations

from pathlib import Path

import pytest

from debrief.facts import EngagementOutcome, read_debrief_facts
from debrief.report import write_debrief_report
from appmodel.game_session import AttackDraft, GameSession
from rules.dice import SeededDice
from rules.downrange.examples import in_depth
from rules.ruleset import get_ruleset
from tracker.recording import RecordingReader
from clock_helpers import HandClock

ZBL, UTV, GUNNER = 40, 15, 11
#: The players' dice of section 6.5.1, as the attack panel's form takes them.
AUTOCANNON_DICE = [[6, 2], [4, 1], 12, 8, 2, 6, 10]


def down_range_session_before(section: str, clock: HandClock) -> GameSession:
    steps = list(in_depth.STEPS)
    state = None
    for record in in_depth.play(steps[:[s.section for s in steps].index(section)]):
        state = record.state
    return GameSession(get_ruleset("down-range"), state, scenario=in_depth.load_scenario(),
                       scenario_path=str(in_depth.SCENARIO_PATH), dice=SeededDice(2), clock=clock)


def report_rows(path: Path, section: str) -> list[list[str]]:
    from debrief_helpers import parse

    return parse(path).rows.get(section, [])


def test_the_debrief_of_a_gui_recording_shows_the_odds_the_players_saw(tmp_path):
    clock = HandClock()
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
    clock = HandClock()
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
    clock = HandClock()
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


def _session_before(example, ruleset: str, title: str, clock: HandClock) -> GameSession:
    steps = list(example.STEPS)
    state = example.initial_state()
    for record in example.play(steps[:[s.title for s in steps].index(title)]):
        state = record.state
    return GameSession(get_ruleset(ruleset), state, scenario=example.load_scenario(),
                       scenario_path=str(example.SCENARIO_PATH), dice=SeededDice(2), clock=clock)


def test_a_force_on_force_fire_is_debriefed_with_its_test_and_the_odds_in_its_words(tmp_path):
    from rules.forceonforce.actions import EditFigure
    from rules.forceonforce.examples import patrol

    clock = HandClock()
    session = _session_before(patrol, "force-on-force", "Alpha fires", clock)
    recording = tmp_path / "fof.sqlite"
    session.start_recording(recording)
    session.run_procedure("activation", lambda state, dice: session.ruleset.activate(state, "Alpha", dice), [])
    clock.t_s = 4.0
    session.set_attack(AttackDraft(10, "Fire", (30,)))
    clock.t_s = 5.0
    session.resolve_attack([6, 3])  # the script's dice: Alpha's D8 shows 6, Cell 1's D6 3
    clock.t_s = 7.0
    session.apply_action(EditFigure(34, {"status": "casualty"}))  # the players' ruling: one insurgent falls
    session.stop_recording()

    facts = write_debrief_report(recording, tmp_path / "report.html")
    (e,) = facts.engagements
    assert (e.attacker_name, e.target_name, e.outcome) == ("Alpha", "Cell 1", EngagementOutcome.WON)
    assert e.odds_text() == "wins 50%" and e.p_kill is None  # never "kill" for a test won
    assert e.detail.startswith("Alpha 6 against Cell 1 3")
    (c,) = facts.casualties
    assert (c.tag_id, c.change, c.cause, c.t_s) == (34, "down", "set by hand (casualty)", 7.0)
    row = next(r for r in report_rows(tmp_path / "report.html", "engagements") if "Alpha" in " ".join(r))
    assert "wins 50%" in row and "won the test" in row
    # Every roll has its odds in Force on Force too: Alpha's D8 against Cell 1's D6.
    rolls = report_rows(tmp_path / "report.html", "rolls")
    alpha = next(r for r in rolls if "Alpha fires at Cell 1: Troop Quality of Alpha" in " ".join(r))
    cell = next(r for r in rolls if "Alpha fires at Cell 1: Troop Quality of Cell 1" in " ".join(r))
    assert "50.0% (1/2) wins the opposed test" in alpha and alpha[-1] == "wins"
    assert "25.0% (1/4) wins the opposed test" in cell and cell[-1] == "loses"


def test_generic_shots_are_debriefed_per_unit_they_reached_with_caught_and_destroyed(tmp_path):
    from rules.generic.examples import solo

    clock = HandClock()
    session = _session_before(solo, "generic", "Mortar miss", clock)
    recording = tmp_path / "generic.sqlite"
    session.start_recording(recording)
    clock.t_s = 3.0
    session.set_attack(AttackDraft(solo.M1, "Mortar", (solo.T1,)))
    shown = {o.unit_id: o for o in session.snapshot().odds}
    session.resolve_attack([2, 5, [3, 6], [4, 2]])  # a miss scattering 5" East onto the field gun G1
    session.stop_recording()

    facts = write_debrief_report(recording, tmp_path / "report.html")
    by_target = {e.target_id: e for e in facts.engagements}
    assert set(by_target) == {solo.T1, solo.G1}
    assert by_target[solo.T1].outcome is EngagementOutcome.MISS and by_target[solo.T1].detail == "missed"
    g1 = by_target[solo.G1]
    assert g1.outcome is EngagementOutcome.HIT and g1.detail == "Undamaged -> Superficial Damage"
    assert g1.odds_text() == f"caught {float(shown[solo.G1].p_hit):.0%}, destroyed {float(shown[solo.G1].p_kill):.0%}"
    assert g1.impact_in == pytest.approx((35.0, 36.0)) and g1.radius_in == pytest.approx(3.0)
    rows = report_rows(tmp_path / "report.html", "engagements")
    assert any("G1" in " ".join(r) and g1.odds_text() in r for r in rows)
    # Every roll has its odds in the generic rules too: the to-hit roll missed at 1 in 6 (Very Long).
    to_hit = next(r for r in report_rows(tmp_path / "report.html", "rolls") if "to hit T1" in " ".join(r))
    assert "16.7% (1/6)" in to_hit and to_hit[-1] == "miss"


def test_units_a_generic_shot_destroys_are_the_debriefs_casualties(tmp_path):
    from rules.generic.examples import solo

    clock = HandClock()
    session = _session_before(solo, "generic", "The tank fires", clock)
    recording = tmp_path / "tank.sqlite"
    session.start_recording(recording)
    clock.t_s = 2.0
    session.set_attack(AttackDraft(solo.T1, "Tank gun", (solo.I2,)))
    session.resolve_attack([4, [2, 5, 1], [1, 6]])  # I2 takes 3 points, R3 beside it half: both destroyed
    session.stop_recording()
    facts = read_debrief_facts(recording)
    # the example's earlier steps removed a unit before the recording started: the recording's
    # start state says so, at time 0, before the shot's casualties
    before = {u.unit_id for u in session.units() if u.status != "active"} - {solo.I2, solo.R3}
    during = [(c.tag_id, c.change, c.cause) for c in facts.casualties if c.t_s > 0]
    assert during == [(solo.I2, "down", "T1 with the Tank gun"), (solo.R3, "down", "T1 with the Tank gun")]
    assert {c.tag_id for c in facts.casualties if c.t_s == 0} == before
    assert all(c.cause.endswith("before the recording started") for c in facts.casualties if c.t_s == 0)
    assert {e.target_id: e.outcome for e in facts.engagements} == {solo.I2: EngagementOutcome.KILLED,
                                                                   solo.R3: EngagementOutcome.KILLED}
    assert facts.down_at(5.0) == {solo.I2, solo.R3} | before
