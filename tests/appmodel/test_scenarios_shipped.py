"""The example scenarios that ship with the program: each one reads through every layer that uses it,
the starter skirmish is tracked from its own synthetic footage, explains its fields, and can be
found and copied with `sandtable scenarios`."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from calibration.synthetic import load_synthetic_scenario
from calibration.table_calibration import TableCalibration
from cli.main import main
from appmodel.scenarios import find_shipped, shipped_scenarios
from rules.downrange.scenario import game_from_scenario
from rules.ruleset import get_ruleset
from tracker.frames import Frame
from tracker.pipeline import Tracker
from tracker.roster import load_roster

SHIPPED = {s.name: s for s in shipped_scenarios()}


def test_the_starter_skirmish_and_the_in_depth_example_ship_with_the_program():
    assert {"starter-skirmish", "in-depth"} <= set(SHIPPED)
    # one copy of the in-depth example: the rules engine's own file
    assert SHIPPED["in-depth"].path.parts[-4:] == ("rules", "downrange", "examples", "in_depth.toml")
    assert SHIPPED["starter-skirmish"].synthetic


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_scenario_reads_through_the_rules_the_tracker_and_the_synthetic_table(name):
    scenario = SHIPPED[name]
    data = tomllib.loads(scenario.path.read_text(encoding="utf-8"))
    game = get_ruleset(scenario.ruleset).new_game(data, source=str(scenario.path), base_dir=str(scenario.path.parent))
    roster = load_roster(scenario.path)
    if scenario.ruleset == "down-range":  # the other rule systems keep figures in their own state types
        assert {u.unit_id for u in game.units} == {u.tag_id for u in roster.units}
    assert roster.units
    assert all(u.tag_id >= 10 for u in roster.units)
    if scenario.synthetic:
        synthetic = load_synthetic_scenario(scenario.path)
        assert synthetic.frame_count > 0


def test_the_starter_skirmish_is_a_small_game_of_two_fire_teams_an_mg_team_a_radio_operator_and_a_vehicle():
    path = SHIPPED["starter-skirmish"].path
    game = game_from_scenario(tomllib.loads(path.read_text(encoding="utf-8")), source=str(path))
    dr = get_ruleset("down-range")
    sides = {u.side for u in game.units}
    assert sides == {"Marines", "OPFOR"} and 8 <= len(game.units) <= 16
    assert sum(1 for u in game.units if u.is_vehicle) == 1
    assert {u.name for u in game.units if u.team} == {"Gunner Popov", "Pvt. Kuznetsov"}
    assert any("radio" in u.equipment for u in game.units if u.commander is None)  # a radio operator
    # the SAW gunner's Fan reaches the enemy once he has moved up: the overlays have something to show
    ortiz = next(u for u in game.units if u.name == "LCpl. Ortiz")
    assert any(o.kind for o in dr.overlays(game, ortiz.unit_id, weapon="M249 SAW"))


def test_the_starter_skirmish_is_tracked_from_its_own_synthetic_footage_within_a_tenth_of_an_inch():
    path = SHIPPED["starter-skirmish"].path
    scenario = load_synthetic_scenario(path)
    calibration = TableCalibration(scenario.table.model, scenario.table.pose, scenario.layout, residual_in=0.0)
    rendered = scenario.render_frame(0)
    with Tracker(roster=load_roster(path), calibration=calibration, terrain=scenario.terrain) as tracker:
        result = tracker.process(Frame(rendered.image_bgr, 0, 0.0))
    truth = {t.tag_id: t for t in rendered.truth if t.tag_id >= 10}
    poses = {p.tag_id: p for p in result.poses}
    assert set(poses) == set(truth) == {u.tag_id for u in load_roster(path).units}
    for tag_id, t in truth.items():
        assert abs(poses[tag_id].x_in - t.x_in) < 0.1 and abs(poses[tag_id].y_in - t.y_in) < 0.1, tag_id
    # units on the hill are measured at their height
    assert poses[24].z_in > 3.0


def test_every_field_of_the_starter_skirmish_is_explained_where_it_first_appears():
    lines = SHIPPED["starter-skirmish"].path.read_text(encoding="utf-8").splitlines()
    seen: set[str] = set()
    unexplained = []
    for n, line in enumerate(lines):
        match = re.match(r"^\s*(?:\[\[?([\w.]+)\]\]?|([\w]+)\s*=)", line)
        if not match or line.lstrip().startswith("#"):
            continue
        key = match.group(1) or match.group(2)
        if key in seen:
            continue
        seen.add(key)
        if "#" not in line and not lines[n - 1].lstrip().startswith("#"):
            unexplained.append(key)
    assert len(seen) > 30 and unexplained == [], unexplained


def test_sandtable_scenarios_lists_finds_and_copies_without_overwriting(tmp_path, capsys):
    assert main(["scenarios"]) == 0
    listing = capsys.readouterr().out
    assert "starter-skirmish" in listing and "in-depth" in listing and "Starter skirmish: the crossroads" in listing
    assert main(["scenarios", "--path", "in-depth"]) == 0
    assert Path(capsys.readouterr().out.strip()) == SHIPPED["in-depth"].path
    assert main(["scenarios", "--copy", "starter-skirmish", str(tmp_path)]) == 0
    copied = tmp_path / "starter_skirmish.toml"
    assert copied.read_text(encoding="utf-8") == SHIPPED["starter-skirmish"].path.read_text(encoding="utf-8")
    copied.write_text(copied.read_text(encoding="utf-8") + "\n# my edits\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["scenarios", "--copy", "starter-skirmish", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already exists" in err[0] and copied.read_text(encoding="utf-8").endswith("# my edits\n")


def test_a_mistyped_scenario_name_gets_one_line_with_a_suggestion(capsys):
    assert main(["scenarios", "--path", "starter-skirmsh"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "did you mean 'starter-skirmish'" in err[0]
    assert find_shipped("starter_skirmish.toml").name == "starter-skirmish"


def test_every_registered_rule_system_lists_its_shipped_examples():
    from rules.ruleset import available_rulesets

    by_rules = {s.ruleset for s in shipped_scenarios()}
    assert set(available_rulesets()) <= by_rules
    assert {"patrol", "solo"} <= set(SHIPPED)


def test_sandtable_scenarios_lists_force_on_force_and_generic_examples(capsys):
    from cli.main import main

    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert "Force on Force: market patrol (force-on-force rules" in out
    assert "rules/generic/examples/solo.toml" in out
