"""Every Down Range action besides attacks, initiative and turns, as the forms a front end draws
(:class:`~rules.action_forms.ActionForm`), their exact odds and their resolution: medicine and repair
(2.8), task rolls (2.7), Signals and situational awareness, fires observation, Main Effort and Enhanced
Initiative (5), SIGINT and jamming (5.1.2), remotely piloted systems (4.4), boarding, getting out and
bailing out (4.3), sprinting and carrying (2.5), falls, hazards and fire (2.9).

The proposals come from the measured geometry with the rules' own checks: a patient is proposed when
it is down and touching the medic (``medicine``'s rule), a vehicle when the unit touches it, a Signal
lists who the information reaches (``command.information_reaches``), SIGINT the emitters
``command.emitters_seen_by`` finds, jamming the enemy radios in its zone. Whether an action is allowed
is the rules' own answer: the action is tried on the state as the form starts, and the refusal's words
are the reason shown. The odds are exact (every face of the Skill die enumerated as ``roll_skill``
reads it; Damage against Defense from :func:`rules.downrange.odds.p_damage`).

>>> from rules.downrange.scenario import demo_state
>>> from rules.downrange.pieces import Status
>>> s = demo_state().update_unit(11, status=Status.DOWN).update_unit(14, x_in=14.9, y_in=24.5)
>>> [f.key for f in actions_for(s, 14)][:2]
['treat', 'task']
>>> odds = action_odds(s, ActionRequest("treat", 14, {"patient": 11}))
>>> odds[0].name, [label for label, _ in odds[0].outcomes]
('Mortar gunner', ['restored', 'injured', 'no effect', 'removed'])
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING, Any

from rules.action_forms import ActionChoice, ActionField, ActionForm, ActionRequest, with_defaults
from rules.dice import Dice, DiceSource, HighestDice
from rules.downrange import actions as A
from rules.downrange.command import emitters_seen_by, information_reaches, is_subordinate, most_senior_commander
from rules.downrange.environment import (FIRE_DIE, fall_damage_dice, resolve_burning, resolve_crashes, resolve_fall,
                                         resolve_fire_spread, resolve_hazard)
from rules.downrange.medicine import resolve_treatment
from rules.downrange.modifiers import Modifiers, unit_modifiers
from rules.downrange.narration import narrate_damage, narrate_task, narrate_treatment
from rules.downrange.odds import p_damage
from rules.downrange.pieces import Compartment, Status, Unit
from rules.downrange.radio import has_radio, is_ew, position_footprint
from rules.downrange.results import MedicalOutcome
from rules.downrange.reach import TOUCH_IN
from rules.downrange.turns import resolve_task, skill_die_for
from rules.errors import RulesError
from rules.geometry import EPS, Reach, gap_in
from rules.resolution import Resolution

if TYPE_CHECKING:
    from rules.downrange.state import GameState
    from rules.ruleset import OddsLegend, TargetOdds

#: How far around a unit the form proposes others for a hazard or a carry (inches): a hazard's area is
#: the players' to judge, so the units near the acting one are proposed and the players tick them.
NEAR_IN = 4.0
#: The Table 2-1 difficulties a task form offers (the catalog's, with their names).
MEDICAL_ORDER = (MedicalOutcome.RESTORED, MedicalOutcome.INJURED, MedicalOutcome.NO_EFFECT, MedicalOutcome.REMOVED)


# -- choices from the geometry --------------------------------------------------------------------

def _gap(a: Unit, b: Unit) -> float:
    return gap_in(a.footprint, b.footprint)


def _unit_choice(state: GameState, unit: Unit, other: Unit, *, eligible: bool, reason: str = "") -> ActionChoice:
    words = reason or (f"{_gap(unit, other):.1f}\" away" if other.on_table and unit.on_table else "")
    return ActionChoice(other.unit_id, other.name, eligible, words)


def _touching(unit: Unit, other: Unit) -> bool:
    return unit.on_table and other.on_table and _gap(unit, other) <= TOUCH_IN + EPS


def _assistants(state: GameState, unit: Unit, near: Unit) -> ActionField:
    """Friendly troops proposed as assistants: those touching ``near`` (the patient, or the unit
    itself for a task) first; the others listed with their distance, not ticked."""
    choices = []
    for u in sorted(state.units_of(unit.side), key=lambda u: _gap(near, u) if u.on_table else math.inf):
        if u.unit_id == unit.unit_id or u.unit_id == near.unit_id or u.is_vehicle or not u.is_active:
            continue
        close = _touching(near, u)
        choices.append(ActionChoice(u.unit_id, u.name, close,
                                    f"touching {near.name}" if close else f"{_gap(near, u):.1f}\" from {near.name}"))
    return ActionField("assistants", "Assistants", "units", tuple(choices), (), limit=state.catalog.task_max_assistants,
                       help="friendly units that Focus to help: +1 each (2.6.3)")


def _modifier_fields() -> tuple[ActionField, ...]:
    return (ActionField("advantages", "Other Advantages", "int", default=0, maximum=3,
                        help="situational Advantages the players agree on"),
            ActionField("disadvantages", "Other Disadvantages", "int", default=0, maximum=3,
                        help="situational Disadvantages the players agree on"))


def _calls(request: ActionRequest, key: str) -> tuple[str, ...]:
    n = int(request.value(key, 0) or 0)
    return tuple(f"declared {key[:-1]} {i + 1}" for i in range(n))


def _point_next_to(vehicle: Unit, unit: Unit) -> tuple[float, float]:
    """Where a unit getting out stands by default: behind the vehicle, clear of its hull."""
    h = math.radians(vehicle.heading_deg + 180.0)
    reach = (vehicle.length_in or 2 * vehicle.radius_in) / 2 + unit.radius_in + 0.2
    return round(vehicle.x_in + reach * math.cos(h), 1), round(vehicle.y_in + reach * math.sin(h), 1)


# -- the forms ------------------------------------------------------------------------------------

def _treat(state: GameState, unit: Unit) -> ActionForm | None:
    if unit.is_vehicle or not (state.has_effect(unit, "medical") or state.has_effect(unit, "repair")):
        return None
    patients = []
    for u in state.units:
        if u.unit_id == unit.unit_id or u.status is not Status.DOWN or u.aboard is not None:
            continue
        tool = "repair" if u.is_vehicle else "medical"
        ok = _touching(unit, u) and state.has_effect(unit, tool)
        why = "touching" if _touching(unit, u) else (f"{_gap(unit, u):.1f}\" away: move next to it" if u.on_table else "off the table")
        patients.append((not ok, _gap(unit, u) if u.on_table else math.inf, _unit_choice(state, unit, u, eligible=ok, reason=why)))
    choices = tuple(c for *_, c in sorted(patients, key=lambda p: (p[0], p[1])))
    default = choices[0].value if choices and choices[0].eligible else None
    patient = state.unit(default) if default is not None else unit
    return ActionForm("treat", "Treat or repair a downed unit", unit.unit_id, (
        ActionField("patient", "Patient", "unit", choices, default, help="a downed unit touching the medic (2.8)"),
        _assistants(state, unit, patient), *_modifier_fields()), rolls=True, kind="treatment",
        help="Focus and roll Skill; Table 2-2 says what comes of it")


def _task(state: GameState, unit: Unit) -> ActionForm | None:
    if unit.is_vehicle and not unit.is_remote:
        return None
    ratings = tuple(ActionChoice(d.value, f"{d.value}: {d.meaning}") for d in state.catalog.difficulties)
    default = ratings[len(ratings) // 2].value if ratings else 4
    return ActionForm("task", "Task roll (non-attack action)", unit.unit_id, (
        ActionField("task", "Task", "choice", tuple(ActionChoice(t, t) for t in
                    ("climb", "breach a door", "set a charge", "operate equipment", "other")), "other"),
        ActionField("difficulty", "Difficulty (Table 2-1)", "choice", ratings, default),
        _assistants(state, unit, unit),
        ActionField("focus", "Focus on it", "bool", default=False, help="the task takes the unit's Focus"),
        *_modifier_fields()), rolls=True, kind="task", help="roll Skill against a Difficulty from Table 2-1 (2.7)")


def _signal(state: GameState, unit: Unit) -> ActionForm | None:
    if not has_radio(state, unit):
        return None
    heard = [state.unit(h).name for h in _heard(state, unit)]
    return ActionForm("signal", "Signal (situational awareness)", unit.unit_id, (
        ActionField("purpose", "Purpose", "choice", (ActionChoice("situational awareness", "situational awareness"),
                                                     ActionChoice("other", "other")), "situational awareness"),),
        kind="signal", notes=("Heard by: " + (", ".join(heard) or "nobody in voice or radio reach"),),
        help="use the radio: the unit takes an emission token (5.1)")


def _observe(state: GameState, unit: Unit) -> ActionForm | None:
    if not has_radio(state, unit):
        return None
    enemies = sorted((u for u in state.on_table() if u.side != unit.side and u.is_active), key=lambda u: _gap(unit, u))
    choices = tuple(_unit_choice(state, unit, u, eligible=True) for u in enemies)
    return ActionForm("observe", "Fires observation", unit.unit_id, (
        ActionField("target", "Target", "unit", choices, choices[0].value if choices else None,
                    help="friendly attacks on it have Advantage until the observer's next turn"),), kind="signal")


def _main_effort(state: GameState, unit: Unit) -> ActionForm | None:
    if unit.commander is None:
        return None
    subs = [u for u in state.units if u.side == unit.side and u.is_active and is_subordinate(state, unit, u)]
    choices = []
    for u in subs:
        reached, why = information_reaches(state, unit, u)
        choices.append(ActionChoice(u.unit_id, u.name, True, "by voice" if reached else (why or "by radio")))
    return ActionForm("main effort", "Designate the Main Effort", unit.unit_id, (
        ActionField("unit", "Main Effort", "unit", tuple(choices), choices[0].value if choices else None,
                    help="Advantage on its Skill rolls for the rest of the turn (5.2)"),), kind="command")


def _pass_main_effort(state: GameState, unit: Unit) -> ActionForm | None:
    if unit.commander is None or not unit.main_effort:
        return None
    return ActionForm("pass main effort", "Pass the Main Effort on", unit.unit_id, kind="command")


def _enhance(state: GameState, unit: Unit) -> ActionForm | None:
    senior = most_senior_commander(state, unit.side)
    if unit.commander is None or senior is None or senior.unit_id != unit.unit_id:
        return None
    return ActionForm("enhanced initiative", "Enhanced Initiative", unit.unit_id, kind="command",
                      help="the side rolls 1d10 + 1d4 for initiative next round")


def _sigint(state: GameState, unit: Unit) -> ActionForm | None:
    if not is_ew(state, unit):
        return None
    found = [u.name for u in emitters_seen_by(state, unit)]
    return ActionForm("sigint", "SIGINT", unit.unit_id, (
        ActionField("share", "Share it by radio", "bool", default=False, help="a free Signal: an emission token"),),
        kind="sigint", notes=("Finds: " + (", ".join(found) or "no emitting enemy unit"),))


def _jam(state: GameState, unit: Unit) -> ActionForm | None:
    if not is_ew(state, unit):
        return None
    zone = Reach(unit.footprint, state.options.jamming_range_in)
    cut = [u.name for u in state.units if u.side != unit.side and u.is_active and has_radio(state, u)
           and (math.isinf(zone.distance_in) or zone.touches(position_footprint(state, u)))]
    return ActionForm("jam", "Jam enemy radios", unit.unit_id, kind="jamming",
                      notes=(f"Cuts (within {state.options.jamming_range_in:g}\"): " + (", ".join(cut) or "no enemy radio"),))


def _control(state: GameState, unit: Unit) -> ActionForm | None:
    rpvs = [u for u in state.units if u.is_remote and u.side == unit.side and u.status is Status.ACTIVE]
    if unit.is_vehicle or not rpvs or not has_radio(state, unit):
        return None
    choices = tuple(ActionChoice(r.unit_id, r.name, True, "on the table" if r.on_table else "not launched yet")
                    for r in rpvs)
    first = rpvs[0]
    return ActionForm("control rpv", "Pilot a remotely piloted system", unit.unit_id, (
        ActionField("rpv", "System", "unit", choices, first.unit_id),
        ActionField("launch", "Launch it next to the operator", "bool", default=not first.on_table)),
        kind="signal", help="Focus and Signal to pilot it this turn (4.4)")


def _release(state: GameState, unit: Unit) -> ActionForm | None:
    if not any(u.operator == unit.unit_id for u in state.units):
        return None
    return ActionForm("release rpv", "Stop piloting", unit.unit_id, kind="signal")


def _board(state: GameState, unit: Unit) -> ActionForm | None:
    if unit.aboard is not None:
        return None
    vehicles = sorted((v for v in state.on_table() if v.is_vehicle and v.capacity > 0 and v.side == unit.side
                       and v.unit_id != unit.unit_id and v.status is Status.ACTIVE), key=lambda v: _gap(unit, v))
    if not vehicles:
        return None
    choices = tuple(ActionChoice(v.unit_id, v.name, _touching(unit, v),
                                 "touching" if _touching(unit, v) else f"{_gap(unit, v):.1f}\" away: move to it first")
                    for v in vehicles)
    return ActionForm("board", "Board a vehicle", unit.unit_id, (
        ActionField("vehicle", "Vehicle", "unit", choices, choices[0].value),
        ActionField("compartment", "Compartment", "choice", tuple(ActionChoice(c.value, c.value) for c in Compartment),
                    Compartment.ENCLOSED.value),
        ActionField("standard", "Standard (part of its Move)", "bool", default=True),
        ActionField("overload", "Overload (players agree)", "bool", default=False)), kind="vehicle")


def _get_out(state: GameState, unit: Unit) -> Iterator[ActionForm]:
    if unit.aboard is None:
        return
    vehicle = state.unit(unit.aboard)
    point = _point_next_to(vehicle, unit)
    yield ActionForm("disembark", f"Get out of {vehicle.name}", unit.unit_id, (
        ActionField("point", "Where it stands", "point", default=point),
        ActionField("standard", "Standard (door, hatch or ramp)", "bool", default=True)), kind="vehicle")
    yield ActionForm("bail out", f"Bail out of {vehicle.name} (Reaction)", unit.unit_id, (
        ActionField("point", "Where it lands", "point", default=point),), kind="vehicle")


def _sprint(state: GameState, unit: Unit) -> ActionForm | None:
    if unit.is_vehicle or not unit.on_table:
        return None
    return ActionForm("sprint", "Sprint (a second Move)", unit.unit_id, (
        ActionField("reaction", "As a Reaction", "bool", default=state.active_side not in (None, unit.side)),))


def _carry(state: GameState, unit: Unit) -> ActionForm | None:
    if unit.is_vehicle or not unit.on_table:
        return None
    if unit.carrying is not None:
        return ActionForm("carry", f"Put {state.unit(unit.carrying).name} down", unit.unit_id, (
            ActionField("carried", "Carried", "unit", (), None),), kind="move")
    near = sorted((u for u in state.on_table() if u.side == unit.side and not u.is_vehicle and u.unit_id != unit.unit_id
                   and _gap(unit, u) <= NEAR_IN), key=lambda u: _gap(unit, u))
    if not near:
        return None
    choices = tuple(ActionChoice(u.unit_id, u.name, _touching(unit, u),
                                 "touching" if _touching(unit, u) else f"{_gap(unit, u):.1f}\" away") for u in near)
    return ActionForm("carry", "Pick up and carry", unit.unit_id, (
        ActionField("carried", "Carried", "unit", choices, choices[0].value),), kind="move")


def _fall(state: GameState, unit: Unit) -> ActionForm | None:
    if not unit.is_active:
        return None
    return ActionForm("fall", "Fall or crash", unit.unit_id, (
        ActionField("distance_in", "Distance before impact", "float", default=10.0, maximum=200, suffix='"'),),
        rolls=True, kind="damage", help="one die per 10\" travelled before impact (2.9.1)")


def _hazard(state: GameState, unit: Unit) -> ActionForm | None:
    if not unit.is_active or not state.catalog.hazards or not unit.on_table:
        return None
    names = tuple(ActionChoice(h.name, f"{h.name} ({h.damage}, {h.nature})") for h in state.catalog.hazards.values())
    near = sorted((u for u in state.on_table() if u.is_active and u.unit_id != unit.unit_id
                   and _gap(unit, u) <= NEAR_IN), key=lambda u: _gap(unit, u))
    others = tuple(ActionChoice(u.unit_id, u.name, True, f"{_gap(unit, u):.1f}\" away") for u in near)
    return ActionForm("hazard", "Hazard", unit.unit_id, (
        ActionField("hazard", "Hazard", "choice", names, names[0].value),
        ActionField("others", "Also in it", "units", others, ()),), rolls=True, kind="damage",
        help="a persistent hazard's Damage, once this turn, to each unit in it without protection (2.9.2)")


def _fire(state: GameState, unit: Unit) -> Iterator[ActionForm]:
    if not unit.on_fire:
        return
    yield ActionForm("burning", "Burning (1d6 Damage)", unit.unit_id, rolls=True, kind="fire")
    flammable = [u.name for u in state.on_table() if u.flammable and u.unit_id != unit.unit_id and not u.on_fire]
    yield ActionForm("fire spread", "Fire spreads (1d6\")", unit.unit_id, rolls=True, kind="fire",
                     notes=("Flammable: " + (", ".join(flammable) or "nothing marked flammable"),))
    if not unit.is_vehicle:
        yield ActionForm("extinguish", "Stop, drop and roll", unit.unit_id, kind="fire")


#: What a unit Focuses on, or spends an Action on without a roll (Table 2-1: trivial), as the form offers them.
FOCUS_TASKS = ("set up a weapon", "aim", "operate equipment", "other")
PLAIN_ACTIONS = ("fill sandbags", "talk", "open a door", "other")


def _choices(words: tuple[str, ...]) -> tuple[ActionChoice, ...]:
    return tuple(ActionChoice(w, w) for w in words)


def _focus(state: GameState, unit: Unit) -> ActionForm | None:
    if not unit.is_active or not unit.on_table or (unit.is_vehicle and not unit.is_remote):
        return None
    return ActionForm("focus", "Focus (no move this turn)", unit.unit_id, (
        ActionField("task", "On", "choice", _choices(FOCUS_TASKS), FOCUS_TASKS[0]),), kind="turn",
        help="the unit Focuses for the turn: it has not moved and may not move or act otherwise (2.2)")


def _plain_action(state: GameState, unit: Unit) -> ActionForm | None:
    if not unit.is_active or not unit.on_table or unit.is_vehicle:
        return None
    return ActionForm("take action", "An Action without a roll", unit.unit_id, (
        ActionField("what", "What", "choice", _choices(PLAIN_ACTIONS), PLAIN_ACTIONS[0]),), kind="turn",
        help="the unit uses its Action on something trivial (Table 2-1: no roll), e.g. filling sandbags")


def _ready(state: GameState, unit: Unit) -> ActionForm | None:
    if not unit.is_active or unit.reaction_ready:
        return None
    return ActionForm("ready reaction", "Ready a Reaction", unit.unit_id, kind="turn",
                      help="the unit saves its Action as a Reaction until the start of its player's next turn (2.2.2)")


_SINGLE: tuple[Callable[[GameState, Unit], ActionForm | None], ...] = (
    _treat, _task, _focus, _plain_action, _ready, _signal, _observe, _main_effort, _pass_main_effort, _enhance, _sigint, _jam, _control, _release,
    _board, _sprint, _carry, _fall, _hazard)


def _forms(state: GameState, unit: Unit) -> Iterator[ActionForm]:
    for build in _SINGLE:
        form = build(state, unit)
        if form is not None:
            yield form
    yield from _get_out(state, unit)
    yield from _fire(state, unit)


def actions_for(state: GameState, unit_id: int) -> tuple[ActionForm, ...]:
    """Every action ``unit_id`` may declare now besides attacks, each tried as the form starts: the
    rules' refusal is its ``reason``."""
    unit = state.unit(unit_id)
    if unit.status is Status.REMOVED:
        return ()
    out = []
    for form in _forms(state, unit):
        try:
            _play(state, ActionRequest(form.key, unit_id, form.defaults()), HighestDice(), form=form)
        except (RulesError, ValueError, KeyError) as exc:
            form = ActionForm(form.key, form.label, form.unit_id, form.fields, form.rolls, False, str(exc), form.notes,
                              form.help, form.kind)
        out.append(form)
    return tuple(out)


