"""The generic miniatures game state: units (one counter and one tag each) with their unit records,
status levels, ammunition and identification; the sides (one may be played by the automation tables);
recent impact points; the log.

The state changes only through ``state.apply(action)`` (:mod:`rules.generic.actions`).
"""
from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rules.errors import UnknownNameError
from rules.events import RulesEvent
from rules.generic.catalog import GenericData, UnitRecord, load_data
from rules.generic.options import GenericOptions
from rules.geometry import Footprint, footprint_from
from rules.ruleset_state import RulesetState

if TYPE_CHECKING:
    from rules.generic.actions import Action

STATE_FORMAT = "sandtable-generic-state"
STATE_VERSION = 1
RULESET_NAME = "generic"


class Presence(str, enum.Enum):
    """On the table and in the fight, destroyed (the last status level), or removed (a dummy found out)."""

    ACTIVE = "active"
    DESTROYED = "down"
    REMOVED = "removed"


@dataclass(frozen=True)
class Unit:
    """One unit: its counter on the table, its record (B.9) and what has happened to it.

    ``status_level`` indexes the status ladder (0 = Undamaged). ``hidden`` units are anonymous until
    ``identified``; a ``dummy`` is a fake counter, removed when identified (B.6).
    """

    unit_id: int
    name: str
    side: str
    record: UnitRecord
    x_in: float = 0.0
    y_in: float = 0.0
    heading_deg: float = 90.0
    radius_in: float = 0.5
    length_in: float | None = None
    width_in: float | None = None
    on_table: bool = True
    status_level: int = 0
    presence: Presence = Presence.ACTIVE
    shots_left: int | None = None
    hidden: bool = False
    identified: bool = True
    dummy: bool = False
    moved_in: float = 0.0
    fired: bool = False
    initiated_close_combat: bool = False

    @property
    def footprint(self) -> Footprint:
        return footprint_from(self.x_in, self.y_in, self.heading_deg, radius_in=self.radius_in,
                              length_in=self.length_in, width_in=self.width_in)

    @property
    def short_id(self) -> str:
        """What the counter shows (the record's Unit name), the unit's name when it has none."""
        return self.record.unit_name or self.name

    @property
    def is_active(self) -> bool:
        return self.presence is Presence.ACTIVE

    @property
    def anonymous(self) -> bool:
        return self.hidden and not self.identified

    @property
    def in_play(self) -> bool:
        return self.on_table and self.is_active


@dataclass(frozen=True)
class SideState:
    """A player: colour, whether the automation tables play it (B.8), and where it heads."""

    name: str
    color: str | None = None
    automated: bool = False
    objective_x_in: float | None = None
    objective_y_in: float | None = None


@dataclass(frozen=True)
class Impact:
    """Where an area-of-effect shot came down this turn (kept for the overlays until the turn ends)."""

    firer: int
    side: str
    weapon: str
    intended_x_in: float
    intended_y_in: float
    landing_x_in: float | None
    landing_y_in: float | None
    aoe_in: float
    hit: bool
    dud: bool = False


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

    ruleset_name = RULESET_NAME
    state_format = STATE_FORMAT
    state_version = STATE_VERSION
    state_title = "generic-rules"

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

    def apply(self, action: "Action") -> "GenericState":
        from rules.generic.actions import apply_action

        return apply_action(self, action)

    def with_unit(self, unit: Unit) -> "GenericState":
        return replace(self, units=tuple(unit if u.unit_id == unit.unit_id else u for u in self.units))

    def with_units(self, changed: Iterable[Unit]) -> "GenericState":
        by_id = {u.unit_id: u for u in changed}
        return replace(self, units=tuple(by_id.get(u.unit_id, u) for u in self.units))

    def check_data(self) -> None:
        self.data  # noqa: B018 - fail now, not later, if the data files are gone
