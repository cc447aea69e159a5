"""Hand edits of the tokens a camera cannot see (Down Range): suppression (by whom, until when), the
emission/Signal token, Reaction ready, Focus, movement, injury, on fire, ammunition. Each is set and
cleared by an EditUnit action, logged as an ``edit`` event the debrief shows, replayed from its JSON,
and does what the token does in the rules."""
from __future__ import annotations

import json

import pytest

from rules.dice import EnteredDice
from rules.downrange import actions as A
from rules.downrange.examples.in_depth import AR, CORPSMAN, MAAWS, MARINES, OFFICER, PLA, R1, SERGEANT, initial_state
from rules.downrange.modifiers import unit_modifiers
from rules.downrange.scenario import game_from_scenario
from rules.downrange.state import Emission, GameState, Suppression
from rules.downrange.turns import roll_initiative
from rules.errors import IllegalActionError, UnknownNameError
from rules.ruleset import get_ruleset


def _edit(state: GameState, unit_id: int, **changes: object) -> GameState:
    """Apply the edit the way a recording replays it: through its JSON."""
    action = A.action_from_json(json.loads(json.dumps(A.action_to_json(A.EditUnit(unit_id, changes)))))
    after = state.apply(action)
    assert after == state.apply(A.EditUnit(unit_id, changes))
    return after


def _last(state: GameState) -> tuple[str, str]:
    event = state.events[-1]
    return event.kind, event.summary


def test_a_suppression_set_by_hand_names_the_suppressor_and_gives_disadvantage() -> None:
    s = _edit(initial_state(), SERGEANT, suppressed=[{"by_unit": "Automatic rifleman"}])
    assert s.unit(SERGEANT).suppressed == (Suppression(AR, PLA),)  # until the start of the suppressor's turn
    assert "suppressed" in s.unit(SERGEANT).tokens()
    assert "suppressed" in unit_modifiers(s, s.unit(SERGEANT)).disadvantages
    assert _last(s) == ("edit", "Sergeant: set by hand suppressed by Automatic rifleman (31) until the start of "
                                "PLA Marine Corps' next turn.")
    assert s.events[-1].inputs["changes"] == {"suppressed": [{"by_unit": "Automatic rifleman"}]}


def test_a_hand_suppression_lifts_when_the_suppressors_turn_starts() -> None:
    s = initial_state()
    s = s.apply(A.StartRound(roll_initiative(s, EnteredDice([5, 3])))).apply(A.StartTurn())
    s = _edit(s, SERGEANT, suppressed=[{"by_unit": AR}, {"by_unit": OFFICER, "until_start_of": MARINES}])
    assert len(s.unit(SERGEANT).suppressed) == 2
    s = s.apply(A.EndTurn()).apply(A.StartTurn())  # the PLA's turn starts: the rifleman's token goes
    assert s.unit(SERGEANT).suppressed == (Suppression(OFFICER, MARINES),)


def test_clearing_a_suppression_by_hand_removes_it_and_says_so() -> None:
    s = _edit(initial_state(), SERGEANT, suppressed=[{"by_unit": AR}])
    s = _edit(s, SERGEANT, suppressed=[])
    assert s.unit(SERGEANT).suppressed == () and "suppressed" not in s.unit(SERGEANT).tokens()
    assert _last(s) == ("edit", "Sergeant: set by hand not suppressed.")


@pytest.mark.parametrize("value, error, fragment", [
    ([{"by_unit": "Nobody"}], UnknownNameError, "no unit 'Nobody' in this game: the units are Sergeant (10)"),
    ([{"by_unit": AR, "until_start_of": "Martians"}], UnknownNameError, "no side 'Martians': the sides are Marines"),
    ([{"until_start_of": PLA}], IllegalActionError, "by_unit names the suppressing unit"),
    ([{"by_unit": AR, "turns": 2}], IllegalActionError, "give by_unit and, if it is not the suppressing unit's side"),
    ("yes", IllegalActionError, "suppressed = 'yes': give a list like [{\"by_unit\": 31}] ([] clears it)"),
])
def test_a_bad_suppression_is_refused_saying_what_to_write(value: object, error: type, fragment: str) -> None:
    with pytest.raises(error) as info:
        initial_state().apply(A.EditUnit(SERGEANT, {"suppressed": value}))
    assert fragment in str(info.value)


def test_an_emission_token_set_by_hand_shows_and_lifts_at_the_units_next_turn() -> None:
    s = initial_state()
    s = s.apply(A.StartRound(roll_initiative(s, EnteredDice([5, 3])))).apply(A.StartTurn())
    s = _edit(s, CORPSMAN, emission={"purpose": "other"})
    assert s.unit(CORPSMAN).emission == Emission("other", MARINES, False)
    assert "signalling" in s.unit(CORPSMAN).tokens()
    overlays = get_ruleset("down-range").overlays(s, CORPSMAN)
    assert any(o.kind == "emission" and o.label == "Emitting: radio call" for o in overlays)
    assert _last(s) == ("edit", "Corpsman: set by hand emission token (radio call) until the start of Marines' next turn.")
    s = s.apply(A.EndTurn()).apply(A.StartTurn())  # the PLA's turn: the Marines' token stays
    assert s.unit(CORPSMAN).emission is not None
    s = s.apply(A.EndTurn()).apply(A.StartRound(roll_initiative(s, EnteredDice([5, 3])))).apply(A.StartTurn())
    assert s.unit(CORPSMAN).emission is None


