"""Medicine and repair (2.8, Table 2-2).

A downed troop unit can be revived by a unit with medical equipment that touches it: the medic
Focuses and rolls Skill (its specialty die if medicine is its specialty), reading the result on
Table 2-2. Injured is permanent: an injured unit downed again comes back at best Injured. Vehicles
are repaired the same way with the right tools (proposal: same table; 6-8 = damaged).

>>> from rules.dice import EnteredDice
>>> from rules.downrange.scenario import demo_state
>>> s = demo_state().update_unit(11, status=Status.DOWN).update_unit(14, x_in=14.9, y_in=24.5)
>>> resolve_treatment(s, 14, 11, EnteredDice([6])).outcome
<MedicalOutcome.INJURED: 'injured'>
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.dice import DiceSource
from rules.downrange.actions import RecordTreatment
from rules.downrange.modifiers import Modifiers, unit_modifiers
from rules.downrange.narration import narrate_treatment, treatment_rolls
from rules.downrange.pieces import Status, Unit
from rules.downrange.results import MedicalOutcome, TreatmentResult
from rules.downrange.rolls import roll_skill
from rules.downrange.reach import TOUCH_IN, out_of_reach
from rules.downrange.turns import check_assistants, skill_die_for, spend_action
from rules.serialize import to_jsonable

if TYPE_CHECKING:
    from rules.downrange.state import GameState


def _check(state: GameState, medic: Unit, patient: Unit) -> bool:
    """Whether this is a repair (vehicle) rather than medicine; raises if the treatment is not allowed."""
    repair = patient.is_vehicle
    if patient.status is not Status.DOWN:
        what = "destroyed" if repair else "down"
        raise state.illegal(f"{patient.name} is {patient.status.value}, not {what}: only a {what} unit can be "
                            + ("repaired" if repair else "revived"))
    needed = "repair" if repair else "medical"
    item = "repair tools" if repair else "medical kit"
    if not state.has_effect(medic, needed):
        raise state.illegal(f"{medic.name} has no {item}: add it to the unit's equipment to "
                            + ("repair vehicles" if repair else "treat the downed"))
    if medic.is_vehicle:
        raise state.illegal(f"{medic.name} is a vehicle: troops treat and repair")
    if patient.aboard is not None:
        raise state.illegal(f"{patient.name} is aboard a vehicle: get it out first")
    if far := out_of_reach(state, medic, patient, reach_in=TOUCH_IN,
                           needs=f"touching {patient.name} (2.8): move next to it first"):
        raise state.illegal(far)
    return repair


def resolve_treatment(state: GameState, medic_id: int, patient_id: int, dice: DiceSource, *,
                      assistants: Sequence[int] = (), advantages: Sequence[str] = (),
                      disadvantages: Sequence[str] = ()) -> TreatmentResult:
    """Roll a treatment (or a repair) and read Table 2-2."""
    medic = state.unit(medic_id)
    patient = state.unit(patient_id)
    repair = _check(state, medic, patient)
    task = "repair" if repair else "medicine"
    check_assistants(state, medic, assistants, state.catalog.task_max_assistants, task, near=patient)
    mods = unit_modifiers(state, medic).plus(Modifiers(tuple(advantages), tuple(disadvantages)))
    die = skill_die_for(state, medic, task)
    roll = roll_skill(dice, die, mods, bonus=len(assistants), difficulty=None,
                      label=f"{task.capitalize()} roll of {medic.name} on {patient.name}", options=state.options)
    # An automatic failure is the worst result ("the surgery kills the patient").
    band = state.catalog.medical_band(1 if roll.auto_failure else roll.total)
    table = MedicalOutcome(band.result)
    outcome = table
    if table is MedicalOutcome.RESTORED and patient.injured:
        outcome = MedicalOutcome.INJURED  # Injured is permanent (2.8)
    return TreatmentResult(medic.unit_id, medic.name, patient.unit_id, patient.name, repair, roll, table, outcome,
                           tuple(assistants), patient.injured)


def apply_treatment(state: GameState, action: RecordTreatment) -> GameState:
    r = action.result
    medic = state.unit(r.medic)
    patient = state.unit(r.patient)
    _check(state, medic, patient)
    task = "repair" if r.repair else "medicine"
    helpers = check_assistants(state, medic, r.assistants, state.catalog.task_max_assistants, task, near=patient)
    medic = spend_action(state, medic, f"{task} on {patient.name}", needs_focus=True)
    medic = replace(medic, focused=f"{task} on {patient.name}")
    if r.outcome is MedicalOutcome.REMOVED:
        patient = replace(patient, status=Status.REMOVED, on_table=False)
    elif r.outcome is MedicalOutcome.INJURED:
        patient = replace(patient, status=Status.ACTIVE, injured=True)
    elif r.outcome is MedicalOutcome.RESTORED:
        patient = replace(patient, status=Status.ACTIVE)
    state = state.with_units([medic, patient, *helpers])
    return state.log(task, " ".join(narrate_treatment(r)), inputs={"medic": r.medic, "patient": r.patient},
                     outcome=to_jsonable(r), rolls=treatment_rolls(r))
