"""The two rolls of Down Range: a Skill roll against a Difficulty, and Damage against Defense.

Both go through a :class:`rules.dice.DiceSource` and come back as data with every die rolled.

>>> from rules.dice import Dice, EnteredDice
>>> from rules.downrange.modifiers import Modifiers
>>> r = roll_skill(EnteredDice([[4, 1]]), Dice.parse("1d6"), Modifiers(("Main Effort",)), bonus=1,
...                difficulty=6, label="Skill")
>>> r.kept, r.total, r.auto_failure, r.success
(4, 5, False, False)
>>> d = roll_damage(EnteredDice([12, 8]), Dice.parse("2d8"), Dice.parse("2d6"), label="UTV")
>>> d.killed
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.dice import Dice, DiceRoll, DiceSource, RollRequest
from rules.distributions import KeepMode
from rules.downrange.modifiers import Modifiers
from rules.downrange.options import RulesOptions

DEFAULT = RulesOptions()


@dataclass(frozen=True)
class SkillRoll:
    """A Skill roll: the die (two when Advantage/Disadvantage), the kept die, bonuses, the result."""

    label: str
    die: str
    mode: KeepMode
    faces: tuple[int, ...]
    kept: int
    bonus: int
    total: int
    difficulty: int | None
    auto_failure: bool
    success: bool
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()
    entered_total: bool = False


@dataclass(frozen=True)
class DamageRoll:
    """Damage against Defense for one target. ``can_damage`` False: the Defense die has more sides
    than the Damage die (2.6.4.1) and nothing was rolled."""

    damage: str
    defense: str
    can_damage: bool
    damage_faces: tuple[int, ...] | None = None
    damage_total: int | None = None
    damage_auto_failure: bool = False
    defense_faces: tuple[int, ...] | None = None
    defense_total: int | None = None
    defense_auto_failure: bool = False
    killed: bool = False


def can_damage(damage: Dice, defense: Dice) -> bool:
    """2.6.4.1: a static Defense can be hurt by anything; a dice Defense only by Damage dice with at
    least as many sides (the number of dice and static bonuses do not matter).

    >>> can_damage(Dice.parse("1d6"), Dice.parse("2d8")), can_damage(Dice.parse("3d4"), Dice.parse("2d8"))
    (False, False)
    >>> can_damage(Dice.parse("1d8"), Dice.parse("2d8")), can_damage(Dice.parse("2d10"), Dice.parse("2d8"))
    (True, True)
    """
    if defense.is_static:
        return True
    return not damage.is_static and damage.sides >= defense.sides


def roll_skill(source: DiceSource, die: Dice, modifiers: Modifiers, *, bonus: int, difficulty: int | None,
               label: str, options: RulesOptions = DEFAULT) -> SkillRoll:
    """Roll a Skill die (twice with net Advantage/Disadvantage), add ``bonus`` (+1 per assistant)
    and compare with ``difficulty`` (None: the result is read on a table, e.g. medicine)."""
    mode = modifiers.mode(options.advantage_counting)
    sides = die.sides
    if mode == "normal":
        roll = source.roll(RollRequest(label, 1, sides))
        faces = roll.faces or (roll.dice_total,)
        kept = faces[0]
    else:
        roll = source.roll(RollRequest(f"{label} ({mode}: two dice)", 2, sides, each_die=True))
        faces = roll.faces or ()
        kept = max(faces) if mode == "advantage" else min(faces)
    if options.auto_failure == "both dice":
        auto = all(f == 1 for f in faces)
    else:
        auto = kept == 1
    total = kept + bonus + die.bonus
    success = not auto and (difficulty is None or total >= difficulty)
    return SkillRoll(label, str(die), mode, tuple(faces), kept, bonus + die.bonus, total, difficulty, auto,
                     success, modifiers.advantages, modifiers.disadvantages)


def _roll(source: DiceSource, dice: Dice, label: str) -> tuple[tuple[int, ...] | None, int, bool]:
    if dice.is_static:
        return None, dice.bonus, False
    roll: DiceRoll = source.roll(RollRequest(label, dice.count, dice.sides))
    return roll.faces, roll.dice_total + dice.bonus, roll.all_ones


def roll_damage(source: DiceSource, damage: Dice, defense: Dice, *, label: str,
                options: RulesOptions = DEFAULT) -> DamageRoll:
    """Roll Damage (and a dice Defense) for one target: kill if Damage meets or beats Defense, unless
    the Damage dice all show 1; a dice Defense showing all ones fails (proposal, switchable)."""
    if not can_damage(damage, defense):
        return DamageRoll(str(damage), str(defense), False)
    d_faces, d_total, d_auto = _roll(source, damage, f"Damage against {label}")
    f_faces, f_total, f_auto = _roll(source, defense, f"Defense of {label}")
    f_auto = f_auto and options.defense_all_ones_fails
    killed = not d_auto and (f_auto or d_total >= f_total)
    return DamageRoll(str(damage), str(defense), True, d_faces, d_total, d_auto, f_faces, f_total, f_auto, killed)


Outcome = Literal["hit", "miss", "automatic failure"]


def skill_outcome(roll: SkillRoll) -> Outcome:
    if roll.auto_failure:
        return "automatic failure"
    return "hit" if roll.success else "miss"
