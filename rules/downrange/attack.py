"""The attack sequence (2.4-2.6) as a pipeline: visibility, range, difficulty, damage.

:func:`plan_attack` checks everything that needs no dice (who may be attacked, at what range, with
which Advantages and Disadvantages, whether the damage can hurt) and returns an :class:`AttackPlan`.
The same plan feeds :func:`attack_odds` (exact probabilities) and :func:`resolve_attack` (the dice),
so the odds shown and the rules applied cannot disagree.

Automatic weapons make up to Fan attacks inside one 45-degree cone, each with its own Skill and
Damage roll; explosives make one Skill roll and one Damage roll per unit in the Radius, and a miss
lands where the player with most units in the intended blast chooses; suppression makes one Skill
roll and Suppresses every eligible target.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from rules.dice import Dice, DiceSource
from rules.distributions import KeepMode
from rules.downrange.actions import RecordAttack
from rules.downrange.catalog import Payload, Weapon
from rules.downrange.command import information_reaches, is_jammed, sighter_of
from rules.downrange.declarations import AttackMode, AttackSetup, Level, TargetSpec
from rules.downrange.explosives import blast_units, check_landing, miss_placement, payload_area
from rules.downrange.modifiers import Modifiers, attack_modifiers
from rules.downrange.narration import attack_rolls, narrate_attack
from rules.downrange.odds import p_at_least_one, p_damage, p_skill
from rules.downrange.pieces import Compartment, Status, Suppression, Unit
from rules.downrange.results import AttackResult, MissPlacement, ShotOutcome, ShotResult, TargetResult
from rules.downrange.reach import placed
from rules.downrange.rolls import can_damage, roll_damage, roll_skill
from rules.downrange.acting import action_refusal
from rules.downrange.turns import assistant_problem, check_assistants, skill_die_for, spend_action
from rules.downrange.unmanned import is_controlled
from rules.errors import IllegalActionError
from rules.geometry import EPS, Circle, Cone, common_cone_axis_deg, distance_to_point_in, gap_in
from rules.ruleset import TargetOdds
from rules.serialize import to_jsonable

if TYPE_CHECKING:
    from rules.downrange.state import GameState


@dataclass(frozen=True)
class TargetPlan:
    """One target (or one unit in a blast) as the rules see it before any die is rolled."""

    unit_id: int
    name: str
    side: str
    shots: int
    allowed: bool
    reason: str
    distance_in: float | None
    modifiers: Modifiers
    mode: KeepMode
    damage: Dice
    defense: Dice
    can_damage: bool
    in_blast: bool = False


@dataclass(frozen=True)
class AttackPlan:
    """Everything about an attack that needs no dice."""

    setup: AttackSetup
    attacker: Unit
    weapon: Weapon
    skill_die: Dice
    bonus: int
    difficulty: int
    focus: bool
    targets: tuple[TargetPlan, ...]
    problems: tuple[str, ...]
    modifiers: Modifiers
    mode: KeepMode
    payload: Payload | None = None
    aim: tuple[float, float] | None = None
    radius_in: float | None = None
    axis_deg: float | None = None

    @property
    def single_roll(self) -> bool:
        """One Skill roll for the whole action (explosives, suppression)."""
        return self.weapon.is_explosive or self.setup.mode is AttackMode.SUPPRESS


def _crosses(circle: Circle, a: tuple[float, float], b: tuple[float, float]) -> bool:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    n2 = dx * dx + dy * dy
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((circle.x_in - ax) * dx + (circle.y_in - ay) * dy) / n2))
    return math.hypot(circle.x_in - (ax + t * dx), circle.y_in - (ay + t * dy)) <= circle.radius_in + EPS


def smoke_between(state: GameState, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """A smoke cloud lies on the line of sight (into, out of or through it)."""
    return any(area.kind == "smoke" and _crosses(area.circle, a, b) for area in state.areas)


def _sight(state: GameState, attacker: Unit, target: Unit, spec: TargetSpec, weapon: Weapon) -> tuple[str, bool]:
    """Visibility (2.4.1): '' if the attacker may target it, else why not; and whether smoke gives
    partial concealment (the 'partial' smoke option)."""
    if spec.cover is Level.TOTAL:
        return f"{target.name} is behind cover that stops the {weapon.name} (2.4.1.1.1)", False
    if spec.concealment is Level.TOTAL:
        return f"{target.name} is totally concealed: no line of sight (2.4.1.1.2)", False
    smoke = smoke_between(state, attacker.footprint.center.xy, target.footprint.center.xy)
    own_sight = spec.line_of_sight
    smoke_partial = False
    if smoke and own_sight:
        if state.options.smoke == "blocks":
            own_sight = False
        else:
            smoke_partial = True
    if own_sight:
        return "", smoke_partial
    if spec.spotter is None:
        why = "smoke blocks the line of sight" if smoke and spec.line_of_sight else "no line of sight"
        return (f"{why} to {target.name}: name the unit that spots it (RPV, a Signal's situational "
                "awareness, voice relay), or suppress a point within 6\" of it"), False
    spotter = state.unit(spec.spotter)
    if spotter.side != attacker.side:
        return f"{spotter.name} is not on {attacker.name}'s side and cannot spot for it", False
    # The spotter's sighting (declared: an RPV's sensors count as its operator's, an EW unit "sees"
    # every emitter) must reach the attacker by voice or by a radio broadcast.
    sighter = sighter_of(state, spotter)
    reached, how = information_reaches(state, sighter, attacker)
    if not reached:
        return f"what {spotter.name} sees does not reach {attacker.name}: {how}", False
    if sighter.unit_id != attacker.unit_id and not weapon.indirect:
        return (f"the {weapon.name} cannot plausibly hit a target {attacker.name} does not see (only "
                "indirect-fire weapons fire on passed-on information; set indirect = true in the data to allow it)"), False
    return "", False


def _target_problem(state: GameState, attacker: Unit, target: Unit) -> str:
    if target.unit_id == attacker.unit_id:
        return f"{attacker.name} cannot attack itself"
    if target.status is not Status.ACTIVE:
        return f"{target.name} is already {'destroyed' if target.is_vehicle else 'down'}"
    if target.aboard is not None:
        vehicle = state.unit(target.aboard)
        if target.compartment is Compartment.ENCLOSED:
            return f"{target.name} rides enclosed in the {vehicle.name}: attack the vehicle (4.3.1)"
    elif not target.on_table:
        return f"{target.name} is not on the table"
    return ""


def _beyond_in(distance_in: float, limit_in: float) -> str:
    """A distance just beyond a limit, with as many decimals as it takes not to read as the limit
    itself (36.04" is "36.04", not "36.0", beyond a Range of 36").

    >>> _beyond_in(36.04, 36), _beyond_in(40.0, 36), _beyond_in(36.0004, 36)
    ('36.04', '40.0', '36.0004')
    """
    for decimals in range(1, 5):
        text = f"{distance_in:.{decimals}f}"
        if float(text) > limit_in:
            return text
    return f"{distance_in:.4f}"


def _check_attacker(state: GameState, setup: AttackSetup, attacker: Unit, weapon: Weapon) -> list[str]:
    problems = []
    ws = attacker.weapon_state(weapon.name)
    if ws is None:
        carried = ", ".join(w.name for w in attacker.weapons) or "nothing"
        problems.append(f"{attacker.name} does not carry the {weapon.name} (it carries {carried})")
    elif ws.ammo_left is not None and ws.ammo_left <= 0:
        problems.append(f"{attacker.name}'s {weapon.name} is out of ammunition")
    elif attacker.is_vehicle and ws.fired_this_turn and state.in_turn:
        problems.append(f"the {attacker.name}'s {weapon.name} already fired this turn: each weapon once per turn (4.1)")
    if ws is not None and ws.ammo_left is not None and setup.linked > ws.ammo_left:
        problems.append(f"{setup.linked} linked shots need {setup.linked} rounds; {ws.ammo_left} left")
    if attacker.status is not Status.ACTIVE:
        problems.append(f"{attacker.name} is {attacker.status.value} and cannot attack")
    if attacker.carrying is not None or attacker.carried_by is not None:
        problems.append(f"{attacker.name} is {'carrying a unit' if attacker.carrying is not None else 'being carried'}: "
                        "neither may use weapons (2.3.1); put the unit down first")
    if attacker.disabled and state.options.disabling_hazard == "cannot act":
        problems.append(f"{attacker.name} is disabled by a hazard this turn and cannot act")
    if attacker.is_remote:
        if not is_controlled(state, attacker):
            problems.append(f"{attacker.name} is not being piloted: an armed RPV attacks only while its operator "
                            "Focuses and Signals (4.4)")
        elif is_jammed(state, attacker):
            problems.append(f"{attacker.name} is inside an enemy jamming radius and does not operate")
    if setup.linked > 1:
        same = sum(1 for w in attacker.weapons if w.name == weapon.name)
        if not attacker.is_vehicle or same < setup.linked:
            problems.append(f"{setup.linked} linked {weapon.name}s need a vehicle carrying that many (4.2); "
                            f"{attacker.name} has {same}")
        if len(setup.targets) != 1:
            problems.append("linked weapons fire at one and the same target (4.2)")
    if setup.crew_assistants:
        free = attacker.crew - 1 - attacker.crew_actions_used
        if not attacker.is_vehicle or setup.crew_assistants > free:
            problems.append(f"{attacker.name} has {max(0, free)} crew free to assist, not {setup.crew_assistants}")
    helpers = len(setup.assistants) + setup.crew_assistants
    if helpers > weapon.max_assistants:
        problems.append(f"the {weapon.name} takes at most {weapon.max_assistants} assistant"
                        f"{'s' if weapon.max_assistants != 1 else ''}, {helpers} given"
                        + (" (a rifleman gains nothing from help, 2.6.3)" if weapon.max_assistants == 0 else ""))
    needs_focus = weapon.focus or helpers > 0
    # A vehicle's crew operate its weapons: if the vehicle moved, so did they (3.2 "if they move during
    # the turn, they cannot fire that weapon"; 4.1 crew assist by the rules of 2.6.3, "remaining still").
    if needs_focus and attacker.moved_in > EPS:
        problems.append(f"{attacker.name} moved {attacker.moved_in:.1f}\" this turn: "
                        + (f"the {weapon.name} needs Focus" if weapon.focus else "an assisted unit must Focus")
                        + ", and a Focusing unit must not move")
    # The Action (or Reaction) the attack spends, refused here, before any die, in the words the
    # engine uses when the result is applied (2.2.2, 2.2.2.1).
    # (Down, carrying and disabled units are listed above already.)
    what = f"{'suppress' if setup.mode is AttackMode.SUPPRESS else 'fire'} the {weapon.name}"
    listed = attacker.status is not Status.ACTIVE or attacker.carrying is not None or attacker.carried_by is not None \
        or (attacker.disabled and state.options.disabling_hazard == "cannot act")
    if not listed and (refusal := action_refusal(state, state.unit(attacker.unit_id), what, reaction=setup.reaction)):
        problems.append(refusal)
    for aid in setup.assistants:
        helper = state.unit(aid)
        if helper.moved_in > EPS:
            problems.append(f"{helper.name} moved {helper.moved_in:.1f}\" this turn and cannot Focus to assist (2.6.3)")
        elif helper.status is not Status.ACTIVE:
            problems.append(f"{helper.name} is {helper.status.value} and cannot assist")
        elif problem := assistant_problem(state, state.unit(attacker.unit_id), helper, f"the {weapon.name}"):
            problems.append(problem)
    return problems


def _damage_against(state: GameState, weapon: Weapon, target: Unit) -> tuple[Dice, Dice]:
    return weapon.damage, state.effective_defense(target)


def plan_attack(state: GameState, setup: AttackSetup) -> AttackPlan:
    """Check an attack without rolling: per-target eligibility, range, modifiers and damage gating."""
    attacker = placed(state, state.unit(setup.attacker))
    weapon = state.catalog.weapon(setup.weapon)
    problems = _check_attacker(state, setup, attacker, weapon)
    payload = None
    if weapon.is_explosive:
        payload = state.catalog.payload(setup.payload)
        if payload.name not in weapon.payloads:
            problems.append(f"the {weapon.name} fires {', '.join(weapon.payloads)}, not {payload.name}")
    elif setup.payload not in ("HE", ""):
        problems.append(f"the {weapon.name} is not an explosive and fires no {setup.payload}")
    die = skill_die_for(state, attacker, f"{weapon.name} {weapon.category}")
    bonus = len(setup.assistants) + setup.crew_assistants
    focus = weapon.focus or bonus > 0
    if setup.mode is AttackMode.SUPPRESS:
        plan = _plan_suppression(state, setup, attacker, weapon, problems)
    elif weapon.is_explosive:
        plan = _plan_explosive(state, setup, attacker, weapon, payload, problems)
    else:
        plan = _plan_direct(state, setup, attacker, weapon, problems)
    targets, modifiers, aim, radius, axis = plan
    counting = state.options.advantage_counting
    return AttackPlan(setup, attacker, weapon, die, bonus, weapon.difficulty, focus, tuple(targets),
                      tuple(problems), modifiers, modifiers.mode(counting), payload, aim, radius, axis)


def _target_plan(state: GameState, setup: AttackSetup, attacker: Unit, weapon: Weapon, target: Unit,
                 spec: TargetSpec, *, reason: str, distance: float | None, in_blast: bool = False,
                 aim: tuple[float, float] | None = None, smoke_partial: bool = False) -> TargetPlan:
    mods, dark = attack_modifiers(state, setup, attacker, target, spec, indirect=weapon.indirect,
                                  smoke_partial=smoke_partial, aim=aim)
    if dark and not reason and spec.spotter is None:
        reason = dark
    damage, defense = _damage_against(state, weapon, target)
    return TargetPlan(target.unit_id, target.name, target.side, spec.shots, not reason, reason, distance, mods,
                      mods.mode(state.options.advantage_counting), damage, defense, can_damage(damage, defense),
                      in_blast)


def _range_of(setup: AttackSetup, attacker: Unit, target: Unit) -> float:
    if setup.distance_in is not None:
        return setup.distance_in
    return gap_in(attacker.footprint, target.footprint)


#: What each kind of attack plan yields: targets, the single roll's modifiers, aim, radius, fan axis.
PlanParts = tuple[list[TargetPlan], Modifiers, tuple[float, float] | None, float | None, float | None]


def _plan_direct(state: GameState, setup: AttackSetup, attacker: Unit, weapon: Weapon,
                 problems: list[str]) -> PlanParts:
    if not setup.targets:
        problems.append(f"choose a target for the {weapon.name}")
    shots = sum(s.shots for s in setup.targets)
    if weapon.is_automatic:
        limit = (weapon.fan or 1) * setup.linked
        if shots > limit:
            problems.append(f"the {weapon.name} has a Fan of {weapon.fan}: at most {limit} attacks, {shots} declared")
    else:
        if len(setup.targets) > 1:
            problems.append(f"the {weapon.name} makes one attack per Action; only automatic weapons (Fan) or "
                            "explosives hit several targets")
        if setup.targets and setup.targets[0].shots != setup.linked:
            problems.append(f"the {weapon.name} makes {setup.linked} attack{'s' if setup.linked > 1 else ''} "
                            f"per Action, not {setup.targets[0].shots}")
    plans = []
    units = []
    for spec in setup.targets:
        if spec.shots < 1:
            problems.append(f"shots on a target must be at least 1, not {spec.shots}")
        target = placed(state, state.unit(spec.unit_id))
        units.append(target)
        reason = _target_problem(state, attacker, state.unit(spec.unit_id))
        distance = _range_of(setup, attacker, target)
        if not reason and distance > weapon.range_in + EPS:
            reason = f"{target.name} is {_beyond_in(distance, weapon.range_in)}\" away, beyond the {weapon.name}'s Range of {weapon.range_in:g}\""
        smoke_partial = False
        if not reason:
            reason, smoke_partial = _sight(state, attacker, target, spec, weapon)
        plans.append(_target_plan(state, setup, attacker, weapon, target, spec, reason=reason, distance=distance,
                                  smoke_partial=smoke_partial))
    axis = None
    if weapon.is_automatic and units and setup.distance_in is None:
        footprints = [u.footprint for u in units]
        if setup.axis_deg is not None:
            cone = Cone.from_attacker(attacker.footprint, axis_deg=setup.axis_deg, range_in=weapon.range_in)
            outside = [u.name for u in units if not cone.touches(u.footprint)]
            if outside:
                problems.append(f"{', '.join(outside)} outside the 45-degree cone aimed at {setup.axis_deg:g} degrees")
            axis = setup.axis_deg % 360.0
        else:
            axis = common_cone_axis_deg(attacker.footprint, footprints, range_in=weapon.range_in,
                                        prefer_deg=attacker.heading_deg)
            if axis is None and len(units) > 1:
                problems.append("the targets do not fit in one 45-degree cone (3.2.3: any part of each base "
                                "inside one cone from the firer): attack them with separate Actions")
    modifiers = plans[0].modifiers if plans else attack_modifiers(state, setup, attacker, None, None, indirect=weapon.indirect)[0]
    return plans, modifiers, None, None, axis


def _plan_explosive(state: GameState, setup: AttackSetup, attacker: Unit, weapon: Weapon, payload: Payload | None,
                    problems: list[str]) -> PlanParts:
    primary_spec = setup.targets[0] if setup.targets else None
    primary = placed(state, state.unit(primary_spec.unit_id)) if primary_spec else None
    aim = setup.aim or (primary.footprint.center.xy if primary else None)
    radius = weapon.radius_in or 0.0
    if aim is None:
        problems.append(f"the {weapon.name} is an explosive: give an aim point or a target")
        return [], Modifiers(), None, radius, None
    distance = setup.distance_in if setup.distance_in is not None else distance_to_point_in(attacker.footprint, *aim)
    if distance > weapon.range_in + EPS:
        problems.append(f"the aim point is {_beyond_in(distance, weapon.range_in)}\" away, beyond the {weapon.name}'s Range of {weapon.range_in:g}\" "
                        f"(an explosive reaches Range + Radius = {weapon.range_in + radius:g}\" only with the blast)")
    smoke_partial = False
    if primary is not None and primary_spec is not None:
        reason = _target_problem(state, attacker, state.unit(primary_spec.unit_id))
        if not reason:
            reason, smoke_partial = _sight(state, attacker, primary, primary_spec, weapon)
            if reason and primary_spec.cover is Level.TOTAL:
                # Example 2.2: aim beside a covered position; the blast may still reach it.
                reason = ""
        if reason:
            problems.append(reason)
    mods, dark = attack_modifiers(state, setup, attacker, primary, primary_spec, indirect=weapon.indirect,
                                  smoke_partial=smoke_partial, aim=aim, at_point=setup.aim is not None)
    if dark and primary_spec is not None and primary_spec.spotter is None:
        problems.append(dark)
    plans: list[TargetPlan] = []
    if payload is None or payload.damage:
        specs = {s.unit_id: s for s in setup.targets}
        caught = list(blast_units(state, aim[0], aim[1], radius))
        order = [u for s in setup.targets for u in caught if u.unit_id == s.unit_id] + \
            [u for u in caught if u.unit_id not in specs]
        for unit in one_per_token(order):
            spec = specs.get(unit.unit_id, TargetSpec(unit.unit_id))
            reason = f"{unit.name} is shielded from the blast by cover (declared)" if spec.cover is Level.TOTAL else ""
            d = distance_to_point_in(unit.footprint, *aim)
            damage, defense = _damage_against(state, weapon, unit)
            plans.append(TargetPlan(unit.unit_id, unit.name, unit.side, 1, not reason, reason, d, mods,
                                    mods.mode(state.options.advantage_counting), damage, defense,
                                    can_damage(damage, defense), in_blast=True))
    return plans, mods, aim, radius, None


def _plan_suppression(state: GameState, setup: AttackSetup, attacker: Unit, weapon: Weapon,
                      problems: list[str]) -> PlanParts:
    limit = weapon.suppression_limit
    aim = setup.aim
    radius = weapon.radius_in
    specs = list(setup.targets)
    if weapon.is_explosive:
        if aim is None and specs:
            aim = placed(state, state.unit(specs[0].unit_id)).footprint.center.xy
        if aim is None:
            problems.append(f"give the point the {weapon.name} is aimed at to suppress around it")
            return [], Modifiers(), None, radius, None
        distance = setup.distance_in if setup.distance_in is not None else distance_to_point_in(attacker.footprint, *aim)
        if distance > weapon.range_in + EPS:
            problems.append(f"the aim point is {_beyond_in(distance, weapon.range_in)}\" away, beyond the {weapon.name}'s Range of {weapon.range_in:g}\"")
        listed = {s.unit_id for s in specs}
        specs += [TargetSpec(u.unit_id) for u in blast_units(state, aim[0], aim[1], radius or 0.0)
                  if u.unit_id not in listed and u.side != attacker.side]
    elif limit is not None and len(specs) > limit:
        problems.append(f"the {weapon.name} can suppress at most {limit} unit{'s' if limit != 1 else ''} "
                        f"({'its Fan' if weapon.fan else 'no Fan or Radius'}), {len(specs)} chosen")
    if not specs:
        problems.append("choose the units to suppress")
    units = [placed(state, state.unit(s.unit_id)) for s in specs]
    axis = None
    if not weapon.is_explosive and units and setup.distance_in is None:
        axis = setup.axis_deg if setup.axis_deg is not None else common_cone_axis_deg(
            attacker.footprint, [u.footprint for u in units], range_in=weapon.range_in, prefer_deg=attacker.heading_deg)
    plans = []
    reach = state.options.suppression_aim_in
    for spec, target in zip(specs, units):
        reason = _target_problem(state, attacker, state.unit(spec.unit_id))
        distance = _range_of(setup, attacker, target)
        if not reason:
            # Condition 1: the attacker need not see it, but must be able to aim within 6" of it.
            sight, _ = _sight(state, attacker, target, spec, weapon)
            near_aim = aim is not None and distance_to_point_in(target.footprint, *aim) <= reach + EPS
            if sight and not near_aim:
                reason = (f"{target.name}: {sight}; to suppress it unseen, aim at a point within "
                          f"{reach:g}\" of it (2.6.5)")
        if not reason:
            damage, defense = _damage_against(state, weapon, target)
            if not can_damage(damage, defense):
                reason = (f"the {weapon.name} ({damage}) cannot damage {target.name} (Defense {defense}), "
                          "so it cannot suppress it (2.6.5)")
        if not reason:
            if weapon.is_explosive:
                assert aim is not None
                if not Circle(aim[0], aim[1], radius or 0.0).touches(target.footprint):
                    reason = f"{target.name} is outside the {weapon.name}'s Radius of {radius:g}\" around the aim point"
            elif setup.distance_in is not None:
                if distance > weapon.range_in + EPS:
                    reason = f"{target.name} is {_beyond_in(distance, weapon.range_in)}\" away, beyond the Range of {weapon.range_in:g}\""
            else:
                cone = Cone.from_attacker(attacker.footprint, axis_deg=axis if axis is not None else 0.0,
                                          range_in=weapon.range_in)
                if axis is None or not cone.touches(target.footprint):
                    reason = (f"{target.name} is not inside one 45-degree cone with the others out to the "
                              f"{weapon.name}'s Range of {weapon.range_in:g}\"")
        plans.append(_target_plan(state, setup, attacker, weapon, target, spec, reason=reason, distance=distance, aim=aim))
    primary = units[0] if units else None
    mods, _ = attack_modifiers(state, setup, attacker, primary, specs[0] if specs else None,
                               indirect=weapon.indirect, aim=aim, at_point=setup.aim is not None)
    return plans, mods, aim, radius, axis


# ----------------------------------------------------------------------------------------------
# Odds


def attack_odds(state: GameState, setup: AttackSetup) -> tuple[TargetOdds, ...]:
    """Exact odds for every target of an attack (for a blast: every unit in the Radius)."""
    plan = plan_attack(state, setup)
    return odds_of_plan(state, plan)


#: The odds row of an explosive that targets no unit (a smoke or illumination round): its aim point.
AIM_POINT = -1


def odds_of_plan(state: GameState, plan: AttackPlan) -> tuple[TargetOdds, ...]:
    opts = state.options
    out = []
    sides = plan.skill_die.sides
    shared_hit = p_skill(sides, plan.mode, plan.bonus + plan.skill_die.bonus, plan.difficulty,
                         auto_failure=opts.auto_failure)
    attack_problem = plan.problems[0] if plan.problems else ""
    for t in plan.targets:
        if plan.single_roll:
            hit, mode, mods = shared_hit, plan.mode, plan.modifiers
        else:
            hit = p_skill(sides, t.mode, plan.bonus + plan.skill_die.bonus, plan.difficulty, auto_failure=opts.auto_failure)
            mode, mods = t.mode, t.modifiers
        allowed = t.allowed and not attack_problem
        if plan.setup.mode is AttackMode.SUPPRESS:
            dmg = Fraction(0)
        else:
            dmg = p_damage(t.damage, t.defense, defense_all_ones_fails=opts.defense_all_ones_fails)
        if not allowed:
            hit, dmg = Fraction(0), Fraction(0)
        kill = hit * dmg
        shots = t.shots * (plan.setup.linked if not plan.weapon.is_automatic else 1) if not plan.single_roll else 1
        out.append(TargetOdds(t.unit_id, t.name, t.side, shots, allowed, t.reason or attack_problem, hit, dmg, kill,
                              p_at_least_one(kill, shots), t.can_damage, mode, mods.advantages,
                              mods.disadvantages, t.distance_in))
    if plan.payload is not None and not plan.payload.damage and plan.aim is not None \
            and plan.setup.mode is not AttackMode.SUPPRESS:
        # Smoke and illumination hurt nobody: what a player weighs is whether it lands where aimed.
        allowed = not attack_problem
        hit = shared_hit if allowed else Fraction(0)
        out.append(TargetOdds(AIM_POINT, f"the {plan.payload.name} aim point", plan.attacker.side, 1, allowed,
                              attack_problem, hit, Fraction(0), Fraction(0), Fraction(0), False, plan.mode,
                              plan.modifiers.advantages, plan.modifiers.disadvantages,
                              distance_to_point_in(plan.attacker.footprint, *plan.aim)))
    return tuple(out)


# ----------------------------------------------------------------------------------------------
# Resolution


def _check_plan(state: GameState, plan: AttackPlan) -> None:
    if not state.options.strict:
        return
    if plan.problems:
        raise IllegalActionError(plan.problems[0])
    if not plan.weapon.is_explosive or plan.setup.mode is AttackMode.SUPPRESS:
        for t in plan.targets:
            if not t.allowed:
                raise IllegalActionError(t.reason)


def one_per_token(units: Iterable[Unit]) -> list[Unit]:
    """The units in order, a gun team once: its members share one token and fall together (4.3), so
    a blast rolls one Damage for the team against one Defense (3.2.4; 6.5.1 treats the mortar team
    as one target). The first member listed (a declared target, else the nearest) stands for it."""
    seen: set[tuple[str, str]] = set()
    out = []
    for unit in units:
        if unit.team is not None:
            if (unit.side, unit.team) in seen:
                continue
            seen.add((unit.side, unit.team))
        out.append(unit)
    return out


def casualties_of(state: GameState, target: Unit) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Who goes down with a killed target: its gun team (one token), and for a vehicle everyone
    aboard who had no Reaction ready to bail out (4.3). Returns (down, bailed out)."""
    down = [m.unit_id for m in state.team_of(target) if m.status is Status.ACTIVE]
    bailed: list[int] = []
    if target.is_vehicle:
        for occupant in state.occupants(target.unit_id):
            if occupant.status is not Status.ACTIVE:
                continue
            (bailed if occupant.reaction_ready else down).append(occupant.unit_id)
    return tuple(down), tuple(bailed)


