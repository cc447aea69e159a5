"""`sandtable odds`, `roll`, `resolve` and `demo` as a user runs them: output, JSON, one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_gives_exact_probabilities(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--skill", "d6", "--difficulty", "3", "--damage", "1d6", "--defense", "4", "--json")
    data = json.loads(out)
    assert code == 0 and data["p_hit"] == pytest.approx(2 / 3) and data["p_kill"] == pytest.approx(1 / 3)
    assert (data["p_hit_exact"], data["p_kill_exact"]) == ("2/3", "1/3")


def test_odds_from_names_in_the_data_files(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--weapon", "M4/M16", "--target", "average combatant", "--body-armor", "--json")
    data = json.loads(out)
    assert code == 0 and (data["p_hit_exact"], data["p_kill_exact"], data["defense"]) == ("2/3", "2/9", "5")
    code, out, _ = run(capsys, "odds", "--weapon", "MAAWS", "--target", "ZBL-09", "--advantage", "--json")
    assert json.loads(out)["p_kill_exact"] == "8001/20000"


def test_odds_human_table_and_cancelling_modifiers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--skill", "d6", "--difficulty", "6", "--damage", "2d8", "--defense", "2d10",
                       "--advantage", "--advantage", "--disadvantage")
    assert code == 0
    assert "cancel: one die" in out and "p(hit)              1/6" in out and "cannot hurt Defense 2d10" in out


def test_odds_for_a_fan_over_several_shots(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--weapon", "M240", "--assist", "1", "--target", "average combatant",
                       "--shots", "4", "--json")
    data = json.loads(out)
    assert data["p_hit_exact"] == "1/2" and data["p_kill_exact"] == "5/16"
    assert data["p_kill_any"] == pytest.approx(1 - (11 / 16) ** 4)


@pytest.mark.parametrize("argv, fragment", [
    (["odds", "--skill", "d7", "--difficulty", "3", "--damage", "1d6", "--defense", "4"], "'d7' is not a die"),
    (["odds", "--weapon", "M4/M61", "--target", "average combatant"], "unknown weapon 'M4/M61': did you mean 'M4/M16'"),
    (["odds", "--weapon", "M4/M16", "--target", "average combatant", "--assist", "-1"], "argument --assist: -1 is negative"),
    (["odds", "--weapon", "M4/M16", "--target", "average combatant", "--assist", "1"], "at most 0 assistants"),
    (["odds", "--weapon", "M4/M16", "--target", "elf"], "unknown unit type 'elf'"),
    (["odds", "--skill", "2d6", "--difficulty", "3", "--damage", "1d6", "--defense", "4"], "a Skill is one die"),
    (["odds", "--skill", "d6", "--damage", "1d6", "--defense", "4"], "give --difficulty"),
    (["roll", "2d7"], "'d7' is not a die"),
    (["roll", "2d6", "--advantage"], "Skill rolls, which are one die"),
    (["demo", "--until", "9.9"], "not a step of the example"),
])
def test_bad_input_is_one_clear_line_and_exit_code_2(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_roll_is_reproducible_from_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "roll", "2d10", "1d6+1", "--seed", "11", "--json")
    _, again, _ = run(capsys, "roll", "2d10", "1d6+1", "--seed", "11", "--json")
    assert first == again
    rolls = [json.loads(line) for line in first.splitlines()]
    assert rolls[0]["total"] == sum(rolls[0]["faces"]) and 2 <= rolls[0]["total"] <= 20
    assert rolls[1]["total"] == rolls[1]["faces"][0] + 1
    _, out, _ = run(capsys, "roll", "1d6", "--advantage", "--difficulty", "4", "--seed", "5")
    assert out.startswith("1d6 (advantage): (") and "keeps" in out and "--advantage --difficulty 4 --seed 5" in out


def _attack_file(tmp_path: Path, doc: object) -> str:
    path = tmp_path / "attack.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_resolve_narrates_an_inline_attack_with_entered_dice(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = {"attacker": {"name": "Inigo"}, "weapon": "Bayonet",
           "targets": [{"name": "The man", "type": "average combatant", "equipment": ["body armor"], "distance_in": 0.5}],
           "dice": [5, 6]}
    code, out, _ = run(capsys, "resolve", _attack_file(tmp_path, doc))
    assert code == 0
    assert "Inigo fires the Bayonet." in out
    assert "At The man: Skill 1d6 rolls 5 against Difficulty 2: hit." in out
    assert "Damage 1d6 rolls 6 against Defense 5: The man is killed." in out


def test_resolve_json_and_a_missed_explosive_waiting_for_its_landing_point(capsys: pytest.CaptureFixture[str],
                                                                         tmp_path: Path) -> None:
    doc = {"attacker": {"name": "Ivan", "type": "substandard combatant"}, "weapon": "Hand grenade", "aim": [6, 0],
           "targets": [{"name": "Carl's Marine", "side": "Carl"}], "dice": [1]}
    path = _attack_file(tmp_path, doc)
    code, out, _ = run(capsys, "resolve", path, "--json")
    data = json.loads(out)
    assert code == 0 and data["pending"].startswith("Carl must choose where it lands")
    assert data["result"]["miss"]["miss_radius_in"] == 4.0 and data["result"]["skill"]["auto_failure"]
    code, out, _ = run(capsys, "resolve", path, "--landing", "6,3.5", "--dice", "1 8")
    assert code == 0 and "It lands 3.5\" from the intended point." in out and "is killed" in out


def test_resolve_names_units_of_a_scenario_and_saves_the_state(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    scenario = ROOT / "rules" / "downrange" / "examples" / "in_depth.toml"
    saved = tmp_path / "after.json"
    doc = {"attacker": "Sergeant", "weapon": "M4/M16", "targets": [{"unit": 31, "stationary": "no"}], "dice": [6, 6]}
    code, out, _ = run(capsys, "resolve", _attack_file(tmp_path, doc), "--scenario", str(scenario),
                       "--save-state", str(saved))
    assert code == 0 and "Automatic rifleman is killed" in out
    state = json.loads(saved.read_text(encoding="utf-8"))
    assert [u["status"] for u in state["units"] if u["unit_id"] == 31] == ["down"]
    again = {"attacker": "Sergeant", "weapon": "M4/M16", "targets": [31], "dice": [6, 6]}
    code, _, err = run(capsys, "resolve", _attack_file(tmp_path, again), "--state", str(saved))
    assert code == 2 and "Automatic rifleman is already down" in err


@pytest.mark.parametrize("text, fragment", [
    ('{"attacker": {"name": "A"}, "weapon": "M4/M16", "targets": [', "not valid JSON"),
    ('{"attacker": {"name": "A"}, "weapon": "Lightsaber", "targets": []}', "unknown weapon 'Lightsaber'"),
    ('{"attacker": {"name": "A"}, "weapon": "M4/M16", "targets": [{"name": "B"}], "dice": [7]}', "a d6 shows 1 to 6"),
    ('{"attacker": {"name": "A"}, "weapon": "M4/M16", "targets": [{"name": "B"}], "dice": [3]}', "no dice were entered for Damage"),
    ('{"attacker": {"name": "A"}, "weapon": "M4/M16", "tragets": []}', "unknown key 'tragets'"),
    ('{"attacker": {"name": "A"}, "weapon": "M4/M16", "targets": [{"name": "B", "distance_in": 50}], "dice": [6, 6]}',
     "beyond the M4/M16's Range of 36"),
])
def test_resolve_refuses_bad_attacks_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str,
                                                  fragment: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "resolve", str(path))
    assert code == 2 and err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_resolve_reads_stdin_in_a_real_process() -> None:
    doc = json.dumps({"attacker": {"name": "Henry"}, "weapon": "M4/M16", "targets": [{"name": "Enemy"}], "dice": [5, 4]})
    proc = subprocess.run([sys.executable, "-m", "cli.main", "resolve", "-"], input=doc, capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0 and "Skill 1d6 rolls 5 against Difficulty 3: hit." in proc.stdout
    broken = subprocess.run([sys.executable, "-m", "cli.main", "resolve", "-"], input="{", capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert broken.returncode == 2 and broken.stderr.startswith("sandtable resolve: error: stdin: not valid JSON")


def test_demo_walks_through_the_in_depth_example(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "end.json"
    code, out, _ = run(capsys, "demo", "--save-state", str(saved))
    assert code == 0
    assert "== 6.4.2-6.4.4  Mortar fire" in out
    assert "Skill 1d6 rolls 4, +1 = 5 against Difficulty 5: hit." in out
    assert "Damage 2d10 rolls 14 against Defense 2d10, which rolls 13: ZBL-09 is destroyed." in out
    assert "Rulebook:" in out and "Reading taken:" in out
    assert json.loads(saved.read_text(encoding="utf-8"))["round"] == 6
    code, out, _ = run(capsys, "demo", "--json", "--until", "6.1")
    assert code == 0 and [json.loads(line)["kind"] for line in out.splitlines()] == ["initiative", "turn"]


def test_odds_offers_every_registered_rule_system_and_says_which_it_has_no_tables_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    import toy_ruleset

    with toy_ruleset.registered() as name:
        code, out, err = run(capsys, "odds", "--ruleset", name, "--die", "d8")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"sandtable odds: error: sandtable odds has no odds tables for the {name} rule system: "
        "use --ruleset down-range or force-on-force or generic"]
    code, _, err = run(capsys, "odds", "--ruleset", name, "--die", "d8")  # no longer registered
    assert code == 2 and f"--ruleset: invalid choice: '{name}'" in err
