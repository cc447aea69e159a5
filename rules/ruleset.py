"""The ruleset-neutral interface the GUI and the recorder use, and the registry of rule systems.

A rule system (Down Range today; Force on Force and a generic ruleset later) implements
:class:`Ruleset`. Callers never import a rule system directly: they ask :func:`get_ruleset` for it by
the name a scenario gives (``ruleset = "down-range"``) and work with the neutral types below.

The game state a ruleset returns is its own frozen dataclass; the interface only relies on it having
``apply(action)``, ``to_json()``, ``events`` and ``round``. Positions come in through
:meth:`Ruleset.set_pose` (the tracker never imports rules; the GUI composes them).

>>> sorted(available_rulesets())
['down-range']
>>> get_ruleset("down-range").name
'down-range'
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from rules.dice import DiceSource
from rules.errors import UnknownNameError
from rules.events import RulesEvent

#: Registered rule systems: name -> "module:factory". Add a line to register another one.
RULESETS: Mapping[str, str] = {
    "down-range": "rules.downrange.ruleset:DownRange",
}


@dataclass(frozen=True)
class UnitView:
    """What a renderer or roster shows of a unit, whatever the rule system."""

    unit_id: int
    name: str
    side: str
    type_name: str
    x_in: float
    y_in: float
    heading_deg: float
    footprint: Any
    on_table: bool
    status: str
    tokens: tuple[str, ...]
    move_in: float
    move_left_in: float
    weapons: tuple[str, ...]


@dataclass(frozen=True)
class WeaponView:
    """A weapon as a panel lists it; fields a rule system does not use stay None."""

    name: str
    range_in: float
    difficulty: int | None = None
    damage: str | None = None
    fan: int | None = None
    radius_in: float | None = None
    ammo_left: int | None = None
    focus: bool = False
    payloads: tuple[str, ...] = ()


@dataclass(frozen=True)
class Declaration:
    """A modifier the players may declare for an attack (a checkbox or a choice in the attack panel).

    ``scope`` is "attack" (about the attacker) or "target" (per target); ``kind`` is "bool", "choice"
    or "int"; the GUI passes the values back under ``key``.
    """

    key: str
    label: str
    scope: str
    kind: str
    choices: tuple[str, ...] = ()
    default: Any = None
    help: str = ""


@dataclass(frozen=True)
class AttackRequest:
    """An attack as the GUI sets it up, ruleset-neutral.

    ``declarations`` holds attack-level keys and ``target_declarations`` per-target keys, both from
    :meth:`Ruleset.declarations`.
    """

    attacker_id: int
    weapon: str
    target_ids: tuple[int, ...] = ()
    shots: tuple[int, ...] = ()
    aim_point: tuple[float, float] | None = None
    mode: str = "attack"
    declarations: Mapping[str, Any] = field(default_factory=dict)
    target_declarations: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class TargetProposal:
    """A unit the geometry allows (or not) as a target for an attacker, weapon and aim."""

    unit_id: int
    name: str
    side: str
    distance_in: float
    in_range: bool
    in_cone: bool
    in_blast: bool
    can_damage: bool
    eligible: bool
    reason: str = ""


@dataclass(frozen=True)
class TargetOdds:
    """Exact odds for one target: ``p_hit`` (the Skill roll succeeds), ``p_kill`` (it hits and the
    Damage succeeds), per shot, and ``p_kill_any`` over all ``shots`` spent on it."""

    unit_id: int
    name: str
    side: str
    shots: int
    allowed: bool
    reason: str
    p_hit: Fraction
    p_damage: Fraction
    p_kill: Fraction
    p_kill_any: Fraction
    can_damage: bool
    roll: str = "normal"
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()
    distance_in: float | None = None

    def as_floats(self) -> dict[str, Any]:
        return {"unit_id": self.unit_id, "name": self.name, "side": self.side, "shots": self.shots,
                "allowed": self.allowed, "reason": self.reason, "p_hit": float(self.p_hit),
                "p_damage": float(self.p_damage), "p_kill": float(self.p_kill),
                "p_kill_any": float(self.p_kill_any), "can_damage": self.can_damage, "roll": self.roll,
                "advantages": list(self.advantages), "disadvantages": list(self.disadvantages),
                "distance_in": self.distance_in}


@dataclass(frozen=True)
class Overlay:
    """A shape to draw (from :mod:`rules.geometry`), what it means and whose it is."""

    kind: str
    shape: Any
    label: str
    side: str | None = None
    unit_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class Resolution:
    """What an attack came to: the result data, the sentences, the new state, and whether a player
    must still choose something (e.g. where a missed explosive lands)."""

    result: Any
    sentences: tuple[str, ...]
    state: Any
    pending: str | None = None


@runtime_checkable
class Ruleset(Protocol):
    """A rule system, as the GUI, tracker glue and recorder see it."""

    name: str
    title: str

    def new_game(self, scenario: Mapping[str, Any], *, source: str = "<scenario>",
                 base_dir: str | None = None) -> Any:
        """A game state from a scenario dict (the parsed TOML)."""
        ...

    def load_state(self, data: Mapping[str, Any]) -> Any:
        """A game state from its saved JSON data."""
        ...

    def apply(self, state: Any, action: Any) -> Any:
        """The state after one of the rule system's actions (``state.apply(action)``)."""
        ...

    def units(self, state: Any) -> tuple[UnitView, ...]:
        ...

    def weapons(self, state: Any, unit_id: int) -> tuple[WeaponView, ...]:
        ...

    def declarations(self) -> tuple[Declaration, ...]:
        ...

    def set_pose(self, state: Any, unit_id: int, x_in: float, y_in: float, heading_deg: float, *,
                 moved_in: float | None = None, on_table: bool = True) -> Any:
        """The state with a unit's tracked position (movement is accounted)."""
        ...

    def propose_targets(self, state: Any, attacker_id: int, weapon: str, *,
                        aim_point: tuple[float, float] | None = None,
                        axis_deg: float | None = None) -> tuple[TargetProposal, ...]:
        ...

    def attack_odds(self, state: Any, request: AttackRequest) -> tuple[TargetOdds, ...]:
        ...

    def resolve_attack(self, state: Any, request: AttackRequest, dice: DiceSource, *,
                       landing_point: tuple[float, float] | None = None) -> Resolution:
        ...

    def start_round(self, state: Any, dice: DiceSource) -> Resolution:
        ...

    def start_turn(self, state: Any, dice: DiceSource) -> Resolution:
        ...

    def end_turn(self, state: Any) -> Any:
        ...

    def overlays(self, state: Any, unit_id: int, *, weapon: str | None = None) -> tuple[Overlay, ...]:
        ...

    def explain(self, event: RulesEvent) -> tuple[str, ...]:
        """Sentences for a logged event (replay and debrief)."""
        ...


def available_rulesets() -> tuple[str, ...]:
    return tuple(RULESETS)


def get_ruleset(name: str = "down-range") -> Ruleset:
    """The rule system registered under ``name``."""
    target = RULESETS.get(name.strip().lower()) if isinstance(name, str) else None
    if target is None:
        raise UnknownNameError(f"unknown ruleset {name!r}: use one of {', '.join(RULESETS)}")
    module_name, attr = target.split(":")
    factory = getattr(importlib.import_module(module_name), attr)
    ruleset: Ruleset = factory()
    return ruleset


def ruleset_of(state: Any) -> Ruleset:
    """The rule system a saved or live state belongs to."""
    name = getattr(state, "ruleset_name", None) or "down-range"
    return get_ruleset(name)


__all__: Sequence[str] = (
    "AttackRequest", "Declaration", "Overlay", "Resolution", "Ruleset", "TargetOdds", "TargetProposal",
    "UnitView", "WeaponView", "available_rulesets", "get_ruleset", "ruleset_of", "RULESETS",
)
