"""Every shipped unit type of the three rule systems has its own military symbol; scenarios override them."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rules.errors import RulesError, ScenarioRulesError
from rules.military_symbols import Affiliation, check_sidc, load_symbol_table, symbol_files

RULES = Path(__file__).resolve().parents[2] / "rules"


def names(path: Path, table: str) -> list[str]:
    with path.open("rb") as fh:
        return [entry["name"] for entry in tomllib.load(fh)[table]]


def example_types(path: Path) -> set[str]:
    with path.open("rb") as fh:
        return {u["type"] for u in tomllib.load(fh).get("units", []) if "type" in u}


SHIPPED = {
    "down-range": names(RULES / "downrange/data/units.toml", "unit_type") + names(RULES / "downrange/data/vehicles.toml", "vehicle"),
    "generic": names(RULES / "generic/data/records.toml", "record"),
    # Force on Force roles are free text: its defaults and every role its shipped example uses
    "force-on-force": ["rifleman", "leader", *sorted(example_types(RULES / "forceonforce/examples/patrol.toml"))],
}


def test_the_three_rule_systems_ship_symbols() -> None:
    assert set(symbol_files()) == {"down-range", "generic", "force-on-force"}


@pytest.mark.parametrize("ruleset", sorted(SHIPPED))
def test_every_shipped_unit_type_has_its_own_symbol(ruleset: str) -> None:
    table = load_symbol_table(ruleset)
    missing = [n for n in SHIPPED[ruleset] if n.lower() not in table.by_type]
    assert not missing, f"{ruleset}: no symbol for {missing}"
    assert len(SHIPPED[ruleset]) >= 4


def test_vehicles_and_soldiers_are_told_apart() -> None:
    t = load_symbol_table("down-range")
    assert t.sidc("average combatant")[4:6] == "27"          # a dismounted individual
    assert t.sidc("Tank")[4:6] == "15"                       # land equipment
    assert t.sidc("Attack helicopter")[4:6] == "01"          # air
    assert t.sidc("Speedboat")[4:6] == "30"                  # sea surface


def test_sides_set_the_standard_identity() -> None:
    t = load_symbol_table("down-range")
    sides = ("Marines", "OPFOR")
    assert t.sidc_for_unit("average combatant", "Marines", sides)[3] == "3"
    assert t.sidc_for_unit("average combatant", "OPFOR", sides)[3] == "6"
    assert t.sidc_for_unit("average combatant", "Strangers", sides)[3] == "1"


def test_a_scenario_overrides_types_single_units_and_sides() -> None:
    scenario = {"symbols": {"types": {"Average Combatant": "10032700001103050000"},
                            "tags": {"20": "10032700001102200000"},
                            "sides": {"Villagers": "neutral", "OPFOR": "friend"}}}
    t = load_symbol_table("down-range", scenario)
    assert t.sidc("average combatant") == "10032700001103050000"
    assert t.sidc("average combatant", tag_id=20) == "10032700001102200000"
    assert t.sidc("average combatant", tag_id=21) == "10032700001103050000"
    assert t.affiliation("Villagers", ("Marines", "Villagers")) is Affiliation.NEUTRAL
    assert t.affiliation("OPFOR", ("Marines", "OPFOR")) is Affiliation.FRIEND


@pytest.mark.parametrize("symbols,match", [
    ({"types": {"average combatant": "infantry"}}, "not a 20-digit"),
    ({"types": {"average combatant": "10039900001211000000"}}, "symbol set '99'"),
    ({"tags": {"twenty": "10031000001211000000"}}, "tag number"),
    ({"sides": {"OPFOR": "enemy"}}, "friend, neutral, hostile"),
    ({"colours": {}}, "unknown field"),
])
def test_scenario_mistakes_are_refused_with_a_fix(symbols, match) -> None:
    with pytest.raises(ScenarioRulesError, match=match):
        load_symbol_table("down-range", {"symbols": symbols}, source="game.toml")


def test_codes_are_checked() -> None:
    assert check_sidc("10031000001211000000") == "10031000001211000000"
    with pytest.raises(RulesError, match="standard identity '8'"):
        check_sidc("10081000001211000000")
    with pytest.raises(RulesError, match="no symbols file for ruleset 'chess'"):
        load_symbol_table("chess")


def test_docstring_example_runs() -> None:
    import doctest

    import rules.military_symbols

    result = doctest.testmod(rules.military_symbols)
    assert result.failed == 0 and result.attempted > 0
