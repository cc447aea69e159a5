"""Reading a scenario file is the same for every rule system where the file is the same: the
ruleset check, the TOML file, a unit's tag, side, start pose and rectangular base. Each problem is one
line naming the file, the unit and the field (rules/scenario_reading.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.downrange import scenario as downrange
from rules.errors import RulesError, ScenarioRulesError
from rules.forceonforce import scenario as forceonforce
from rules.generic import scenario as generic

READERS = {"down-range": downrange, "force-on-force": forceonforce, "generic": generic}
UNIT = {"down-range": {"type": "average combatant"}, "force-on-force": {}, "generic": {"type": "Rifle section"}}


#: What a side needs in each rule system (Force on Force: its units' Troop Quality and Morale).
SIDE = {"down-range": {}, "force-on-force": {"quality": "d8", "morale": "d8"}, "generic": {}}


def _doc(ruleset: str, **unit: Any) -> dict[str, Any]:
    return {"ruleset": ruleset, "sides": [{"name": "Blue", **SIDE[ruleset]}, {"name": "Red", **SIDE[ruleset]}],
            "units": [{"tag_id": 10, "name": "Ann", "side": "Blue", **UNIT[ruleset], **unit},
                      {"tag_id": 20, "name": "Bo", "side": "Red", **UNIT[ruleset]}]}


def _error(ruleset: str, doc: dict[str, Any]) -> str:
    with pytest.raises(ScenarioRulesError) as info:
        READERS[ruleset].game_from_scenario(doc, source="game.toml")
    return str(info.value)


@pytest.mark.parametrize("ruleset", sorted(READERS))
def test_the_first_keyframe_of_a_path_is_where_a_unit_starts(ruleset: str) -> None:
    doc = _doc(ruleset, path=[{"t_s": 0, "x_in": 3, "y_in": 4, "heading_deg": 10}], facing_offset_deg=90)
    state = READERS[ruleset].game_from_scenario(doc, source="game.toml")
    ann = state.figure(10) if ruleset == "force-on-force" else state.unit(10)
    assert (ann.x_in, ann.y_in, ann.heading_deg) == (3.0, 4.0, 100.0)


@pytest.mark.parametrize("ruleset", sorted(READERS))
def test_a_keyframe_with_text_for_a_number_is_one_line_naming_the_field(ruleset: str) -> None:
    message = _error(ruleset, _doc(ruleset, path=[{"t_s": 0, "x_in": "left", "y_in": 4}]))
    assert message == ("game.toml: unit 'Ann', field 'path': the first keyframe needs numbers for x_in, y_in and "
                       "heading_deg")


@pytest.mark.parametrize("ruleset", sorted(READERS))
def test_on_table_must_be_true_or_false(ruleset: str) -> None:
    assert _error(ruleset, _doc(ruleset, on_table=1)) == "game.toml: unit 'Ann', field 'on_table': 1 is not true or false"


@pytest.mark.parametrize("ruleset", ["force-on-force", "generic"])
def test_a_tag_used_twice_and_a_side_nobody_declared_are_named(ruleset: str) -> None:
    what = "figure" if ruleset == "force-on-force" else "unit"
    doc = _doc(ruleset)
    doc["units"][1]["tag_id"] = 10
    assert _error(ruleset, doc) == (f"game.toml: unit 'Bo', field 'tag_id': 10 is used by another {what}; every "
                                    f"{what} needs its own tag")
    assert _error(ruleset, _doc(ruleset, side="Green")) == ("game.toml: unit 'Ann', field 'side': 'Green' is not one "
                                                            "of the [[sides]]: Blue, Red")
    assert _error(ruleset, _doc(ruleset, length_in=3.0)) == ("game.toml: unit 'Ann', field 'width_in': give both "
                                                             "length_in and width_in, or neither")


@pytest.mark.parametrize("ruleset, title", [("force-on-force", "Force on Force"),
                                            ("generic", "the generic miniatures rules")])
def test_a_scenario_of_another_rule_system_is_refused_naming_both(ruleset: str, title: str) -> None:
    doc = {**_doc(ruleset), "ruleset": "chess"}
    assert _error(ruleset, doc) == f"game.toml: ruleset 'chess' is not {title} ({ruleset!r})"


@pytest.mark.parametrize("ruleset", sorted(READERS))
def test_a_missing_or_broken_scenario_file_is_named(ruleset: str, tmp_path: Path) -> None:
    with pytest.raises(ScenarioRulesError, match=r"nope\.toml: scenario file not found; check the path"):
        READERS[ruleset].load_scenario_file(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "unfinished\n', encoding="utf-8")
    with pytest.raises(ScenarioRulesError, match=r"broken\.toml: not valid TOML \(.*line 1.*\); fix the line it names"):
        READERS[ruleset].load_scenario_file(broken)


@pytest.mark.parametrize("ruleset", sorted(READERS))
def test_data_files_are_looked_for_next_to_the_scenario(ruleset: str, tmp_path: Path) -> None:
    doc = _doc(ruleset)
    doc["rules"] = {"data": "extra.toml"}
    path = tmp_path / "game.toml"
    path.write_text(_toml(doc), encoding="utf-8")
    with pytest.raises(RulesError, match="data file not found; check the path") as info:
        READERS[ruleset].load_scenario_file(path)
    assert str(tmp_path / "extra.toml") in str(info.value)


def _toml(doc: dict[str, Any]) -> str:
    """A small TOML writer for the documents above (strings, numbers, tables of them)."""
    def value(v: Any) -> str:
        return f'"{v}"' if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else str(v)

    lines = [f"ruleset = {value(doc['ruleset'])}", "[rules]"]
    lines += [f"{k} = {value(v)}" for k, v in doc.get("rules", {}).items()]
    for name in ("sides", "units"):
        for entry in doc[name]:  # flat tables only
            lines.append(f"[[{name}]]")
            lines += [f"{k} = {value(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"


def test_a_force_on_force_unit_without_troop_quality_names_the_file() -> None:
    doc = _doc("force-on-force")
    doc["sides"][0] = {"name": "Blue"}
    assert _error("force-on-force", doc).startswith("game.toml: unit 'Ann': Troop Quality is not given")
