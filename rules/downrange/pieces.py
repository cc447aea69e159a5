"""The pieces a Down Range game state is made of: units (pose, kit, tokens), sides, areas on the
table, observations, emissions, and the enums that name their kinds and conditions.

Plain frozen values, apart from :class:`rules.downrange.state.GameState`: the modules that implement
actions use them without importing the state class, which dispatches actions to those modules.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from rules.dice import Dice
from rules.geometry import Circle, Footprint, footprint_from

STATE_FORMAT = "sandtable-downrange-state"
STATE_VERSION = 1
RULESET_NAME = "down-range"


def possessive(name: str) -> str:
    """``Marines'``, ``Sergeant's``.

    >>> possessive("Marines"), possessive("Sergeant")
    ("Marines'", "Sergeant's")
    """
    return name + ("'" if name.endswith("s") else "'s")


class UnitKind(str, enum.Enum):
    TROOP = "troop"
    VEHICLE = "vehicle"


class Status(str, enum.Enum):
    """In the fight, down (dead troop / destroyed vehicle: may be revived or repaired), or removed."""

    ACTIVE = "active"
    DOWN = "down"
    REMOVED = "removed"


class Compartment(str, enum.Enum):
    """Where an occupant rides (4.3.1): enclosed (cannot be attacked), open (at Disadvantage), exposed."""

    ENCLOSED = "enclosed"
    OPEN = "open"
    EXPOSED = "exposed"


Lighting = Literal["day", "partial darkness", "pitch black"]


@dataclass(frozen=True)
class WeaponState:
    """A weapon a unit carries: ``ammo_left`` None = unlimited; vehicles fire each weapon once a turn."""

    name: str
    ammo_left: int | None = None
    fired_this_turn: bool = False


@dataclass(frozen=True)
class Suppression:
    """A Suppressed token: Disadvantage until the start of the suppressing unit's side's next turn."""

    by_unit: int
    until_start_of: str


@dataclass(frozen=True)
class Emission:
    """An emission (Signal) token: why the unit emits; removed at the start of its side's next turn."""

    purpose: str
    until_start_of: str
    jamming: bool = False

    @property
    def purpose_words(self) -> str:
        """Why the unit emits, in words a player reads (the rules' tokens "other", "rpv control" are not).

        >>> Emission("rpv control", "Marines").purpose_words, Emission("radio check", "Marines").purpose_words
        ('flying a drone', 'radio check')
        """
        return PURPOSE_WORDS.get(self.purpose, self.purpose)


#: The rules' emission purposes (rules.downrange.hand_edits.EMISSION_PURPOSES) as a player says them.
PURPOSE_WORDS = {"situational awareness": "situational awareness", "other": "radio call",
                 "fires observation": "calling for fire", "main effort": "main effort",
                 "sigint share": "sharing SIGINT", "rpv control": "flying a drone", "jamming": "jamming"}


