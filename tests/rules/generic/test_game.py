"""The generic rules' solo example through the ruleset-neutral interface: each step as it says, the
overlays a renderer draws (range bands labelled with their to-hit numbers, scatter after a miss, the
automation's suggested moves), and the scenario and keyframes valid for the roster and the synthetic
table."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rules.dice import SeededDice
from rules.generic.examples.solo import SCENARIO_PATH, StepRecord, initial_state, load_scenario, play
from rules.geometry import Circle, Reach, Segment
from rules.ruleset import AttackRequest, Ruleset, get_ruleset, ruleset_of


@pytest.fixture(scope="module")
def records() -> dict[str, StepRecord]:
    return {r.step.title: r for r in play()}


def test_the_generic_rules_are_registered_behind_the_neutral_interface() -> None:
    g = get_ruleset("generic")
    assert isinstance(g, Ruleset) and not g.has_groups and g.has_hidden_units and g.has_turn_box
    assert ruleset_of(initial_state()).name == "generic"


def test_rifle_fire_identifies_and_damages(records: dict[str, StepRecord]) -> None:
    r = records["Rifle fire"]
    shot = r.results[0]
    assert shot.plan.band == "Medium" and shot.hit and shot.identified == (31,)
    assert r.state.status_name(r.state.unit(31)) == "Superficial Damage" and not r.state.unit(31).anonymous
    assert r.odds[0][0].p_hit == pytest.approx(0.5)


def test_the_mortar_misses_scatters_and_half_damages_the_field_gun(records: dict[str, StepRecord]) -> None:
    r = records["Mortar miss"]
    shot = r.results[0]
    assert not shot.hit and shot.scatter.direction == "E" and shot.scatter.distance_in == 5.0
    assert (shot.impact_x_in, shot.impact_y_in) == pytest.approx((35.0, 36.0))
    assert [(d.name, d.points, d.full, d.applied) for d in shot.damages] == [("G1", 2, False, 1)]
    assert r.state.unit(12).shots_left == 7
    g = get_ruleset("generic")
    kinds = {o.kind: o for o in g.overlays(r.state, 12)}
    assert isinstance(kinds["scatter"].shape, Segment) and kinds["scatter"].shape.length_in == pytest.approx(5.0)
    assert isinstance(kinds["area of effect"].shape, Circle) and kinds["area of effect"].shape.radius_in == 3.0


def test_the_dummy_is_removed_and_close_combat_hurts_both(records: dict[str, StepRecord]) -> None:
    assert records["A dummy"].state.unit(34).presence.value == "removed"
    cc = records["Close combat"].results[0]
    assert [c.loser for c in cc.rounds] == [33, 11] and (cc.attacker_levels, cc.defender_levels) == (1, 1)


def test_the_tables_play_red(records: dict[str, StepRecord]) -> None:
    auto = records["The tables play Red"].results[0]
    moves = {m.name: m for m in auto.moves}
    assert (moves["T1"].route, moves["R1"].route, moves["R5"].route) == ("OfL Esy", "OfR Dir", "Rnd Dir")
    assert not moves["G1"].moves and not moves["R3"].moves and moves["R5"].toward == "NW"
    fires = {f.name: f for f in auto.fires}
    assert fires["T1"].fires and fires["T1"].face is None and fires["T1"].level == "Short"
    assert not fires["R1"].fires and fires["R1"].face == 6 and fires["R1"].level == "Medium"
    assert fires["R3"].close_combat and "R5" not in fires  # a dummy never fires
    overlays = [o for o in get_ruleset("generic").overlays(records["The tables play Red"].state, 30)
                if o.kind == "automation move"]
    assert {o.unit_ids[0] for o in overlays} == {30, 31, 35}
    after_moves = [o for o in get_ruleset("generic").overlays(records["Red moves"].state, 30) if o.kind == "automation move"]
    tank = next(o.shape for o in after_moves if o.unit_ids == (30,))
    assert (tank.ax_in, tank.ay_in, tank.bx_in, tank.by_in) == pytest.approx((30.0, 36.0, 29.57, 27.01), abs=0.01)


def test_the_tank_destroys_the_grenadiers_and_its_own_scouts_beside_them(records: dict[str, StepRecord]) -> None:
    s = records["The tank fires"].state
    assert s.unit(11).presence.value == "down" and s.unit(33).presence.value == "down"
    odds = {o.unit_id: o for o in records["The tank fires"].odds[0]}
    assert set(odds) == {11, 33} and odds[11].p_kill > odds[33].p_kill


def test_range_bands_are_rings_labelled_with_their_to_hit_numbers() -> None:
    g = get_ruleset("generic")
    bands = [o for o in g.overlays(initial_state(), 10) if o.kind == "range band"]
    assert [o.label for o in bands] == ['Point Blank 2+ (0-3")', 'Short 3+ (3-6")', 'Medium 4+ (6-12")',
                                        'Long 5+ (12-18")', 'Very Long 6+ (18-24")']
    assert all(isinstance(o.shape, Reach) for o in bands) and [o.shape.distance_in for o in bands] == [3, 6, 12, 18, 24]
    scouts_limit = [o for o in g.overlays(initial_state(), 30) if o.kind == "range band"]
    assert scouts_limit == []  # T1 is anonymous: its weapon is not shown
    hq = {o.kind: o for o in g.overlays(initial_state(), 13)}
    assert hq["command range"].shape.distance_in == 12 and hq["command range"].label.endswith("(2 of 3 within)")


def test_a_drafted_area_shot_shows_where_a_miss_may_land() -> None:
    g = get_ruleset("generic")
    shapes = {o.kind: o.shape for o in g.attack_overlays(initial_state(), AttackRequest(12, "Mortar", (30,)))}
    assert shapes["scatter reach"].radius_in == 6.0 and shapes["area of effect"].radius_in == 3.0
    assert isinstance(shapes["line of sight"], Segment)


def test_a_seeded_solo_game_runs_the_automation_every_red_turn() -> None:
    g = get_ruleset("generic")
    state = g.new_game(load_scenario())
    dice = SeededDice(11)
    for _ in range(3):
        state = g.start_round(state, dice).state
        for _side in range(2):
            res = g.start_turn(state, dice)
            state = g.end_turn(res.state)
    assert sum(1 for e in state.events if e.kind == "automation") == 3


def test_the_example_and_its_keyframes_load_in_the_roster_and_the_synthetic_table(tmp_path: Path) -> None:
    from calibration.synthetic import load_synthetic_scenario
    from rules.generic.examples.solo import synthetic_keyframes
    from rules.generic.scenario import load_scenario_file
    from tracker.roster import load_roster

    frames = synthetic_keyframes(step_s=2.0)
    text = SCENARIO_PATH.read_text(encoding="utf-8")
    head = text.split("# --- Blue: the player")[0]
    body = ["[simulation]", "fps = 5", "duration_s = 20.0", "width_px = 640", "height_px = 360"]
    for u in tomllib.loads(text)["units"]:
        body.append("[[units]]")
        for k, v in u.items():
            body.append(f"{k} = {str(v).lower()}" if isinstance(v, bool) else f"{k} = {v!r}".replace("'", '"'))
        for kf in frames[u["tag_id"]]:
            body.append("  [[units.path]]")
            body += [f"  {k} = {str(v).lower() if isinstance(v, bool) else v}" for k, v in kf.items()]
    path = tmp_path / "solo_synthetic.toml"
    path.write_text(head + "\n".join(body) + "\n", encoding="utf-8")
    assert len(load_roster(path).units) == 10
    scenario = load_synthetic_scenario(path)
    end = {p.tag_id: p for p in scenario.placements_at(19.0)}
    assert 34 not in end and (end[30].x_in, end[30].y_in) == pytest.approx((29.6, 27.0))
    assert load_scenario_file(path).unit(30).length_in == 3.0
