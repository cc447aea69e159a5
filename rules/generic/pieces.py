"""The pieces a generic-rules game state is made of: units, sides, the impacts of indirect fire, and
how a unit is present on the table.

Plain frozen values, apart from :class:`rules.generic.state.GenericState`: the modules that
implement actions use them without importing the state class, which dispatches actions to those
modules.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.generic.catalog import UnitRecord
from rules.geometry import Footprint, footprint_from

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


