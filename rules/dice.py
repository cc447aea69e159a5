"""Dice expressions and the one dice source every roll of the game goes through.

A dice expression is ``NdS+K`` (``1d6``, ``2d10+3``) or a static number (``4``). Rolls are asked of a
:class:`DiceSource` with a :class:`RollRequest` that says what the roll is for, so that dice typed in
by the players can be checked against the die they belong to, and so that every die that came up is
kept in a :class:`DiceRoll` for the record.

Sources:

* :class:`SeededDice` -- reproducible virtual dice (``random.Random(seed)``);
* :class:`EnteredDice` -- dice the players rolled by hand, consumed in the order the rules ask for them;
* :class:`CallbackDice` -- asks a function (a GUI dialog) for each roll;
* :class:`FixedDice`, :class:`LowestDice`, :class:`HighestDice` -- stubs for tests.

>>> Dice.parse("2d10+3")
Dice.parse('2d10+3')
>>> Dice.parse("4").is_static, str(Dice.parse("d6"))
(True, '1d6')
>>> EnteredDice([5]).roll(RollRequest("Skill roll", 1, 6)).dice_total
5
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rules.errors import DiceError, EnteredDiceError

#: Every die size the dice module knows. A ruleset narrows this (Down Range: d4, d6, d8, d10).
KNOWN_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
#: Enough for the biggest artillery pool; keeps exact distributions small.
MAX_DICE = 20

_DICE_RE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_STATIC_RE = re.compile(r"^\s*(?:static\s+)?(-?\d+)\s*$", re.IGNORECASE)


def _sides_list(sides: Sequence[int]) -> str:
    names = [f"d{s}" for s in sides]
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


@dataclass(frozen=True)
class Dice:
    """A pool of identical dice summed plus a static bonus, or a static number (``count == 0``)."""

    count: int
    sides: int
    bonus: int = 0

    @classmethod
    def static(cls, value: int) -> "Dice":
        """A fixed number: no roll.

        >>> Dice.static(4).maximum
        4
        """
        return cls(0, 0, int(value))

    @classmethod
    def parse(cls, text: "str | int | Dice", *, allowed_sides: Sequence[int] = KNOWN_SIDES) -> "Dice":
        """Read ``1d6``, ``d6``, ``2d10+3``, ``4`` or ``static 4``; a clear :class:`DiceError` otherwise.

        >>> Dice.parse("d7", allowed_sides=(4, 6, 8, 10))
        Traceback (most recent call last):
        ...
        rules.errors.DiceError: 'd7' is not a die of this game: use d4, d6, d8 or d10
        """
        if isinstance(text, Dice):
            return text
        if isinstance(text, bool):
            raise DiceError(f"{text!r} is not a dice expression: write e.g. 1d6, 2d10+3 or a number like 4")
        if isinstance(text, int):
            return cls.static(text)
        if not isinstance(text, str):
            raise DiceError(f"{text!r} is not a dice expression: write e.g. 1d6, 2d10+3 or a number like 4")
        static = _STATIC_RE.match(text)
        if static:
            return cls.static(int(static.group(1)))
        match = _DICE_RE.match(text)
        if not match:
            raise DiceError(f"{text.strip()!r} is not a dice expression: write e.g. 1d6, 2d10+3 or a number like 4")
        count = int(match.group(1)) if match.group(1) else 1
        sides = int(match.group(2))
        bonus = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        if sides not in allowed_sides:
            raise DiceError(f"'d{sides}' is not a die of this game: use {_sides_list(allowed_sides)}")
        if count < 1:
            raise DiceError(f"{text.strip()!r} rolls no dice: a roll needs at least one die (e.g. 1d{sides})")
        if count > MAX_DICE:
            raise DiceError(f"{text.strip()!r} rolls {count} dice: at most {MAX_DICE} dice in one roll")
        return cls(count, sides, bonus)

    @property
    def is_static(self) -> bool:
        return self.count == 0

    @property
    def minimum(self) -> int:
        return self.count + self.bonus

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.bonus

    def plus(self, bonus: int) -> "Dice":
        """The same dice with ``bonus`` more (body armor on a dice Defense adds to the total)."""
        return Dice(self.count, self.sides, self.bonus + bonus)

    def to_json_value(self) -> str:
        return str(self)

    @classmethod
    def from_json_value(cls, data: object) -> "Dice":
        if not isinstance(data, (str, int)):
            raise DiceError(f"{data!r} is not a dice expression")
        return cls.parse(data)

    def __str__(self) -> str:
        if self.is_static:
            return str(self.bonus)
        text = f"{self.count}d{self.sides}"
        if self.bonus:
            text += f"{self.bonus:+d}"
        return text

    def __repr__(self) -> str:
        return f"Dice.parse({str(self)!r})"


@dataclass(frozen=True)
class RollRequest:
    """One roll the rules ask for: ``count`` dice with ``sides`` sides.

    ``label`` says what it is for ("Skill roll of Sgt. Ruiz with the M4/M16"): entered-dice errors and
    GUI prompts show it. ``each_die`` is set when every die is read on its own (an Advantage pair keeps
    the higher die), so a typed-in total would not do.
    """

    label: str
    count: int
    sides: int
    each_die: bool = False


@dataclass(frozen=True)
class DiceRoll:
    """The dice that came up for one request.

    ``faces`` is None when the players entered only the total of several dice (the rules need the
    faces only to tell an all-ones roll, and a total equal to the number of dice is exactly that).
    """

    label: str
    count: int
    sides: int
    faces: tuple[int, ...] | None
    dice_total: int

    @property
    def all_ones(self) -> bool:
        """Every die shows 1 (the sum of N dice is N only when all of them show 1)."""
        return self.count > 0 and self.dice_total == self.count


@runtime_checkable
class DiceSource(Protocol):
    """Where dice come from. Every roll of the game goes through one of these."""

    def roll(self, request: RollRequest) -> DiceRoll:
        """Roll (or read) the dice of ``request``."""
        ...


def _from_faces(request: RollRequest, faces: Sequence[int]) -> DiceRoll:
    return DiceRoll(request.label, request.count, request.sides, tuple(faces), sum(faces))


class SeededDice:
    """Virtual dice from a seeded generator: the same seed gives the same game."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll(self, request: RollRequest) -> DiceRoll:
        faces = [self._random.randint(1, request.sides) for _ in range(request.count)]
        return _from_faces(request, faces)

    def __repr__(self) -> str:
        return f"SeededDice(seed={self.seed!r})"


