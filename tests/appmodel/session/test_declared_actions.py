"""Every kind of action the ruleset offers besides attacks, declared and played through the session's
one path (``GameSession.resolve_action``, what the window's declaration panel, ``sandtable resolve`` and
the demo call): the table changes as the rules say, the log says it, and a recording keeps the action
with the odds shown before the roll."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from rules_helpers import unit

from appmodel.errors import UsageError
from appmodel.game_session import GameSession
from rules.dice import SeededDice
from rules.downrange.pieces import Emission, Status
from rules.errors import RulesError
from rules.ruleset import ActionRequest, get_ruleset
from tracker.recording import RecordingReader


def _session(*units: dict[str, Any], change: Callable[[Any], Any] = lambda s: s) -> GameSession:
    ruleset = get_ruleset("down-range")
    sides = [{"name": n} for n in dict.fromkeys(u["side"] for u in units)]
    scenario = {"format": "sandtable-scenario", "version": 1, "sides": sides, "units": list(units)}
    return GameSession(ruleset, change(ruleset.new_game(scenario)), scenario=scenario, dice=SeededDice(4))


def _squad(change: Callable[[Any], Any] = lambda s: s) -> GameSession:
    return _session(
        unit(1, "Sergeant", "Blue", 0, 0, equipment=["radio"], commander=1),
        unit(2, "Doc", "Blue", 2, 0, type_="specialist combatant", equipment=["medical kit"], reports_to=1),
        unit(3, "Rifleman", "Blue", 3.2, 0, status="down", reports_to=1),
        unit(4, "Sparks", "Blue", -2, 0, equipment=["EW equipment"], reports_to=1),
        unit(5, "Truck", "Blue", 0, 1.4, type_="Military truck", weapons=[], heading=0.0),
        unit(6, "Hornet", "Blue", 0, 0, type_="Black Hornet", weapons=[], on_table=False),
        unit(9, "Enemy radioman", "Red", 20, 0, equipment=["radio"]),
        change=change)


@dataclass(frozen=True)
class Case:
    session: Callable[[], GameSession]
    request: ActionRequest
    check: Callable[[Any], bool]
    entries: list[Any] | None = None
    said: str = ""
    prepare: tuple[ActionRequest, ...] = field(default_factory=tuple)


def _aboard(s: Any) -> Any:
    return s.update_unit(1, aboard=5, on_table=False, reaction_ready=True)


CASES: dict[str, Case] = {
    "treatment": Case(_squad, ActionRequest("treat", 2, {"patient": 3}), lambda s: s.unit(3).status is Status.ACTIVE
                      and s.unit(3).injured, [6], "Table 2-2: injured"),
    "task roll": Case(_squad, ActionRequest("task", 1, {"difficulty": 4, "task": "climb"}),
                      lambda s: s.events[-1].kind == "task" and s.events[-1].outcome["skill"]["success"], [5]),
    "signal": Case(_squad, ActionRequest("signal", 1), lambda s: s.unit(1).emission is not None, [], "Heard by: Doc"),
    "fires observation": Case(_squad, ActionRequest("observe", 1, {"target": 9}),
                              lambda s: s.observations and s.observations[-1].target_unit == 9, []),
    "main effort": Case(_squad, ActionRequest("main effort", 1, {"unit": 2}), lambda s: s.unit(2).main_effort, []),
    "pass main effort": Case(lambda: _squad(lambda s: s.update_unit(1, main_effort=True)),
                             ActionRequest("pass main effort", 1), lambda s: s.unit(2).main_effort, []),
    "enhanced initiative": Case(_squad, ActionRequest("enhanced initiative", 1),
                                lambda s: s.side("Blue").enhanced_initiative, []),
    "sigint": Case(lambda: _squad(lambda s: s.update_unit(9, emission=Emission("situational awareness", "Red"))),
                   ActionRequest("sigint", 4), lambda s: 9 in s.events[-1].outcome["found"], [],
                   "finds Enemy radioman"),
    "jamming": Case(_squad, ActionRequest("jam", 4), lambda s: "Enemy radioman" in s.events[-1].outcome["jammed"], []),
    "launch and pilot an RPV": Case(_squad, ActionRequest("control rpv", 1, {"rpv": 6, "launch": True}),
                                    lambda s: s.unit(6).on_table and s.unit(6).operator == 1, []),
    "stop piloting": Case(_squad, ActionRequest("release rpv", 1), lambda s: s.unit(6).operator is None, [],
                          prepare=(ActionRequest("control rpv", 1, {"rpv": 6, "launch": True}),)),
    "board": Case(_squad, ActionRequest("board", 1, {"vehicle": 5}), lambda s: s.unit(1).aboard == 5, []),
    "get out": Case(lambda: _squad(_aboard), ActionRequest("disembark", 1, {"point": (0.0, 6.0)}),
                    lambda s: s.unit(1).aboard is None and (s.unit(1).x_in, s.unit(1).y_in) == (0.0, 6.0), []),
    "bail out": Case(lambda: _squad(_aboard), ActionRequest("bail out", 1),
                     lambda s: s.unit(1).aboard is None and s.unit(1).on_table, []),
    "sprint": Case(_squad, ActionRequest("sprint", 1), lambda s: s.unit(1).sprinted, []),
    "carry": Case(_squad, ActionRequest("carry", 2, {"carried": 3}), lambda s: s.unit(2).carrying == 3, []),
    "fall": Case(_squad, ActionRequest("fall", 1, {"distance_in": 12.0}), lambda s: s.unit(1).status is Status.DOWN,
                 [[8, 8]]),
    "hazard": Case(_squad, ActionRequest("hazard", 1), lambda s: s.events[-1].kind == "hazard", None),
    "burning": Case(lambda: _squad(lambda s: s.update_unit(1, on_fire=True)), ActionRequest("burning", 1),
                    lambda s: s.unit(1).status is Status.DOWN, [6]),
    "fire spread": Case(lambda: _squad(lambda s: s.update_unit(5, on_fire=True).update_unit(1, flammable=True)),
                        ActionRequest("fire spread", 5), lambda s: s.unit(1).on_fire, None),
    "stop, drop and roll": Case(lambda: _squad(lambda s: s.update_unit(1, on_fire=True)),
                                ActionRequest("extinguish", 1), lambda s: not s.unit(1).on_fire, []),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_action_is_playable_through_the_session(name: str, tmp_path: Any) -> None:
    case = CASES[name]
    session = case.session()
    for earlier in case.prepare:
        session.resolve_action(earlier, [])
    forms = {f.key: f for f in session.actions_for(case.request.unit_id)}
    assert case.request.action in forms, sorted(forms)
    assert forms[case.request.action].allowed or case.request.values, forms[case.request.action].reason
    odds = session.action_odds(case.request)
    session.start_recording(tmp_path / "game.sqlite")
    res = session.resolve_action(case.request, case.entries)
    session.stop_recording()
    assert case.check(session.state), res.sentences
    assert session.last_card is not None and session.last_card.title == res.sentences[0]
    logged = " ".join(e.text for e in session.log)
    assert res.sentences[0] in logged and case.said in logged
    rows = [r for r in RecordingReader(tmp_path / "game.sqlite").rules_events() if "odds" in r.payload]
    assert len(rows) == (1 if odds else 0)  # the odds shown go with the action into the recording
    if odds:
        assert [o["name"] for o in rows[0].payload["odds"]] == [o.name for o in odds]


def test_the_players_dice_are_asked_for_one_roll_at_a_time_and_refused_when_impossible() -> None:
    session = _squad()
    treat = ActionRequest("treat", 2, {"patient": 3})
    need = session.dice_needed([], what=treat)
    assert need is not None and (need.count, need.sides) == (1, 6) and "Medicine roll of Doc" in need.label
    assert session.dice_needed([6], what=treat) is None
    with pytest.raises(RulesError, match="d6 shows 1 to 6"):
        session.resolve_action(treat, [9])
    with pytest.raises((UsageError, RulesError), match="not needed"):
        session.resolve_action(treat, [6, 3])
    assert session.state.unit(3).status is Status.DOWN  # nothing was applied


def test_a_refused_action_says_why_in_the_form_and_when_played() -> None:
    session = _squad(lambda s: s.update_unit(2, x_in=9.0))  # the medic walked away from the patient
    form = next(f for f in session.actions_for(2) if f.key == "treat")
    patient = form.field("patient")
    assert not form.allowed and [c.eligible for c in patient.choices] == [False]
    assert "move next to it" in patient.choices[0].reason
    with pytest.raises(RulesError, match="must be touching"):
        session.resolve_action(ActionRequest("treat", 2, {"patient": 3}), [6])