def action_form(state: GameState, request: ActionRequest) -> ActionForm:
    unit = state.unit(request.unit_id)
    forms = list(_forms(state, unit))
    for form in forms:
        if form.key == request.action:
            return form
    raise state.illegal(f"{unit.name} has no action {request.action!r} now: its actions are "
                        f"{', '.join(f.key for f in forms) or 'none'}")


# -- resolving ------------------------------------------------------------------------------------

def _unit_id(state: GameState, value: Any, what: str) -> int:
    if value is None:
        raise state.illegal(f"choose the {what} first")
    return state.unit(value).unit_id


def _ids(state: GameState, values: Any) -> tuple[int, ...]:
    if values is None:
        return ()
    if isinstance(values, (int, str)):
        values = (values,)
    return tuple(state.unit(v).unit_id for v in values)


def _point(state: GameState, value: Any) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value)
    except (TypeError, ValueError):
        raise state.illegal(f"{value!r} is not a point: give [x, y] in table inches") from None
    return x, y


def _play(state: GameState, request: ActionRequest, dice: DiceSource, *,
          form: ActionForm | None = None) -> tuple[GameState, tuple[str, ...], Any]:
    """(the state after, the sentences, the rules' result) of a declared action; ``form``: the form it
    fills in when the caller has just built it (:func:`actions_for` tries each of a unit's forms, and
    building them all again for each try made the list cost the square of its length)."""
    request = with_defaults(form if form is not None else action_form(state, request), request)
    uid, key = request.unit_id, request.action
    before = len(state.events)

    def applied(action: Any) -> tuple[GameState, tuple[str, ...], Any]:
        after = state.apply(action)
        return after, tuple(e.summary for e in after.events[before:]), action

    if key == "treat":
        t = resolve_treatment(state, uid, _unit_id(state, request.value("patient"), "patient"), dice,
                              assistants=_ids(state, request.value("assistants")),
                              advantages=_calls(request, "advantages"), disadvantages=_calls(request, "disadvantages"))
        return state.apply(A.RecordTreatment(t)), tuple(narrate_treatment(t)), t
    if key == "task":
        r = resolve_task(state, uid, int(request.value("difficulty")), dice, task=str(request.value("task")),
                         assistants=_ids(state, request.value("assistants")), focus=bool(request.value("focus")),
                         advantages=_calls(request, "advantages"), disadvantages=_calls(request, "disadvantages"))
        return state.apply(A.RecordTask(r)), tuple(narrate_task(r)), r
    if key in ("fall", "hazard", "burning", "fire spread"):
        if key == "fall":
            d = resolve_fall(state, uid, float(request.value("distance_in")), dice)
        elif key == "hazard":
            d = resolve_hazard(state, str(request.value("hazard")), (uid, *_ids(state, request.value("others"))), dice)
        elif key == "burning":
            d = resolve_burning(state, uid, dice)
        else:
            d = resolve_fire_spread(state, dice, source_unit=uid)
        after, crashes = resolve_crashes(state.apply(A.RecordDamage(d)), dice)
        return after, tuple(narrate_damage(d)) + tuple(line for c in crashes for line in narrate_damage(c)), d
    simple: dict[str, Callable[[], Any]] = {
        "signal": lambda: A.Signal(uid, str(request.value("purpose"))),
        "observe": lambda: A.ObserveFires(uid, _unit_id(state, request.value("target"), "target")),
        "main effort": lambda: A.DesignateMainEffort(uid, _unit_id(state, request.value("unit"), "unit")),
        "pass main effort": lambda: A.PassMainEffort(uid),
        "enhanced initiative": lambda: A.EnhanceInitiative(uid),
        "sigint": lambda: A.Sigint(uid, bool(request.value("share"))),
        "jam": lambda: A.Jam(uid),
        "control rpv": lambda: A.ControlRpv(uid, _unit_id(state, request.value("rpv"), "system"),
                                            bool(request.value("launch"))),
        "release rpv": lambda: A.ReleaseRpv(uid),
        "board": lambda: A.Board(uid, _unit_id(state, request.value("vehicle"), "vehicle"),
                                 bool(request.value("standard")), Compartment(str(request.value("compartment"))),
                                 bool(request.value("overload"))),
        "disembark": lambda: A.Disembark(uid, *_point(state, request.value("point")), bool(request.value("standard"))),
        "bail out": lambda: A.BailOut(uid, *_point(state, request.value("point"))),
        "sprint": lambda: A.Sprint(uid, bool(request.value("reaction"))),
        "carry": lambda: A.Carry(uid, None if request.value("carried") is None else state.unit(request.value("carried")).unit_id),
        "extinguish": lambda: A.Extinguish(uid),
        "focus": lambda: A.Focus(uid, str(request.value("task"))),
        "take action": lambda: A.TakeAction(uid, str(request.value("what"))),
        "ready reaction": lambda: A.ReadyReaction(uid),
    }
    build = simple.get(key)
    if build is None:  # a form listed above without a way to play it: a bug here, not the players'
        raise state.illegal(f"no way to play {key!r}")
    after, sentences, action = applied(build())
    if key == "signal" and after.events[-1].kind == "signal":
        # Who the information reached, measured as it was sent, goes into the Signal's own event: the
        # log, the class view's card and the debrief name them with it.
        heard = _heard(state, state.unit(uid))
        text = f"Heard by: {', '.join(state.unit(h).name for h in heard) or 'nobody'}."
        event = after.events[-1]
        event = dataclasses.replace(event, summary=f"{event.summary} {text}", outcome={**event.outcome,
                                                                                     "heard": list(heard)})
        after = dataclasses.replace(after, events=after.events[:-1] + (event,))
        sentences = (sentences[0], text) if sentences else (text,)
    return after, sentences, action


