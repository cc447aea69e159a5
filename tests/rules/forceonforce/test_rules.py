"""Force on Force mechanics a player checks at the table: cohesion at its boundaries, splitting and
merging, leaders joining, the line-of-fire corridor and who may fire through whom, hot spots,
initiative overrides, scenario mistakes, and saving/replaying a game."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.dice import EnteredDice
from rules.errors import IllegalActionError, RulesError, SaveFileError, ScenarioRulesError
from rules.forceonforce import actions as A
from rules.forceonforce.cohesion import cohesion_of, in_cohesion
from rules.forceonforce.examples.patrol import initial_state
from rules.forceonforce.fire import check_fire
from rules.forceonforce.hotspots import resolve_reinforcement
from rules.forceonforce.initiative import resolve_initiative
from rules.forceonforce.leaders import needs_quality_check
from rules.forceonforce.ruleset import ForceOnForce
from rules.forceonforce.scenario import game_from_scenario
from rules.forceonforce.state import FigureStatus, FofState

REG = {"troop_type": "regular", "quality": "d8", "morale": "d8"}
IRR = {"troop_type": "irregular", "quality": "d6", "morale": "d10"}


def game(figures: list[dict[str, Any]], *, sides: list[dict[str, Any]] | None = None,
         fireteams: list[dict[str, Any]] | None = None, rules: dict[str, Any] | None = None) -> FofState:
    doc: dict[str, Any] = {"format": "sandtable-scenario", "version": 1, "ruleset": "force-on-force",
                           "sides": sides or [{"name": "Blue", **REG}, {"name": "Red", **IRR}],
                           "fireteams": fireteams or [], "units": figures}
    if rules:
        doc["rules"] = rules
    return game_from_scenario(doc, source="test.toml")


def fig(tag: int, side: str, unit: str | None, x: float, y: float, **kw: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"tag_id": tag, "name": kw.pop("name", f"fig {tag}"), "side": side, "x_in": x, "y_in": y, **kw}
    if unit:
        entry["unit"] = unit
    return entry


def pair(gap_in: float, *, defensive: bool = False, sides: list[dict[str, Any]] | None = None) -> FofState:
    """Two figures of one Blue unit whose bases are ``gap_in`` apart (edge to edge), and a Red unit."""
    return game([fig(10, "Blue", "T", 0.0, 0.0), fig(11, "Blue", "T", 1.0 + gap_in, 0.0), fig(30, "Red", "R", 40, 0)],
                fireteams=[{"name": "T", "side": "Blue", "defensive": defensive}], sides=sides)


# -- cohesion -----------------------------------------------------------------------------------

@pytest.mark.parametrize("gap, defensive, holds", [
    (1.0, False, True), (1.01, False, False), (0.0, False, True),
    (2.0, True, True), (2.01, True, False), (1.5, False, False),
])
def test_cohesion_is_one_inch_edge_to_edge_and_two_for_regulars_holding_a_position(gap: float, defensive: bool,
                                                                                   holds: bool) -> None:
    assert in_cohesion(pair(gap, defensive=defensive), "T") is holds


def test_irregulars_in_a_defensive_position_keep_one_inch() -> None:
    sides = [{"name": "Blue", **IRR}, {"name": "Red", **REG}]
    assert not in_cohesion(pair(1.5, defensive=True, sides=sides), "T")


def test_a_chain_of_figures_is_in_cohesion_and_a_straggler_is_named() -> None:
    state = game([fig(10 + i, "Blue", "T", 1.9 * i, 0.0) for i in range(5)] + [fig(30, "Red", "R", 40, 0)])
    assert in_cohesion(state, "T")
    moved = ForceOnForce().set_pose(state, 14, 12.0, 0.0, 0.0)
    c = cohesion_of(moved, "T")
    assert not c.is_connected and c.stragglers == frozenset({14})
    views = {v.unit_id: v for v in ForceOnForce().units(moved)}
    assert "out of cohesion" in views[10].tokens and "straggler" in views[14].tokens
    assert not ForceOnForce().groups(moved)[0].in_cohesion


def test_casualties_do_not_hold_a_unit_together() -> None:
    state = game([fig(10, "Blue", "T", 0, 0), fig(11, "Blue", "T", 1.9, 0), fig(12, "Blue", "T", 3.8, 0),
                  fig(30, "Red", "R", 40, 0)])
    assert in_cohesion(state, "T")
    assert not in_cohesion(state.apply(A.EditFigure(11, {"status": "casualty"})), "T")


# -- split and merge --------------------------------------------------------------------------------

def started(state: FofState) -> FofState:
    state = state.apply(A.StartRound(resolve_initiative(state, EnteredDice([]))))
    return state.apply(A.StartTurn())


def four(**team: Any) -> FofState:
    return game([fig(10 + i, "Blue", "Alpha", 1.8 * i, 0.0) for i in range(4)] + [fig(30, "Red", "R", 40, 0)],
                fireteams=[{"name": "Alpha", "side": "Blue", **team}], rules={"first_initiative": "Blue"})


def test_a_split_element_waits_and_merges_back_at_the_next_turn() -> None:
    state = started(four())
    split = state.apply(A.Split("Alpha", (12, 13), "Alpha 2"))
    assert [f.figure_id for f in split.members("Alpha 2")] == [12, 13] and split.team("Alpha 2").finished
    assert not split.team("Alpha").activated
    with pytest.raises(IllegalActionError, match="beginning of a turn"):
        split.apply(A.Merge("Alpha", "Alpha 2"))
    nxt = split.apply(A.StartRound(resolve_initiative(split, EnteredDice([[4], []]))))
    merged = nxt.apply(A.Merge("Alpha", "Alpha 2"))
    assert not merged.has_team("Alpha 2") and len(merged.members("Alpha")) == 4 and merged.team("Alpha").strength == 4


def test_splitting_after_activating_is_refused() -> None:
    state = started(four())
    state = state.apply(A.RecordActivation(ForceOnForce().activate(state, "Alpha", EnteredDice([])).result))
    with pytest.raises(IllegalActionError, match="start of their activation"):
        state.apply(A.Split("Alpha", (13,), "Lone"))


def test_merging_needs_half_strength_cohesion_and_the_same_troop_type() -> None:
    figures = ([fig(10 + i, "Blue", "A", 1.8 * i, 0.0) for i in range(4)]
               + [fig(20 + i, "Blue", "B", 7.2 + 1.8 * i, 0.0) for i in range(4)] + [fig(30, "Red", "R", 40, 0)])
    state = game(figures, rules={"first_initiative": "Blue"})
    with pytest.raises(IllegalActionError, match="half strength"):
        state.apply(A.Merge("A", "B"))
    for tag in (22, 23):
        state = state.apply(A.EditFigure(tag, {"status": "casualty"}))
    assert state.apply(A.Merge("A", "B")).team("A").strength == 8
    far = state.apply(A.SetPose(21, 30.0, 0.0, 0.0))
    with pytest.raises(IllegalActionError, match="cohesion distance"):
        far.apply(A.Merge("A", "B"))
    mixed = game([fig(10, "Blue", "A", 0, 0), fig(11, "Blue", "I", 1.8, 0), fig(30, "Red", "R", 40, 0)],
                 fireteams=[{"name": "A", "side": "Blue"}, {"name": "I", "side": "Blue", **IRR}])
    with pytest.raises(IllegalActionError, match="Irregular units may not merge with Regulars"):
        mixed.apply(A.Merge("A", "I"))


# -- leaders ----------------------------------------------------------------------------------------

def test_a_leader_joining_before_activation_lets_the_unit_fire_not_move() -> None:
    state = started(game([fig(10 + i, "Blue", "Alpha", 1.8 * i, 0.0) for i in range(4)]
                         + [fig(20, "Blue", None, 7.0, 0.0, leader="squad", morale="d10"), fig(30, "Red", "R", 40, 0)],
                         rules={"first_initiative": "Blue"}))
    joined = state.apply(A.JoinLeader(20, "Alpha"))
    assert joined.team("Alpha").move_locked and joined.team("Alpha").leader == 20
    moved = joined.apply(A.SetPose(10, 0.0, 3.0, 0.0))
    assert moved.events[-1].kind == "warning" and "may only fire" in moved.events[-1].summary


def test_a_leader_joining_an_activated_unit_finishes_both() -> None:
    state = started(game([fig(10, "Blue", "Alpha", 0, 0), fig(20, "Blue", None, 1.9, 0.0, leader="squad"),
                          fig(30, "Red", "R", 40, 0)], rules={"first_initiative": "Blue"}))
    state = ForceOnForce().activate(state, "Alpha", EnteredDice([])).state
    joined = state.apply(A.JoinLeader(20, "Alpha"))
    assert joined.team("Alpha").finished and joined.figure(20).finished


def test_a_leader_out_of_cohesion_cannot_join_or_lead() -> None:
    state = game([fig(10, "Red", "Cell", 0, 0), fig(20, "Red", "Cell", 5.0, 0.0, leader="squad"),
                  fig(30, "Blue", "B", 40, 0)], sides=[{"name": "Blue", **REG}, {"name": "Red", **IRR}])
    assert needs_quality_check(state, state.team("Cell"))  # attached, but 4" away: he does not lead it
    with pytest.raises(IllegalActionError, match="must move into cohesion"):
        state.apply(A.JoinLeader(20, "Cell"))
    radio = game([fig(10, "Red", "Cell", 0, 0), fig(20, "Red", "Cell", 5.0, 0.0, leader="squad", remote_contact=True),
                  fig(30, "Blue", "B", 40, 0)], sides=[{"name": "Blue", **REG}, {"name": "Red", **IRR}])
    assert not needs_quality_check(radio, radio.team("Cell"))


def test_an_irregular_leader_cannot_join_a_regular_unit() -> None:
    state = game([fig(10, "Blue", "A", 0, 0), fig(20, "Blue", None, 1.9, 0.0, leader="squad", troop_type="irregular"),
                  fig(30, "Red", "R", 40, 0)])
    with pytest.raises(IllegalActionError, match="Irregulars cannot be integrated"):
        state.apply(A.JoinLeader(20, "A"))


def test_an_irregular_unit_without_a_leader_must_pass_a_troop_quality_check_to_act() -> None:
    state = started(initial_state())
    fof = ForceOnForce()
    fail = fof.activate(state, "Cell 2", EnteredDice([3]))
    assert not fail.result.may_act and fail.state.team("Cell 2").finished
    ok = fof.activate(state, "Cell 2", EnteredDice([4]))
    assert ok.result.may_act and not ok.state.team("Cell 2").finished
    led = fof.activate(state, "Cell 1", EnteredDice([]))  # Abu Karim is with them: no check
    assert led.result.check is None


# -- line of fire ------------------------------------------------------------------------------------

def lane(y: float, *, z: float = 0.0, side: str = "Blue", firer: dict[str, Any] | None = None,
         rules: dict[str, Any] | None = None) -> Any:
    """Blue fires along y = 0 from x = 0 to x = 30; something stands at (15, y)."""
    sides = [{"name": "Blue", **(firer or REG)}, {"name": "Red", **IRR}, {"name": "Town", "civilians": True}]
    state = game([fig(10, "Blue", "Firer", 0.0, 0.0), fig(30, "Red", "Target", 30.0, 0.0),
                  fig(40, side, "Other" if side != "Town" else None, 15.0, y, z_in=z)], sides=sides, rules=rules)
    return check_fire(state, "Firer", "Target")


@pytest.mark.parametrize("y, inside", [(2.5, True), (2.51, False), (-2.5, True), (0.0, True)])
def test_the_line_of_fire_is_two_inches_either_side_of_the_centre_line(y: float, inside: bool) -> None:
    assert bool(lane(y).in_line_of_fire) is inside  # 2" from the line to the edge of a 0.5" base


def test_regulars_may_not_fire_through_friends_irregulars_may_with_a_warning() -> None:
    blocked = lane(1.0)
    assert not blocked.allowed and "friends in the line of fire" in blocked.reasons[0]
    irregular = lane(1.0, firer=IRR)
    assert irregular.allowed and "may be hit" in irregular.warnings[0]
    strict = lane(1.0, firer=IRR, rules={"irregulars_fire_through_friends": False})
    assert not strict.allowed


def test_civilians_in_the_line_warn_unless_the_scenario_forbids_it() -> None:
    civ = lane(1.0, side="Town")
    assert civ.allowed and civ.in_line_of_fire[0].relation == "civilian" and "civilians" in civ.warnings[0]
    assert not lane(1.0, side="Town", rules={"forbid_fire_near_civilians": True}).allowed


def test_regulars_may_not_fire_through_another_unit_at_the_same_elevation_but_may_over_it() -> None:
    enemy = lane(0.5, side="Red")
    assert not enemy.allowed and "directly through another unit" in enemy.reasons[0]
    assert lane(0.5, side="Red", rules={"regulars_blocked_by": "friends"}).allowed
    assert lane(0.5, side="Red", z=2.0).allowed  # standing on a roof beside the street: not in the line


def test_elevations_within_the_tolerance_count_as_the_same() -> None:
    assert not lane(1.0, z=0.9).allowed
    assert lane(1.0, z=1.1).allowed


# -- hot spots and initiative overrides -------------------------------------------------------------------

def test_reinforcements_arrive_at_the_rolled_hot_spot_the_player_chooses_on_a_six_and_a_neutralised_one_is_lost() -> None:
    state = initial_state()
    assert resolve_reinforcement(state, "Cell 3", EnteredDice([3])).hot_spot == 3
    six = resolve_reinforcement(state, "Cell 3", EnteredDice([6]))
    assert six.player_chooses and six.hot_spot is None
    gone = replace(state, hot_spots=tuple(replace(h, neutralised=h.number == 3) for h in state.hot_spots))
    lost = resolve_reinforcement(gone, "Cell 3", EnteredDice([3]))
    assert lost.lost
    after = gone.apply(A.RecordReinforcement(lost))
    assert all(f.status is FigureStatus.REMOVED for f in after.members("Cell 3"))


def test_only_a_regular_unit_stationary_on_the_counter_neutralises_a_hot_spot() -> None:
    state = initial_state()
    spot = state.hot_spots[3]  # (40, 4)
    on = state.apply(A.SetPose(10, spot.x_in + 1.0, spot.y_in, 0.0, moved_in=0.0))
    with pytest.raises(IllegalActionError, match="moved this turn|not in contact"):
        state.apply(A.NeutraliseHotSpot(4, "Alpha"))
    done = on.apply(A.NeutraliseHotSpot(4, "Alpha"))
    assert done.hot_spots[3].neutralised
    with pytest.raises(IllegalActionError, match="only Regular units"):
        on.apply(A.SetPose(30, spot.x_in - 1.0, spot.y_in, 0.0, moved_in=0.0)).apply(A.NeutraliseHotSpot(4, "Cell 1"))


def test_hot_spots_closer_than_six_inches_are_refused() -> None:
    with pytest.raises(ScenarioRulesError, match="hot spots 1 and 2 are 4.0\" apart"):
        game([fig(10, "Blue", "A", 0, 0), fig(30, "Red", "R", 40, 0)], rules={"hot_spots": [[10, 10], [14, 10]]})


def test_initiative_overrides_fixed_and_regulars_against_irregulars() -> None:
    assert resolve_initiative(initial_state(), EnteredDice([])).method == "scenario"
    all_irregular = game([fig(10, "Blue", "A", 0, 0), fig(30, "Red", "R", 40, 0)])
    r = resolve_initiative(all_irregular, EnteredDice([]))
    assert (r.method, r.holder) == ("regulars", "Blue")
    fixed = game([fig(10, "Blue", "A", 0, 0), fig(30, "Red", "R", 40, 0)], rules={"fixed_initiative": "Red"})
    assert resolve_initiative(fixed, EnteredDice([])).holder == "Red"


def test_a_scenario_event_or_fog_of_war_card_may_give_initiative_for_the_next_turn() -> None:
    fof = ForceOnForce()
    state = fof.start_round(initial_state(), EnteredDice([])).state
    res = fof.declare_initiative(state, "Insurgents", "Fog of War card: Ambush")
    assert res.state.initiative == "Insurgents" and res.state.round == 2 and res.state.order[0] == "Insurgents"
    assert res.sentences == ("Turn 2: Insurgents have initiative: Fog of War card: Ambush.",)
    with pytest.raises(RulesError, match="the forces are US Army, Insurgents"):
        fof.declare_initiative(state, "Civilians", "a riot")


def test_a_first_turn_tie_with_nobody_holding_initiative_is_rolled_again() -> None:
    state = game([fig(10, "Blue", "A", 0, 0), fig(11, "Blue", "B", 5, 0), fig(30, "Red", "R", 40, 0),
                  fig(31, "Red", "S", 45, 0)], sides=[{"name": "Blue", **REG}, {"name": "Red", **REG}])
    r = resolve_initiative(state, EnteredDice([[5], [5], [2], [6]]))
    assert r.holder == "Red" and len(r.rerolls) == 1 and not r.kept


# -- scenarios and saved games ------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"sides": [{"name": "Blue", **REG, "initiative_level": "d7"}, {"name": "Red", **IRR}]},
     "field 'initiative_level': 'd7' is not a die"),
    ({"fireteams": [{"name": "R", "side": "Red", "quality": "d12"}]}, "Irregular units never exceed D10"),
    ({"fireteams": [{"name": "R", "side": "Red", "qualty": "d8"}]}, "'qualty': unknown field (did you mean 'quality'?)"),
    ({"fireteams": [{"name": "R", "side": "Red", "rating": "Vetrans"}]}, "did you mean 'veterans'?"),
    ({"rules": {"first_initiative": "Green"}}, "'Green' is not one of the forces"),
    ({"rules": {"elevation_tolerance": 1}}, "did you mean 'elevation_tolerance_in'?"),
])
def test_scenario_mistakes_name_the_file_entry_and_field(change: dict[str, Any], message: str) -> None:
    doc: dict[str, Any] = {"format": "sandtable-scenario", "version": 1, "ruleset": "force-on-force",
                           "sides": [{"name": "Blue", **REG}, {"name": "Red", **IRR}],
                           "units": [fig(10, "Blue", "A", 0, 0), fig(30, "Red", "R", 40, 0)], **change}
    with pytest.raises(ScenarioRulesError) as err:
        game_from_scenario(doc, source="mission.toml")
    assert str(err.value).startswith("mission.toml") and message in str(err.value)


def test_a_unit_needs_troop_quality_and_morale_from_somewhere() -> None:
    doc = {"format": "sandtable-scenario", "version": 1, "sides": [{"name": "Blue"}],
           "units": [fig(10, "Blue", "A", 0, 0)]}
    with pytest.raises(ScenarioRulesError, match="Troop Quality is not given"):
        game_from_scenario(doc, source="m.toml")


def test_a_saved_game_loads_back_equal_and_replays_from_its_actions() -> None:
    from rules.forceonforce.examples.patrol import play

    records = list(play())
    final = records[-1].state
    again = FofState.loads(final.dumps())
    assert again == final
    assert ForceOnForce().explain(final.events[-3]) == ForceOnForce().explain(again.events[-3])
    with pytest.raises(SaveFileError, match="not a Force on Force game state"):
        FofState.from_json({"format": "sandtable-downrange-state"})


def test_actions_round_trip_through_json() -> None:
    from rules.forceonforce.actions import action_from_json, action_to_json

    for action in (A.Split("Alpha", (12, 13), "Two"), A.SetPose(10, 1.0, 2.0, 3.0, z_in=2.5), A.EditFigure(11, {"status": "casualty"})):
        assert action_from_json(action_to_json(action)) == action


def test_unknown_declarations_are_refused_with_the_list() -> None:
    from rules.ruleset import AttackRequest

    with pytest.raises(RulesError, match="unknown fire declaration 'cover'"):
        ForceOnForce().attack_odds(initial_state(), AttackRequest(10, "Fire", (30,), declarations={"cover": "partial"}))