def _roll_damage_on(state: GameState, dice: DiceSource, t: TargetPlan) -> ShotResult:
    return ShotResult(1, ShotOutcome.HIT, None, roll_damage(dice, t.damage, t.defense, label=t.name, options=state.options))


def resolve_attack(state: GameState, setup: AttackSetup, dice: DiceSource, *,
                   landing: tuple[float, float] | None = None) -> AttackResult:
    """Roll an attack. A missed explosive with no ``landing`` point returns a result with
    ``needs_landing_point`` set: ask ``result.miss.chooser`` and call :func:`resolve_landing`."""
    plan = plan_attack(state, setup)
    _check_plan(state, plan)
    attacker, weapon = plan.attacker, plan.weapon
    label = f"Skill roll of {attacker.name} with the {weapon.name}"
    ws = attacker.weapon_state(weapon.name)
    spent = setup.linked if ws is not None and ws.ammo_left is not None else 0
    if setup.mode is AttackMode.SUPPRESS and not state.options.suppression_uses_ammunition:
        spent = 0
    ammo_left = None if ws is None or ws.ammo_left is None else max(0, ws.ammo_left - spent)
    common = dict(attacker=attacker.unit_id, attacker_name=attacker.name, side=attacker.side, weapon=weapon.name,
                  mode=setup.mode, reaction=setup.reaction, focus=plan.focus, assistants=setup.assistants,
                  crew_assistants=setup.crew_assistants, bonus=plan.bonus + plan.skill_die.bonus,
                  difficulty=plan.difficulty, ammo_spent=spent, ammo_left=ammo_left, linked=setup.linked,
                  axis_deg=plan.axis_deg, warnings=plan.problems if not state.options.strict else ())

    if setup.mode is AttackMode.SUPPRESS:
        skill = roll_skill(dice, plan.skill_die, plan.modifiers, bonus=plan.bonus, difficulty=plan.difficulty,
                           label=f"{label} (suppression)", options=state.options)
        results = tuple(TargetResult(t.unit_id, t.name, t.side, t.allowed, t.reason, t.distance_in,
                                     suppressed=skill.success and t.allowed) for t in plan.targets)
        aim = plan.aim
        return AttackResult(**common, targets=results, skill=skill,  # type: ignore[arg-type]  # common is a dict of the shared fields: the call cannot check keyword dicts
                            impact_x_in=aim[0] if aim else None, impact_y_in=aim[1] if aim else None,
                            radius_in=plan.radius_in)

    if weapon.is_explosive:
        assert plan.aim is not None and plan.payload is not None
        skill = roll_skill(dice, plan.skill_die, plan.modifiers, bonus=plan.bonus, difficulty=plan.difficulty,
                           label=label, options=state.options)
        base = AttackResult(**common, targets=(), skill=skill, payload=plan.payload.name,  # type: ignore[arg-type]  # common is a dict of the shared fields: the call cannot check keyword dicts
                            radius_in=plan.radius_in)
        if skill.success:
            return _explode(state, plan, base, plan.aim, dice)
        miss = miss_placement(state, attacker, weapon, plan.aim, skill.total, plan.radius_in or 0.0)
        base = replace(base, miss=miss)
        if landing is None:
            return replace(base, needs_landing_point=True)
        return resolve_landing(state, setup, base, landing, dice)

    # Direct fire: each target's shots have their own Skill rolls, then Damage for each hit.
    hits: list[TargetResult] = []
    for t in plan.targets:
        n = t.shots * (setup.linked if not weapon.is_automatic else 1)
        shots: list[ShotResult] = []
        for k in range(n):
            shot_label = f"{label} at {t.name}" + (f", attack {k + 1} of {n}" if n > 1 else "")
            skill = roll_skill(dice, plan.skill_die, t.modifiers, bonus=plan.bonus, difficulty=plan.difficulty,
                               label=shot_label, options=state.options)
            outcome = ShotOutcome.AUTO_FAILURE if skill.auto_failure else (ShotOutcome.HIT if skill.success else ShotOutcome.MISS)
            shots.append(ShotResult(k + 1, outcome, skill))
        killed = False
        for i, shot in enumerate(shots):
            if shot.outcome is ShotOutcome.HIT and not killed:
                dmg = roll_damage(dice, t.damage, t.defense, label=t.name, options=state.options)
                killed = dmg.killed
                shots[i] = replace(shot, damage=dmg)
        down, bailed = casualties_of(state, state.unit(t.unit_id)) if killed else ((), ())
        hits.append(TargetResult(t.unit_id, t.name, t.side, t.allowed, t.reason, t.distance_in, tuple(shots),
                                 killed, False, down, bailed))
    return AttackResult(**common, targets=tuple(hits))  # type: ignore[arg-type]  # common is a dict of the shared fields: the call cannot check keyword dicts


