"""The generic miniatures rules (Russell Parkin) behind the ruleset-neutral interface.

Each unit is one counter with one tag and a unit record. Its weapons are its ranged attack (named by
the record's ``weapon``) and "Close combat". For a ranged attack ``TargetOdds`` gives, per unit the
shot can reach: ``p_hit`` = caught (hit, or inside the area of effect where the shot comes down),
``p_damage`` = loses a status level once caught, ``p_kill`` = destroyed; for close combat ``p_hit`` =
the defender loses the attacker's round, ``p_kill`` = it is destroyed. ``outcomes`` spells them out.

>>> from rules.ruleset import get_ruleset, AttackRequest
>>> from rules.generic.examples.solo import load_scenario
>>> g = get_ruleset("generic")
>>> state = g.new_game(load_scenario())
>>> odds = g.attack_odds(state, AttackRequest(10, "Rifle", (31,)))
>>> odds[0].name, odds[0].p_hit, odds[0].p_kill
('R1', Fraction(1, 2), Fraction(0, 1))
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.dice import DiceSource
from rules.errors import RulesError, UnknownNameError
from rules.events import RulesEvent
from rules.generic import actions as A
from rules.generic.dispatch import apply_action
from rules.generic import debriefed
from rules.generic import edit_form as edit_forms
from rules.generic import turn_box as turn_boxes
from rules.generic.automation import AutomationResult, automate_side
from rules.generic.close_combat import (CloseCombatResult, close_combat_odds, close_combat_problems,
                                        resolve_close_combat)
from rules.generic.narration import narrate_automation, narrate_close_combat, narrate_shot
from rules.generic.ranged import ShotPlan, ShotResult, plan_shot, resolve_shot, shot_odds
from rules.generic.scenario import game_from_scenario
from rules.generic.state import GenericState, Unit
from rules.geometry import Circle, Reach, Segment, gap_in
from rules.ruleset import (Ruleset, AttackRequest, Declaration, OddsLegend, Overlay, Resolution, TargetOdds, TargetProposal,
                           UnitView, WeaponView)
from rules.ruleset import CasualtyView, EditForm, EngagementView, FrontEnd, RollView, TurnBox, TurnCommand
from rules.serialize import from_jsonable

CLOSE_COMBAT = "Close combat"

DECLARATIONS: tuple[Declaration, ...] = (
    Declaration("range_shift", "Range levels to shift (+ farther, - nearer)", "attack", "int", (), 0,
                "The text's to-hit modifiers are missing; shift the range level for what your table rules "
                "(beyond Very Long: no fire).", short="Range levels shifted"),
)


#: What the odds of a shot and of a close combat mean: a weapon with an area of effect "catches" a unit
#: (hit directly or inside where the shot comes down); a rifle's shot hits it or not.
SHOT_ODDS = OddsLegend("caught", "destroyed", "hit directly, or inside the area of effect where the shot comes down "
                       "(scatter included)", "destroyed by the damage points", shots=False, max_targets=1)
DIRECT_SHOT_ODDS = OddsLegend("hit", "destroyed", "the to-hit roll succeeds", "destroyed by the damage points",
                              shots=False, max_targets=1)
CLOSE_COMBAT_ODDS = OddsLegend("wins round 1", "destroyed", "the defender loses the attacker's round",
                               "the defender is destroyed (both rounds)", shots=False, max_targets=1,
                               refused="no close combat")


def _identity(u: Unit) -> str:
    """What the players know of a counter (B.6): hidden (only its counter is seen), identified, a dummy
    found out; '' for a unit known from the start. A dummy is never given away before it is identified."""
    if u.anonymous:
        return "hidden: counter only"
    if u.dummy:
        return "dummy, found out" if u.presence.value == "removed" else "dummy"
    if u.hidden:
        return "identified"
    return ""


class GenericMiniatures(Ruleset):
    """The generic miniatures rule system, with its solo-play automation."""

    name = "generic"
    title = "Generic miniatures rules (Russell Parkin)"
    has_hidden_units = True
    has_turn_box = True
    front_end = FrontEnd(dice_hint="the automation tables' dice as asked, e.g. 3 [2 6] 2 (empty: virtual dice)",
                         round_button="Start round",
                         overlays=("range", "bands", "movement", "blast", "scatter", "command", "automation"))

    def edit_action(self, unit_id: int, changes: Mapping[str, Any]) -> A.EditUnit:
        """A counter's status level, identification, shots left by hand."""
        return A.EditUnit(unit_id, dict(changes))

    def edit_form(self, state: GenericState, unit_id: int) -> EditForm:
        """Status level, hidden and identified, shots left, on the table (rules/generic/edit_form.py)."""
        return edit_forms.edit_form(state, unit_id)

    def turn_box(self, state: GenericState, values: Mapping[str, Any]) -> TurnBox:
        """What the automation tables decided last this round (rules/generic/turn_box.py)."""
        return turn_boxes.turn_box(state, self.last_automation(state))

    def turn_command(self, state: GenericState, button: str, values: Mapping[str, Any]) -> TurnCommand | None:
        raise RulesError(f"no {button!r} in the generic rules' turn panel: its box only shows the tables' decisions")

    def last_automation(self, state: GenericState) -> AutomationResult | None:
        """The solo tables' decisions logged last in this round, or None."""
        for e in reversed(state.events):
            if e.kind == "automation" and e.round == state.round and isinstance(e.outcome, dict):
                return from_jsonable(AutomationResult, e.outcome)
            if e.kind == "round":
                return None
        return None

    def new_game(self, scenario: Mapping[str, Any], *, source: str = "<scenario>",
                 base_dir: str | None = None) -> GenericState:
        return game_from_scenario(scenario, source=source, base_dir=base_dir)

    def load_state(self, data: Mapping[str, Any]) -> GenericState:
        return GenericState.from_json(data)

    def apply(self, state: GenericState, action: A.Action) -> GenericState:
        return apply_action(state, action)

    def _tokens(self, state: GenericState, u: Unit) -> tuple[str, ...]:
        out = [state.status_name(u)]
        if u.anonymous:
            # Only the counter is seen: its shots and place in the chain of command would give it away.
            out.append("anonymous")
            if u.fired:
                out.append("fired")
            if state.side(u.side).automated:
                out.append("automated")
            return tuple(out)
        if u.dummy:
            out.append("dummy")
        if u.shots_left is not None:
            out.append(f"{u.shots_left} shot{'s' if u.shots_left != 1 else ''} left")
        if u.fired:
            out.append("fired")
        if u.initiated_close_combat:
            out.append("initiated close combat")
        if u.record.is_commander:
            out.append(f"commander, range {u.record.command_range_in or 0:g}\"")
        if u.record.commander_id:
            out.append(f"commanded by {u.record.commander_id}")
        if state.side(u.side).automated:
            out.append("automated")
        return tuple(out)

    def units(self, state: GenericState) -> tuple[UnitView, ...]:
        """One view per counter; an anonymous unit shows only its short ID (B.6)."""
        out = []
        for u in state.units:
            speed = u.record.max_speed_in
            left = max(0.0, speed - u.moved_in) if math.isfinite(speed) else math.inf
            name = u.short_id if u.anonymous else (u.name if u.name == u.short_id else f"{u.short_id} {u.name}")
            type_name = "unidentified" if u.anonymous else u.record.name
            weapons = () if u.anonymous else tuple(w.name for w in self._weapons(u))
            out.append(UnitView(u.unit_id, name, u.side, type_name, u.x_in, u.y_in, u.heading_deg, u.footprint,
                                u.on_table, u.presence.value, self._tokens(state, u), speed, left, weapons,
                                identity=_identity(u), counter_only=u.anonymous))
        return tuple(out)

    def _weapons(self, u: Unit) -> tuple[WeaponView, ...]:
        rec = u.record
        out = []
        if rec.has_ranged_attack:
            out.append(WeaponView(rec.weapon, rec.max_range_in, None, str(rec.damage), None,
                                  rec.aoe_in if rec.aoe_in > 0 else None, u.shots_left))
        if not u.dummy:
            out.append(WeaponView(CLOSE_COMBAT, 0.0, None, str(rec.cc_damage)))
        return tuple(out)

    def weapons(self, state: GenericState, unit_id: int) -> tuple[WeaponView, ...]:
        return self._weapons(state.unit(unit_id))

    def declarations(self) -> tuple[Declaration, ...]:
        return DECLARATIONS

    def set_pose(self, state: GenericState, unit_id: int, x_in: float, y_in: float, heading_deg: float, *,
                 moved_in: float | None = None, on_table: bool = True) -> GenericState:
        return state.apply(A.SetPose(unit_id, x_in, y_in, heading_deg, moved_in, on_table))

    # -- attacks --------------------------------------------------------------------------------

    def _is_close_combat(self, state: GenericState, attacker: Unit, weapon: str) -> bool:
        if weapon.strip().lower() == CLOSE_COMBAT.lower():
            return True
        rec = attacker.record
        if rec.has_ranged_attack and weapon.strip().lower() in (rec.weapon.lower(), (rec.delivery or "").lower(), "ranged"):
            return False
        names = [w.name for w in self._weapons(attacker)]
        raise UnknownNameError(f"{attacker.short_id} has no weapon {weapon!r}: use {' or '.join(names)}")

    def _shift(self, request: AttackRequest) -> int:
        unknown = set(request.declarations) - {"range_shift"}
        if unknown:
            raise RulesError(f"unknown attack declaration {sorted(unknown)[0]!r}: use range_shift")
        value = request.declarations.get("range_shift", 0) or 0
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"range_shift = {value!r}: give a whole number of range levels, e.g. 1 or -1")
        return value

    def _plan(self, state: GenericState, request: AttackRequest) -> ShotPlan:
        targets = list(request.target_ids)
        if request.aim_point is None and len(targets) != 1:
            raise RulesError("a shot has one target unit, or an aim point for a weapon with an area of effect")
        return plan_shot(state, request.attacker_id, target_id=targets[0] if request.aim_point is None else None,
                         aim_point=request.aim_point, range_shift=self._shift(request))

    def propose_targets(self, state: GenericState, attacker_id: int, weapon: str, *,
                        aim_point: tuple[float, float] | None = None,
                        axis_deg: float | None = None) -> tuple[TargetProposal, ...]:
        attacker = state.unit(attacker_id)
        close = self._is_close_combat(state, attacker, weapon)
        blast = Circle(aim_point[0], aim_point[1], attacker.record.aoe_in) if aim_point and not close else None
        out = []
        for u in state.in_play():
            if u.unit_id == attacker_id:
                continue
            d = gap_in(attacker.footprint, u.footprint)
            friendly = u.side == attacker.side
            if close:
                problems = close_combat_problems(state, attacker, u)
                ok = not problems
                reason = problems[0] if problems else ("friendly" if friendly else "adjacent")
                out.append(TargetProposal(u.unit_id, u.short_id, u.side, d, ok, True, False, True, ok and not friendly,
                                          reason))
                continue
            plan = plan_shot(state, attacker_id, target_id=u.unit_id)
            in_blast = blast.touches(u.footprint) if blast is not None else False
            reason = plan.reason if not plan.allowed else ("friendly" if friendly else f"{plan.band}: hits on "
                                                           f"{plan.to_hit}+" if plan.to_hit > 1 else "adjacent: automatic hit")
            out.append(TargetProposal(u.unit_id, u.short_id, u.side, round(d, 6), plan.allowed, True, in_blast,
                                      plan.damage > 0, plan.allowed and not friendly, reason))
        return tuple(sorted(out, key=lambda p: (not p.eligible, p.distance_in)))

    def attack_odds(self, state: GenericState, request: AttackRequest) -> tuple[TargetOdds, ...]:
        attacker = state.unit(request.attacker_id)
        if self._is_close_combat(state, attacker, request.weapon):
            if len(request.target_ids) != 1:
                raise RulesError("close combat is fought in pairs: name one defender")
            d = state.unit(request.target_ids[0])
            problems = close_combat_problems(state, attacker, d)
            cc = close_combat_odds(state, attacker.unit_id, d.unit_id)
            outcomes = ((f"{d.short_id} loses the first round", cc.p_defender_loses_round),
                        (f"{d.short_id} destroyed", cc.p_defender_destroyed),
                        (f"{attacker.short_id} loses the return round", cc.p_attacker_loses_round),
                        (f"{attacker.short_id} destroyed", cc.p_attacker_destroyed))
            return (TargetOdds(d.unit_id, d.short_id, d.side, 1, not problems, "; ".join(problems),
                               cc.p_defender_loses_round, Fraction(1 if attacker.record.cc_damage else 0),
                               cc.p_defender_destroyed, cc.p_defender_destroyed, attacker.record.cc_damage > 0,
                               distance_in=round(gap_in(attacker.footprint, d.footprint), 6), outcomes=outcomes),)
        plan = self._plan(state, request)
        if not plan.allowed:
            ref = plan.target if plan.target is not None else -1
            name = plan.target_name or "the point"
            side = state.unit(ref).side if plan.target is not None else ""
            return (TargetOdds(ref, name, side, 1, False, plan.reason, Fraction(0), Fraction(0), Fraction(0),
                               Fraction(0), plan.damage > 0, distance_in=plan.distance_in),)
        odds = shot_odds(state, plan)
        out = []
        order = sorted(odds, key=lambda uid: (uid != plan.target, gap_in(state.unit(uid).footprint,
                                                                         Circle(plan.intended_x_in, plan.intended_y_in, 0))))
        if plan.target is not None and plan.target not in odds:
            order.insert(0, plan.target)
        for uid in order:
            u = state.unit(uid)
            o = odds.get(uid)
            caught = o.p_caught if o else Fraction(0)
            damaged = o.p_damaged if o else Fraction(0)
            destroyed = o.p_destroyed if o else Fraction(0)
            reason = "" if uid == plan.target else "in the area of effect"
            if o is None:
                reason = "a dummy if identified: the shot would be wasted" if u.dummy else "cannot be reached"
            out.append(TargetOdds(uid, u.short_id, u.side, 1, True, reason, caught,
                                  damaged / caught if caught else Fraction(0), destroyed, destroyed, plan.damage > 0,
                                  roll=plan.band or "", distance_in=round(gap_in(state.unit(plan.attacker).footprint,
                                                                                  u.footprint), 6),
                                  outcomes=(("caught" if plan.aoe_in > 0 else "hit", caught), ("loses a status level", damaged),
                                            ("destroyed", destroyed))))
        return tuple(out)

    def odds_legend(self, state: GenericState, request: AttackRequest) -> OddsLegend:
        """A shot's ``p_hit`` is "caught" (an area of effect) or "hit", its ``p_kill`` "destroyed"; close combat's ``p_hit`` is the
        defender losing the attacker's round. One target unit (or an aim point) per attack."""
        attacker = state.unit(request.attacker_id)
        if self._is_close_combat(state, attacker, request.weapon):
            return CLOSE_COMBAT_ODDS
        return SHOT_ODDS if attacker.record.aoe_in > 0 else DIRECT_SHOT_ODDS

    def resolve_attack(self, state: GenericState, request: AttackRequest, dice: DiceSource, *,
                       landing_point: tuple[float, float] | None = None) -> Resolution:
        """Roll a shot (to-hit, scatter, damage points) or a close combat (both rounds). A shot the rules
        forbid changes nothing in strict play (its reason is the sentence)."""
        attacker = state.unit(request.attacker_id)
        if self._is_close_combat(state, attacker, request.weapon):
            if len(request.target_ids) != 1:
                raise RulesError("close combat is fought in pairs: name one defender")
            problems = close_combat_problems(state, attacker, state.unit(request.target_ids[0]))
            if problems and state.options.strict:
                return Resolution(None, tuple(f"Not allowed: {p}." for p in problems), state)
            cc = resolve_close_combat(state, attacker.unit_id, request.target_ids[0], dice)
            return Resolution(cc, tuple(narrate_close_combat(cc)), state.apply(A.RecordCloseCombat(cc)))
        plan = self._plan(state, request)
        if not plan.allowed and state.options.strict:
            shot = ShotResult(plan, None, False)
            return Resolution(shot, tuple(narrate_shot(shot)), state)
        shot = resolve_shot(state, plan, dice)
        return Resolution(shot, tuple(narrate_shot(shot)), state.apply(A.RecordShot(shot)))

    # -- identification and automation --------------------------------------------------------

    def identify(self, state: GenericState, unit_id: int) -> GenericState:
        return state.apply(A.Identify(unit_id))

    def automate(self, state: GenericState, side: str, dice: DiceSource) -> Resolution:
        """The automation tables' decisions for a side's units (movement, route, firing)."""
        result = automate_side(state, side, dice)
        return Resolution(result, tuple(narrate_automation(result)), state.apply(A.RecordAutomation(result)))

    # -- turns ----------------------------------------------------------------------------------

    def start_round(self, state: GenericState, dice: DiceSource) -> Resolution:
        after = state.apply(A.StartRound())
        return Resolution(None, (after.events[-1].summary,), after)

    def start_turn(self, state: GenericState, dice: DiceSource) -> Resolution:
        """The next side acts; an automated side's units get the tables' decisions at once."""
        after = state.apply(A.StartTurn())
        lines = [after.events[-1].summary]
        side = after.active_side
        if side is not None and after.side(side).automated:
            res = self.automate(after, side, dice)
            return Resolution(res.result, tuple(lines) + res.sentences, res.state)
        return Resolution(None, tuple(lines), after)

    def end_turn(self, state: GenericState) -> GenericState:
        return state.apply(A.EndTurn())

    # -- drawing --------------------------------------------------------------------------------

    def _last_automation(self, state: GenericState) -> AutomationResult | None:
        for e in reversed(state.events):
            if e.kind == "automation" and e.round == state.round:
                result: AutomationResult = from_jsonable(AutomationResult, e.outcome)
                return result
            if e.kind == "round":
                return None
        return None

    def overlays(self, state: GenericState, unit_id: int, *, weapon: str | None = None) -> tuple[Overlay, ...]:
        """For the unit: movement left, its weapon's range bands (rings at the far edge of each band,
        labelled with the to-hit number), the range limit, a commander's command range. For the table:
        where area-of-effect shots came down this turn (scatter) and the automation's suggested moves."""
        u = state.unit(unit_id)
        fp = u.footprint
        out: list[Overlay] = []
        speed = u.record.max_speed_in
        if math.isfinite(speed) and not u.anonymous:
            left = max(0.0, speed - u.moved_in)
            out.append(Overlay("movement", Reach(fp, left), state.movement_words(left), u.side, (u.unit_id,)))
        rec = u.record
        if rec.has_ranged_attack and rec.delivery and not u.anonymous and (weapon is None or weapon != CLOSE_COMBAT):
            data = state.data
            limit = rec.max_range_in
            near = 0.0
            for name, far in data.delivery(rec.delivery).limits_in:
                if far is None:
                    continue
                level = data.level(name)
                if near >= limit:
                    break
                edge = min(far, limit)
                out.append(Overlay("range band", Reach(fp, edge), f"{name} {level.to_hit}+ ({near:g}-{edge:g}\")",
                                   u.side, (u.unit_id,)))
                near = far
            out.append(Overlay("range", Reach(fp, min(limit, data.delivery(rec.delivery).very_long_in)),
                               f"{rec.weapon}: no fire beyond {min(limit, data.delivery(rec.delivery).very_long_in):g}\"",
                               u.side, (u.unit_id,)))
            if rec.min_range_in > 0:
                out.append(Overlay("minimum range", Reach(fp, rec.min_range_in),
                                   f"{rec.weapon}: no fire inside {rec.min_range_in:g}\"", u.side, (u.unit_id,)))
        if rec.is_commander and rec.command_range_in and not u.anonymous:
            subordinates = tuple(x.unit_id for x in state.units if (x.record.commander_id or "").lower() == u.short_id.lower()
                                 or x.short_id in rec.unit_ids)
            inside = tuple(i for i in subordinates if Reach(fp, rec.command_range_in).touches(state.unit(i).footprint))
            out.append(Overlay("command range", Reach(fp, rec.command_range_in),
                               f"{u.short_id} command range {rec.command_range_in:g}\" ({len(inside)} of "
                               f"{len(subordinates)} within)", u.side, inside))
        for imp in state.impacts:
            if imp.landing_x_in is not None and imp.landing_y_in is not None:
                if not imp.hit:
                    out.append(Overlay("scatter", Segment(imp.intended_x_in, imp.intended_y_in, imp.landing_x_in,
                                                          imp.landing_y_in), f"{imp.weapon} scattered", imp.side,
                                       (imp.firer,)))
                out.append(Overlay("area of effect", Circle(imp.landing_x_in, imp.landing_y_in, imp.aoe_in),
                                   f"{imp.weapon} area of effect {imp.aoe_in:g}\"", imp.side, (imp.firer,)))
            elif imp.dud:
                out.append(Overlay("scatter", Circle(imp.intended_x_in, imp.intended_y_in, 0.5), f"{imp.weapon}: a Dud",
                                   imp.side, (imp.firer,)))
        auto = self._last_automation(state)
        if auto is not None:
            for m in auto.moves:
                if m.moves and m.to_x_in is not None and m.to_y_in is not None:
                    # From where the unit stood when the tables decided, so the arrow stays put as it moves.
                    mover = state.unit(m.unit_id)
                    x0 = mover.x_in if m.from_x_in is None else m.from_x_in
                    y0 = mover.y_in if m.from_y_in is None else m.from_y_in
                    out.append(Overlay("automation move", Segment(x0, y0, m.to_x_in, m.to_y_in),
                                       f"{m.name}: {m.route}", auto.side, (m.unit_id,)))
        return tuple(out)

    def attack_overlays(self, state: GenericState, request: AttackRequest) -> tuple[Overlay, ...]:
        """The line to the target, and for an area-of-effect weapon where a miss may land (within the
        scatter reach of the aim point) and the area around the aim point."""
        attacker = state.unit(request.attacker_id)
        if self._is_close_combat(state, attacker, request.weapon):
            return ()
        plan = self._plan(state, request)
        out = [Overlay("line of sight", Segment(attacker.x_in, attacker.y_in, plan.intended_x_in, plan.intended_y_in),
                       f"{plan.distance_in:.1f}\" {plan.band or 'out of range'}", attacker.side,
                       (attacker.unit_id,) + ((plan.target,) if plan.target is not None else ()))]
        if plan.aoe_in > 0:
            out.append(Overlay("area of effect", Circle(plan.intended_x_in, plan.intended_y_in, plan.aoe_in),
                               f"area of effect {plan.aoe_in:g}\"", attacker.side))
            if plan.p_hit < 1:
                out.append(Overlay("scatter reach", Circle(plan.intended_x_in, plan.intended_y_in, plan.max_scatter_in),
                                   f"a miss lands within {plan.max_scatter_in:g}\"", attacker.side))
        return tuple(out)

    # -- explaining the log ---------------------------------------------------------------------

    def explain(self, event: RulesEvent) -> tuple[str, ...]:
        data = event.outcome
        kind = data.get("type") if isinstance(data, Mapping) else None
        if kind == "ShotResult":
            return tuple(narrate_shot(from_jsonable(ShotResult, data)))
        if kind == "CloseCombatResult":
            return tuple(narrate_close_combat(from_jsonable(CloseCombatResult, data)))
        if kind == "AutomationResult":
            return tuple(narrate_automation(from_jsonable(AutomationResult, data)))
        return (event.summary,)

    # -- what the debrief lists (rules/generic/debriefed.py) --------------------------------------

    def engagements(self, event: RulesEvent, game: GenericState | None = None) -> tuple[EngagementView, ...]:
        return debriefed.engagements(event)

    def casualties(self, event: RulesEvent) -> tuple[CasualtyView, ...]:
        return debriefed.casualties(event)

    def recorded_rolls(self, event: RulesEvent, game: GenericState | None = None) -> tuple[RollView, ...]:
        return debriefed.recorded_rolls(event, game)