Entry = int | Sequence[int]


class EnteredDice:
    """Dice the players rolled by hand, given in the order the rules ask for them.

    Each entry is one die (``5``), the total of a several-dice roll (``12`` for ``2d8``), or the list
    of faces of one roll (``[6, 2]`` for an Advantage pair, ``[3, 4]`` for ``2d8``). For a roll whose
    dice are read one by one, consecutive single numbers are also accepted (``6, 2``).

    >>> dice = EnteredDice([[6, 2], 12])
    >>> dice.roll(RollRequest("Skill", 2, 6, each_die=True)).faces
    (6, 2)
    >>> dice.roll(RollRequest("Damage", 2, 8)).dice_total
    12
    >>> dice.roll(RollRequest("Defense", 2, 6))
    Traceback (most recent call last):
    ...
    rules.errors.EnteredDiceError: no dice were entered for Defense (2d6): enter 2 more values (after the 2 already used)
    """

    def __init__(self, entries: Sequence[Entry]) -> None:
        self._entries: list[Entry] = list(entries)
        self._next = 0
        self.used: list[DiceRoll] = []

    @property
    def remaining(self) -> tuple[Entry, ...]:
        """Entries not used yet."""
        return tuple(self._entries[self._next:])

    def check_all_used(self) -> None:
        """Raise if some entered dice were never asked for (usually a typo in the list)."""
        if self.remaining:
            left = ", ".join(str(list(e)) if not isinstance(e, int) else str(e) for e in self.remaining)
            raise EnteredDiceError(
                f"{len(self.remaining)} entered dice were not needed ({left}): the rolls needed {self._next} "
                "entries; remove the extra ones"
            )

    def _take(self, request: RollRequest) -> Entry:
        if self._next >= len(self._entries):
            raise EnteredDiceError(
                f"no dice were entered for {request.label} ({request.count}d{request.sides}): "
                f"enter {request.count} more value{'s' if request.count > 1 else ''} (after the {self._next} already used)"
            )
        entry = self._entries[self._next]
        self._next += 1
        return entry

    def roll(self, request: RollRequest) -> DiceRoll:
        what = f"{request.label} ({request.count}d{request.sides})"
        entry = self._take(request)
        if isinstance(entry, bool) or not isinstance(entry, int):
            try:
                faces = [int(v) for v in entry]  # type: ignore[union-attr]  # an entry that is not an int is a sequence of faces (checked by the except below)
            except (TypeError, ValueError):
                raise EnteredDiceError(f"entered {entry!r} for {what}: enter whole numbers") from None
            if len(faces) != request.count:
                raise EnteredDiceError(
                    f"entered {len(faces)} dice {faces} for {what}: enter exactly {request.count} dice"
                )
        elif request.count == 1 or not request.each_die:
            if request.count == 1:
                faces = [entry]
            else:
                low, high = request.count, request.count * request.sides
                if not low <= entry <= high:
                    raise EnteredDiceError(
                        f"entered {entry} for {what}, but {request.count}d{request.sides} totals {low} to {high}: "
                        "enter the total shown, or the dice as a list"
                    )
                return DiceRoll(request.label, request.count, request.sides, None, entry)
        else:
            faces = [entry]
            while len(faces) < request.count:
                if self._next >= len(self._entries):
                    raise EnteredDiceError(
                        f"{what} needs {request.count} separate dice but only {faces} was entered: "
                        "enter them as a list like [6, 2]"
                    )
                more = self._take(request)
                if isinstance(more, bool) or not isinstance(more, int):
                    raise EnteredDiceError(
                        f"{what} needs {request.count} separate dice: enter them as a list like [6, 2]"
                    )
                faces.append(more)
        for face in faces:
            if not 1 <= face <= request.sides:
                raise EnteredDiceError(
                    f"entered {face} for {what}, but a d{request.sides} shows 1 to {request.sides}: "
                    "check the die and enter what it shows"
                )
        roll = _from_faces(request, faces)
        self.used.append(roll)
        return roll

    def __repr__(self) -> str:
        return f"EnteredDice({self._entries!r})"


