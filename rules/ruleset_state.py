"""What every ruleset's game state has in common: the event log, whose turn it is, the sides, and the
saved-state envelope (format, version, ruleset name) with its error messages.

Each rule system keeps its own frozen dataclass (Down Range's ``GameState``, Force on Force's
``FofState``, the generic rules' ``GenericState``) and mixes :class:`RulesetState` in, naming its save
format in four class attributes. ``state.apply(action)`` asks the registry for the rule system named
``ruleset_name``, whose dispatcher runs it: the state imports none of the modules that change it. A
saved state is the dataclass's fields as JSON under ``{"format", "version", "ruleset"}``; loading
checks the format and the version first and names the ruleset in the message, so a Force on Force
file handed to Down Range says so.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Side:
...     name: str
>>> @dataclass(frozen=True)
... class Skirmish(RulesetState[Side]):
...     sides: tuple[Side, ...]
...     round: int = 0
...     order: tuple[str, ...] = ()
...     turn_index: int = -1
...     in_turn: bool = False
...     events: tuple[RulesEvent, ...] = ()
...     ruleset_name = "skirmish"
...     state_format = "sandtable-skirmish-state"
...     state_version = 1
...     state_title = "Skirmish"
>>> s = Skirmish((Side("Blue"),)).log("note", "Blue digs in.")
>>> s.events[0].summary
'Blue digs in.'
>>> {key: s.to_json()[key] for key in ENVELOPE_KEYS}
{'format': 'sandtable-skirmish-state', 'version': 1, 'ruleset': 'skirmish'}
>>> Skirmish.from_json({"format": "sandtable-chess-state"})
Traceback (most recent call last):
...
rules.errors.SaveFileError: not a Skirmish game state (format 'sandtable-chess-state'); expected format 'sandtable-skirmish-state'
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from rules.errors import IllegalActionError, SaveFileError, UnknownNameError
from rules.events import RulesEvent
from rules.ruleset import get_ruleset
from rules.serialize import from_jsonable, to_jsonable

#: The keys of the saved-state envelope; everything else is the state's own fields.
ENVELOPE_KEYS = ("format", "version", "ruleset")


class NamedSide(Protocol):
    @property
    def name(self) -> str: ...


class PlayOptions(Protocol):
    @property
    def strict(self) -> bool: ...


SideT = TypeVar("SideT", bound=NamedSide)
S = TypeVar("S", bound="RulesetState[Any]")


class RulesetState(Generic[SideT]):
    """Mixin for a ruleset's frozen game-state dataclass (the dataclass supplies the fields below).

    The subclass sets ``ruleset_name`` (the registry's name, also saved), ``state_format`` and
    ``state_version`` (the save file's), and ``state_title`` (how messages name the rule system:
    "not a Down Range game state"); it may override :meth:`check_data` to fail on load, not later,
    when the data files the game names are gone.

    Its ``setting_up`` field (saved only when set) is True from a scenario's start until the first turn
    begins: units are placed, not moved (each rule system's pose handler charges no movement then, and
    its start of a turn clears it).
    """

    if TYPE_CHECKING:
        # Declared for the type checker only: at run time annotations here would be read as the
        # subclass's own (typing.get_type_hints walks the bases), and the dataclass supplies them.
        ruleset_name: ClassVar[str]
        state_format: ClassVar[str]
        state_version: ClassVar[int]
        state_title: ClassVar[str]

        sides: tuple[SideT, ...]
        round: int
        order: tuple[str, ...]
        turn_index: int
        in_turn: bool
        events: tuple[RulesEvent, ...]
        options: PlayOptions
        setting_up: bool
    else:
        # A rule system whose state keeps no set-up of its own is always in play.
        setting_up = False

    # -- whose turn, which side -------------------------------------------------------------------

    @property
    def active_side(self) -> str | None:
        """Whose turn it is, or None between turns (and before the first round)."""
        return self.order[self.turn_index] if self.in_turn and 0 <= self.turn_index < len(self.order) else None

    def movement_words(self, left_in: float) -> str:
        """A unit's movement ring's label: "Move left 3\"" in play; "Set-up: Move 8\"" before the first
        turn, while the units are placed (placing them spends none of it)."""
        return f"Set-up: Move {left_in:g}\"" if self.setting_up else f"Move left {left_in:g}\""

    def side(self, name: str) -> SideT:
        for s in self.sides:
            if s.name == name:
                return s
        raise UnknownNameError(f"no side {name!r}: the sides are {', '.join(s.name for s in self.sides)}")

    # -- the one verb -----------------------------------------------------------------------------

    def apply(self: S, action: Any) -> S:
        """The state after ``action`` (raises :class:`IllegalActionError` if the rules forbid it).

        The rule system registered as ``ruleset_name`` runs it (its :meth:`rules.ruleset.Ruleset.apply`,
        which hands it to its dispatcher): the state is a value beneath the modules that change it and
        imports none of them, as python-chess's ``Board`` imports nothing that uses it.
        """
        changed: S = get_ruleset(self.ruleset_name).apply(self, action)
        return changed

    # -- the log ----------------------------------------------------------------------------------

    def log(self: S, kind: str, summary: str, *, inputs: Mapping[str, Any] | None = None,
            outcome: Mapping[str, Any] | None = None, rolls: tuple[Any, ...] = (),
            warnings: tuple[str, ...] = ()) -> S:
        """The state with one more event: numbered, stamped with the round and the acting side."""
        event = RulesEvent(len(self.events), kind, self.round, self.active_side, summary,
                           dict(inputs or {}), dict(outcome or {}), rolls, warnings)
        changed: S = dataclasses.replace(self, events=self.events + (event,))  # type: ignore[type-var]  # S is bound to a dataclass state; mypy's replace() wants a DataclassInstance bound
        return changed

    def illegal(self, message: str) -> IllegalActionError:
        return IllegalActionError(message)

    def refuse_or_warn(self, problems: list[str], what: str) -> tuple[str, ...]:
        """Strict play refuses an action with problems (:class:`IllegalActionError` "what: problems");
        relaxed play lets it through and hands the problems back as the event's warnings."""
        if problems and self.options.strict:
            raise IllegalActionError(f"{what}: {'; '.join(problems)}")
        return tuple(problems)

    # -- saving -----------------------------------------------------------------------------------

    def check_data(self) -> None:
        """Raise if the data files this game plays with cannot be read (called on load)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": self.state_format, "version": self.state_version,
                                "ruleset": self.ruleset_name}
        body = to_jsonable(self)
        body.pop("type", None)
        data.update(body)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls: type[S], data: Mapping[str, Any]) -> S:
        if not isinstance(data, Mapping) or data.get("format") != cls.state_format:
            raise SaveFileError(
                f"not a {cls.state_title} game state (format {data.get('format') if isinstance(data, Mapping) else None!r}); "
                f"expected format {cls.state_format!r}")
        version = data.get("version")
        if version != cls.state_version:
            raise SaveFileError(
                f"game state version {version!r} is not supported (this program reads version {cls.state_version}); "
                "save it again with a matching version of Sandtable Companion")
        body = {k: v for k, v in data.items() if k not in ENVELOPE_KEYS}
        state: S = from_jsonable(cls, body, where="state")
        state.check_data()
        return state

    @classmethod
    def loads(cls: type[S], text: str) -> S:
        try:
            data = json.loads(text)
        except RecursionError:
            raise SaveFileError("the saved game is nested too deeply to be a game state; the file is damaged") from None
        except json.JSONDecodeError as exc:
            raise SaveFileError(f"the saved game is not valid JSON ({exc.msg} at line {exc.lineno}); the file is damaged") from None
        return cls.from_json(data)
