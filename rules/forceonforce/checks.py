"""Force on Force tests and checks: the (nearly) universal 4+ mechanic, die shifts, exact odds (A.3).

* **Unopposed**: roll the die the rule names (after die shifts), add the rule's modifiers, pass on 4+.
* **Opposed**: both sides roll their die; the winner rolls 4+ **and** higher than the opponent.
  Equal results, or nobody at 4+, and nobody wins (A.3.3 proposal). Modifiers apply to each side's
  roll before the comparison (proposal).

These are the "generic test tools" the players use for every step whose procedure the excerpt does
not contain (fire combat, reaction tests, morale tests...): the rule names the die and the modifiers,
the engine rolls, logs and gives the exact odds.

>>> p_pass(8), p_pass(6, modifier=1)
(Fraction(5, 8), Fraction(2, 3))
>>> opposed_odds(8, 6)
OpposedOdds(p_first=Fraction(1, 2), p_second=Fraction(1, 4), p_nobody=Fraction(1, 4))
>>> roll = resolve_opposed(CheckSide("Alpha", "Troop Quality", 8), CheckSide("Cell 1", "Troop Quality", 6),
...                        EnteredDice([6, 5]), label="fire")
>>> roll.winner, roll.first.total, roll.second.total
('Alpha', 6, 5)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceSource, EnteredDice, RollRequest  # noqa: F401 - EnteredDice is used by the doctests below
from rules.errors import RulesError

#: "Roll a 4+".
SUCCESS = 4


@dataclass(frozen=True)
class CheckSide:
    """One side of a test before rolling: who, which die (by what it measures) and its adjustments.

    ``base_sides`` is the unit's die (e.g. its Troop Quality), ``sides`` the die rolled after the die
    shifts (``shift`` steps, + up / - down), ``modifier`` is added to the roll.
    """

    name: str
    what: str
    base_sides: int
    shift: int = 0
    sides: int = 0
    modifier: int = 0

    def __post_init__(self) -> None:
        if self.sides == 0:
            object.__setattr__(self, "sides", self.base_sides)
        if self.sides not in (4, 6, 8, 10, 12, 20):
            raise RulesError(f"{self.name}: d{self.sides} is not a die: use d6, d8, d10 or d12")

    @property
    def die_text(self) -> str:
        text = f"D{self.sides}"
        if self.sides != self.base_sides:
            text += f" (D{self.base_sides} shifted {'up' if self.sides > self.base_sides else 'down'})"
        if self.modifier:
            text += f" {self.modifier:+d}"
        return text


@dataclass(frozen=True)
class TestRoll:
    """One side's roll: its die, the face, the modified total and whether it made 4+."""

    name: str
    what: str
    base_sides: int
    sides: int
    modifier: int
    face: int
    total: int
    success: bool


@dataclass(frozen=True)
class CheckResult:
    """An unopposed test or check."""

    label: str
    roll: TestRoll
    target: int = SUCCESS

    @property
    def passed(self) -> bool:
        return self.roll.success


@dataclass(frozen=True)
class OpposedResult:
    """An opposed test: both rolls and the winner's name (None: nobody won, ``reason`` says why)."""

    label: str
    first: TestRoll
    second: TestRoll
    winner: str | None
    reason: str
    target: int = SUCCESS


@dataclass(frozen=True)
class OpposedOdds:
    """Exact odds of an opposed test: the first side wins, the second wins, nobody wins."""

    p_first: Fraction
    p_second: Fraction
    p_nobody: Fraction


def shifted(ladder: tuple[int, ...], sides: int, steps: int) -> int:
    """The die ``steps`` sizes up or down ``ladder``; the ends hold (A.3.1 proposal).

    >>> shifted((6, 8, 10, 12), 10, 1), shifted((6, 8, 10, 12), 6, -2)
    (12, 6)
    """
    if sides not in ladder:
        raise RulesError(f"d{sides} is not on the die ladder {', '.join(f'd{s}' for s in ladder)}")
    return ladder[max(0, min(len(ladder) - 1, ladder.index(sides) + steps))]


def p_pass(sides: int, *, modifier: int = 0, target: int = SUCCESS) -> Fraction:
    """Probability that one die plus ``modifier`` reaches ``target``."""
    good = sum(1 for face in range(1, sides + 1) if face + modifier >= target)
    return Fraction(good, sides)


def opposed_odds(first_sides: int, second_sides: int, *, first_modifier: int = 0, second_modifier: int = 0,
                 target: int = SUCCESS) -> OpposedOdds:
    """Exact odds of an opposed test, by enumerating every pair of faces."""
    first = second = 0
    for a in range(1, first_sides + 1):
        for b in range(1, second_sides + 1):
            winner = _winner(a + first_modifier, b + second_modifier, target)
            first += winner == 1
            second += winner == 2
    total = first_sides * second_sides
    return OpposedOdds(Fraction(first, total), Fraction(second, total), Fraction(total - first - second, total))


def _winner(a: int, b: int, target: int) -> int:
    if a >= target and a > b:
        return 1
    if b >= target and b > a:
        return 2
    return 0


def _roll(side: CheckSide, dice: DiceSource, label: str, target: int) -> TestRoll:
    r = dice.roll(RollRequest(f"{label}: {side.what} of {side.name}", 1, side.sides))
    total = r.dice_total + side.modifier
    return TestRoll(side.name, side.what, side.base_sides, side.sides, side.modifier, r.dice_total, total,
                    total >= target)


def resolve_check(side: CheckSide, dice: DiceSource, *, label: str, target: int = SUCCESS) -> CheckResult:
    """Roll an unopposed test.

    >>> resolve_check(CheckSide("Cell 2", "Troop Quality", 6), EnteredDice([3]), label="TQ check").passed
    False
    """
    return CheckResult(label, _roll(side, dice, label, target), target)


def resolve_opposed(first: CheckSide, second: CheckSide, dice: DiceSource, *, label: str,
                    target: int = SUCCESS) -> OpposedResult:
    """Roll an opposed test: the first side's die, then the second's."""
    a = _roll(first, dice, label, target)
    b = _roll(second, dice, label, target)
    w = _winner(a.total, b.total, target)
    if w == 1:
        winner, reason = first.name, f"{a.total} is {target}+ and beats {b.total}"
    elif w == 2:
        winner, reason = second.name, f"{b.total} is {target}+ and beats {a.total}"
    elif a.total == b.total and a.total >= target:
        winner, reason = None, f"both rolled {a.total}: a tie"
    else:
        winner, reason = None, f"nobody rolled {target}+ higher than the other"
    return OpposedResult(label, a, b, winner, reason, target)
