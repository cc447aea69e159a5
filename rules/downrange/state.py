"""The Down Range game state: plain frozen data, changed only by ``state.apply(action)``.

A :class:`GameState` holds the units (pose in table inches, what they carry, their tokens), the
round and turn, the areas and tokens on the table (smoke, illumination, fires observation), the
rules options and the event log. It knows nothing of Qt or cameras; the tracker's positions come in
as :class:`rules.downrange.actions.SetPose` actions. ``to_json``/``from_json`` save and load it with
a format version (field list in docs/rules-down-range.md).
"""
from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from rules.dice import Dice
from rules.downrange.catalog import Catalog, Equipment, Weapon, load_catalog
from rules.downrange.options import RulesOptions
from rules.errors import UnknownNameError
from rules.events import RulesEvent
from rules.geometry import Circle, Footprint, footprint_from
from rules.ruleset_state import RulesetState

if TYPE_CHECKING:
    from rules.downrange.actions import Action

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

    @property
    def is_vehicle(self) -> bool:
        return self.kind is UnitKind.VEHICLE

    @property
    def is_active(self) -> bool:
        return self.status is Status.ACTIVE

    @property
    def footprint(self) -> Footprint:
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


@dataclass(frozen=True)
class GameState(RulesetState[SideState]):
    """Everything the rules know about a game in progress (log, turn and saving: :class:`RulesetState`)."""

    units: tuple[Unit, ...]
    sides: tuple[SideState, ...]
    round: int = 0
    order: tuple[str, ...] = ()
    turn_index: int = -1
    in_turn: bool = False
    areas: tuple[Area, ...] = ()
    observations: tuple[Observation, ...] = ()
    lighting: Lighting = "day"
    options: RulesOptions = field(default_factory=RulesOptions)
    data_files: tuple[str, ...] = ()
    events: tuple[RulesEvent, ...] = ()
    name: str = ""
    catalog_: Catalog | None = field(default=None, repr=False, compare=False, metadata={"json": False})

    ruleset_name = RULESET_NAME
    state_format = STATE_FORMAT
    state_version = STATE_VERSION
    state_title = "Down Range"

    # -- lookups --------------------------------------------------------------------------------

    @property
    def catalog(self) -> Catalog:
        """The data this game plays with (built-in files, the scenario's extra files, variants)."""
        return self.catalog_ or load_catalog(self.data_files, variants=self.options.variants)

    def unit(self, ref: int | str) -> Unit:
        """A unit by tag id or by name (case-insensitive)."""
        for u in self.units:
            if u.unit_id == ref or (isinstance(ref, str) and u.name.lower() == ref.strip().lower()):
                return u
        if isinstance(ref, str) and ref.strip().isdigit():
            return self.unit(int(ref))
        names = ", ".join(f"{u.name} ({u.unit_id})" for u in self.units[:12])
        raise UnknownNameError(f"no unit {ref!r} in this game: the units are {names}")

    def units_of(self, side: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == side)

    def on_table(self) -> tuple[Unit, ...]:
        """Units standing on the table (not aboard, not removed); the dead lie where they fell."""
        return tuple(u for u in self.units if u.on_table and u.status is not Status.REMOVED)

    def occupants(self, vehicle_id: int) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.aboard == vehicle_id)

    def team_of(self, unit: Unit) -> tuple[Unit, ...]:
        """The unit and every other member of its gun team (one token, 4.3)."""
        if unit.team is None:
            return (unit,)
        return tuple(u for u in self.units if u.team == unit.team and u.side == unit.side)

    def equipment_of(self, unit: Unit) -> tuple[Equipment, ...]:
        return tuple(self.catalog.equipment_item(name) for name in unit.equipment)

    def has_effect(self, unit: Unit, effect: str) -> bool:
        return any(getattr(e, effect) for e in self.equipment_of(unit))

    def weapon(self, name: str) -> Weapon:
        return self.catalog.weapon(name)

    def effective_defense(self, unit: Unit) -> Dice:
        """Defense with body armor: +1 to a static Defense, or to the rolled total of dice (proposal)."""
        bonus = sum(e.defense_bonus for e in self.equipment_of(unit))
        return unit.defense.plus(bonus) if bonus else unit.defense

    def movement_in(self, unit: Unit) -> float:
        """The unit's Movement this turn: halved once (not compounded) when injured, overburdened,
        carrying or carried, or an overloaded vehicle (2.3.1 proposal, 2.8, 3.3, 4.3.2)."""
        if self.halving_reasons(unit):
            return unit.move_in / 2
        return unit.move_in

    def halving_reasons(self, unit: Unit) -> tuple[str, ...]:
        reasons = []
        if unit.injured:
            reasons.append("damaged" if unit.is_vehicle else "injured")
        if unit.overburdened:
            reasons.append("overburdened")
        if unit.overloaded:
            reasons.append("overloaded")
        if unit.carrying is not None:
            reasons.append("carrying a unit")
        if unit.carried_by is not None:
            reasons.append("being carried")
        return tuple(reasons)

    def voice_range_in(self, unit: Unit) -> float:
        """How far the unit's voice carries: its Movement (5.1.1), 8" for unlimited Movement."""
        move = self.movement_in(unit)
        return self.options.voice_range_unlimited_move_in if math.isinf(move) else move

    # -- the one verb ---------------------------------------------------------------------------

    def apply(self, action: "Action") -> "GameState":
        """The state after ``action`` (raises :class:`IllegalActionError` if the rules forbid it)."""
        from rules.downrange.actions import apply_action

        return apply_action(self, action)

    # -- helpers for the modules that implement actions ----------------------------------------

    def with_unit(self, unit: Unit) -> "GameState":
        return replace(self, units=tuple(unit if u.unit_id == unit.unit_id else u for u in self.units))

    def with_units(self, changed: Iterable[Unit]) -> "GameState":
        by_id = {u.unit_id: u for u in changed}
        return replace(self, units=tuple(by_id.get(u.unit_id, u) for u in self.units))

    def update_unit(self, ref: int | str, **changes: Any) -> "GameState":
        return self.with_unit(replace(self.unit(ref), **changes))

    def with_side(self, side: SideState) -> "GameState":
        return replace(self, sides=tuple(side if s.name == side.name else s for s in self.sides))

    # -- saving ---------------------------------------------------------------------------------

    def check_data(self) -> None:
        self.catalog  # noqa: B018 - fail now, not later, if the data files are gone