@dataclass(frozen=True)
class Unit:
    """One unit on (or off) the table, with everything the rules track about it."""

    unit_id: int
    name: str
    side: str
    type_name: str
    kind: UnitKind
    skill: Dice
    defense: Dice
    move_in: float
    x_in: float = 0.0
    y_in: float = 0.0
    heading_deg: float = 90.0
    radius_in: float = 0.5
    length_in: float | None = None
    width_in: float | None = None
    on_table: bool = True
    specialty: str | None = None
    specialty_skill: Dice | None = None
    equipment: tuple[str, ...] = ()
    weapons: tuple[WeaponState, ...] = ()
    untrained: tuple[str, ...] = ()
    commander: int | None = None
    reports_to: int | None = None
    team: str | None = None
    crew: int = 1
    capacity: int = 0
    mobility: str = "foot"
    control: str = "crewed"
    flammable: bool = False
    # Where the unit is and what state it is in.
    aboard: int | None = None
    compartment: Compartment = Compartment.ENCLOSED
    operator: int | None = None
    launch_x_in: float | None = None
    launch_y_in: float | None = None
    status: Status = Status.ACTIVE
    injured: bool = False
    # Tokens; "this turn" means since the start of its side's most recent turn.
    moved_in: float = 0.0
    moved_last_turn_in: float = 0.0
    action_used: str | None = None
    focused: str | None = None
    focus_until_own_turn: bool = False
    reaction_ready: bool = False
    sprinted: bool = False
    stay_still: bool = False
    main_effort: bool = False
    suppressed: tuple[Suppression, ...] = ()
    emission: Emission | None = None
    on_fire: bool = False
    overburdened: bool = False
    overloaded: bool = False
    white_light_on: bool = False
    carrying: int | None = None
    carried_by: int | None = None
    crew_actions_used: int = 0
    disabled: bool = False
    #: An aircraft that came down without its operator (4, 2.9.1): it does not fly again.
    crashed: bool = field(default=False, metadata={"added": True})
    #: Movement already used when the unit sprinted with a Reaction in another player's turn: that
    #: second Move goes up to one Movement from there (6.5.2 "dashing up to 8\""), not twice it.
    reaction_sprint_from_in: float | None = field(default=None, metadata={"added": True})
    #: A flying remote system that lost control to jamming (5.1.2 "flying ones will crash"): it comes
    #: down like an aircraft that lost its pilot, with a crash roll (2.9.1), when crashes are resolved.
    falling: bool = field(default=False, metadata={"added": True})

    @property
    def is_vehicle(self) -> bool:
        return self.kind is UnitKind.VEHICLE

    @property
    def is_active(self) -> bool:
        return self.status is Status.ACTIVE

    @cached_property
    def footprint(self) -> Footprint:
        """The unit's base on the table (made once per unit value: a unit never changes, and the rules
        measure from its base thousands of times a frame)."""
        return footprint_from(self.x_in, self.y_in, self.heading_deg, radius_in=self.radius_in,
                              length_in=self.length_in, width_in=self.width_in)

    @property
    def is_remote(self) -> bool:
        return self.control == "remote"

    @property
    def is_flying(self) -> bool:
        return self.mobility == "aerial"

    def weapon_state(self, name: str) -> WeaponState | None:
        for w in self.weapons:
            if w.name.lower() == name.lower():
                return w
        return None

    def tokens(self) -> tuple[str, ...]:
        """The tokens a player would see next to the unit, as short labels."""
        out: list[str] = []
        if self.status is Status.DOWN:
            out.append("destroyed" if self.is_vehicle else "down")
        elif self.status is Status.REMOVED:
            out.append("removed")
        if self.injured:
            out.append("damaged" if self.is_vehicle else "injured")
        if self.suppressed:
            out.append("suppressed")
        if self.emission:
            out.append("jamming" if self.emission.jamming else "signalling")
        if self.reaction_ready:
            out.append("reaction ready")
        if self.focused:
            out.append("focused")
        if self.moved_in > 0:
            out.append(f"moved {self.moved_in:.1f}\"")
        if self.action_used:
            out.append("acted")
        if self.main_effort:
            out.append("main effort")
        if self.on_fire:
            out.append("on fire")
        if self.overburdened:
            out.append("overburdened")
        if self.overloaded:
            out.append("overloaded")
        if self.white_light_on:
            out.append("white light on")
        if self.disabled:
            out.append("disabled")
        if self.aboard is not None:
            out.append(f"aboard {self.aboard}")
        for w in self.weapons:
            if w.ammo_left == 0:
                out.append(f"out of ammunition ({w.name})")
        return tuple(out)


@dataclass(frozen=True)
class SideState:
    """A player: name, overlay colour, and what carries over between rounds."""

    name: str
    color: str | None = None
    enhanced_initiative: bool = False
    main_efforts_this_turn: int = 0
    age_rank: int | None = None


@dataclass(frozen=True)
class Area:
    """A smoke cloud or illumination area; lifts at the end of its creator's next turn."""

    kind: str
    x_in: float
    y_in: float
    radius_in: float
    created_by: str
    ends_remaining: int

    @property
    def circle(self) -> Circle:
        return Circle(self.x_in, self.y_in, self.radius_in)


@dataclass(frozen=True)
class Observation:
    """A fires-observation token on an enemy unit or a point (5.1)."""

    observer: int
    side: str
    until_start_of: str
    target_unit: int | None = None
    x_in: float | None = None
    y_in: float | None = None


