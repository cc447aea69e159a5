"""Dice expressions and dice sources: parsing with clear errors, seeded reproducibility, entered dice."""
from __future__ import annotations

import pytest

from rules.dice import (CallbackDice, Dice, EnteredDice, FixedDice, HighestDice, LowestDice, RecordingDice,
                        RollRequest, SeededDice)
from rules.downrange.catalog import SIDES
from rules.downrange.modifiers import Modifiers
from rules.downrange.rolls import roll_damage, roll_skill
from rules.errors import DiceError, EnteredDiceError


@pytest.mark.parametrize("text, expected", [
    ("1d6", Dice(1, 6)), ("d6", Dice(1, 6)), ("2d10+3", Dice(2, 10, 3)), ("3D8", Dice(3, 8)),
    (" 2d8 - 1 ", Dice(2, 8, -1)), ("4", Dice.static(4)), ("static 5", Dice.static(5)), (7, Dice.static(7)),
])
def test_dice_expressions_parse(text: object, expected: Dice) -> None:
    assert Dice.parse(text, allowed_sides=SIDES) == expected  # type: ignore[arg-type]  # parametrized with deliberately bad values
    assert Dice.parse(str(expected), allowed_sides=SIDES) == expected


@pytest.mark.parametrize("text, fragment", [
    ("d7", "'d7' is not a die of this game: use d4, d6, d8 or d10"),
    ("1d12", "'d12' is not a die"),
    ("0d6", "rolls no dice"),
    ("2x6", "not a dice expression"),
    ("", "not a dice expression"),
    ("25d6", "at most 20 dice"),
])
def test_bad_dice_expressions_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(DiceError, match=None) as info:
        Dice.parse(text, allowed_sides=SIDES)
    assert fragment in str(info.value)


def test_a_seeded_source_gives_the_same_game_twice() -> None:
    a, b = SeededDice(42), SeededDice(42)
    req = RollRequest("x", 3, 10)
    assert [a.roll(req).faces for _ in range(20)] == [b.roll(req).faces for _ in range(20)]
    c, d = SeededDice(43), SeededDice(42)
    assert [c.roll(req).faces for _ in range(20)] != [d.roll(req).faces for _ in range(20)]


def test_seeded_dice_only_show_faces_the_die_has() -> None:
    source = SeededDice(1)
    for sides in SIDES:
        faces = [f for _ in range(300) for f in source.roll(RollRequest("x", 2, sides)).faces or ()]
        assert set(faces) == set(range(1, sides + 1))


def test_entered_dice_accept_single_dice_totals_and_face_lists() -> None:
    dice = EnteredDice([5, 12, [3, 4], [6, 2], 6, 2])
    assert dice.roll(RollRequest("skill", 1, 6)).dice_total == 5
    total = dice.roll(RollRequest("damage", 2, 8))
    assert (total.faces, total.dice_total) == (None, 12)
    assert dice.roll(RollRequest("damage", 2, 8)).faces == (3, 4)
    assert dice.roll(RollRequest("pair", 2, 6, each_die=True)).faces == (6, 2)
    assert dice.roll(RollRequest("pair", 2, 6, each_die=True)).faces == (6, 2)  # typed as 6, 2
    dice.check_all_used()


@pytest.mark.parametrize("entries, request_, fragment", [
    ([], RollRequest("Skill roll of Ann", 1, 6), "no dice were entered for Skill roll of Ann (1d6)"),
    ([7], RollRequest("Skill roll of Ann", 1, 6), "entered 7 for Skill roll of Ann (1d6), but a d6 shows 1 to 6"),
    ([0], RollRequest("Skill", 1, 4), "a d4 shows 1 to 4"),
    ([17], RollRequest("Damage", 2, 8), "entered 17 for Damage (2d8), but 2d8 totals 2 to 16"),
    ([[1, 2, 3]], RollRequest("Damage", 2, 8), "enter exactly 2 dice"),
    ([12], RollRequest("Advantage pair", 2, 6, each_die=True), "needs 2 separate dice"),
    ([["a"]], RollRequest("Skill", 1, 6), "enter whole numbers"),
])
def test_entered_dice_that_do_not_fit_the_roll_are_refused_clearly(entries, request_, fragment) -> None:  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    with pytest.raises(EnteredDiceError) as info:
        EnteredDice(entries).roll(request_)
    assert fragment in str(info.value)


