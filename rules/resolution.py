"""The values an action of any rule system comes to, beneath every module that produces or shows them:
:class:`RulesState` (what a front end may read of any game state), :class:`Resolution` (an attack or a
procedure's result, sentences and new state) and :class:`LandingChoice` (a missed explosive waiting
for a player). python-chess keeps ``Move`` and ``Outcome`` beneath everything in the same way.

:mod:`rules.ruleset` re-exports them, so callers import everything from there; the front end's forms
(:mod:`rules.front_end_forms`) import them from here, which keeps the forms below the registry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from rules.events import RulesEvent


@runtime_checkable
class RulesState(Protocol):
    """What a front end may read of any rule system's game state, whatever else the state holds.

    Every rule system's state is its own frozen dataclass mixing in
    :class:`rules.ruleset_state.RulesetState`, which has all of these; the rest of a state (units,
    tokens, the rule system's own records) front ends read through the
    :class:`rules.ruleset.Ruleset`'s views (``UnitView``, ``GroupView``, ``WeaponView``...), never field by field.

    ``round``: the round being played (0: none started yet); ``order``: the sides' order this round
    (empty until it is decided); ``active_side``: whose turn it is (None between turns); ``sides``:
    the sides, each with its ``name``; ``events``: the game's log (:class:`RulesEvent`, the last
    initiative among them, kind "initiative"); ``ruleset_name``: the registry's name of its rule system;
    ``setting_up``: the game is in its set-up, before the first turn begins: the players are placing
    their units, and nothing a unit does then counts as movement (a fresh game from a scenario starts
    so; the first turn of the game ends it; a rulebook's worked example set in play does not have it).
    """

    @property  # read-only: each state class sets it as a class attribute
    def ruleset_name(self) -> str: ...

    @property
    def round(self) -> int: ...

    @property
    def order(self) -> tuple[str, ...]: ...

    @property
    def active_side(self) -> str | None: ...

    @property
    def sides(self) -> tuple[Any, ...]: ...

    @property
    def events(self) -> tuple[RulesEvent, ...]: ...

    @property
    def setting_up(self) -> bool: ...

    def apply(self, action: Any) -> Any:
        """The state after one of its rule system's actions."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The state as saved (JSON data with its format, version and ruleset)."""
        ...


@dataclass(frozen=True)
class LandingChoice:
    """A missed explosive waiting for a player to say where it lands: it was aimed at
    (``intended_x_in``, ``intended_y_in``) and lands within ``radius_in`` of it, where ``chooser``
    (the attacker's opponent, in the rules' words) puts it."""

    intended_x_in: float
    intended_y_in: float
    radius_in: float
    chooser: str


@dataclass(frozen=True)
class Resolution:
    """What an attack came to: the result data, the sentences, the new state, and whether a player
    must still choose something (``pending`` says what; ``landing``: where a missed explosive lands,
    to be resolved again with that ``landing_point``)."""

    result: Any
    sentences: tuple[str, ...]
    state: RulesState
    pending: str | None = None
    landing: LandingChoice | None = None