def _heard(state: GameState, unit: Unit) -> tuple[int, ...]:
    return tuple(u.unit_id for u in state.units_of(unit.side)
                 if u.unit_id != unit.unit_id and u.is_active and information_reaches(state, unit, u)[0])


def resolve_action(state: GameState, request: ActionRequest, dice: DiceSource) -> Resolution:
    after, sentences, result = _play(state, request, dice)
    return Resolution(result, sentences, after)


# -- odds -----------------------------------------------------------------------------------------

def _skill_outcomes(state: GameState, unit: Unit, task: str, request: ActionRequest,
                    assistants: int) -> Iterator[tuple[int, bool, int, int]]:
    """(total, automatic failure, ways, of how many) for every face the Skill roll may show, read as
    :func:`rules.downrange.rolls.roll_skill` reads it."""
    mods = unit_modifiers(state, unit).plus(Modifiers(_calls(request, "advantages"), _calls(request, "disadvantages")))
    mode = mods.mode(state.options.advantage_counting)
    die = skill_die_for(state, unit, task)
    throws = 1 if mode == "normal" else 2
    n = die.sides ** throws
    for faces in product(range(1, die.sides + 1), repeat=throws):
        kept = faces[0] if mode == "normal" else (max(faces) if mode == "advantage" else min(faces))
        auto = all(f == 1 for f in faces) if state.options.auto_failure == "both dice" else kept == 1
        yield kept + assistants + die.bonus, auto, 1, n


