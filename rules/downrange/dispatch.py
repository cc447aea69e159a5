"""Each Down Range action to the module of its topic: the dispatcher behind ``state.apply(action)``.

The action value types live in :mod:`rules.downrange.actions`, below every module that implements
them (turns, attack, medicine, command, vehicles, unmanned systems, the environment, hand edits);
this module sits above those and imports them all, and none of them imports it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rules.action_registry import ActionRegistry
from rules.downrange import attack, command, environment, hand_edits, medicine, turns, unmanned, vehicles
from rules.downrange.actions import (Action, BailOut, Board, Carry, ControlRpv, DesignateMainEffort, Disembark, EditUnit,
                                 EndTurn, EnhanceInitiative, Extinguish, Focus, Jam, MoveUnit, ObserveFires,
                                 PassMainEffort, ReadyReaction, RecordAttack, RecordDamage, RecordTask,
                                 RecordTreatment, ReleaseRpv, SetPose, SetPoses, Sigint, Signal, Sprint, StartRound,
                                 StartTurn, TakeAction)

if TYPE_CHECKING:
    from rules.downrange.state import GameState

ACTIONS: ActionRegistry["GameState"] = ActionRegistry(Action, what="a Down Range action", handlers={
    SetPose: turns.apply_set_pose, SetPoses: turns.apply_set_poses, MoveUnit: turns.apply_move, EditUnit: hand_edits.apply_edit,
    StartRound: turns.apply_start_round, StartTurn: turns.apply_start_turn, EndTurn: turns.apply_end_turn,
    Focus: turns.apply_focus, TakeAction: turns.apply_take_action, ReadyReaction: turns.apply_ready_reaction,
    Sprint: turns.apply_sprint,
    Carry: turns.apply_carry, RecordTask: turns.apply_task,
    RecordAttack: attack.apply_attack,
    RecordTreatment: medicine.apply_treatment,
    RecordDamage: environment.apply_damage, Extinguish: environment.apply_extinguish,
    Board: vehicles.apply_board, Disembark: vehicles.apply_disembark, BailOut: vehicles.apply_bail_out,
    ControlRpv: unmanned.apply_control, ReleaseRpv: unmanned.apply_release,
    Signal: command.apply_signal, ObserveFires: command.apply_observe,
    DesignateMainEffort: command.apply_main_effort,
    PassMainEffort: command.apply_pass_main_effort, EnhanceInitiative: command.apply_enhance_initiative,
    Sigint: command.apply_sigint, Jam: command.apply_jam,
})
#: The state after an action, dispatched to the module of its topic.
apply_action = ACTIONS.apply
