"""The Force on Force example game (the market patrol) through the ruleset-neutral interface, as the GUI
and the headless demo use it: every step checked against what it says happens, the overlays a
renderer draws, and the scenario and keyframes valid for the tracker roster and the synthetic table."""
from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest

from rules.dice import EnteredDice, SeededDice
from rules.forceonforce.examples.patrol import SCENARIO_PATH, StepRecord, initial_state, load_scenario, play
from rules.forceonforce.results import FireResult
from rules.geometry import Circle, Cluster, Corridor, Segment
from rules.ruleset import AttackRequest, Ruleset, get_ruleset, ruleset_of


@pytest.fixture(scope="module")
def records() -> dict[str, StepRecord]:
    return {r.step.title: r for r in play()}


def test_force_on_force_is_registered_behind_the_neutral_interface() -> None:
    fof = get_ruleset("force-on-force")
    assert isinstance(fof, Ruleset) and fof.has_groups and fof.has_turn_box and not fof.has_hidden_units
    assert ruleset_of(initial_state()).name == "force-on-force"


def test_every_figure_is_a_view_of_its_own_grouped_into_units() -> None:
    fof = get_ruleset("force-on-force")
    state = fof.new_game(load_scenario())
    views = {v.unit_id: v for v in fof.units(state)}
    assert views[10].group == "Alpha" and views[20].group is None and "squad leader +1" in views[20].tokens[0]
    assert views[51].type_name == "civilians" and views[44].tokens[-1] == 'elevation 3"'
    assert not views[41].on_table  # Cell 3 arrives later
    groups = {g.name: g for g in fof.groups(state)}
    assert groups["Cell 1"].member_ids == (30, 31, 32, 33, 34) and groups["Cell 1"].leader_id == 40
    assert groups["Alpha"].group_id == 10 and groups["Alpha"].in_cohesion
    assert (groups["Alpha"].centre_x_in, groups["Alpha"].centre_y_in) == pytest.approx((12.7, 20.0))


def test_turn_one_the_patrol_may_not_fire_through_bravo(records: dict[str, StepRecord]) -> None:
    r = records["Friends in the way"]
    assert not r.results[0].check.allowed and r.state.events[-1].kind != "fire"
    assert r.odds[0][0].allowed is False and "Bravo" in r.odds[0][0].reason


def test_bravo_moves_off_the_line_and_its_straggler_is_out_of_cohesion(records: dict[str, StepRecord]) -> None:
    r = records["Bravo moves"]
    assert "Bravo is out of cohesion: Bravo 4 more than 1\" from the rest." in r.lines
    assert "Bravo is back in cohesion." in records["Bravo regroups"].lines


def test_the_squad_leader_joins_alpha_which_then_fires_and_wins(records: dict[str, StepRecord]) -> None:
    joined = records["The squad leader joins Alpha"].state
    assert joined.team("Alpha").leader == 20 and joined.team("Alpha").move_locked
    fire = records["Alpha fires"]
    result = fire.results[1]
    assert isinstance(result, FireResult) and result.firer_won
    assert [x.name for x in result.check.in_line_of_fire] == ["Shoppers"]
    odds = fire.odds[0][0]
    assert dict(odds.outcomes) == {"Alpha wins": odds.p_hit, "Cell 1 wins": pytest.approx(0.25), "nobody wins": pytest.approx(0.25)}
    assert fire.state.figure(34).status.value == "casualty"


def test_bravo_tests_morale_on_the_squad_leaders_die(records: dict[str, StepRecord]) -> None:
    test = records["Bravo's morale"].results[0].result
    assert test.roll.sides == 10 and test.passed


def test_the_leaderless_cell_hesitates_and_the_rooftop_fires_over_heads(records: dict[str, StepRecord]) -> None:
    assert records["Cell 2 hesitates"].state.team("Cell 2").finished
    rooftop = records["From the rooftop"].results[0 + 1].check
    assert not rooftop.same_elevation and rooftop.in_line_of_fire == () and rooftop.allowed


def test_turn_two_initiative_goes_to_the_insurgents_and_reinforcements_arrive(records: dict[str, StepRecord]) -> None:
    r = records["Turn 2 initiative"].results[0]
    assert r.holder == "Insurgents" and [x.successes for x in r.rolls] == [1, 2]
    assert [x.pool.dice for x in r.rolls] == [3, 2]
    arrival = records["Reinforcements"]
    assert arrival.results[0].hot_spot == 3
    spot = arrival.state.hot_spots[2]
    assert all(math.hypot(f.x_in - spot.x_in, f.y_in - spot.y_in) <= 4.0 for f in arrival.state.members("Cell 3"))


def test_irregulars_fire_through_their_own_and_alpha_splits_and_merges(records: dict[str, StepRecord]) -> None:
    through = records["Cell 2 fires through its own"].results[1].check
    assert through.allowed and "Cell 1" in [x.name for x in through.in_line_of_fire]
    split = records["Alpha splits"].state
    assert [f.figure_id for f in split.members("Alpha Two")] == [12, 13]
    merged = records["Turn 3: merge"].state
    assert not merged.has_team("Alpha Two") and len(merged.members("Alpha")) == 4 and merged.initiative == "US Army"