def _row(unit_id: int, name: str, side: str, p: Fraction, *, p_kill: Fraction | None = None,
         outcomes: tuple[tuple[str, Fraction], ...] = (), can_damage: bool = True) -> TargetOdds:
    from rules.ruleset import TargetOdds

    kill = p if p_kill is None else p_kill
    return TargetOdds(unit_id, name, side, 1, True, "", p, Fraction(1) if p_kill is None else kill, kill, kill,
                      can_damage, outcomes=outcomes)


def _damage_row(state: GameState, unit: Unit, damage: Dice, *, caught: Fraction | None = None) -> TargetOdds:
    """Damage against ``unit``'s Defense: the chance it is taken out, or (``caught``: the chance the
    fire reaches it) the chance it catches fire and the chance it is then taken out."""
    defense = state.effective_defense(unit)
    p = p_damage(damage, defense, defense_all_ones_fails=state.options.defense_all_ones_fails)
    if caught is None:
        return _row(unit.unit_id, unit.name, unit.side, p)
    return _row(unit.unit_id, unit.name, unit.side, caught, p_kill=caught * p)


def action_odds(state: GameState, request: ActionRequest) -> tuple[TargetOdds, ...]:
    """Exact odds of a declared action before its roll; () for one without dice."""
    request = with_defaults(action_form(state, request), request)
    unit = state.unit(request.unit_id)
    key = request.action
    if key == "treat":
        patient = state.unit(_unit_id(state, request.value("patient"), "patient"))
        task = "repair" if patient.is_vehicle else "medicine"
        counts = dict.fromkeys(MEDICAL_ORDER, 0)
        total_n = 1
        for total, auto, ways, n in _skill_outcomes(state, unit, task, request, len(_ids(state, request.value("assistants")))):
            result = MedicalOutcome(state.catalog.medical_band(1 if auto else total).result)
            if result is MedicalOutcome.RESTORED and patient.injured:
                result = MedicalOutcome.INJURED
            counts[result] += ways
            total_n = n
        probs = {k: Fraction(v, total_n) for k, v in counts.items()}
        back = probs[MedicalOutcome.RESTORED] + probs[MedicalOutcome.INJURED]
        return (_row(patient.unit_id, patient.name, patient.side, back,
                     outcomes=tuple((k.value, probs[k]) for k in MEDICAL_ORDER)),)
    if key == "task":
        difficulty = int(request.value("difficulty"))
        good = n_all = 0
        for total, auto, ways, n in _skill_outcomes(state, unit, str(request.value("task")), request,
                                                    len(_ids(state, request.value("assistants")))):
            good += ways if (not auto and total >= difficulty) else 0
            n_all = n
        return (_row(unit.unit_id, unit.name, unit.side, Fraction(good, n_all)),)
    if key == "fall":
        damage = fall_damage_dice(state.effective_defense(unit), float(request.value("distance_in")),
                                  static_die_sides=state.options.fall_die_sides)
        return (_damage_row(state, unit, damage),)
    if key == "hazard":
        hazard = state.catalog.hazard(str(request.value("hazard")))
        return tuple(_damage_row(state, state.unit(uid), hazard.damage)
                     for uid in (unit.unit_id, *_ids(state, request.value("others"))))
    if key == "burning":
        return (_damage_row(state, unit, FIRE_DIE),)
    if key == "fire spread":
        rows = []
        for u in state.units:
            if not u.flammable or u.unit_id == unit.unit_id or not (u.status is Status.ACTIVE and u.on_table) or u.on_fire:
                continue
            d = _gap(unit, u)
            caught = Fraction(sum(1 for spread in range(1, 7) if d <= spread + EPS), 6)
            rows.append(_damage_row(state, u, FIRE_DIE, caught=caught))
        return tuple(rows)
    return ()