def _explode(state: GameState, plan: AttackPlan, base: AttackResult, at: tuple[float, float],
             dice: DiceSource) -> AttackResult:
    """The blast at ``at``: one Damage roll per unit in the Radius (HE), or the payload's area."""
    payload = plan.payload
    assert payload is not None
    radius = plan.radius_in or 0.0
    if not payload.damage:
        area = payload_area(state, payload, radius, at, plan.attacker.side)
        return replace(base, impact_x_in=at[0], impact_y_in=at[1], area=area, needs_landing_point=False)
    if (base.impact_x_in, base.impact_y_in) != (None, None) or at != plan.aim:
        # The blast moved: recompute who is caught where it actually landed.
        setup = replace(plan.setup, aim_x_in=at[0], aim_y_in=at[1])
        targets = _plan_explosive(state, setup, plan.attacker, plan.weapon, payload, [])[0]
    else:
        targets = list(plan.targets)
    results = []
    for t in targets:
        if not t.allowed:
            results.append(TargetResult(t.unit_id, t.name, t.side, False, t.reason, t.distance_in, in_blast=True))
            continue
        shot = _roll_damage_on(state, dice, t)
        killed = bool(shot.damage and shot.damage.killed)
        down, bailed = casualties_of(state, state.unit(t.unit_id)) if killed else ((), ())
        results.append(TargetResult(t.unit_id, t.name, t.side, True, "", t.distance_in, (shot,), killed, False,
                                    down, bailed, in_blast=True))
    return replace(base, targets=tuple(results), impact_x_in=at[0], impact_y_in=at[1], needs_landing_point=False)


