"""The generic miniatures game state: units (one counter and one tag each) with their unit records,
status levels, ammunition and identification; the sides (one may be played by the automation tables);
recent impact points; the log.

The state changes only through ``state.apply(action)`` (:mod:`rules.generic.actions`).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from rules.errors import UnknownNameError
from rules.events import RulesEvent
from rules.generic.catalog import GenericData, load_data
from rules.generic.options import GenericOptions
# The pieces are re-exported: code that reads a game state finds them beside it.
from rules.generic.pieces import RULESET_NAME, STATE_FORMAT, STATE_VERSION, Impact, Presence, SideState, Unit
from rules.ruleset_state import RulesetState


@dataclass(frozen=True)
class GenericState(RulesetState[SideState]):
    """Everything the rules know about a game in progress. The text has no turn sequence: sides act
    in the order of the scenario's ``[[sides]]`` (proposal), ``round`` counts game turns."""

    units: tuple[Unit, ...]
    sides: tuple[SideState, ...]
    round: int = 0
    order: tuple[str, ...] = ()
    turn_index: int = -1
    in_turn: bool = False
    impacts: tuple[Impact, ...] = ()
    options: GenericOptions = field(default_factory=GenericOptions)
    data_files: tuple[str, ...] = ()
    events: tuple[RulesEvent, ...] = ()
    name: str = ""
    #: Before the first turn: the units are being placed (:class:`rules.ruleset_state.RulesetState`).
    setting_up: bool = field(default=False, metadata={"added": True})

    ruleset_name = RULESET_NAME
    state_format = STATE_FORMAT
    state_version = STATE_VERSION
    state_title = "generic miniatures rules"

    @property
    def data(self) -> GenericData:
        return load_data(self.data_files)

    def unit(self, ref: int | str) -> Unit:
        """A unit by tag id, name or short ID (case-insensitive)."""
        for u in self.units:
            if u.unit_id == ref or (isinstance(ref, str) and ref.strip().lower() in (u.name.lower(), u.short_id.lower())):
                return u
        if isinstance(ref, str) and ref.strip().isdigit():
            return self.unit(int(ref))
        names = ", ".join(f"{u.short_id} ({u.unit_id})" for u in self.units[:16])
        raise UnknownNameError(f"no unit {ref!r} in this game: the units are {names}")

    def units_of(self, side: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == side)

    def in_play(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.in_play)

    def status_name(self, unit: Unit) -> str:
        return self.data.status_ladder[unit.status_level]

    def levels_left(self, unit: Unit) -> int:
        """Status levels the unit can still lose before it is destroyed."""
        return len(self.data.status_ladder) - 1 - unit.status_level

    def with_unit(self, unit: Unit) -> "GenericState":
        return replace(self, units=tuple(unit if u.unit_id == unit.unit_id else u for u in self.units))

    def with_units(self, changed: Iterable[Unit]) -> "GenericState":
        by_id = {u.unit_id: u for u in changed}
        return replace(self, units=tuple(by_id.get(u.unit_id, u) for u in self.units))

    def check_data(self) -> None:
        self.data  # noqa: B018 - fail now, not later, if the data files are gone