def action_legend(state: GameState, request: ActionRequest) -> OddsLegend:
    from rules.ruleset import OddsLegend

    key = request.action
    if key == "treat":
        return OddsLegend("back in play", None, "the patient comes back (restored or injured, Table 2-2)", "",
                          shots=False, refused="not allowed")
    if key == "fire spread":
        return OddsLegend("catches fire", "taken out", "within the spread roll's reach", "the fire's 1d6 Damage kills it",
                          shots=False, refused="not allowed")
    if key == "hazard" and _hazard_nature(state, request) == "disabling":
        return OddsLegend("disabled", None, "the Damage beats its Defense: disabled this turn", "", shots=False,
                          refused="not allowed")
    if key in ("fall", "hazard", "burning"):
        return OddsLegend("taken out", None, "the Damage beats its Defense", "", shots=False, refused="not allowed")
    return OddsLegend("succeeds", None, "the Skill roll meets the Difficulty", "", shots=False, refused="not allowed")


def request_for(action: Any) -> ActionRequest | None:
    """The declaration that plays one of the rules' own actions (a scripted ``Signal``, ``Board``...)
    through the common path; None for an action no form offers (turns, moves, hand edits).

    >>> request_for(A.Board(33, 40))
    ActionRequest(action='board', unit_id=33, values={'vehicle': 40, 'standard': True, 'compartment': 'enclosed', 'overload': False})
    """
    if isinstance(action, A.Focus):
        return ActionRequest("focus", action.unit_id, {"task": action.task})
    if isinstance(action, A.TakeAction):
        return ActionRequest("take action", action.unit_id, {"what": action.what})
    if isinstance(action, A.ReadyReaction):
        return ActionRequest("ready reaction", action.unit_id)
    if isinstance(action, A.Signal):
        return ActionRequest("signal", action.unit_id, {"purpose": action.purpose})
    if isinstance(action, A.ObserveFires) and action.target_unit is not None:
        return ActionRequest("observe", action.unit_id, {"target": action.target_unit})
    if isinstance(action, A.DesignateMainEffort):
        return ActionRequest("main effort", action.commander_id, {"unit": action.unit_id})
    if isinstance(action, A.PassMainEffort):
        return ActionRequest("pass main effort", action.commander_id)
    if isinstance(action, A.EnhanceInitiative):
        return ActionRequest("enhanced initiative", action.commander_id)
    if isinstance(action, A.Sigint):
        return ActionRequest("sigint", action.unit_id, {"share": action.share})
    if isinstance(action, A.Jam):
        return ActionRequest("jam", action.unit_id)
    if isinstance(action, A.ControlRpv):
        return ActionRequest("control rpv", action.operator_id, {"rpv": action.rpv_id, "launch": action.launch})
    if isinstance(action, A.ReleaseRpv):
        return ActionRequest("release rpv", action.operator_id)
    if isinstance(action, A.Board):
        return ActionRequest("board", action.unit_id, {"vehicle": action.vehicle_id, "standard": action.standard,
                                                       "compartment": Compartment(action.compartment).value,
                                                       "overload": action.overload})
    if isinstance(action, A.Disembark):
        return ActionRequest("disembark", action.unit_id, {"point": (action.x_in, action.y_in), "standard": action.standard})
    if isinstance(action, A.BailOut):
        return ActionRequest("bail out", action.unit_id, {"point": (action.x_in, action.y_in)})
    if isinstance(action, A.Sprint):
        return ActionRequest("sprint", action.unit_id, {"reaction": action.reaction})
    if isinstance(action, A.Carry):
        return ActionRequest("carry", action.unit_id, {"carried": action.carried_id})
    if isinstance(action, A.Extinguish):
        return ActionRequest("extinguish", action.unit_id)
    return None