def test_every_step_logs_events_that_re_render_from_their_data(records: dict[str, StepRecord]) -> None:
    fof = get_ruleset("force-on-force")
    state = list(records.values())[-1].state
    kinds = {e.kind for e in state.events}
    assert {"initiative", "fire", "activation", "test", "reinforcement", "split", "merge", "leader"} <= kinds
    for e in state.events:
        if e.kind in ("fire", "initiative", "test", "activation", "reinforcement"):
            assert e.outcome["type"] != "" and e.summary.startswith(" ".join(fof.explain(e)))


def test_overlays_draw_cohesion_leaders_hot_spots_and_the_line_of_fire() -> None:
    fof = get_ruleset("force-on-force")
    state = initial_state()
    kinds: dict[str, list] = {}
    for o in fof.overlays(state, 10):
        kinds.setdefault(o.kind, []).append(o)
    assert {o.label.split(":")[0] for o in kinds["cohesion"]} == {"Alpha", "Bravo"}
    assert all(isinstance(o.shape, Cluster) and o.shape.outline_in() for o in kinds["cohesion"])
    assert len(kinds["hot spot"]) == 5 and isinstance(kinds["hot spot"][0].shape, Circle)
    lines = {o.kind: o for o in fof.attack_overlays(state, AttackRequest(10, "Fire", (30,)))}
    corridor = lines["line of fire"].shape
    assert isinstance(corridor, Corridor) and corridor.half_width_in == 2.0 and len(corridor.outline_in()) == 4
    assert set(lines["line of fire"].unit_ids) == {14, 15, 16, 17, 51}
    assert isinstance(lines["line of sight"].shape, Segment)
    insurgent = {o.kind for o in fof.overlays(state, 30)}
    assert "leader" in insurgent  # Abu Karim's link to Cell 1


def test_targets_are_units_named_by_any_of_their_figures() -> None:
    fof = get_ruleset("force-on-force")
    state = initial_state()
    by_first = fof.attack_odds(state, AttackRequest(10, "Fire", (30,)))
    by_other = fof.attack_odds(state, AttackRequest(13, "Fire", (33,)))
    assert by_first == by_other and by_first[0].members == (30, 31, 32, 33, 34)
    proposals = {p.name: p for p in fof.propose_targets(state, 10, "Fire")}
    assert not proposals["Cell 1"].eligible and proposals["Cell 1"].reason.startswith("Regulars may not fire")
    assert proposals["RPG team"].eligible and (proposals["Bravo"].eligible, proposals["Bravo"].reason) == (False, "friendly")
    assert "Shoppers" not in proposals  # civilians are not a unit to target


def test_a_seeded_game_plays_through_the_interface_like_the_gui_would() -> None:
    fof = get_ruleset("force-on-force")
    state = fof.new_game(load_scenario())
    dice = SeededDice(7)
    for _ in range(3):
        state = fof.start_round(state, dice).state
        for _side in range(2):
            state = fof.start_turn(state, dice).state
            state = fof.end_turn(state)
    assert state.round == 3 and state.initiative in ("US Army", "Insurgents")
    res = fof.resolve_attack(state, AttackRequest(44, "Fire", (14,)), EnteredDice([6, 1]))
    assert res.result.firer_won and res.state.team("RPG team").fired


def write_synthetic_scenario(tmp_path: Path) -> Path:
    """The example scenario with the script's keyframes as [[units.path]] and a small synthetic camera."""
    from rules.forceonforce.examples.patrol import synthetic_keyframes

    frames = synthetic_keyframes(step_s=2.0)
    text = SCENARIO_PATH.read_text(encoding="utf-8")
    out = [text, "\n[simulation]\nfps = 10\nduration_s = 32.0\nwidth_px = 640\nheight_px = 360\nseed = 3\n"]
    doc = tomllib.loads(text)
    body = []
    for u in doc["units"]:
        body.append("[[units]]")
        for k, v in u.items():
            body.append(f"{k} = {v!r}".replace("'", '"') if not isinstance(v, bool) else f"{k} = {str(v).lower()}")
        for kf in frames[u["tag_id"]]:
            body.append("  [[units.path]]")
            for k, v in kf.items():
                body.append(f"  {k} = {str(v).lower() if isinstance(v, bool) else v}")
    head = text.split("# --- US Army")[0]
    path = tmp_path / "patrol_synthetic.toml"
    path.write_text(head + out[1] + "\n" + "\n".join(body) + "\n", encoding="utf-8")
    return path


def test_the_example_and_its_keyframes_load_in_the_roster_and_the_synthetic_table(tmp_path: Path) -> None:
    from calibration.synthetic import load_synthetic_scenario
    from rules.forceonforce.scenario import load_scenario_file
    from tracker.roster import load_roster

    path = write_synthetic_scenario(tmp_path)
    roster = load_roster(path)
    assert len(roster.units) == 26 and roster.unit(44).name == "RPG gunner"
    scenario = load_synthetic_scenario(path)
    assert scenario.frame_count == 320
    start = {p.tag_id: p for p in scenario.placements_at(0.0)}
    assert 41 not in start and start[44].z_in == pytest.approx(3.0 + 1.0)  # on the rise, tag 1" above the ground
    later = {p.tag_id: p for p in scenario.placements_at(30.0)}
    assert 41 in later and (later[17].x_in, later[17].y_in) == pytest.approx((27.4, 26.0))
    state = load_scenario_file(path)
    assert state.figure(17).x_in == 27.4 and state.team("Cell 3").reinforcement
