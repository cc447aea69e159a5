"""Generic-rules mechanics a player checks: range limits and ammunition, hidden and dummy units, close
combat pairs, the data-defined status ladder and user unit records, the automation's suggested moves,
scenario mistakes, and saving/replaying a game."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from rules.dice import EnteredDice
from rules.errors import DataFileError, IllegalActionError, SaveFileError, ScenarioRulesError
from rules.generic import actions as A
from rules.generic.automation import decide_move
from rules.generic.catalog import load_data
from rules.generic.ranged import plan_shot, resolve_shot
from rules.generic.ruleset import GenericMiniatures
from rules.generic.scenario import game_from_scenario
from rules.generic.state import GenericState, Presence
from rules.ruleset import AttackRequest


def game(units: list[dict[str, Any]], *, sides: list[dict[str, Any]] | None = None, **rules: Any) -> GenericState:
    return game_from_scenario({"format": "sandtable-scenario", "version": 1, "ruleset": "generic", "rules": rules,
                               "sides": sides or [{"name": "Blue"}, {"name": "Red"}], "units": units}, source="g.toml")


def unit(tag: int, side: str, x: float, y: float, type_: str = "Rifle section", **kw: Any) -> dict[str, Any]:
    return {"tag_id": tag, "name": kw.pop("name", f"u{tag}"), "side": side, "type": type_, "x_in": x, "y_in": y, **kw}


def test_minimum_and_maximum_range_and_the_record_limit_come_before_the_band() -> None:
    state = game([unit(10, "Blue", 0, 0, "Field gun"), unit(20, "Red", 6, 0), unit(21, "Red", 30, 0),
                  unit(11, "Blue", 0, 10, "Scouts"), unit(22, "Red", 20.5, 10)])
    assert "inside its Minimum range 12" in plan_shot(state, 10, target_id=20).reason
    assert plan_shot(state, 10, target_id=21).allowed
    scouts = plan_shot(state, 11, target_id=22)  # 19.5": Very Long for a rifle, but the record stops at 18
    assert not scouts.allowed and "beyond its Maximum range 18" in scouts.reason


def test_range_shifts_move_whole_levels_and_beyond_very_long_forbids_the_shot() -> None:
    state = game([unit(10, "Blue", 0, 0), unit(20, "Red", 11, 0)])  # 10": Medium
    assert plan_shot(state, 10, target_id=20, range_shift=1).band == "Long"
    assert plan_shot(state, 10, target_id=20, range_shift=-5).band == "Point Blank"
    far = plan_shot(state, 10, target_id=20, range_shift=3)
    assert not far.allowed and "measured is Medium" in far.reason and "shifted +3 levels it is beyond Very Long" in far.reason


def test_limited_shots_run_out() -> None:
    state = game([unit(10, "Blue", 0, 0, "Grenadiers", shots_left=1), unit(20, "Red", 5, 0)])
    g = GenericMiniatures()
    res = g.resolve_attack(state, AttackRequest(10, "Grenades", (20,)), EnteredDice([1, 1, [1, 1], [1]]))  # a miss that lands 1" away
    assert res.state.unit(10).shots_left == 0
    after = res.state.apply(A.StartRound())
    again = g.attack_odds(after, AttackRequest(10, "Grenades", (20,)))
    assert not again[0].allowed and "no shots left" in again[0].reason


def test_a_unit_fires_once_per_turn() -> None:
    state = game([unit(10, "Blue", 0, 0), unit(20, "Red", 11, 0)])
    g = GenericMiniatures()
    once = g.resolve_attack(state, AttackRequest(10, "Rifle", (20,)), EnteredDice([2])).state
    with pytest.raises(IllegalActionError, match="already fired this turn"):
        g.resolve_attack(once, AttackRequest(10, "Rifle", (20,)), EnteredDice([2]))


def test_hidden_units_show_only_their_counter_until_identified_and_dummies_vanish() -> None:
    state = game([unit(10, "Blue", 0, 0), unit(20, "Red", 11, 0, "Light tank", unit_name="X7", hidden=True),
                  {"tag_id": 21, "name": "Fake", "side": "Red", "dummy": True, "unit_name": "X8", "x_in": 11, "y_in": 5}])
    g = GenericMiniatures()
    views = {v.unit_id: v for v in g.units(state)}
    assert (views[20].name, views[20].type_name, views[20].weapons) == ("X7", "unidentified", ())
    assert "anonymous" in views[21].tokens
    seen = g.identify(state, 20)
    assert {v.unit_id: v for v in g.units(seen)}[20].type_name == "Light tank"
    gone = g.identify(state, 21)
    assert gone.unit(21).presence is Presence.REMOVED and not gone.unit(21).on_table


def test_firing_at_a_dummy_finds_it_out_and_wastes_the_shot() -> None:
    state = game([unit(10, "Blue", 0, 0, "Grenadiers"),
                  {"tag_id": 21, "name": "Fake", "side": "Red", "dummy": True, "unit_name": "X8", "x_in": 5, "y_in": 0}])
    res = GenericMiniatures().resolve_attack(state, AttackRequest(10, "Grenades", (21,)), EnteredDice([]))
    assert res.result.dummy_removed and res.state.unit(21).presence is Presence.REMOVED
    assert res.state.unit(10).shots_left == 3 and "a dummy" in res.sentences[-1]


def test_close_combat_needs_adjacent_bases_and_is_initiated_once_per_turn() -> None:
    state = game([unit(10, "Blue", 0, 0, "Grenadiers"), unit(20, "Red", 1.4, 0), unit(21, "Red", 0, 1.4),
                  unit(22, "Red", 5, 5)])
    g = GenericMiniatures()
    far = g.attack_odds(state, AttackRequest(10, "Close combat", (22,)))
    assert not far[0].allowed and "adjacent" in far[0].reason
    first = g.resolve_attack(state, AttackRequest(10, "Close combat", (20,)), EnteredDice([[3, 3], [3, 3]]))
    assert first.state.unit(10).initiated_close_combat
    refused = g.resolve_attack(first.state, AttackRequest(10, "Close combat", (21,)), EnteredDice([]))
    assert refused.state is first.state and "already initiated" in refused.sentences[0]
    defended = g.resolve_attack(first.state, AttackRequest(21, "Close combat", (10,)), EnteredDice([[3, 3], [3, 3]]))
    assert defended.state.events[-1].kind == "close combat"  # it may be attacked any number of times


def test_the_status_ladder_and_unit_records_come_from_data_files(tmp_path: Path) -> None:
    extra = tmp_path / "campaign.toml"
    extra.write_text('[status]\nladder = ["Fresh", "Shaken", "Battered", "Broken", "Destroyed"]\n\n'
                     '[[record]]\nname = "Militia"\nmovement_type = "Foot"\ndelivery = "Rifle"\nmax_range_in = 12\n'
                     'cc_strength = 2\ncc_damage = 1\ncc_defence = 1\nmovement_probability = 6\n', encoding="utf-8")
    data = load_data([extra])
    assert data.status_ladder[-1] == "Destroyed" and len(data.status_ladder) == 5
    doc = {"format": "sandtable-scenario", "version": 1, "ruleset": "generic", "rules": {"data": ["campaign.toml"]},
           "sides": [{"name": "Blue"}, {"name": "Red"}],
           "units": [unit(10, "Blue", 0, 0, "Militia"), unit(20, "Red", 5, 0, "Militia", status="Battered")]}
    state = game_from_scenario(doc, source=str(tmp_path / "s.toml"), base_dir=str(tmp_path))
    assert state.levels_left(state.unit(20)) == 2 and state.unit(10).record.max_range_in == 12
    r = resolve_shot(state, plan_shot(state, 10, target_id=20), EnteredDice([6, [2]]))
    assert r.damages[0].status_after == "Broken" and not r.damages[0].destroyed


@pytest.mark.parametrize("text, message", [
    ('[[record]]\nname = "X"\nmovement_type = "Hover"\ncc_strength = 1\ncc_damage = 1\ncc_defence = 1\n',
     "record 'X', field 'movement_type': unknown movement type 'Hover'"),
    ('[[record]]\nname = "X"\ncc_strength = 1\ncc_damage = 1\n', "record 'X', field 'cc_defence': missing"),
    ('[[record]]\nname = "X"\ncc_strength = 1\ncc_damage = 1\ncc_defence = 1\nrange = 5\n', "field 'range': unknown field"),
    ('[[delivery]]\nname = "Sling"\nshort_in = 4\nmedium_in = 3\nlong_in = 5\nvery_long_in = 6\n', "must grow"),
    ('[scatter]\ndistance_die = "d6"\nrow_faces = [[1, 3], [3, 4], [5, 6]]\ncolumn_faces = [[1, 2], [3, 4], [5, 6]]\n'
     'directions = [["NW", "N", "NE"], ["W", "Dud", "E"], ["SW", "S", "SE"]]\n', "share out the faces 1-6"),
])
def test_bad_data_files_name_the_file_entry_and_field(tmp_path: Path, text: str, message: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_data([bad])
    assert str(bad) in str(err.value) and message in str(err.value)


@pytest.mark.parametrize("units, message", [
    ([unit(10, "Blue", 0, 0, "Rifle sectoin")], "did you mean 'Rifle section'?"),
    ([unit(10, "Blue", 0, 0, cc_strenght=3)], "'cc_strenght': unknown field"),
    ([unit(10, "Blue", 0, 0, unit_name="A"), unit(11, "Blue", 1, 0, unit_name="A")], "'A' is on two counters"),
    ([unit(10, "Blue", 0, 0, commander_id="X9")], "no unit has the short ID 'X9'"),
    ([unit(10, "Blue", 0, 0, ranged_defence=7)], "'ranged_defence': 7 is not a whole number from 0 to 6"),
    ([unit(10, "Green", 0, 0)], "'Green' is not one of the [[sides]]"),
])
def test_scenario_mistakes_name_the_file_unit_and_field(units: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(ScenarioRulesError) as err:
        game(units)
    assert str(err.value).startswith("g.toml") and message in str(err.value)


def test_the_automation_advances_toward_the_objective_and_outflanks_off_that_bearing() -> None:
    sides = [{"name": "Blue"}, {"name": "Red", "automated": True, "objective": [0.0, 20.0]}]
    state = game([unit(10, "Blue", 30, 0), unit(20, "Red", 0, 0)], sides=sides)
    red = state.unit(20)
    adv = decide_move(state, red, EnteredDice([4, [1, 1]]))
    assert adv.moves and adv.route == "Adv Dir" and adv.bearing_deg == pytest.approx(90.0)
    assert (adv.to_x_in, adv.to_y_in) == pytest.approx((0.0, 6.0))  # Maximum speed 6"
    left = decide_move(state, red, EnteredDice([1, [2, 3]]))
    assert left.route == "OfL Dir" and left.bearing_deg == pytest.approx(135.0)
    still = decide_move(state, red, EnteredDice([5]))
    assert not still.moves and still.route_faces is None


def test_a_random_direction_is_rolled_again_on_a_dud() -> None:
    state = game([unit(10, "Blue", 30, 0), unit(20, "Red", 0, 0)], sides=[{"name": "Blue"}, {"name": "Red", "automated": True}])
    m = decide_move(state, state.unit(20), EnteredDice([1, [6, 5], [3, 4], [3, 3], [5, 4]]))
    assert m.route == "Rnd Esy" and m.random_faces == ((3, 4), (3, 3), (5, 4)) and m.toward == "S"
    assert m.bearing_deg == pytest.approx(270.0)


def test_aircraft_that_move_less_than_their_minimum_speed_are_flagged_at_the_end_of_the_turn() -> None:
    state = game([unit(10, "Blue", 0, 0, "Helicopter", min_speed_in=6), unit(20, "Red", 40, 0)])
    state = state.apply(A.StartRound()).apply(A.StartTurn()).apply(A.SetPose(10, 3.0, 0.0, 0.0))
    end = state.apply(A.EndTurn())
    assert "less than their minimum speed: u10" in end.events[-1].summary
    fast = state.apply(A.SetPose(10, 3.0, 30.0, 90.0))
    assert "more than its Maximum speed 24" in fast.events[-1].summary


def test_a_saved_game_loads_back_equal_and_actions_round_trip() -> None:
    from rules.generic.actions import action_from_json, action_to_json
    from rules.generic.examples.solo import play

    final = list(play())[-1].state
    assert GenericState.loads(final.dumps()) == final
    for event in final.events:
        assert GenericMiniatures().explain(event)
    for action in (A.SetPose(10, 1.0, 2.0, 3.0), A.Identify(31), A.EditUnit(10, {"status": "Damaged"})):
        assert action_from_json(action_to_json(action)) == action
    with pytest.raises(SaveFileError, match="not a generic miniatures rules game state"):
        GenericState.from_json({"format": "x"})


def test_a_hand_edit_to_the_last_status_level_destroys_the_unit() -> None:
    state = game([unit(10, "Blue", 0, 0), unit(20, "Red", 5, 0)])
    done = state.apply(A.EditUnit(20, {"status": "Destroyed"}))
    assert done.unit(20).presence is Presence.DESTROYED and not done.unit(20).in_play
    assert math.isclose(done.unit(20).x_in, 5.0)
