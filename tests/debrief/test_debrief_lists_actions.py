"""The debrief lists the actions besides attacks in the rules' words: the corpsman's treatment and who was
saved (with the Table 2-2 odds shown before the roll), the sergeant's Signal and who heard it, the MAAWS
gunner's sprint -- all played through the session's action path and recorded, as the window records them."""
from __future__ import annotations

from pathlib import Path

from appmodel.game_session import GameSession
from debrief.facts import read_debrief_facts
from debrief.report import render_report
from rules.downrange.examples.in_depth import SCENARIO_PATH
from rules.downrange.pieces import Status
from rules.ruleset import ActionRequest
from clock_helpers import HandClock

SERGEANT, MAAWS, CORPSMAN, GUNNER = 10, 13, 14, 11


def test_treatments_signals_and_sprints_are_debriefed_in_the_rules_words(tmp_path: Path) -> None:
    clock = HandClock()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=5, clock=clock)
    corpsman = session.unit(CORPSMAN)
    session.set_state(session.state.update_unit(GUNNER, status=Status.DOWN, x_in=corpsman.x_in + 1.2,
                                                y_in=corpsman.y_in))
    path = tmp_path / "game.sqlite"
    session.start_recording(path)
    clock.t_s = 3.0
    session.resolve_action(ActionRequest("treat", CORPSMAN, {"patient": GUNNER}), [6])
    clock.t_s = 5.0
    session.resolve_action(ActionRequest("signal", SERGEANT), [])
    clock.t_s = 7.0
    session.resolve_action(ActionRequest("sprint", MAAWS), [])
    session.stop_recording()
    facts = read_debrief_facts(path)
    words = [" ".join(a.words) for a in facts.actions]
    assert words[0] == "Corpsman treats Mortar gunner: saved (injured)"
    assert words[1].startswith("Sergeant Signals") and "Heard by: " in words[1] and "Corpsman" in words[1]
    assert words[2].startswith("MAAWS gunner spends its Action on a second Move")
    assert [a.t_s for a in facts.actions] == [3.0, 5.0, 7.0]
    assert [o["name"] for o in facts.actions[0].odds] == ["Mortar gunner"] and not facts.actions[1].odds
    html = render_report(facts)
    assert '<section id="actions"><h2>Other actions</h2>' in html
    assert "Mortar gunner: back in play 38% (restored 0%, injured 38%, no effect 25%, removed 38%)" in html