def test_clearing_the_emission_token_by_hand() -> None:
    s = _edit(initial_state(), CORPSMAN, emission={"purpose": "situational awareness", "until_start_of": PLA})
    assert s.unit(CORPSMAN).emission == Emission("situational awareness", PLA, False)
    s = _edit(s, CORPSMAN, emission=None)
    assert s.unit(CORPSMAN).emission is None and "signalling" not in s.unit(CORPSMAN).tokens()
    assert _last(s) == ("edit", "Corpsman: set by hand no emission token.")


def _with_ew() -> GameState:
    return game_from_scenario({
        "sides": [{"name": "Blue"}, {"name": "Red"}],
        "units": [{"tag_id": 10, "name": "Jammer", "side": "Blue", "equipment": ["EW equipment"], "x_in": 10, "y_in": 10},
                  {"tag_id": 11, "name": "Rifleman", "side": "Blue", "x_in": 12, "y_in": 10},
                  {"tag_id": 20, "name": "Radioman", "side": "Red", "equipment": ["radio"], "x_in": 30, "y_in": 10},
                  {"tag_id": 21, "name": "Far radioman", "side": "Red", "equipment": ["radio"], "x_in": 70, "y_in": 10}]})


def test_a_jamming_token_set_by_hand_jams_enemy_radios_in_reach() -> None:
    from rules.downrange.command import is_jammed

    s = _edit(_with_ew(), 10, emission={"purpose": "jamming", "jamming": True})
    assert "jamming" in s.unit(10).tokens()
    assert is_jammed(s, s.unit(20)) and not is_jammed(s, s.unit(21))
    with pytest.raises(IllegalActionError, match="Rifleman has no EW equipment: add 'EW equipment' to its equipment"):
        s.apply(A.EditUnit(11, {"emission": {"purpose": "jamming", "jamming": True}}))


@pytest.mark.parametrize("value, fragment", [
    ("on", "emission = 'on': write {\"purpose\": \"other\"} (or null to remove the token)"),
    ({"purpose": ""}, "emission purpose '': say why it emits"),
    ({"purpose": "other", "until": "Marines"}, "give purpose, until_start_of and jamming"),
    ({"jamming": "yes"}, "emission jamming = 'yes': use true or false"),
])
def test_a_bad_emission_token_is_refused_saying_what_to_write(value: object, fragment: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        initial_state().apply(A.EditUnit(CORPSMAN, {"emission": value}))
    assert fragment in str(info.value)


def test_ammunition_left_and_out_of_ammunition_by_hand() -> None:
    s = _edit(initial_state(), MAAWS, ammunition={"carl gustaf / maaws": 0})
    assert s.unit(MAAWS).weapon_state("Carl Gustaf / MAAWS").ammo_left == 0
    assert "out of ammunition (Carl Gustaf / MAAWS)" in s.unit(MAAWS).tokens()
    assert _last(s) == ("edit", "MAAWS gunner: set by hand Carl Gustaf / MAAWS ammunition = 0.")
    s = _edit(s, MAAWS, ammunition={"Carl Gustaf / MAAWS": 2})
    assert s.unit(MAAWS).weapon_state("Carl Gustaf / MAAWS").ammo_left == 2
    assert not any(t.startswith("out of ammunition") for t in s.unit(MAAWS).tokens())
    with pytest.raises(IllegalActionError, match=r"MAAWS gunner does not carry the M4/M16; it carries Carl Gustaf / MAAWS"):
        s.apply(A.EditUnit(MAAWS, {"ammunition": {"M4/M16": 3}}))
    with pytest.raises(IllegalActionError, match=r"ammunition Carl Gustaf / MAAWS = -1: give a whole number of uses left"):
        s.apply(A.EditUnit(MAAWS, {"ammunition": {"Carl Gustaf / MAAWS": -1}}))


@pytest.mark.parametrize("key, on, token", [
    ("reaction_ready", True, "reaction ready"),
    ("focused", "set by hand", "focused"),
    ("injured", True, "injured"),
    ("on_fire", True, "on fire"),
    ("moved_in", 2.5, 'moved 2.5"'),
])
def test_the_flag_tokens_are_set_and_cleared_by_hand(key: str, on: object, token: str) -> None:
    off = {"reaction_ready": False, "focused": None, "injured": False, "on_fire": False, "moved_in": 0.0}[key]
    s = _edit(initial_state(), R1, **{key: on})
    assert token in s.unit(R1).tokens()
    assert _last(s) == ("edit", f"Rifleman 1: set by hand {key} = {on}.")
    s = _edit(s, R1, **{key: off})
    assert token not in s.unit(R1).tokens()
    assert [e.kind for e in s.events] == ["edit", "edit"]


@pytest.mark.parametrize("changes, fragment", [
    ({"moved_in": -1.0}, "moved_in = -1.0: give the inches moved this turn, 0 or more"),
    ({"moved_in": "far"}, "moved_in = 'far'"),
    ({"focused": 3}, "focused = 3: name the task it Focuses on (or null to end the Focus)"),
    ({"on_fire": "yes"}, "on_fire = 'yes': use true or false"),
    ({"suppresed": []}, "'suppresed' cannot be edited by hand: editable are action_used, ammunition"),
])
def test_a_bad_flag_value_is_refused_and_nothing_changes(changes: dict[str, object], fragment: str) -> None:
    s = initial_state()
    with pytest.raises(IllegalActionError) as info:
        s.apply(A.EditUnit(R1, changes))
    assert fragment in str(info.value)


def test_hand_set_tokens_survive_saving_and_loading() -> None:
    s = _edit(initial_state(), SERGEANT, suppressed=[{"by_unit": AR}], emission={"purpose": "other"},
              ammunition={"M4/M16": 1}, reaction_ready=True)
    back = GameState.loads(s.dumps())
    assert back == s and back.unit(SERGEANT).suppressed == (Suppression(AR, PLA),)
