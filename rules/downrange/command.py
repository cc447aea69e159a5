"""Command and signal (section 5): radios, emissions, voice chains, situational awareness, fires
observation, electronic warfare, Main Effort and Enhanced Initiative.

Voice relay (5.1.1): every unit passes information to friendly units within its own Movement, base
to base, and they pass it on (a directed graph from :mod:`rules.geometry`). A Signal puts an emission
token on the unit until the start of its player's next turn; an enemy EW unit sees every emitter, and
one that jams cuts enemy radio users within 36" off their radios.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.downrange.acting import spend_action
from rules.downrange.actions import (DesignateMainEffort, EnhanceInitiative, Jam, ObserveFires, PassMainEffort,
                                     Sigint, Signal)
from rules.downrange.pieces import PURPOSE_WORDS, Emission, Observation, Status, Unit
from rules.downrange.radio import (active_jammers, can_use_radio, has_radio, is_ew, is_jammed,  # noqa: F401 - re-exported
                                   jamming_zones, position_footprint, require_radio)
from rules.downrange.results import SigintResult
from rules.downrange.unmanned import apply_jamming_to_rpvs
from rules.geometry import CommsGraph, CommsNode, Reach, comms_graph
from rules.serialize import to_jsonable
from rules.side_words import side_does

if TYPE_CHECKING:
    from rules.downrange.state import GameState

#: Signals whose information every friendly radio receives (and relays by voice).
BROADCASTS = ("situational awareness", "sigint share")


#: The voice chains built last, (state, side, graph), newest first: a question asked of every unit of a
#: side (who a sighting reaches, for the attack panel's spotters) builds its side's chain once, not
#: once per unit. A state never changes, so the same state object has the same chains.
_VOICE_GRAPHS: list[tuple[Any, str, CommsGraph]] = []
_VOICE_GRAPHS_KEPT = 4


def voice_graph(state: GameState, side: str) -> CommsGraph:
    """The voice chain of one side: active units on the table, each heard within its own Movement."""
    for known, known_side, graph in tuple(_VOICE_GRAPHS):
        if known is state and known_side == side:
            return graph
    nodes = [CommsNode(u.unit_id, u.footprint, state.voice_range_in(u))
             for u in state.on_table() if u.side == side and u.is_active and not (u.is_remote and u.crew == 0)]
    graph = comms_graph(nodes)
    _VOICE_GRAPHS[:] = [(state, side, graph), *_VOICE_GRAPHS[:_VOICE_GRAPHS_KEPT - 1]]
    return graph


def radio_recipients(state: GameState, side: str) -> frozenset[int]:
    """Friendly units that can receive a radio Signal now: on the table or riding in a vehicle (a
    passenger's radio works as well as a walker's; Main Effort reaches it by radio too, 5.1, 5.2.2)."""
    return frozenset(u.unit_id for u in state.units
                     if u.side == side and (u.on_table or u.aboard is not None) and can_use_radio(state, u))


def sighter_of(state: GameState, spotter: Unit) -> Unit:
    """Who "sees" what a unit sees: a remotely piloted vehicle's sensors count as its operator's (4.4)."""
    if spotter.is_remote and spotter.operator is not None:
        return state.unit(spotter.operator)
    return spotter


def information_reaches(state: GameState, source: Unit, recipient: Unit) -> tuple[bool, str]:
    """Whether what ``source`` sees reaches ``recipient``, and how: the same unit, its voice chain,
    or its radio broadcast (situational awareness, shared SIGINT) relayed by voice."""
    if source.unit_id == recipient.unit_id:
        return True, "its own sight"
    if source.side != recipient.side:
        return False, f"{source.name} is not on {recipient.name}'s side"
    graph = voice_graph(state, source.side)
    heard = graph.reachable_from(source.unit_id)
    if recipient.unit_id in heard:
        return True, f"passed by voice from {source.name}"
    if source.emission is not None and source.emission.purpose in BROADCASTS and can_use_radio(state, source):
        radio = radio_recipients(state, source.side)
        if recipient.unit_id in radio:
            return True, f"situational awareness by radio from {source.name}"
        if recipient.unit_id in graph.reachable_from(radio):
            return True, f"situational awareness from {source.name}, relayed by voice"
    if source.emission is not None and source.emission.purpose in BROADCASTS:
        if not can_use_radio(state, source):
            return False, (f"{recipient.name} is not in {source.name}'s voice chain and {source.name}'s radio "
                           "does not work now (jammed): its situational awareness reaches nobody by radio")
        return False, (f"{recipient.name} is not in {source.name}'s voice chain, and neither has a working radio nor "
                       f"hears a unit with one: {source.name}'s situational awareness by radio does not reach it")
    return False, (f"{recipient.name} is not in {source.name}'s voice chain and {source.name} is not "
                   "Signalling situational awareness by radio")


def is_subordinate(state: GameState, commander: Unit, unit: Unit) -> bool:
    """``unit`` answers to ``commander``: through its ``reports_to`` chain, or (with no chain given)
    as any unit of the side less senior than the Commander."""
    if unit.unit_id == commander.unit_id or unit.side != commander.side:
        return False
    seen: set[int] = set()
    current = unit
    while current.reports_to is not None and current.reports_to not in seen:
        if current.reports_to == commander.unit_id:
            return True
        seen.add(current.reports_to)
        try:
            current = state.unit(current.reports_to)
        except ValueError:
            break
    if unit.reports_to is not None:
        return False
    if commander.commander is None:
        return False
    return unit.commander is None or unit.commander > commander.commander


def most_senior_commander(state: GameState, side: str) -> Unit | None:
    """The side's most senior Commander still in the fight (the next one inherits, 5.2.1 proposal)."""
    commanders = [u for u in state.units if u.side == side and u.commander is not None and u.is_active]
    return min(commanders, key=lambda u: u.commander or 0) if commanders else None


