"""What the players declare for an attack: the things a camera cannot see.

Cover, concealment, darkness, an unaware target, who spots the target when the attacker has no line
of sight, who assists: all are inputs the players give (Down Range is built on player judgement,
section 1). The engine checks what it can measure (range, cones, radii, tokens) and takes the rest
from these declarations.

>>> AttackSetup(attacker=10, weapon="M4/M16", targets=(TargetSpec(20),)).mode
<AttackMode.ATTACK: 'attack'>
"""
from __future__ import annotations

import enum
from dataclasses import dataclass


class AttackMode(str, enum.Enum):
    ATTACK = "attack"
    SUPPRESS = "suppress"


class Level(str, enum.Enum):
    """How much cover, concealment or darkness: none, partial (Disadvantage) or total (blocks)."""

    NONE = "none"
    PARTIAL = "partial"
    TOTAL = "total"


@dataclass(frozen=True)
class TargetSpec:
    """One target of an attack, with what the players declare about it.

    ``shots``: attacks of a Fan spent on it (3.2.3). ``cover``: partial = Disadvantage (sandbags,
    dug in; not for indirect fire landing ``head_on``), total = the weapon cannot hit it (for an
    explosive, the unit is shielded from the blast). ``concealment``: partial = Disadvantage (not for
    indirect fire landing ``head_on`` either, 6.2), total =
    no line of sight. ``darkness``: None = the table's lighting. ``line_of_sight``: the attacker sees the
    target itself; if not, ``spotter`` names the unit that does (a Signal's situational awareness, an
    RPV's sensors, a voice relay). ``stationary``: None = from the tracked movement.
    """

    unit_id: int
    shots: int = 1
    cover: Level = Level.NONE
    concealment: Level = Level.NONE
    darkness: Level | None = None
    line_of_sight: bool = True
    spotter: int | None = None
    unaware: bool = False
    stationary: bool | None = None
    head_on: bool = False
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()


@dataclass(frozen=True)
class AttackSetup:
    """An attack as the players set it up.

    ``aim_x_in``/``aim_y_in``: the point an explosive is aimed at, or a suppression's aim point
    (default: the first target's centre). ``assistants``: units that give up their Action to assist
    (+1 each, all Focus). ``crew_assistants``: vehicle crew members assisting (4.1). ``reaction``: the
    attack spends a ready Reaction. ``axis_deg``: a Fan's cone axis (default: one that fits the
    targets, nearest the unit's facing). ``linked``: linked weapons fired together (4.2).
    ``distance_in``: a measured distance to use when the units' positions are not tracked.
    """

    attacker: int
    weapon: str
    targets: tuple[TargetSpec, ...] = ()
    mode: AttackMode = AttackMode.ATTACK
    aim_x_in: float | None = None
    aim_y_in: float | None = None
    payload: str = "HE"
    assistants: tuple[int, ...] = ()
    crew_assistants: int = 0
    reaction: bool = False
    untrained: bool = False
    axis_deg: float | None = None
    linked: int = 1
    distance_in: float | None = None
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()

    @property
    def aim(self) -> tuple[float, float] | None:
        if self.aim_x_in is None or self.aim_y_in is None:
            return None
        return (self.aim_x_in, self.aim_y_in)
