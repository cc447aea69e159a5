"""Actions: the only way a generic-rules game state changes (``state.apply(action) -> new state``).

Actions that needed dice carry their resolved result (a :class:`~rules.generic.ranged.ShotResult`,
a close combat, the automation's decisions), so applying them again replays the game exactly.

>>> from rules.generic.examples.solo import initial_state
>>> placed = initial_state().apply(SetPose(10, 14.0, 10.0, 90.0))
>>> placed.setting_up, placed.unit(10).moved_in
(True, 0.0)
>>> moved = placed.apply(StartRound()).apply(StartTurn()).apply(SetPose(10, 18.0, 10.0, 90.0))
>>> moved.setting_up, moved.unit(10).moved_in
(False, 4.0)
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union

from rules.action_registry import ActionCodec
from rules.generic.automation import AutomationResult
from rules.generic.close_combat import CloseCombatResult
from rules.generic.ranged import ShotResult


@dataclass(frozen=True)
class SetPose:
    """A tracked position. ``moved_in``: path length since the last pose (None: the straight line)."""

    unit_id: int
    x_in: float
    y_in: float
    heading_deg: float
    moved_in: float | None = None
    on_table: bool = True


#: Unit fields a hand edit may change.
EDITABLE = ("status", "hidden", "identified", "shots_left", "on_table")


@dataclass(frozen=True)
class EditUnit:
    """A hand edit: ``{"status": "Damaged"}``, ``{"shots_left": 2}``, ``{"hidden": True}``."""

    unit_id: int
    changes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StartRound:
    """A new game turn: every side acts in the scenario's order (the text has no turn sequence)."""


@dataclass(frozen=True)
class StartTurn:
    """The next side acts."""


@dataclass(frozen=True)
class EndTurn:
    """The acting side is done (aircraft that moved less than their minimum speed are flagged)."""


@dataclass(frozen=True)
class RecordShot:
    result: ShotResult


@dataclass(frozen=True)
class RecordCloseCombat:
    result: CloseCombatResult


@dataclass(frozen=True)
class Identify:
    """The players identify an anonymous unit (B.6): it stays identified; a dummy is removed."""

    unit_id: int


@dataclass(frozen=True)
class RecordAutomation:
    result: AutomationResult


Action = Union[SetPose, EditUnit, StartRound, StartTurn, EndTurn, RecordShot, RecordCloseCombat, Identify,
               RecordAutomation]


#: The JSON round trip of every action (the saved history, the recording's action rows).
CODEC = ActionCodec(Action)
action_to_json = CODEC.to_json
action_from_json = CODEC.from_json
