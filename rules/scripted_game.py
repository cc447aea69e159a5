"""What the rulesets' scripted example games share: the record of a step, the running of a step's
items, playing the steps in order, and keyframes that move the synthetic table's tags as the steps do.

Each example (``rules/<ruleset>/examples/*.py``) keeps its own items (a move, an attack with the dice
the text states...) and how each is played; a :class:`StepRun` collects what the step comes to while
its items are played, :func:`play_steps` chains the steps, :func:`keyframes` turns the states after
each step into ``[[units.path]]`` keyframes.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Token:
...     x_in: float
...     y_in: float
...     heading_deg: float = 90.0
...     on_table: bool = True
>>> frames = keyframes([(10, Token(1.0, 2.0))], [[(10, Token(1.0, 2.0))], [(10, Token(5.0, 2.0))]], step_s=4.0)
>>> [(f["t_s"], f["x_in"]) for f in frames[10]]
[(0.0, 1.0), (8.0, 5.0)]
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from rules.dice import EnteredDice
from rules.ruleset import AttackRequest, TargetOdds

class PlayedState(Protocol):
    """A ruleset's game state as a script plays it: changed by ``apply``, with a log of events."""

    @property
    def events(self) -> tuple[Any, ...]: ...

    def apply(self, action: Any) -> Any: ...


S = TypeVar("S", bound=PlayedState)
R = TypeVar("R", bound="StepRecord[Any]")

#: What a keyframe says of a token; a new keyframe is written only when one of these changed.
KEYFRAME_FIELDS = ("x_in", "y_in", "heading_deg", "on_table")


@dataclass(frozen=True)
class Pose:
    """A unit moved on the table (what the camera sees): the tracker reports it as a ``SetPose``.
    ``heading_deg`` None: it keeps its facing."""

    unit: int
    x_in: float
    y_in: float
    heading_deg: float | None = None


@dataclass(frozen=True)
class Step:
    """One step of a scripted game: its title, what the text narrates, the items played, what the
    text says comes of it, and a note on how the script reads the text where it is unclear."""

    title: str
    text: str
    items: tuple[Any, ...]
    expect: str
    note: str = ""


@dataclass(frozen=True)
class StepRecord(Generic[S]):
    """What one step came to: the state after it, the sentences, the odds shown before each roll,
    and the results of every roll."""

    step: Any
    state: S
    lines: tuple[str, ...]
    odds: tuple[tuple[TargetOdds, ...], ...] = ()
    results: tuple[Any, ...] = field(default=())


class StepRun(Generic[S]):
    """A step being played (mutable: each item changes ``state`` and adds to what the step says)."""

    def __init__(self, state: S) -> None:
        self.state = state
        self.lines: list[str] = []
        self.odds: list[tuple[TargetOdds, ...]] = []
        self.results: list[Any] = []

    def apply(self, action: Any, *, keep: Callable[[Any], bool] = lambda event: True) -> None:
        """Apply a plain action; the summaries of the events it logged (those ``keep`` accepts) are
        the step's sentences."""
        before = len(self.state.events)
        self.state = self.state.apply(action)
        self.lines += [e.summary for e in self.state.events[before:] if keep(e)]

    def show_odds(self, table: tuple[TargetOdds, ...], line: Callable[[TargetOdds], str]) -> None:
        """The odds of each target before the dice are rolled, one ``line`` each."""
        self.odds.append(table)
        self.lines.append("Odds before rolling:")
        self.lines += [line(o) for o in table]

    @contextmanager
    def dice(self, dice: Sequence[Any], *, all_used: bool = True) -> Iterator[EnteredDice]:
        """The dice the text states, to roll with inside the ``with`` block; with ``all_used`` a die
        left over is an error in the script (the text and the rules disagree about the dice rolled)."""
        entered = EnteredDice(dice)
        yield entered
        if all_used:
            entered.check_all_used()

    def resolved(self, resolution: Any) -> None:
        """Take a ruleset interface :class:`~rules.ruleset.Resolution`: its result, sentences and state."""
        self.results.append(resolution.result)
        self.lines += resolution.sentences
        self.state = resolution.state

    def attack(self, ruleset: Any, request: AttackRequest, dice: Sequence[Any], line: Callable[[TargetOdds], str]) -> None:
        """An attack through the ruleset interface: the odds shown, then resolved with ``dice``."""
        self.show_odds(ruleset.attack_odds(self.state, request), line)
        with self.dice(dice) as entered:
            self.resolved(ruleset.resolve_attack(self.state, request, entered))

    def record(self, step: Any) -> StepRecord[S]:
        return StepRecord(step, self.state, tuple(self.lines), tuple(self.odds), tuple(self.results))


def play_steps(steps: Iterable[Any], state: S, play_step: Callable[[S, Any], R]) -> Iterator[R]:
    """Each step's record, each step played on the state the previous one left."""
    for step in steps:
        record = play_step(state, step)
        state = record.state
        yield record


def keyframes(start: Iterable[tuple[int, Any]], after_steps: Iterable[Iterable[tuple[int, Any]]], *,
              step_s: float) -> dict[int, list[dict[str, Any]]]:
    """``[[units.path]]`` keyframes: ``start`` is (tag id, token) at time 0, ``after_steps`` the same
    after each step; step ``i`` ends at ``(i + 1) * step_s`` and a keyframe is added for a token that
    moved, turned, left or came back to the table (positions rounded to a thousandth of an inch)."""
    frames: dict[int, list[dict[str, Any]]] = {
        tag: [{"t_s": 0.0, "x_in": p.x_in, "y_in": p.y_in, "heading_deg": p.heading_deg, "on_table": p.on_table}]
        for tag, p in start
    }
    for i, pieces in enumerate(after_steps):
        t = (i + 1) * step_s
        for tag, p in pieces:
            last = frames[tag][-1]
            now = {"t_s": t, "x_in": round(p.x_in, 3), "y_in": round(p.y_in, 3), "heading_deg": round(p.heading_deg, 3),
                   "on_table": p.on_table}
            if any(now[k] != last[k] for k in KEYFRAME_FIELDS):
                frames[tag].append(now)
    return frames