def test_leftover_entered_dice_are_reported() -> None:
    dice = EnteredDice([4, 6, 3])
    dice.roll(RollRequest("skill", 1, 6))
    with pytest.raises(EnteredDiceError, match="2 entered dice were not needed"):
        dice.check_all_used()


def test_a_gui_callback_is_asked_once_per_roll_and_checked() -> None:
    asked = []

    def ask(req: RollRequest) -> int | list[int]:
        asked.append(req.label)
        return [6, 2] if req.each_die else 3

    dice = CallbackDice(ask)
    roll = roll_skill(dice, Dice.parse("1d6"), Modifiers(("Main Effort",)), bonus=0, difficulty=4, label="Skill of Ann")
    assert roll.kept == 6 and asked == ["Skill of Ann (advantage: two dice)"]
    with pytest.raises(EnteredDiceError):
        CallbackDice(lambda r: 9).roll(RollRequest("Skill", 1, 6))


def test_stub_sources_roll_lowest_and_highest() -> None:
    assert LowestDice().roll(RollRequest("x", 3, 10)).faces == (1, 1, 1)
    assert HighestDice().roll(RollRequest("x", 3, 10)).faces == (10, 10, 10)
    assert FixedDice(8).roll(RollRequest("x", 1, 6)).faces == (6,)
    with pytest.raises(DiceError):
        FixedDice(0)


def test_all_ones_fail_whatever_the_bonus() -> None:
    low = roll_skill(LowestDice(), Dice.parse("1d6"), Modifiers(), bonus=3, difficulty=2, label="s")
    assert low.auto_failure and not low.success and low.total == 4
    # Damage 2d8 all ones fails even against Defense 2 (1 + 1 = 2 would meet it).
    dmg = roll_damage(LowestDice(), Dice.parse("2d8"), Dice.parse("2"), label="t")
    assert dmg.damage_auto_failure and not dmg.killed


def test_advantage_pair_with_a_one_keeps_the_other_die() -> None:
    r = roll_skill(EnteredDice([[4, 1]]), Dice.parse("1d6"), Modifiers(("a",)), bonus=1, difficulty=5, label="s")
    assert (r.kept, r.total, r.auto_failure, r.success) == (4, 5, False, True)
    worse = roll_skill(EnteredDice([[4, 1]]), Dice.parse("1d6"), Modifiers((), ("d",)), bonus=1, difficulty=2, label="s")
    assert worse.kept == 1 and worse.auto_failure and not worse.success


def test_a_dice_defense_of_all_ones_fails_unless_the_damage_failed_first() -> None:
    killed = roll_damage(EnteredDice([3, 2]), Dice.parse("2d8"), Dice.parse("2d6"), label="t")
    assert killed.defense_auto_failure and killed.killed  # 3 against 2 anyway
    lucky = roll_damage(EnteredDice([5, 2]), Dice.parse("2d8"), Dice.parse("2d8+3"), label="t")
    assert lucky.defense_total == 5 and lucky.defense_auto_failure and lucky.killed  # 5 >= 5 or the all-ones failure
    both = roll_damage(EnteredDice([2, 2]), Dice.parse("2d8"), Dice.parse("2d6"), label="t")
    assert both.damage_auto_failure and not both.killed


def test_every_die_of_a_resolution_is_recorded_in_order() -> None:
    rec = RecordingDice(EnteredDice([[6, 2], 12, 8]))
    roll_skill(rec, Dice.parse("1d6"), Modifiers(("a",)), bonus=1, difficulty=6, label="Skill")
    roll_damage(rec, Dice.parse("2d8"), Dice.parse("2d6"), label="UTV")
    assert [(r.label, r.dice_total) for r in rec.rolls] == [
        ("Skill (advantage: two dice)", 8), ("Damage against UTV", 12), ("Defense of UTV", 8)]