def _emit(state: GameState, unit: Unit, purpose: str, *, jamming: bool = False) -> Unit:
    return replace(unit, emission=Emission(purpose, unit.side, jamming))


def apply_signal(state: GameState, action: Signal) -> GameState:
    unit = state.unit(action.unit_id)
    purpose = action.purpose.strip().lower()
    if purpose not in ("situational awareness", "other"):
        raise state.illegal(f"Signal purpose {action.purpose!r}: use 'situational awareness' or 'other' "
                            "(fires observation, Main Effort, RPV control, SIGINT and jamming have their own actions)")
    require_radio(state, unit, "Signal")
    unit = spend_action(state, unit, f"Signal ({PURPOSE_WORDS[purpose]})")
    state = state.with_unit(_emit(state, unit, purpose))
    # Who it reached, as the rules had them at that moment: the debrief's comms lane says so.
    sender = state.unit(unit.unit_id)
    heard = [u.unit_id for u in state.units_of(unit.side)
             if u.unit_id != unit.unit_id and u.is_active and information_reaches(state, sender, u)[0]]
    return state.log("signal", f"{unit.name} Signals ({PURPOSE_WORDS[purpose]}) and takes an emission token.",
                     inputs=to_jsonable(action), outcome={"emission": purpose, "heard": heard})


def apply_observe(state: GameState, action: ObserveFires) -> GameState:
    unit = state.unit(action.unit_id)
    require_radio(state, unit, "provide fires observation")
    if action.target_unit is None and (action.x_in is None or action.y_in is None):
        raise state.illegal("fires observation needs a target unit or a point (x_in, y_in)")
    what = "the point"
    if action.target_unit is not None:
        target = state.unit(action.target_unit)
        if target.side == unit.side:
            raise state.illegal(f"{target.name} is friendly: fires observation marks an enemy unit or a point")
        what = target.name
    unit = spend_action(state, unit, "Signal (fires observation)")
    obs = Observation(unit.unit_id, unit.side, unit.side, action.target_unit, action.x_in, action.y_in)
    state = state.with_unit(_emit(state, unit, "fires observation"))
    state = replace(state, observations=state.observations + (obs,))
    return state.log("signal", f"{unit.name} Signals fires observation on {what}: friendly attacks against it "
                     "have Advantage until the start of its player's next turn.",
                     inputs=to_jsonable(action), outcome={"observation": to_jsonable(obs)})


def apply_main_effort(state: GameState, action: DesignateMainEffort) -> GameState:
    commander = state.unit(action.commander_id)
    target = state.unit(action.unit_id)
    if commander.commander is None:
        raise state.illegal(f"{commander.name} is not a Commander: the scenario names Commanders (commander = seniority)")
    if not is_subordinate(state, commander, target):
        raise state.illegal(f"{target.name} is not a subordinate of {commander.name}: set reports_to in the scenario")
    if not target.is_active:
        raise state.illegal(f"{target.name} is {target.status.value}: only a unit in the fight can be the Main Effort")
    side = state.side(commander.side)
    if state.options.main_effort_limit == "per player" and side.main_efforts_this_turn >= 1:
        raise state.illegal(f"{side.name} already designated a Main Effort this turn (option main_effort_limit = 'per player')")
    reached, _ = information_reaches(state, commander, target)
    how = "by voice"
    by_radio = not reached
    unit = spend_action(state, commander, "designate Main Effort")
    if by_radio:
        require_radio(state, commander, "designate a Main Effort by radio")
        if not (can_use_radio(state, target) or target.unit_id in voice_graph(state, target.side).reachable_from(
                radio_recipients(state, target.side))):
            raise state.illegal(f"{target.name} can neither hear {commander.name} nor receive a radio: "
                                "it cannot be told it is the Main Effort")
        unit = _emit(state, unit, "main effort")
        how = "by radio (Signal)"
    state = state.with_unit(unit).update_unit(target.unit_id, main_effort=True)
    state = state.with_side(replace(side, main_efforts_this_turn=side.main_efforts_this_turn + 1))
    return state.log("main effort", f"{commander.name} designates {target.name} as the Main Effort ({how}): "
                     "Advantage on its Skill rolls for the rest of the turn.",
                     inputs=to_jsonable(action), outcome={"by_radio": by_radio})


