"""Results of everything that rolls dice, as data: enums, every die, no sentences.

Sentences are rendered from these by :mod:`rules.downrange.narration`; the state is changed by
applying them (``RecordAttack(result)``...), so a recording replays exactly what happened.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.downrange.declarations import AttackMode
from rules.downrange.pieces import Area
from rules.downrange.rolls import DamageRoll, SkillRoll


class ShotOutcome(str, enum.Enum):
    HIT = "hit"
    MISS = "miss"
    AUTO_FAILURE = "automatic failure"
    NOT_ALLOWED = "not allowed"


@dataclass(frozen=True)
class ShotResult:
    """One attack of the action on one target (a Fan makes several; linked weapons one each)."""

    shot: int
    outcome: ShotOutcome
    skill: SkillRoll | None = None
    damage: DamageRoll | None = None


@dataclass(frozen=True)
class TargetResult:
    """What happened to one target (or one unit caught in a blast)."""

    unit_id: int
    name: str
    side: str
    allowed: bool
    reason: str = ""
    distance_in: float | None = None
    shots: tuple[ShotResult, ...] = ()
    killed: bool = False
    suppressed: bool = False
    went_down: tuple[int, ...] = ()
    bailed_out: tuple[int, ...] = ()
    in_blast: bool = False


@dataclass(frozen=True)
class MissPlacement:
    """A missed explosive (3.2.4.1): where it was aimed, how far it may land, who chooses."""

    intended_x_in: float
    intended_y_in: float
    miss_radius_in: float
    chooser: str
    units_in_intended: tuple[tuple[str, int], ...]
    reason: str
    landing_x_in: float | None = None
    landing_y_in: float | None = None


@dataclass(frozen=True)
class AttackResult:
    """Everything an attack (or a suppression) came to."""

    attacker: int
    attacker_name: str
    side: str
    weapon: str
    mode: AttackMode
    reaction: bool
    focus: bool
    assistants: tuple[int, ...]
    crew_assistants: int
    bonus: int
    difficulty: int
    targets: tuple[TargetResult, ...]
    skill: SkillRoll | None = None
    payload: str | None = None
    miss: MissPlacement | None = None
    impact_x_in: float | None = None
    impact_y_in: float | None = None
    radius_in: float | None = None
    area: Area | None = None
    ammo_spent: int = 0
    ammo_left: int | None = None
    axis_deg: float | None = None
    linked: int = 1
    needs_landing_point: bool = False
    warnings: tuple[str, ...] = ()

    @property
    def killed(self) -> tuple[int, ...]:
        return tuple(t.unit_id for t in self.targets if t.killed)

    @property
    def suppressed(self) -> tuple[int, ...]:
        return tuple(t.unit_id for t in self.targets if t.suppressed)


@dataclass(frozen=True)
class SideRoll:
    """One player's initiative dice: the d10, the Enhanced Initiative d4, re-rolls after ties."""

    side: str
    d10: int
    d4: int | None = None
    rerolls: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        last = self.rerolls[-1] if self.rerolls else self.d10
        return last + (self.d4 or 0)


@dataclass(frozen=True)
class InitiativeResult:
    """The round's initiative: every roll and the turn order, highest first."""

    round: int
    rolls: tuple[SideRoll, ...]
    order: tuple[str, ...]
    tie_break: str
    unresolved: tuple[str, ...] = ()


@dataclass(frozen=True)
class TaskResult:
    """A non-attack action rolled against a Difficulty (Table 2-1)."""

    unit_id: int
    name: str
    task: str
    skill: SkillRoll
    assistants: tuple[int, ...] = ()
    focus: bool = False


class MedicalOutcome(str, enum.Enum):
    REMOVED = "removed"
    NO_EFFECT = "no effect"
    INJURED = "injured"
    RESTORED = "restored"


@dataclass(frozen=True)
class TreatmentResult:
    """Medicine or repair (2.8, Table 2-2)."""

    medic: int
    medic_name: str
    patient: int
    patient_name: str
    repair: bool
    skill: SkillRoll
    table_result: MedicalOutcome
    outcome: MedicalOutcome
    assistants: tuple[int, ...] = ()
    was_injured: bool = False


@dataclass(frozen=True)
class UnitDamage:
    """Damage against one unit from a fall, a hazard or fire."""

    unit_id: int
    name: str
    roll: DamageRoll
    effect: str


@dataclass(frozen=True)
class DamageResult:
    """Environmental damage (2.9): ``cause`` is "fall", "hazard", "fire" or "fire spread"."""

    cause: str
    detail: str
    damages: tuple[UnitDamage, ...]
    spread_in: int | None = None
    ignited: tuple[int, ...] = ()
    nature: str = "lethal"


@dataclass(frozen=True)
class SigintResult:
    """What an EW unit's signals intelligence found: every emitting enemy unit."""

    unit_id: int
    found: tuple[int, ...]
    shared: bool
