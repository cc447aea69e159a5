"""The Down Range game state: plain frozen data, changed only by ``state.apply(action)``.

A :class:`GameState` holds the units (pose in table inches, what they carry, their tokens), the
round and turn, the areas and tokens on the table (smoke, illumination, fires observation), the
rules options and the event log. It knows nothing of Qt or cameras; the tracker's positions come in
as :class:`rules.downrange.actions.SetPose` actions. ``to_json``/``from_json`` save and load it with
a format version (field list in docs/rules-down-range.md).
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from rules.dice import Dice
from rules.downrange.catalog import Catalog, Equipment, Weapon, load_catalog
from rules.downrange.options import RulesOptions
# The pieces are re-exported: code that reads a game state finds them beside it.
from rules.downrange.pieces import (RULESET_NAME, STATE_FORMAT, STATE_VERSION, Area, Compartment, Emission, Lighting,
                                    Observation, SideState, Status, Suppression, Unit, UnitKind, WeaponState,
                                    possessive)
from rules.errors import UnknownNameError
from rules.events import RulesEvent
from rules.ruleset_state import RulesetState


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
    #: Before the first turn: the units are being placed (:class:`rules.ruleset_state.RulesetState`).
    setting_up: bool = field(default=False, metadata={"added": True})
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

    @cached_property
    def _units_by_id(self) -> dict[int, Unit]:
        """The units by tag id (made once per state: the rules look units up thousands of times a frame)."""
        out: dict[int, Unit] = {}
        for u in self.units:
            out.setdefault(u.unit_id, u)
        return out

    def unit(self, ref: int | str) -> Unit:
        """A unit by tag id or by name (case-insensitive)."""
        if isinstance(ref, int):
            found = self._units_by_id.get(ref)
            if found is not None:
                return found
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
        carrying or carried, an overloaded vehicle, or slowed by a disabling hazard (2.3.1 proposal,
        2.8, 2.9.2, 3.3, 4.3.2)."""
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
        if unit.disabled and self.options.disabling_hazard_slows:
            reasons.append("disabled by a hazard")
        return tuple(reasons)

    def voice_range_in(self, unit: Unit) -> float:
        """How far the unit's voice carries: its Movement (5.1.1), 8" for unlimited Movement."""
        move = self.movement_in(unit)
        return self.options.voice_range_unlimited_move_in if math.isinf(move) else move

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
