"""Actions: the only way a Force on Force game state changes (``state.apply(action) -> new state``).

Actions are frozen data, so the list applied is a replayable, undoable history. Actions that need
dice carry their resolved result (built by a ``resolve_*`` function with a dice source), so applying
them is deterministic.

>>> from rules.forceonforce.examples.patrol import initial_state
>>> placed = initial_state().apply(SetPose(17, 27.4, 23.0, 90.0))  # in the set-up: placed, not moved
>>> placed.figure(17).y_in, placed.figure(17).moved_in
(23.0, 0.0)
>>> from rules.dice import SeededDice
>>> from rules.ruleset import get_ruleset
>>> fof = get_ruleset("force-on-force")
>>> s = fof.start_turn(fof.start_round(placed, SeededDice(3)).state, SeededDice(4)).state
>>> s.apply(SetPose(17, 27.4, 26.0, 90.0)).figure(17).moved_in
3.0
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union

from rules.action_registry import ActionCodec
from rules.forceonforce.hotspots import ReinforcementResult
from rules.forceonforce.initiative import InitiativeResult
from rules.forceonforce.results import ActivationResult, FireResult, TestRecord

# -- positions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetPose:
    """A tracked position of one figure. ``moved_in``: path length since the last pose (None: the
    straight line); ``z_in``: the height of the ground under it (None: unchanged)."""

    figure_id: int
    x_in: float
    y_in: float
    heading_deg: float
    moved_in: float | None = None
    on_table: bool = True
    z_in: float | None = None


#: Figure fields a hand edit may change (what the camera cannot see).
FIGURE_EDITS = ("status", "z_in", "leader_effect", "remote_contact", "morale", "quality", "on_table")
#: Unit fields a hand edit may change.
TEAM_EDITS = ("defensive", "supplies", "confidence", "quality", "morale", "firepower", "troop_type")


@dataclass(frozen=True)
class EditFigure:
    """A hand edit: a figure becomes a casualty (``status = "casualty"``), stands on a roof (``z_in``)..."""

    figure_id: int
    changes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EditTeam:
    """A hand edit of a unit: it occupies a defensive position, its Supplies change..."""

    team: str
    changes: Mapping[str, Any] = field(default_factory=dict)


# -- the turn -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StartRound:
    """A new game turn with its initiative (the test or the scenario's override)."""

    initiative: InitiativeResult


@dataclass(frozen=True)
class StartTurn:
    """The next force in the order (initiative force first) starts activating its units."""


@dataclass(frozen=True)
class EndTurn:
    """The acting force is done."""


@dataclass(frozen=True)
class RecordActivation:
    result: ActivationResult


@dataclass(frozen=True)
class RecordFire:
    result: FireResult


@dataclass(frozen=True)
class RecordTest:
    result: TestRecord


@dataclass(frozen=True)
class RecordReinforcement:
    result: ReinforcementResult


# -- units ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    """At the start of its activation a unit divides: ``figure_ids`` become a new unit ``new_name``.
    Only one element may move and fire this activation: the new element is finished for the turn."""

    team: str
    figure_ids: tuple[int, ...]
    new_name: str


@dataclass(frozen=True)
class Merge:
    """At the beginning of a turn ``other`` merges into ``team`` (A.5.3). ``at_hot_spot``: reinforcements
    arriving at that Hot Spot merge with the friendly unit already there (A.4.4), whatever their strength."""

    team: str
    other: str
    at_hot_spot: int | None = field(default=None, metadata={"added": True})


@dataclass(frozen=True)
class JoinLeader:
    """A separated leader joins a unit by moving into cohesion with it (A.6.2)."""

    leader_id: int
    team: str


@dataclass(frozen=True)
class DetachLeader:
    leader_id: int


@dataclass(frozen=True)
class NeutraliseHotSpot:
    """A Regular unit that spent the turn stationary in contact with a counter removes it."""

    number: int
    team: str


Action = Union[SetPose, EditFigure, EditTeam, StartRound, StartTurn, EndTurn, RecordActivation, RecordFire,
               RecordTest, RecordReinforcement, Split, Merge, JoinLeader, DetachLeader, NeutraliseHotSpot]


#: The JSON round trip of every action (the saved history, the recording's action rows).
CODEC = ActionCodec(Action)
action_to_json = CODEC.to_json
action_from_json = CODEC.from_json