def _hazard_nature(state: GameState, request: ActionRequest) -> str:
    try:
        name = request.value("hazard") or next(iter(state.catalog.hazards.values())).name
        return str(state.catalog.hazard(str(name)).nature)
    except (RulesError, KeyError, StopIteration):
        return "lethal"


# -- the debrief's words ------------------------------------------------------------------------

def action_summaries(event: Any, names: Callable[[int], str] | None = None) -> tuple[str, ...]:
    """What a logged non-attack action did, in the rules' words: the treatment and whether the patient
    was saved, who a Signal reached, what jamming cut, a boarding."""
    kind = event.kind
    out = dict(event.outcome or {})
    if kind in ("medicine", "repair"):
        result = str(out.get("outcome", ""))
        saved = {"restored": "saved (restored)", "injured": "saved (injured)", "no effect": "not saved (still down)",
                 "removed": "lost (removed)"}.get(result, result)
        return (f"{out.get('medic_name', 'medic')} treats {out.get('patient_name', 'the patient')}: {saved}",)
    if kind in ("signal", "main effort", "command", "sigint", "jamming", "board", "disembark", "bail out", "rpv",
                "task", "carry", "sprint", "fire", "fall", "hazard", "crash", "fire spread", "damage"):
        return (event.summary,)
    return ()


__all__ = ["actions_for", "action_form", "action_odds", "action_legend", "resolve_action", "action_summaries",
           "request_for"]
