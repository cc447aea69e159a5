"""Selecting on the map: a unit keeps its weapon while it stays selected, a new unit takes its first, a
weapon it does not have is refused by name, and a replay's selection is checked against the game."""
from __future__ import annotations

import pytest

from appmodel.errors import UsageError
from appmodel.session.selection import Selection

RIFLEMAN = ["M4", "M203"]
MORTAR = ["60mm mortar"]


def test_a_new_unit_is_selected_with_its_first_weapon() -> None:
    assert Selection().with_unit(4, None, unit_name="Ruiz", weapon_names=RIFLEMAN) == Selection(4, "M4")


def test_reselecting_the_same_unit_keeps_the_weapon_chosen_but_another_unit_takes_its_first() -> None:
    s = Selection(4, "M203")
    assert s.with_unit(4, None, unit_name="Ruiz", weapon_names=RIFLEMAN).weapon == "M203"
    assert s.with_unit(9, None, unit_name="Mortar", weapon_names=MORTAR).weapon == "60mm mortar"
    assert s.with_unit(5, None, unit_name="Diaz", weapon_names=RIFLEMAN).weapon == "M4"


def test_a_weapon_the_unit_lacks_is_refused_naming_what_it_has() -> None:
    with pytest.raises(UsageError, match=r"Ruiz has no weapon 'Javelin': it has M4, M203"):
        Selection().with_unit(4, "Javelin", unit_name="Ruiz", weapon_names=RIFLEMAN)
    with pytest.raises(UsageError, match="it has none"):
        Selection().with_unit(4, "M4", unit_name="Crate", weapon_names=[])


def test_a_unit_without_weapons_is_selected_with_none() -> None:
    assert Selection().with_unit(8, None, unit_name="Medic", weapon_names=[]) == Selection(8, None)


def test_clearing_the_unit_keeps_the_blast_point_on_the_map() -> None:
    s = Selection(4, "M4", (10.0, 12.0))
    assert s.with_unit(None, None) == Selection(None, None, (10.0, 12.0))


def test_a_blast_point_is_kept_as_floats_and_can_be_cleared() -> None:
    s = Selection().with_blast_point((3, 4))
    assert s.blast_point == (3.0, 4.0) and isinstance(s.blast_point[0], float)
    assert s.with_blast_point(None).blast_point is None


def test_a_replayed_selection_of_a_unit_no_longer_in_the_game_is_dropped() -> None:
    s = Selection.restored(99, "M4", [1.0, 2.0], unit_ids={1, 2}, weapon_names=[])
    assert (s.unit_id, s.weapon, s.blast_point) == (None, None, (1.0, 2.0))


def test_a_replayed_weapon_the_unit_no_longer_has_falls_back_to_its_first() -> None:
    assert Selection.restored(4, "Javelin", None, unit_ids={4}, weapon_names=RIFLEMAN) == Selection(4, "M4")
    assert Selection.restored(4, "M203", None, unit_ids={4}, weapon_names=RIFLEMAN) == Selection(4, "M203")


def test_tag_zero_is_a_unit_like_any_other() -> None:
    assert Selection.restored(0, None, None, unit_ids={0}, weapon_names=RIFLEMAN) == Selection(0, "M4")
