"""The roster part of a scenario: which tag is which unit, with errors naming file, entry and field."""
from __future__ import annotations

from pathlib import Path

import pytest

from tracker.errors import ScenarioError
from tracker.roster import load_roster

SKIRMISH = Path(__file__).parents[2] / "calibration" / "synthetic" / "scenarios" / "skirmish.toml"
HEAD = 'format = "sandtable-scenario"\nversion = 1\n[[sides]]\nname = "Blue"\n'


def test_the_example_scenario_names_its_units():
    roster = load_roster(SKIRMISH)
    ruiz = roster.unit(10)
    assert ruiz.name == "Sgt. Ruiz" and ruiz.side == "Marines" and ruiz.weapons == ("M4/M16",) and ruiz.commander == 1
    assert roster.unit(3) is None and roster.spec_for(99) is None  # anchors and unknown tags are not units


def test_without_a_roster_every_non_anchor_tag_is_a_unit():
    from tracker.roster import Roster

    assert Roster().spec_for(42).name == "tag 42" and Roster().spec_for(2) is None


@pytest.mark.parametrize(
    "unit, message",
    [
        ('tag_id = 10\nname = "A"\nbase_heigth_in = 2.0', r"units #1 \('A'\): unknown field 'base_heigth_in'; did you mean 'base_height_in'\?"),
        ('tag_id = 3\nname = "A"', r"'tag_id' = 3 is outside 10-586; ids 0-9 are the table's anchors"),
        ('tag_id = "ten"\nname = "A"', r"'tag_id' = 'ten' must be an integer"),
        ('tag_id = 10\nname = "A"\nside = "Red"', r"'side' = 'Red' is not one of the \[\[sides\]\]: Blue"),
        ('tag_id = 10\nname = "A"\nbase_height_in = -1', r"'base_height_in' = -1 must be at least 0"),
        ('tag_id = 10\nname = "A"\nweapons = "M4"', r"'weapons' = 'M4' must be a list of names"),
    ],
)
def test_a_bad_unit_entry_is_refused_naming_file_entry_and_field(tmp_path, unit, message):
    path = tmp_path / "game.toml"
    path.write_text(HEAD + "[[units]]\n" + unit + "\n")
    with pytest.raises(ScenarioError, match=message) as err:
        load_roster(path)
    assert str(path) in str(err.value)


def test_two_units_with_one_tag_are_refused(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text(HEAD + '[[units]]\ntag_id = 12\nname = "A"\n[[units]]\ntag_id = 12\nname = "B"\n')
    with pytest.raises(ScenarioError, match="tag_id 12 is already used by 'A'"):
        load_roster(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ('format = "other"\nversion = 1\n', "a scenario file starts with format"),
        ('format = "sandtable-scenario"\nversion = 2\n', "reads scenario version 1 .update"),
        ("format = [broken", "not valid TOML"),
    ],
)
def test_a_file_that_is_not_a_scenario_of_this_version_is_refused(tmp_path, text, message):
    path = tmp_path / "game.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError, match=message):
        load_roster(path)