def resolve_landing(state: GameState, setup: AttackSetup, partial: AttackResult, landing: tuple[float, float],
                    dice: DiceSource) -> AttackResult:
    """Finish a missed explosive where the chooser put it (within the miss radius)."""
    if partial.miss is None:
        raise IllegalActionError("this attack did not miss: there is no landing point to choose")
    check_landing(state, partial.miss, landing)
    plan = plan_attack(state, setup)
    miss = replace(partial.miss, landing_x_in=landing[0], landing_y_in=landing[1])
    shifted = replace(partial, miss=miss, impact_x_in=landing[0], impact_y_in=landing[1])
    return _explode(state, plan, shifted, landing, dice)


# ----------------------------------------------------------------------------------------------
# Applying a result to the state


def apply_attack(state: GameState, action: RecordAttack) -> GameState:
    r = action.result
    if r.needs_landing_point:
        raise IllegalActionError(f"the {r.weapon} missed: {r.miss.chooser if r.miss else 'a player'} must choose where "
                                 "it lands before the attack is applied")
    attacker = state.unit(r.attacker)
    what = f"{'suppress' if r.mode is AttackMode.SUPPRESS else 'fire'} the {r.weapon}"
    helpers = check_assistants(state, attacker, r.assistants, 99, f"the {r.weapon}") if r.assistants else ()
    attacker = spend_action(state, attacker, what, reaction=r.reaction, needs_focus=r.focus)
    if r.focus:
        # A vehicle too: its crew must not move after firing a Focus weapon (3.2), so neither may it.
        attacker = replace(attacker, focused=f"firing the {r.weapon}")
    weapons = []
    for w in attacker.weapons:
        if w.name == r.weapon:
            w = replace(w, ammo_left=r.ammo_left if w.ammo_left is not None else None,
                        fired_this_turn=attacker.is_vehicle)
        weapons.append(w)
    attacker = replace(attacker, weapons=tuple(weapons), crew_actions_used=attacker.crew_actions_used + r.crew_assistants)
    state = state.with_units([attacker, *helpers])
    changed: list[Unit] = []
    vehicle_pos = {}
    for t in r.targets:
        if t.killed:
            target = state.unit(t.unit_id)
            vehicle_pos[t.unit_id] = target
            for uid in t.went_down:
                changed.append(replace(state.unit(uid), status=Status.DOWN))
            for uid in t.bailed_out:
                u = state.unit(uid)
                h = math.radians(target.heading_deg)
                back = (target.length_in or 2 * target.radius_in) / 2 + u.radius_in + 0.1
                changed.append(replace(u, aboard=None, on_table=True, reaction_ready=False,
                                       action_used="bail out (Reaction)",
                                       x_in=target.x_in - back * math.cos(h), y_in=target.y_in - back * math.sin(h)))
        if t.suppressed:
            u = state.unit(t.unit_id)
            token = Suppression(r.attacker, r.side)
            changed.append(replace(u, suppressed=tuple(s for s in u.suppressed if s.by_unit != r.attacker) + (token,)))
    state = state.with_units(changed)
    if r.area is not None:
        state = replace(state, areas=state.areas + (r.area,))
    names = {u.unit_id: u.name for u in state.units}
    return state.log("attack", " ".join(narrate_attack(r, names=names)), inputs={"attacker": r.attacker, "weapon": r.weapon},
                     outcome=to_jsonable(r), rolls=attack_rolls(r), warnings=r.warnings)


__all__ = ["AttackPlan", "TargetPlan", "plan_attack", "attack_odds", "resolve_attack", "resolve_landing",
           "apply_attack", "MissPlacement"]
