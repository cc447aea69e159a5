"""Every resolved roll and rules decision as a frozen, JSON-ready event.

An event keeps what went in (``inputs``), what came out (``outcome``: the full result as JSON data),
every die that was rolled (``rolls``) and one plain sentence (``summary``) rendered when it happened,
so that a recording can replay it and the debrief can explain it without the engine.

>>> e = RulesEvent(seq=0, kind="roll", round=1, side="Marines", summary="2d10 rolled 14.",
...                inputs={"dice": "2d10"}, outcome={"total": 14},
...                rolls=(RollRecord("2d10", 2, 10, (6, 8), 14),))
>>> RulesEvent.from_json(e.to_json()) == e
True
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.dice import DiceRoll
from rules.serialize import from_jsonable, to_jsonable


@dataclass(frozen=True)
class RollRecord:
    """The dice of one roll as they came up (``faces`` None when only a total was entered)."""

    label: str
    count: int
    sides: int
    faces: tuple[int, ...] | None
    dice_total: int

    @classmethod
    def of(cls, roll: DiceRoll) -> "RollRecord":
        return cls(roll.label, roll.count, roll.sides, roll.faces, roll.dice_total)


@dataclass(frozen=True)
class RulesEvent:
    """One entry of the game's log."""

    seq: int
    kind: str
    round: int
    side: str | None
    summary: str
    inputs: Mapping[str, Any] = field(default_factory=dict)
    outcome: Mapping[str, Any] = field(default_factory=dict)
    rolls: tuple[RollRecord, ...] = ()
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = to_jsonable(self)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "RulesEvent":
        event: RulesEvent = from_jsonable(cls, data, where="event")
        return event


def rolls_of(rolls: Sequence[DiceRoll]) -> tuple[RollRecord, ...]:
    """Records for a list of dice rolls."""
    return tuple(RollRecord.of(r) for r in rolls)
