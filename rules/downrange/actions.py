"""Actions: the only way a Down Range game state changes (``state.apply(action) -> new state``).

Actions are frozen data, so the list of actions applied is a replayable, undoable history. Actions
that need dice carry the resolved result (an attack's ``AttackResult``, an initiative roll), which the
resolving functions build with a dice source; applying them is then deterministic.

>>> from rules.downrange.scenario import demo_state
>>> s = demo_state().apply(SetPose(10, 5.0, 5.0, 90.0))
>>> s.unit(10).x_in
5.0
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union

from rules.action_registry import ActionCodec
from rules.downrange.pieces import Compartment
from rules.downrange.results import AttackResult, DamageResult, InitiativeResult, TaskResult, TreatmentResult


# -- positions and movement -----------------------------------------------------------------------

@dataclass(frozen=True)
class SetPose:
    """A tracked position. ``moved_in``: path length since the last pose (None: straight line).

    Gun-team members standing on the unit's spot share its token and move with it; ``alone`` moves
    only this unit (the tracker sees the team-mates' own tags, so they are not riding on this one).
    """

    unit_id: int
    x_in: float
    y_in: float
    heading_deg: float
    moved_in: float | None = None
    on_table: bool = True
    alone: bool = False


@dataclass(frozen=True)
class SetPoses:
    """Several tracked positions at one moment (the replay puts every unit where the tracker saw it):
    the state is that of applying each :class:`SetPose` in turn."""

    poses: tuple[SetPose, ...]


@dataclass(frozen=True)
class MoveUnit:
    """A declared move: ``open_in`` inches of open ground plus ``impaired`` (terrain name, inches)
    stretches that cost double (2.3.1). Refused if it costs more than the Movement left."""

    unit_id: int
    x_in: float
    y_in: float
    heading_deg: float | None = None
    open_in: float | None = None
    impaired: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class EditUnit:
    """A hand edit of what the camera cannot see (tokens, equipment switches): see
    :mod:`rules.downrange.hand_edits` for the fields and how the tokens are written."""

    unit_id: int
    changes: Mapping[str, Any] = field(default_factory=dict)


# -- turn structure -------------------------------------------------------------------------------

@dataclass(frozen=True)
class StartRound:
    """A new round with the turn order of an initiative roll (``order`` settles a players' tie)."""

    initiative: InitiativeResult
    order: tuple[str, ...] = ()


@dataclass(frozen=True)
class StartTurn:
    """The next player in the initiative order starts their turn (tokens that end now are removed)."""


@dataclass(frozen=True)
class EndTurn:
    """The current player's turn ends (Main Efforts end, Focus ends, areas count down)."""


@dataclass(frozen=True)
class Focus:
    """The unit Focuses on ``task`` for the turn: it must not have moved and may not move or act otherwise."""

    unit_id: int
    task: str


@dataclass(frozen=True)
class TakeAction:
    """The unit uses its Action on something that needs no roll (Table 2-1: trivial), e.g. filling
    sandbags or talking."""

    unit_id: int
    what: str


@dataclass(frozen=True)
class ReadyReaction:
    """The unit saves its Action as a Reaction (until the start of its player's next turn)."""

    unit_id: int


@dataclass(frozen=True)
class Sprint:
    """A troop unit spends its Action (or its Reaction) on a second Move (2.3.1.1)."""

    unit_id: int
    reaction: bool = False


@dataclass(frozen=True)
class Carry:
    """A troop unit picks up another troop unit (both at half speed, neither may act) or, with
    ``carried_id`` None, puts it down."""

    unit_id: int
    carried_id: int | None


# -- results of rolls ------------------------------------------------------------------------------

@dataclass(frozen=True)
class RecordAttack:
    result: AttackResult


@dataclass(frozen=True)
class RecordTask:
    result: TaskResult


@dataclass(frozen=True)
class RecordTreatment:
    result: TreatmentResult


@dataclass(frozen=True)
class RecordDamage:
    """Falls, crashes, hazards and fire."""

    result: DamageResult


@dataclass(frozen=True)
class Extinguish:
    """A burning troop unit stops, drops and rolls: it Focuses for the turn and is no longer on fire."""

    unit_id: int


# -- vehicles and unmanned systems ---------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    """A unit gets into a vehicle (standard: part of its Move; non-standard: it Focuses and the
    vehicle stays still). ``overload``: the players agree to carry more than the capacity."""

    unit_id: int
    vehicle_id: int
    standard: bool = True
    compartment: Compartment = Compartment.ENCLOSED
    overload: bool = False


@dataclass(frozen=True)
class Disembark:
    """A unit gets out at (x, y), next to the door, hatch or ramp."""

    unit_id: int
    x_in: float
    y_in: float
    standard: bool = True


@dataclass(frozen=True)
class BailOut:
    """An occupant with a Reaction ready gets out of a vehicle before an attack on it."""

    unit_id: int
    x_in: float
    y_in: float


@dataclass(frozen=True)
class ControlRpv:
    """The operator Focuses and Signals to pilot a remotely piloted vehicle (4.4); ``launch`` puts it
    on the table next to the operator."""

    operator_id: int
    rpv_id: int
    launch: bool = False


@dataclass(frozen=True)
class ReleaseRpv:
    """The operator stops piloting: a UAS flies back to its launch point, a ground RPV stops."""

    operator_id: int


# -- command and signal ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Signal:
    """The unit uses its radio (its Action): ``purpose`` "situational awareness" or "other" (e.g.
    calling for extraction). Fires observation, Main Effort by radio, RPV control, SIGINT sharing
    and jamming have their own actions."""

    unit_id: int
    purpose: str = "situational awareness"


@dataclass(frozen=True)
class ObserveFires:
    """Fires observation (5.1): Signal and mark one enemy unit or one point; every friendly attack
    against it has Advantage until the start of the observer's player's next turn."""

    unit_id: int
    target_unit: int | None = None
    x_in: float | None = None
    y_in: float | None = None


@dataclass(frozen=True)
class DesignateMainEffort:
    """A Commander uses its Action to make a subordinate the Main Effort (by voice, or by radio with
    a Signal if the subordinate is beyond the voice chain)."""

    commander_id: int
    unit_id: int


@dataclass(frozen=True)
class PassMainEffort:
    """A Commander that is the Main Effort passes it to its subordinates along the voice chain."""

    commander_id: int


@dataclass(frozen=True)
class EnhanceInitiative:
    """The side's most senior living Commander adds 1d4 to the next round's initiative."""

    commander_id: int


@dataclass(frozen=True)
class Sigint:
    """An EW unit sees every emitting enemy unit; with ``share`` it Signals (free) to pass it on."""

    unit_id: int
    share: bool = False


@dataclass(frozen=True)
class Jam:
    """An EW unit Signals and jams enemy radio users within 36"."""

    unit_id: int


Action = Union[
    SetPose, SetPoses, MoveUnit, EditUnit, StartRound, StartTurn, EndTurn, Focus, TakeAction, ReadyReaction, Sprint, Carry,
    RecordAttack, RecordTask, RecordTreatment, RecordDamage, Extinguish, Board, Disembark, BailOut,
    ControlRpv, ReleaseRpv, Signal, ObserveFires, DesignateMainEffort, PassMainEffort, EnhanceInitiative,
    Sigint, Jam,
]



#: The JSON round trip of every action (the saved history, the recording's action rows).
CODEC = ActionCodec(Action)
action_to_json = CODEC.to_json
action_from_json = CODEC.from_json
