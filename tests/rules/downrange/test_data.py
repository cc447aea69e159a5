"""The Down Range data files: complete tables, validation that names file/entry/field, user additions."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.downrange.catalog import load_catalog
from rules.errors import DataFileError, UnknownNameError


def test_the_tables_of_the_rulebook_are_all_there() -> None:
    c = load_catalog()
    # Table 3-1 (19 rows), 3-2 (16 rows), example weapons; Table 4-1 (18 rows) and example vehicles.
    for name in ("Pistol", "M4/M16", "Bayonet", "Unarmed combat", "M249 SAW", "PKM / Type 80", "M2 .50 cal",
                 "Autocannon", "Hand grenade", "Mk19", "Tank gun", "Carl Gustaf / MAAWS", "Top-attack antitank weapon",
                 "60 mm mortar", "81 mm mortar", "120 mm mortar", "Tube artillery", "MLRS"):
        c.weapon(name)
    for name in ("Motorcycle", "Tank", "Transport helicopter", "Small UAS", "Loitering munition", "Speedboat",
                 "UTV", "ZBL-09", "UGV", "Black Hornet"):
        c.vehicle(name)
    assert [d.value for d in c.difficulties] == [2, 3, 4, 5, 6, 8, 10]
    assert [(b.min, b.result) for b in c.medical] == [(1, "removed"), (4, "no effect"), (6, "injured"), (9, "restored")]
    assert {h.name: str(h.damage) for h in c.hazards.values()} == {"tear gas": "1d4", "mustard gas": "1d6",
                                                                   "nerve gas": "1d10"}
    assert sorted(c.payloads) == ["HE", "IR illumination", "illumination", "smoke"]


@pytest.mark.parametrize("name, field, value", [
    ("Hand grenade", "radius_in", 4.0), ("Hand grenade", "ammunition", 1), ("Carl Gustaf / MAAWS", "ammunition", 4),
    ("Autocannon", "fan", 4), ("M240", "focus", True), ("120 mm mortar", "range_in", float("inf")),
    ("Top-attack antitank weapon", "damage", "2d10+3"), ("M249 SAW", "max_assistants", 0),
    ("60 mm mortar", "max_assistants", 2), ("Sniper rifle", "max_assistants", 1),
])
def test_weapon_rows_hold_the_rulebook_values(name: str, field: str, value: object) -> None:
    got = getattr(load_catalog().weapon(name), field)
    assert (str(got) if field == "damage" else got) == value


def test_names_match_case_and_aliases_and_suggest_on_typos() -> None:
    c = load_catalog()
    assert c.weapon("maaws").name == c.weapon("Carl Gustaf").name == "Carl Gustaf / MAAWS"
    with pytest.raises(UnknownNameError, match="did you mean 'Hand grenade'"):
        c.weapon("Hand granade")


def test_variants_change_only_their_rows() -> None:
    base, variant = load_catalog(), load_catalog(variants=["mortar-60mm-radius-12", "heavy-dice-d8"])
    assert variant.weapon("60 mm mortar").radius_in == 12 and base.weapon("60 mm mortar").radius_in == 6
    assert str(variant.weapon("MLRS").damage) == "6d8" and str(base.weapon("MLRS").damage) == "6d10"
    assert variant.weapon("M4/M16") == base.weapon("M4/M16")
    with pytest.raises(DataFileError, match="unknown data variant 'mortar'"):
        load_catalog(variants=["mortar"])


def test_a_user_adds_a_weapon_with_an_extra_file(tmp_path: Path) -> None:
    extra = tmp_path / "house.toml"
    extra.write_text('[[weapon]]\nname = "Crossbow"\ncategory = "small arm"\nrange_in = 20\ndifficulty = 4\n'
                     'damage = "1d6"\nmax_assistants = 0\nammunition = 6\n'
                     '[[weapon]]\nname = "M4/M16"\ncategory = "small arm"\nrange_in = 40\ndifficulty = 3\n'
                     'damage = "1d6"\nmax_assistants = 0\n', encoding="utf-8")
    c = load_catalog([extra])
    assert c.weapon("crossbow").ammunition == 6
    assert c.weapon("M4/M16").range_in == 40  # the user's entry replaces the built-in one
    assert load_catalog().weapon("M4/M16").range_in == 36  # and the built-in data is untouched


@pytest.mark.parametrize("text, fragment", [
    ('[[weapon]]\nname = "Laser"\ncategory = "small arm"\nrange_in = 20\ndifficulty = 4\ndamage = "1d7"\nmax_assistants = 0\n',
     "weapon 'Laser', field 'damage': 'd7' is not a die of this game"),
    ('[[weapon]]\nname = "Laser"\ncategory = "small arm"\nrange_in = "far"\ndifficulty = 4\ndamage = "1d6"\nmax_assistants = 0\n',
     "weapon 'Laser', field 'range_in': 'far' is not a number of inches"),
    ('[[weapon]]\nname = "Laser"\ncategory = "ray gun"\nrange_in = 20\ndifficulty = 4\ndamage = "1d6"\nmax_assistants = 0\n',
     "weapon 'Laser', field 'category': 'ray gun' is not one of"),
    ('[[weapon]]\nname = "Laser"\ncategory = "small arm"\nrange_in = 20\ndamage = "1d6"\nmax_assistants = 0\n',
     "weapon 'Laser', field 'difficulty': missing"),
    ('[[weapon]]\nname = "Laser"\ncategory = "small arm"\nrange_in = 20\ndifficulty = 4\ndamage = "1d6"\nmax_assistants = 0\nrnage = 3\n',
     "weapon 'Laser', field 'rnage': unknown field"),
    ('[[vehicle]]\nname = "Buggy"\nmove_in = 30\ncrew = 1\ndefense = "1d6"\npassengers = 2\nmobility = "road"\nweapons = ["Phaser"]\n',
     "vehicle 'Buggy', field 'weapons': unknown weapon 'Phaser'"),
    ('[[unit_type]]\nname = "Elite"\nmove_in = 8\nskill = "2d6"\ndefense = 4\n',
     "unit_type 'Elite', field 'skill': '2d6': a Skill is always a single die"),
    ('[[weapon]\nname = "x"\n', "not valid TOML"),
    ('[[sandwich]]\nname = "x"\n', "unknown table 'sandwich'"),
])
def test_a_bad_data_file_is_refused_naming_file_entry_and_field(tmp_path: Path, text: str, fragment: str) -> None:
    bad = tmp_path / "mine.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_catalog([bad])
    message = str(info.value)
    assert str(bad) in message and fragment in message
    assert "\n" not in message
    load_catalog()  # nothing else is affected


def test_a_missing_data_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="data file not found"):
        load_catalog([tmp_path / "nope.toml"])
