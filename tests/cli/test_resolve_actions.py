"""`sandtable resolve` with an action that is not an attack (a medic's treatment), described in JSON, as a
user runs it: the odds before the roll, the rules' narration, the saved state, and one-line refusals."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main

SCENARIO = """
format = "sandtable-scenario"
version = 1
[[sides]]
name = "Marines"
[[sides]]
name = "PLA"
[[units]]
tag_id = 14
name = "Corpsman"
side = "Marines"
type = "specialist combatant"
equipment = ["medical kit"]
x_in = 10.0
y_in = 10.0
[[units]]
tag_id = 11
name = "Mortar gunner"
side = "Marines"
type = "average combatant"
status = "down"
x_in = 11.2
y_in = 10.0
[[units]]
tag_id = 31
name = "Rifleman"
side = "PLA"
type = "average combatant"
x_in = 40.0
y_in = 10.0
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _files(tmp_path: Path, doc: object) -> tuple[str, str]:
    scenario = tmp_path / "ward.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    action = tmp_path / "treat.json"
    action.write_text(json.dumps(doc), encoding="utf-8")
    return str(action), str(scenario)


def test_resolve_plays_a_json_treatment_with_the_players_die(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    action, scenario = _files(tmp_path, {"action": "treat", "unit": "Corpsman", "patient": "Mortar gunner", "dice": [6]})
    saved = tmp_path / "after.json"
    code, out, err = run(capsys, "resolve", action, "--scenario", scenario, "--save-state", str(saved))
    assert code == 0, err
    assert "Mortar gunner: p(back in play) 0.167; restored 0.000, injured 0.167, no effect 0.333, removed 0.500" in out
    assert "Corpsman Focuses and treats Mortar gunner." in out and "Table 2-2: injured" in out
    state = json.loads(saved.read_text(encoding="utf-8"))
    gunner = next(u for u in state["units"] if u["unit_id"] == 11)
    assert gunner["status"] == "active" and gunner["injured"] is True
    # The saved state goes on: the treated gunner is no longer down, so a second treatment is refused.
    code, _, err = run(capsys, "resolve", action, "--state", str(saved))
    assert code == 2 and err.count("\n") == 1 and "Mortar gunner is active, not down" in err


def test_resolve_json_output_of_an_action_names_the_declaration_and_the_odds(capsys: pytest.CaptureFixture[str],
                                                                             tmp_path: Path) -> None:
    action, scenario = _files(tmp_path, {"action": "treat", "unit": 14, "patient": 11})
    code, out, _ = run(capsys, "resolve", action, "--scenario", scenario, "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["action"] == {"action": "treat", "unit": 14, "patient": 11}
    assert [o["name"] for o in data["odds"]] == ["Mortar gunner"] and data["result"]["patient"] == 11


@pytest.mark.parametrize("doc, fragment", [
    ({"action": "heal", "unit": "Corpsman", "patient": 11}, "Corpsman has no action 'heal' now; its actions are 'treat'"),
    ({"action": "treat", "unit": "Corpsman", "patinet": 11}, "has no field 'patinet'"),
    ({"action": "treat", "unit": "Medic", "patient": 11}, "no unit 'Medic'"),
    ({"action": "treat", "unit": "Corpsman", "patient": 11, "dice": [7]}, "a d6 shows 1 to 6"),
])
def test_resolve_refuses_a_bad_action_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, doc: dict,
                                                  fragment: str) -> None:
    action, scenario = _files(tmp_path, doc)
    code, _, err = run(capsys, "resolve", action, "--scenario", scenario)
    assert code == 2 and err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_an_action_needs_a_game_to_name_its_units(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    action, _ = _files(tmp_path, {"action": "treat", "unit": 14, "patient": 11})
    code, _, err = run(capsys, "resolve", action)
    assert code == 2 and "give --scenario or --state" in err


def test_resolve_readies_a_reaction_and_saves_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    action, scenario = _files(tmp_path, {"action": "ready reaction", "unit": "Corpsman"})
    saved = tmp_path / "after.json"
    code, out, err = run(capsys, "resolve", action, "--scenario", scenario, "--save-state", str(saved))
    assert code == 0, err
    corpsman = next(u for u in json.loads(saved.read_text(encoding="utf-8"))["units"] if u["unit_id"] == 14)
    assert corpsman["reaction_ready"] is True and "Corpsman" in out
