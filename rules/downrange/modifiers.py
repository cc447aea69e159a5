"""Advantage and Disadvantage: where they come from (Appendix A) and how they cancel (2.1.5).

They never stack and cancel completely: any number of Advantages with no Disadvantage is one
Advantage; any of both is a normal roll ("twenty disadvantages and one advantage cancel out").

>>> Modifiers(("Main Effort",), ("partial cover",)).mode()
'normal'
>>> Modifiers(("stationary target", "Main Effort"), ()).mode()
'advantage'
>>> Modifiers(("a", "b"), ("c",)).mode(counting="net")
'advantage'
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rules.distributions import KeepMode
from rules.downrange.declarations import AttackSetup, Level, TargetSpec
from rules.downrange.pieces import Compartment, Unit
from rules.geometry import EPS, distance_to_point_in

if TYPE_CHECKING:
    from rules.downrange.state import GameState

#: Proposal: how close to an observed point an attack counts as "against that point" (5.1).
OBSERVED_POINT_IN = 1.0


@dataclass(frozen=True)
class Modifiers:
    """The reasons for Advantage and for Disadvantage on one Skill roll."""

    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()

    def mode(self, counting: Literal["cancel", "net"] = "cancel") -> KeepMode:
        a, d = len(self.advantages), len(self.disadvantages)
        if counting == "net":
            a, d = max(0, a - d), max(0, d - a)
        return net_mode(a, d)

    def plus(self, other: "Modifiers") -> "Modifiers":
        return Modifiers(_unique(self.advantages + other.advantages), _unique(self.disadvantages + other.disadvantages))


def net_mode(advantages: int, disadvantages: int) -> KeepMode:
    """The net roll for counts of Advantages and Disadvantages (rulebook: they cancel completely).

    >>> net_mode(0, 0), net_mode(3, 0), net_mode(0, 2), net_mode(1, 20)
    ('normal', 'advantage', 'disadvantage', 'normal')
    """
    if advantages < 0 or disadvantages < 0:
        raise ValueError("counts of Advantages and Disadvantages cannot be negative")
    if advantages and not disadvantages:
        return "advantage"
    if disadvantages and not advantages:
        return "disadvantage"
    return "normal"


def _unique(items: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def unit_modifiers(state: GameState, unit: Unit) -> Modifiers:
    """What the acting unit brings to any Skill roll: Main Effort; suppressed, injured,
    overburdened, in an overloaded vehicle (Appendix A)."""
    adv: list[str] = []
    dis: list[str] = []
    if unit.main_effort:
        adv.append("Main Effort")
    if unit.suppressed:
        dis.append("suppressed")
    if unit.injured:
        dis.append("damaged" if unit.is_vehicle else "injured")
    if unit.overburdened:
        dis.append("overburdened")
    if unit.overloaded:
        dis.append("overloaded vehicle")
    if unit.aboard is not None:
        try:
            if state.unit(unit.aboard).overloaded:
                dis.append("in an overloaded vehicle")
        except ValueError:
            pass
    if unit.disabled and state.options.disabling_hazard == "disadvantage":
        dis.append("disabled by a hazard")
    return Modifiers(tuple(adv), tuple(dis))


def is_stationary(state: GameState, unit: Unit) -> bool:
    """The unit did not move during its own most recent turn (2.6.1): not since the start of its
    side's last turn; while its side's turn is going on, not in this turn nor in the one before."""
    if unit.moved_in > EPS:
        return False
    return state.active_side != unit.side or unit.moved_last_turn_in <= EPS


def _in_area(state: GameState, unit: Unit, kind: str) -> bool:
    return any(a.kind == kind and distance_to_point_in(unit.footprint, a.x_in, a.y_in) <= a.radius_in + EPS
               for a in state.areas)


def darkness_modifiers(state: GameState, attacker: Unit, target: Unit, darkness: Level) -> tuple[Modifiers, str | None]:
    """Partial darkness: Disadvantage unless NVGs, a white light on, or the target lit by
    illumination (IR illumination with NVGs). Pitch black: no line of sight unless thermal or
    illumination (a white light only with the option ``white_light_in_pitch_black = "lifts"``).
    Returns the modifiers and, if sight is blocked, why."""
    if darkness is Level.NONE:
        return Modifiers(), None
    lit = _in_area(state, target, "illumination") or _in_area(state, attacker, "illumination")
    ir_lit = (_in_area(state, target, "IR illumination") or _in_area(state, attacker, "IR illumination")) \
        and state.has_effect(attacker, "sees_ir")
    light_on = attacker.white_light_on and state.has_effect(attacker, "light")
    if lit or ir_lit:
        return Modifiers(), None
    if darkness is Level.TOTAL:
        if state.has_effect(attacker, "sees_in_total_darkness"):
            return Modifiers(), None
        if light_on and state.options.white_light_in_pitch_black == "lifts":
            return Modifiers(), None
        if light_on:
            return Modifiers(), ("the target is in pitch-black darkness (total concealment): a white light ignores "
                                 "Disadvantage due to darkness, not total concealment (Table 3-3, 2.4.1.1.2)")
        return Modifiers(), "the target is in pitch-black darkness (total concealment)"
    if state.has_effect(attacker, "ignores_darkness") or light_on:
        return Modifiers(), None
    return Modifiers((), ("poor illumination",)), None


def attack_modifiers(state: GameState, setup: AttackSetup, attacker: Unit, target: Unit | None,
                     spec: TargetSpec | None, *, indirect: bool, smoke_partial: bool = False,
                     aim: tuple[float, float] | None = None, at_point: bool = False) -> tuple[Modifiers, str | None]:
    """Every Advantage and Disadvantage of one attack roll (Appendix A), and a reason if the target
    cannot be seen at all. ``indirect``: the weapon is indirect fire (partial cover counts only if it
    does not land head-on). ``at_point``: an explosive aimed at a point, not a unit: the target's own
    Advantages (stationary, unaware, white light) do not apply, its cover and concealment do."""
    adv: list[str] = list(setup.advantages)
    dis: list[str] = list(setup.disadvantages)
    base = unit_modifiers(state, attacker)
    if attacker.operator is not None and attacker.is_remote:
        # An RPV attacks with its operator's Skill (4.4); the operator's state goes with it.
        try:
            base = base.plus(unit_modifiers(state, state.unit(attacker.operator)))
        except ValueError:
            pass
    adv += base.advantages
    dis += base.disadvantages
    if setup.untrained or setup.weapon.lower() in (w.lower() for w in attacker.untrained):
        dis.append("not trained on the weapon")
    blocked: str | None = None
    if target is not None and spec is not None:
        stationary = is_stationary(state, target) if spec.stationary is None else spec.stationary
        if stationary and not at_point:
            adv.append("stationary target")
        if spec.unaware and not at_point:
            adv.append("ambushing an unaware target")
        if target.white_light_on and state.has_effect(target, "light") and not at_point:
            adv.append("target's white light is on")
        # Indirect fire landing head-on comes in over what protects the position from the side: 6.2's
        # sandbags give "both cover and concealment" and a Disadvantage to indirect fire "that land[s]
        # anywhere but head-on", so head-on it drops the declared partial cover and concealment alike.
        over_the_top = indirect and spec.head_on
        if spec.concealment is Level.PARTIAL and not over_the_top:
            dis.append("target partially concealed")
        if spec.cover is Level.PARTIAL and not over_the_top:
            dis.append("target behind partial cover")
        if target.aboard is not None and target.compartment is Compartment.OPEN:
            dis.append("target rides in an open compartment")
        if smoke_partial:
            dis.append("smoke (partial concealment)")
        darkness = spec.darkness if spec.darkness is not None else _lighting_level(state)
        dark, why = darkness_modifiers(state, attacker, target, darkness)
        dis += dark.disadvantages
        blocked = why
        adv += list(spec.advantages)
        dis += list(spec.disadvantages)
    for obs in state.observations:
        if obs.side != attacker.side:
            continue
        if target is not None and obs.target_unit == target.unit_id:
            adv.append("fires observation on the target")
        elif obs.x_in is not None and obs.y_in is not None:
            # Proposal: an observed point covers attacks aimed within 1" of it, or at a unit on it.
            near_aim = aim is not None and math.hypot(obs.x_in - aim[0], obs.y_in - aim[1]) <= OBSERVED_POINT_IN + EPS
            near_target = target is not None and \
                distance_to_point_in(target.footprint, obs.x_in, obs.y_in) <= OBSERVED_POINT_IN + EPS
            if near_aim or near_target:
                adv.append("fires observation on the point")
    return Modifiers(_unique(tuple(adv)), _unique(tuple(dis))), blocked


def _lighting_level(state: GameState) -> Level:
    return {"day": Level.NONE, "partial darkness": Level.PARTIAL, "pitch black": Level.TOTAL}[state.lighting]
