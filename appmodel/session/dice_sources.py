"""The dice a session hands the rules besides its own virtual dice, each wrapping another source.

- :class:`ProbeDice`: the players' entries so far, then a stop naming the next roll the rules ask for
  (the entered-dice form lists rolls one at a time: which follow depends on the earlier ones).
- :class:`CapturingDice`: rolls with another source and keeps every roll as an entry, so a missed
  explosive's rolls can be fed again when its landing point is chosen.
- :class:`ReplayThenDice`: the rolls already made, then another source for those that follow.
- :func:`entered_or`: the players' entries when they rolled, else the session's dice.

>>> from rules.dice import RollRequest
>>> probe = ProbeDice([4])
>>> probe.roll(RollRequest("Shooting", 1, 10)).dice_total
4
>>> try:
...     probe.roll(RollRequest("Damage", 1, 10))
... except NeedDice as need:
...     print(need.request.label)
Damage
"""
from __future__ import annotations

from collections.abc import Sequence

from rules.dice import DiceRoll, DiceSource, EnteredDice, RollRequest

#: One roll the players entered: a total, or each die's face.
Entry = int | Sequence[int]


class NeedDice(Exception):
    """The rules asked for a roll the entries do not hold (``request`` says which)."""

    def __init__(self, request: RollRequest) -> None:
        super().__init__(request.label)
        self.request = request


class ProbeDice:
    """Dice fed one entry per roll; raises :class:`NeedDice` at the first roll without an entry."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.entries = list(entries)
        self.requests: list[RollRequest] = []

    def roll(self, request: RollRequest) -> DiceRoll:
        if len(self.requests) >= len(self.entries):
            raise NeedDice(request)
        entry = self.entries[len(self.requests)]
        self.requests.append(request)
        return EnteredDice([entry]).roll(request)


class CapturingDice:
    """Rolls with ``inner`` and keeps each roll as an entry, so the same dice can be fed again."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.entries: list[Entry] = []

    def roll(self, request: RollRequest) -> DiceRoll:
        roll = self.inner.roll(request)
        self.entries.append(list(roll.faces) if roll.faces is not None else roll.dice_total)
        return roll


class ReplayThenDice:
    """The rolls already made (their entries, in order), then ``then`` for the rolls that follow."""

    def __init__(self, entries: Sequence[Entry], then: DiceSource) -> None:
        self.entries = list(entries)
        self.then = then
        self.used = 0

    def roll(self, request: RollRequest) -> DiceRoll:
        if self.used < len(self.entries):
            entry = self.entries[self.used]
            self.used += 1
            return EnteredDice([entry]).roll(request)
        return self.then.roll(request)


def entered_or(entries: Sequence[Entry] | None, dice: DiceSource) -> DiceSource:
    """The players' ``entries`` as dice when they rolled by hand, else ``dice`` (the virtual ones)."""
    return dice if entries is None else EnteredDice(list(entries))


def check_all_used(entries: Sequence[Entry] | None, dice: DiceSource) -> None:
    """When the players entered their dice, refuse any the rules did not ask for (one die too many)."""
    if entries is not None:
        dice.check_all_used()  # type: ignore[attr-defined]  # only EnteredDice has it; entries given means dice is one