class CallbackDice:
    """Asks ``ask(request)`` for every roll (a GUI dialog); the answer is checked like entered dice."""

    def __init__(self, ask: Callable[[RollRequest], Entry]) -> None:
        self._ask = ask

    def roll(self, request: RollRequest) -> DiceRoll:
        return EnteredDice([self._ask(request)]).roll(request)


class FixedDice:
    """Every die shows ``value`` (capped at the die's sides): a stub for tests."""

    def __init__(self, value: int) -> None:
        if value < 1:
            raise DiceError(f"a die cannot show {value}: use 1 or more")
        self.value = value

    def roll(self, request: RollRequest) -> DiceRoll:
        return _from_faces(request, [min(self.value, request.sides)] * request.count)

    def __repr__(self) -> str:
        return f"FixedDice({self.value})"


class LowestDice(FixedDice):
    """Every die shows 1 (python-chess style stub: the worst luck)."""

    def __init__(self) -> None:
        super().__init__(1)


class HighestDice:
    """Every die shows its highest face (the best luck)."""

    def roll(self, request: RollRequest) -> DiceRoll:
        return _from_faces(request, [request.sides] * request.count)


class RecordingDice:
    """Wraps a source and keeps every roll it produced, in order (for logs and tests)."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.rolls: list[DiceRoll] = []

    def roll(self, request: RollRequest) -> DiceRoll:
        result = self.inner.roll(request)
        self.rolls.append(result)
        return result
