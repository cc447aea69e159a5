"""The ruleset-neutral interface the GUI uses: registry, targets from geometry, odds, resolution,
turns and the overlay shapes a renderer draws."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rules
from rules.dice import EnteredDice, SeededDice
from rules.downrange.examples.in_depth import initial_state, load_scenario
from rules.errors import UnknownNameError
from rules.geometry import CommsGraph, Cone, Reach
from rules.ruleset import AttackRequest, Ruleset, available_rulesets, get_ruleset


@pytest.fixture()
def dr() -> Ruleset:
    return get_ruleset("down-range")


def test_down_range_is_registered_behind_the_neutral_protocol(dr: Ruleset) -> None:
    assert "down-range" in available_rulesets() and isinstance(dr, Ruleset)
    with pytest.raises(UnknownNameError, match="unknown ruleset 'chess'"):
        get_ruleset("chess")


def test_a_game_starts_from_a_scenario_and_lists_its_units(dr: Ruleset) -> None:
    state = dr.new_game(load_scenario())
    views = {v.unit_id: v for v in dr.units(state)}
    assert views[10].name == "Sergeant" and views[10].move_left_in == 8.0 and views[32].on_table is False
    assert [w.name for w in dr.weapons(state, 13)] == ["Carl Gustaf / MAAWS"] and dr.weapons(state, 13)[0].ammo_left == 4
    assert {d.key for d in dr.declarations()} >= {"cover", "concealment", "assistants", "mode", "spotter"}


def test_targets_are_proposed_from_the_geometry(dr: Ruleset) -> None:
    state = initial_state()
    proposals = {p.unit_id: p for p in dr.propose_targets(state, 10, "M4/M16")}
    assert proposals[31].eligible and proposals[31].in_range  # the automatic rifleman, 31" away
    assert not proposals[40].eligible and "cannot hurt" in proposals[40].reason  # 1d6 against the ZBL-09's 2d10
    assert proposals[12].reason == "friendly"
    blast = {p.unit_id: p for p in dr.propose_targets(state, 11, "60 mm mortar", aim_point=(52.0, 18.0))}
    assert blast[31].in_blast and blast[31].eligible and not blast[30].in_blast


def test_odds_and_resolution_through_a_neutral_request(dr: Ruleset) -> None:
    state = initial_state()
    request = AttackRequest(11, "60 mm mortar", (30, 31), aim_point=(50.0, 24.0),
                            declarations={"assistants": [12]},
                            target_declarations={30: {"line_of_sight": False, "spotter": 10}})
    odds = {o.unit_id: o for o in dr.attack_odds(state, request)}
    assert float(odds[31].p_hit) == 0.5 and set(odds) == {30, 31, 40}
    done = dr.resolve_attack(state, request, EnteredDice([6, 9, 2]))
    assert done.pending is None and done.state.unit(30).status.value == "down"
    assert done.sentences[0] == "Mortar gunner fires the 60 mm mortar, with 1 assistant Focusing (+1)."


def test_a_missed_explosive_waits_for_the_chooser(dr: Ruleset) -> None:
    state = initial_state()
    request = AttackRequest(13, "MAAWS", (40,))
    first = dr.resolve_attack(state, request, EnteredDice([[1, 1]]))
    assert first.pending and first.pending.startswith("PLA Marine Corps chooses a landing point within 9\"")
    assert first.state is state  # nothing applied yet
    done = dr.resolve_attack(state, request, EnteredDice([[1, 1]]), landing_point=(58.0, 32.0))
    assert done.pending is None and done.state.unit(13).weapon_state("Carl Gustaf / MAAWS").ammo_left == 3


def test_rounds_and_turns_through_the_interface(dr: Ruleset) -> None:
    state = dr.start_round(initial_state(), EnteredDice([5, 3])).state
    state = dr.start_turn(state, SeededDice(1)).state
    assert state.active_side == "Marines"
    state = dr.end_turn(state)
    assert not state.in_turn


def test_overlays_are_shapes_from_the_geometry_module(dr: Ruleset) -> None:
    state = initial_state()
    kinds = {o.kind: o for o in dr.overlays(state, 40, weapon="Autocannon")}
    assert isinstance(kinds["range"].shape, Reach) and kinds["range"].shape.distance_in == 64
    assert isinstance(kinds["fan"].shape, Cone) and kinds["fan"].shape.axis_deg == 180.0
    assert isinstance(kinds["voice"].shape, CommsGraph) and kinds["movement"].shape.distance_in == 36
    mortar = {o.kind: o for o in dr.overlays(state, 11)}
    assert mortar["blast reach"].shape.distance_in == 84  # Range 72 + the scenario's 12" Radius
    overlay, caught = dr.blast(state, "60 mm mortar", 50.0, 24.0)
    assert overlay.shape.radius_in == 12 and 31 in caught


def test_explain_re_renders_a_logged_event_from_its_data(dr: Ruleset) -> None:
    state = dr.start_round(initial_state(), EnteredDice([5, 3])).state
    event = state.events[-1]
    assert dr.explain(event)[0] == "Round 1 initiative: Marines 5; PLA Marine Corps 3."


def test_the_rules_modules_examples_run() -> None:
    failed = []
    for info in pkgutil.walk_packages(rules.__path__, "rules."):
        module = importlib.import_module(info.name)
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        if result.failed:
            failed.append(info.name)
    assert failed == []