def apply_pass_main_effort(state: GameState, action: PassMainEffort) -> GameState:
    commander = state.unit(action.commander_id)
    if commander.commander is None:
        raise state.illegal(f"{commander.name} is not a Commander and cannot pass the Main Effort on")
    if not commander.main_effort:
        raise state.illegal(f"{commander.name} is not the Main Effort: a Commander must be designated first (5.2.2)")
    subordinates = {u.unit_id for u in state.units if is_subordinate(state, commander, u) and u.is_active}
    members = [u for u in state.on_table() if u.unit_id in subordinates | {commander.unit_id} and u.is_active]
    graph = comms_graph([CommsNode(u.unit_id, u.footprint, state.voice_range_in(u)) for u in members])
    reached = (graph.reachable_from(commander.unit_id) & subordinates) if members else frozenset()
    unit = spend_action(state, commander, "pass on the Main Effort")
    state = state.with_unit(unit)
    state = state.with_units(replace(state.unit(uid), main_effort=True) for uid in reached)
    names = ", ".join(state.unit(uid).name for uid in sorted(reached)) or "nobody (no subordinate within reach)"
    return state.log("main effort", f"{commander.name} passes the Main Effort on to {names}.",
                     inputs=to_jsonable(action), outcome={"units": sorted(reached)})


def apply_enhance_initiative(state: GameState, action: EnhanceInitiative) -> GameState:
    commander = state.unit(action.commander_id)
    senior = most_senior_commander(state, commander.side)
    if senior is None or senior.unit_id != commander.unit_id:
        who = senior.name if senior else "nobody"
        raise state.illegal(f"only the most senior Commander in the fight ({who}) can give Enhanced Initiative")
    unit = spend_action(state, commander, "Enhanced Initiative")
    state = state.with_unit(unit).with_side(replace(state.side(commander.side), enhanced_initiative=True))
    return state.log("command", f"{commander.name} uses Enhanced Initiative: {side_does(commander.side, 'rolls')} 1d10 + 1d4 "
                     "for initiative next round.", inputs=to_jsonable(action))


def emitters_seen_by(state: GameState, ew: Unit) -> tuple[Unit, ...]:
    """Enemy units with an emission token that an EW unit "sees" (5.1.2; the whole table by default)."""
    reach = Reach(ew.footprint, state.options.sigint_range_in)
    return tuple(u for u in state.units if u.side != ew.side and u.emission is not None and u.status is Status.ACTIVE
                 and (math.isinf(reach.distance_in) or reach.touches(position_footprint(state, u))))


def apply_sigint(state: GameState, action: Sigint) -> GameState:
    unit = state.unit(action.unit_id)
    if not is_ew(state, unit):
        raise state.illegal(f"{unit.name} has no EW equipment: add 'EW equipment' to its equipment for SIGINT")
    found = emitters_seen_by(state, unit)
    unit = spend_action(state, unit, "SIGINT")
    if action.share:
        # Sharing is a free Signal in the same Action; a jammed EW unit's radio cannot share.
        if is_jammed(state, unit):
            raise state.illegal(f"{unit.name} is jammed: it can do SIGINT but cannot share it by radio")
        unit = _emit(state, unit, "sigint share")
    state = state.with_unit(unit)
    result = SigintResult(unit.unit_id, tuple(u.unit_id for u in found), action.share)
    names = ", ".join(u.name for u in found) or "no emitting enemy unit"
    shared = " and shares it by radio (emission token)" if action.share else ""
    return state.log("sigint", f"{unit.name}'s signals intelligence finds {names}{shared}.",
                     inputs=to_jsonable(action), outcome=to_jsonable(result))


def apply_jam(state: GameState, action: Jam) -> GameState:
    unit = state.unit(action.unit_id)
    if not is_ew(state, unit):
        raise state.illegal(f"{unit.name} has no EW equipment: add 'EW equipment' to its equipment to jam")
    unit = spend_action(state, unit, "jamming")
    state = state.with_unit(_emit(state, unit, "jamming", jamming=True))

    state, effects = apply_jamming_to_rpvs(state)
    zone = state.options.jamming_range_in
    cut = sorted(u.name for u in state.units if u.side != unit.side and has_radio(state, u) and is_jammed(state, u))
    text = f"{unit.name} jams enemy radios within {zone:g}\""
    if cut:
        text += f": {', '.join(cut)} cannot use their radios"
    if effects:
        text += "; " + "; ".join(effects)
    return state.log("jamming", text + ".", inputs=to_jsonable(action), outcome={"jammed": cut, "rpv_effects": effects})
