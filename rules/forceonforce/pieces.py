"""The pieces a Force on Force game state is made of: figures, teams (the units they form), hot spots,
sides, and the enums that name troop types, team kinds and figure status.

Plain frozen values, apart from :class:`rules.forceonforce.state.FofState`: the modules that
implement actions use them without importing the state class, which dispatches actions to those
modules.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.geometry import Footprint, footprint_from

STATE_FORMAT = "sandtable-forceonforce-state"
STATE_VERSION = 1
RULESET_NAME = "force-on-force"


class TroopType(str, enum.Enum):
    """A.1: formally trained and disciplined, or armed amateurs."""

    REGULAR = "regular"
    IRREGULAR = "irregular"


class TeamKind(str, enum.Enum):
    INFANTRY = "infantry"
    VEHICLE = "vehicle"


class FigureStatus(str, enum.Enum):
    """In the fight, a casualty (lying where it fell, for First Aid), or removed."""

    ACTIVE = "active"
    CASUALTY = "casualty"
    REMOVED = "removed"


@dataclass(frozen=True)
class Figure:
    """One figure (or vehicle model, or civilian stand) on the table, with its own tag.

    ``team`` is the unit it belongs to (None for a leader on his own and for civilians). A leader
    figure has a ``leader_level`` ("squad", "platoon"...), a ``leader_effect`` (+1 positive, -1
    negative) and his own Morale (``morale``); ``z_in`` is the height of the ground it stands on.
    """

    figure_id: int
    name: str
    side: str
    team: str | None = None
    role: str = "rifleman"
    x_in: float = 0.0
    y_in: float = 0.0
    heading_deg: float = 90.0
    z_in: float = 0.0
    radius_in: float = 0.5
    length_in: float | None = None
    width_in: float | None = None
    on_table: bool = True
    status: FigureStatus = FigureStatus.ACTIVE
    leader_level: str | None = None
    leader_effect: int = 0
    morale: int | None = None
    quality: int | None = None
    troop_type: TroopType | None = None
    remote_contact: bool = False
    civilian: bool = False
    finished: bool = False
    moved_in: float = 0.0

    @property
    def footprint(self) -> Footprint:
        return footprint_from(self.x_in, self.y_in, self.heading_deg, radius_in=self.radius_in,
                              length_in=self.length_in, width_in=self.width_in)

    @property
    def is_leader(self) -> bool:
        return self.leader_level is not None

    @property
    def in_play(self) -> bool:
        """Standing on the table and fighting (not a casualty, not removed, not lifted off)."""
        return self.on_table and self.status is FigureStatus.ACTIVE


@dataclass(frozen=True)
class Team:
    """A unit: a fireteam, weapon team, sniper team or a single vehicle (A.1, A.2).

    ``quality`` and ``morale`` are die sides; ``strength`` is its figures at full strength (for "half
    strength or less"); ``leader`` the attached leader figure. The turn flags: ``activated`` (acted
    this turn), ``move_locked`` (a leader joined before it activated: it may fire, not move),
    ``finished`` (no more actions this turn), ``fired``.
    """

    name: str
    side: str
    troop_type: TroopType
    kind: TeamKind
    quality: int
    morale: int
    confidence: str
    supplies: str
    strength: int
    defensive: bool = False
    firepower: int | None = None
    split_from: str | None = None
    leader: int | None = None
    activated: bool = False
    move_locked: bool = False
    finished: bool = False
    fired: bool = False
    reinforcement: bool = False
    arrived_at: int | None = None
    neutralising: int | None = None


@dataclass(frozen=True)
class HotSpot:
    """A numbered Hot Spot counter (A.4.4)."""

    number: int
    x_in: float
    y_in: float
    neutralised: bool = False


@dataclass(frozen=True)
class SideState:
    """A force: its Initiative Level die, its colour, whether it is the civilians' "side"."""

    name: str
    color: str | None = None
    initiative_level: int = 6
    civilians: bool = False


