"""Down Range behind the ruleset-neutral interface (:class:`rules.ruleset.Ruleset`).

The GUI, the recorder and the demo use this class through :func:`rules.ruleset.get_ruleset`; it turns
neutral requests (an :class:`AttackRequest` with declaration keys) into Down Range setups and back.

>>> from rules.ruleset import get_ruleset, AttackRequest
>>> dr = get_ruleset("down-range")
>>> state = dr.new_game(__import__("rules.downrange.examples.in_depth", fromlist=["x"]).load_scenario())
>>> odds = dr.attack_odds(state, AttackRequest(10, "M4/M16", (31,)))
>>> odds[0].p_hit, odds[0].p_kill, odds[0].advantages   # it has not moved yet: Advantage
(Fraction(8, 9), Fraction(8, 27), ('stationary target',))
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.dice import DiceSource
from rules.downrange import actions as A
from rules.downrange.dispatch import apply_action
from rules.downrange import debriefed, table_actions
from rules.downrange import edit_form as edit_forms
from rules.downrange.attack import attack_odds, resolve_attack
from rules.downrange.command import can_use_radio, has_radio, is_jammed, jamming_zones, radio_recipients, voice_graph
from rules.downrange.declarations import AttackMode, AttackSetup, Level, TargetSpec
from rules.downrange.environment import resolve_burning, resolve_crashes
from rules.downrange.narration import narrate_attack, narrate_damage, narrate_initiative, narrate_treatment
from rules.downrange.results import AttackResult, DamageResult, InitiativeResult, TreatmentResult
from rules.downrange.rolls import can_damage
from rules.downrange.scenario import game_from_scenario
from rules.downrange.state import GameState, Status
from rules.downrange.turns import movement_allowance_in, movement_left_in, roll_initiative
from rules.errors import RulesError
from rules.events import RulesEvent
from rules.geometry import Circle, Cone, Reach, distance_to_point_in, gap_in
from rules.ruleset import (Ruleset, AttackRequest, Declaration, Overlay, Resolution, TargetOdds, TargetProposal, UnitView,
                           WeaponView)
from rules.ruleset import ActionForm, ActionRequest, OddsLegend, PoseUpdate
from rules.ruleset import (CasualtyView, CommsView, EditChanges, EditForm, EmissionView, EngagementView, FrontEnd, LandingChoice,
                           LocatorView, RollView)
from rules.serialize import from_jsonable

if TYPE_CHECKING:  # the ground's sight is imported when asked for (propose_from_ground)
    from rules.terrain_sight import Ground, GroundDeclarations

LEVELS = tuple(level.value for level in Level)

DECLARATIONS: tuple[Declaration, ...] = (
    Declaration("mode", "Attack or suppress", "attack", "choice", ("attack", "suppress"), "attack",
                "Suppress: one Skill roll, no Damage; hit units have Disadvantage until your next turn (2.6.5)."),
    Declaration("payload", "Payload", "attack", "choice", ("HE", "smoke", "illumination", "IR illumination"), "HE"),
    Declaration("assistants", "Assisting units", "attack", "units", (), (),
                "Each assisting unit gives up its Action and Focuses: +1 (2.6.3)."),
    Declaration("crew_assistants", "Crew members assisting", "attack", "int", (), 0, short="Crew assisting",
                minimum=0, maximum=8),
    Declaration("reaction", "Use the ready Reaction", "attack", "bool", (), False),
    Declaration("untrained", "Not trained on the weapon", "attack", "bool", (), False, "Disadvantage (2.6.2)."),
    Declaration("axis_deg", "Fan axis (degrees)", "attack", "float", (), None),
    Declaration("linked", "Linked weapons fired together", "attack", "int", (), 1),
    Declaration("distance_in", "Measured distance (untracked units)", "attack", "float", (), None),
    Declaration("advantages", "Other Advantages (reasons)", "attack", "texts", (), ()),
    Declaration("disadvantages", "Other Disadvantages (reasons)", "attack", "texts", (), ()),
    Declaration("shots", "Attacks of the Fan on this target", "target", "int", (), 1, short="Shots", minimum=1, maximum=12),
    Declaration("cover", "Cover", "target", "choice", LEVELS, "none",
                "Partial (sandbags, dug in): Disadvantage; total: the weapon cannot hit it.", short="Cover"),
    Declaration("concealment", "Concealment", "target", "choice", LEVELS, "none",
                "Partial (vegetation, smoke): Disadvantage; total: no line of sight.", short="Conceal."),
    Declaration("darkness", "Darkness", "target", "choice", ("table",) + LEVELS, "table",
                "Partial darkness: Disadvantage unless NVGs or a light; pitch black blocks sight.\n"
                "'table': the table's lighting (the scenario's, or what the turn set).", short="Dark"),
    Declaration("line_of_sight", "Attacker sees the target", "target", "bool", (), True),
    Declaration("spotter", "Spotter (tag id) when the attacker does not see it", "target", "unit", (), None),
    Declaration("unaware", "Target is unaware (ambush)", "target", "bool", (), False, "Advantage (2.6.1).", short="Unaw."),
    Declaration("stationary", "Target stationary", "target", "choice", ("auto", "yes", "no"), "auto",
                "Advantage if it did not move on its last turn; 'auto' takes it from the tracker."),
    Declaration("head_on", "Indirect fire lands head-on", "target", "bool", (), False,
                "Partial cover does not count against indirect fire that lands head-on."),
    Declaration("advantages", "Other Advantages (reasons)", "target", "texts", (), ()),
    Declaration("disadvantages", "Other Disadvantages (reasons)", "target", "texts", (), ()),
)
#: The target declarations the attack panel shows as columns of its targets table, a value per row.
_TARGET_COLUMNS = ("shots", "cover")
_ATTACK_KEYS = {d.key for d in DECLARATIONS if d.scope == "attack"}
_TARGET_KEYS = {d.key for d in DECLARATIONS if d.scope == "target"}


def _texts(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value or ())


def setup_from_request(request: AttackRequest) -> AttackSetup:
    """Turn a neutral request (declaration keys from :data:`DECLARATIONS`) into a Down Range setup."""
    d = dict(request.declarations)
    unknown = set(d) - _ATTACK_KEYS
    if unknown:
        raise RulesError(f"unknown attack declaration {sorted(unknown)[0]!r}: use {', '.join(sorted(_ATTACK_KEYS))}")
    targets = []
    ids = list(request.target_ids)
    for uid in request.target_declarations:
        if uid not in ids:
            ids.append(uid)
    for i, uid in enumerate(ids):
        td = dict(request.target_declarations.get(uid, {}))
        unknown = set(td) - _TARGET_KEYS
        if unknown:
            raise RulesError(f"unknown target declaration {sorted(unknown)[0]!r}: use {', '.join(sorted(_TARGET_KEYS))}")
        shots = request.shots[i] if i < len(request.shots) else int(td.get("shots", 1))
        stationary = {"auto": None, "yes": True, "no": False, None: None, True: True, False: False}[td.get("stationary", "auto")]
        darkness = td.get("darkness", "table")
        try:
            targets.append(TargetSpec(
                uid, shots=shots, cover=Level(td.get("cover", "none")), concealment=Level(td.get("concealment", "none")),
                darkness=None if darkness in ("table", None) else Level(darkness),
                line_of_sight=bool(td.get("line_of_sight", True)), spotter=td.get("spotter"),
                unaware=bool(td.get("unaware", False)), stationary=stationary, head_on=bool(td.get("head_on", False)),
                advantages=_texts(td.get("advantages")), disadvantages=_texts(td.get("disadvantages"))))
        except ValueError as exc:
            raise RulesError(f"target {uid}: {exc}; use none, partial or total") from None
    aim = request.aim_point
    try:
        mode = AttackMode(str(request.mode or d.get("mode", "attack")))
    except ValueError:
        raise RulesError(f"attack mode {request.mode!r}: use attack or suppress") from None
    return AttackSetup(
        attacker=request.attacker_id, weapon=request.weapon, targets=tuple(targets), mode=mode,
        aim_x_in=aim[0] if aim else None, aim_y_in=aim[1] if aim else None, payload=str(d.get("payload", "HE")),
        assistants=tuple(int(a) for a in d.get("assistants", ())), crew_assistants=int(d.get("crew_assistants", 0)),
        reaction=bool(d.get("reaction", False)), untrained=bool(d.get("untrained", False)),
        axis_deg=d.get("axis_deg"), linked=int(d.get("linked", 1)), distance_in=d.get("distance_in"),
        advantages=_texts(d.get("advantages")), disadvantages=_texts(d.get("disadvantages")))


class DownRange(Ruleset):
    """The Down Range rule system."""

    name = "down-range"
    title = "Down Range"
    has_emissions = True
    pose_options = ("alone",)
    front_end = FrontEnd(target_columns=_TARGET_COLUMNS, aim_with_targets=True, dice_hint="players' d10s in side order, e.g. 7 4 (empty: virtual dice)",
                         initiative_rolls=True, ready=("Reactions ready", "reaction ready"), edit_button="Edit tokens…",
                         engagement_table="shots",
                         outcomes_always=("killed", "hit, no kill", "miss", "suppressed"),
                         overlays=("range", "fan", "movement", "blast", "voice", "jamming", "emissions", "areas"))

    def edit_action(self, unit_id: int, changes: Mapping[str, Any]) -> A.EditUnit:
        """Tokens and injuries by hand (:mod:`rules.downrange.hand_edits` names the fields)."""
        return A.EditUnit(unit_id, dict(changes))

    # -- the words of its tokens, for the roster and its edit form --------------------------------

    def token_texts(self, state: GameState, view: UnitView) -> tuple[str, str]:
        """The roster's Tokens cell (who suppresses the unit, why it emits) and its tooltip (until when)."""
        from rules.downrange.hand_edits import emission_words, suppressed_words

        unit = state.unit(view.unit_id)
        names = {u.unit_id: u.name for u in state.units} if unit.suppressed else {}
        out = []
        for token in view.tokens:
            if token == "suppressed" and unit.suppressed:
                token += " by " + ", ".join(names.get(s.by_unit, str(s.by_unit)) for s in unit.suppressed)
            elif token == "signalling" and unit.emission is not None:
                token += f" ({unit.emission.purpose_words})"
            out.append(token)
        details = [suppressed_words(state, unit.suppressed)] if unit.suppressed else []
        if unit.emission is not None:
            details.append(emission_words(unit.emission))
        return ", ".join(out), "; ".join(details)

    # -- the hand-edit form (rules/downrange/edit_form.py) ---------------------------------------

    def edit_form(self, state: GameState, unit_id: int) -> EditForm:
        """Flags, Focus, movement and status; Suppressed tokens; the emission token; ammunition left."""
        view = next(v for v in self.units(state) if v.unit_id == unit_id)
        return edit_forms.edit_form(state, unit_id, view.tokens)

    def form_changes(self, form: EditForm, values: Mapping[str, Any]) -> EditChanges:
        return edit_forms.form_changes(form, values)

    # -- games and states -----------------------------------------------------------------------

    def new_game(self, scenario: Mapping[str, Any], *, source: str = "<scenario>", base_dir: str | None = None) -> GameState:
        return game_from_scenario(scenario, source=source, base_dir=base_dir)

    def load_state(self, data: Mapping[str, Any]) -> GameState:
        return GameState.from_json(data)

    def apply(self, state: GameState, action: A.Action) -> GameState:
        return apply_action(state, action)

    def units(self, state: GameState) -> tuple[UnitView, ...]:
        out = []
        for u in state.units:
            allowance = movement_allowance_in(state, u)
            out.append(UnitView(u.unit_id, u.name, u.side, u.type_name, u.x_in, u.y_in, u.heading_deg, u.footprint,
                                u.on_table, u.status.value, u.tokens(), allowance, movement_left_in(state, u),
                                tuple(w.name for w in u.weapons)))
        return tuple(out)

    def weapons(self, state: GameState, unit_id: int) -> tuple[WeaponView, ...]:
        unit = state.unit(unit_id)
        out = []
        for ws in unit.weapons:
            w = state.catalog.weapon(ws.name)
            out.append(WeaponView(w.name, w.range_in, w.difficulty, str(w.damage), w.fan, w.radius_in, ws.ammo_left,
                                  w.focus, w.payloads))
        return tuple(out)

    def declarations(self) -> tuple[Declaration, ...]:
        return DECLARATIONS

    def attack_form(self, state: GameState, attacker_id: int, weapon: str) -> tuple[Declaration, ...]:
        """The attack panel's declarations: attack or suppress, the weapon's payloads (none asked for a
        weapon without), the units proposed as assistants by name -- every other unit of the side, those
        the rules would take now (within ``assist_reach_in`` of the attacker, an Action to give) ticked
        as eligible, the others with why not --, the crew, the Reaction, untrained; per target its
        shots and cover as columns of the targets table (the rest of a target's declarations --
        concealment, darkness, unaware, line of sight, the spotter whose sighting reaches the attacker
        (proposed by name), stationary, head-on -- in the box of the target picked)."""
        from dataclasses import replace

        from rules.action_forms import ActionChoice
        from rules.downrange.command import information_reaches, sighter_of
        from rules.downrange.reach import gap_between_in
        from rules.downrange.turns import assistant_problem

        attacker = state.unit(attacker_id)
        w = state.catalog.weapon(weapon)
        helpers = sorted((u for u in state.units_of(attacker.side) if u.unit_id != attacker_id and u.is_active
                          and not u.is_vehicle and u.on_table),
                         key=lambda u: gap_between_in(state, attacker, u))
        reach = state.options.assist_reach_in
        proposals: list[ActionChoice] = []
        others: list[ActionChoice] = []
        for u in helpers:
            why = assistant_problem(state, attacker, u, f"the {w.name}")
            gap = gap_between_in(state, attacker, u)
            if not why:
                proposals.append(ActionChoice(u.unit_id, u.name, True, f"{gap:.1f}\" from {attacker.name}"))
            elif len(others) < 2:  # the nearest who may not: the players see why the one they meant is not ticked
                far = gap > reach + 1e-9 and state.options.strict
                others.append(ActionChoice(u.unit_id, u.name, False,
                                           f"{gap:.1f}\" away (reach {reach:g}\", 2.6.3)" if far else why))
        proposals += others
        by_key = {d.key: d for d in DECLARATIONS if d.scope == "attack"}
        out = [by_key["mode"]]
        if w.payloads:
            out.append(replace(by_key["payload"], choices=tuple(w.payloads), default=w.payloads[0]))
        out += [replace(by_key["assistants"], label="Assisting units", short="Assisting units", proposals=tuple(proposals)),
                by_key["crew_assistants"], by_key["reaction"], by_key["untrained"]]
        per_target = {d.key: d for d in DECLARATIONS if d.scope == "target"}
        spotters = []
        for u in state.units_of(attacker.side):
            if u.unit_id == attacker_id or not u.is_active:
                continue
            reached, how = information_reaches(state, sighter_of(state, u), attacker)
            spotters.append(ActionChoice(u.unit_id, u.name, reached, "its sighting reaches the attacker" if reached else how))
        spotters.sort(key=lambda c: not c.eligible)
        box = [per_target[k] for k in ("concealment", "darkness", "unaware", "line_of_sight")]
        box += [replace(per_target["spotter"], label="Spotter when the attacker does not see it", short="Spotter",
                        proposals=tuple(spotters)), per_target["stationary"], per_target["head_on"]]
        return tuple(out) + tuple(per_target[k] for k in _TARGET_COLUMNS) + tuple(box)

    def set_pose(self, state: GameState, unit_id: int, x_in: float, y_in: float, heading_deg: float, *,
                 moved_in: float | None = None, on_table: bool = True, alone: bool = False) -> GameState:
        """``alone``: move only this unit, not the gun-team members sharing its spot (they have tags of
        their own in view); by default they ride on its token and follow it."""
        return state.apply(A.SetPose(unit_id, x_in, y_in, heading_deg, moved_in, on_table, alone))

    def set_poses(self, state: GameState, poses: Sequence[PoseUpdate]) -> GameState:
        """Every pose at once (``rules.downrange.turns.apply_set_poses``): the state of setting them in turn."""
        return state.apply(A.SetPoses(tuple(A.SetPose(p.unit_id, p.x_in, p.y_in, p.heading_deg, p.moved_in, p.on_table, p.alone)
                                            for p in poses)))

    # -- attacks --------------------------------------------------------------------------------

    def propose_targets(self, state: GameState, attacker_id: int, weapon: str, *,
                        aim_point: tuple[float, float] | None = None,
                        axis_deg: float | None = None) -> tuple[TargetProposal, ...]:
        """Every other unit on the table, with what the geometry says about attacking it."""
        attacker = state.unit(attacker_id)
        w = state.catalog.weapon(weapon)
        cone = None
        if w.is_automatic:
            cone = Cone.from_attacker(attacker.footprint, axis_deg=attacker.heading_deg if axis_deg is None else axis_deg,
                                      range_in=w.range_in)
        out = []
        for u in state.on_table():
            if u.unit_id == attacker_id or u.status is not Status.ACTIVE:
                continue
            d = gap_in(attacker.footprint, u.footprint)
            in_range = d <= w.range_in + 1e-9
            in_cone = cone.touches(u.footprint) if cone is not None else in_range
            in_blast = False
            if w.is_explosive and aim_point is not None:
                in_blast = Circle(aim_point[0], aim_point[1], w.radius_in or 0.0).touches(u.footprint)
            dmg = can_damage(w.damage, state.effective_defense(u))
            reason = ""
            if not in_range and not in_blast:
                reason = f"{d:.1f}\" away, Range {w.range_in:g}\""
            elif cone is not None and not in_cone:
                reason = "outside the 45-degree cone"
            elif not dmg:
                reason = f"Damage {w.damage} cannot hurt Defense {state.effective_defense(u)}"
            if w.is_explosive and aim_point is not None:
                eligible = in_blast and dmg
                if in_blast and not dmg:
                    reason = f"in the blast, but Damage {w.damage} cannot hurt Defense {state.effective_defense(u)}"
                elif not in_blast:
                    reason = "outside the blast"
            else:
                eligible = in_range and in_cone and dmg and u.side != attacker.side
                if u.side == attacker.side and not reason:
                    reason = "friendly"
            out.append(TargetProposal(u.unit_id, u.name, u.side, d, in_range, in_cone, in_blast, dmg, eligible, reason))
        return tuple(sorted(out, key=lambda p: (not p.eligible, p.distance_in)))

    def propose_from_ground(self, state: GameState, request: AttackRequest, ground: Ground) -> GroundDeclarations:
        """The relief's proposal for the request's line-of-sight declarations (see rules/terrain_sight.py)."""
        from rules.downrange.ground_sight import propose_from_ground

        return propose_from_ground(state, request.attacker_id, request.target_ids, ground)

    def attack_odds(self, state: GameState, request: AttackRequest) -> tuple[TargetOdds, ...]:
        return attack_odds(state, setup_from_request(request))

    def resolve_attack(self, state: GameState, request: AttackRequest, dice: DiceSource, *,
                       landing_point: tuple[float, float] | None = None) -> Resolution:
        """Roll the attack; apply it unless a player must still choose where a missed explosive lands."""
        setup = setup_from_request(request)
        result = resolve_attack(state, setup, dice, landing=landing_point)
        vehicles = {u.unit_id for u in state.units if u.is_vehicle}
        sentences = tuple(narrate_attack(result, vehicles=vehicles, names={u.unit_id: u.name for u in state.units}))
        if result.needs_landing_point:
            assert result.miss is not None
            return Resolution(result, sentences, state,
                              pending=f"{result.miss.chooser} chooses a landing point within "
                                      f"{result.miss.miss_radius_in:g}\" of ({result.miss.intended_x_in:.1f}, "
                                      f"{result.miss.intended_y_in:.1f}): click where it lands, inside the red circle on "
                                      "the map",
                              landing=LandingChoice(result.miss.intended_x_in, result.miss.intended_y_in,
                                                    result.miss.miss_radius_in, str(result.miss.chooser)))
        after, crashes = resolve_crashes(state.apply(A.RecordAttack(result)), dice)
        return Resolution(result, sentences + tuple(line for c in crashes for line in narrate_damage(c)), after)

    # -- turns ----------------------------------------------------------------------------------

    def start_round(self, state: GameState, dice: DiceSource) -> Resolution:
        result = roll_initiative(state, dice)
        lines = tuple(narrate_initiative(result))
        if result.unresolved:
            return Resolution(result, lines, state, pending="the players settle the tie: apply StartRound with an order")
        return Resolution(result, lines, state.apply(A.StartRound(result)))

    def start_turn(self, state: GameState, dice: DiceSource) -> Resolution:
        """The next player's turn: tokens that end now are removed, then burning units of that player
        take their 1d6 fire Damage (proposal: at the start of the owner's turn), and aircraft that have
        lost their operator crash (4)."""
        state = state.apply(A.StartTurn())
        side = state.active_side
        results = []
        lines = [state.events[-1].summary]
        for u in state.units:
            if u.side == side and u.on_fire and u.status is Status.ACTIVE:
                r = resolve_burning(state, u.unit_id, dice)
                results.append(r)
                lines += narrate_damage(r)
                state = state.apply(A.RecordDamage(r))
        # An aircraft whose operator was lost some other way (a hand edit, a fire) comes down now.
        state, crashes = resolve_crashes(state, dice)
        results += crashes
        lines += [line for c in crashes for line in narrate_damage(c)]
        return Resolution(tuple(results), tuple(lines), state)

    def end_turn(self, state: GameState) -> GameState:
        return state.apply(A.EndTurn())

    # -- drawing --------------------------------------------------------------------------------

    def overlays(self, state: GameState, unit_id: int, *, weapon: str | None = None) -> tuple[Overlay, ...]:
        """Shapes for one selected unit (range ring, blast reach, fan, movement) and for the table
        (voice chains of its side, jamming zones, smoke and illumination, observation tokens)."""
        unit = state.unit(unit_id)
        out: list[Overlay] = []
        fp = unit.footprint
        left = movement_left_in(state, unit)
        if not math.isinf(left):
            out.append(Overlay("movement", Reach(fp, left), state.movement_words(left), unit.side, (unit.unit_id,)))
        names = [weapon] if weapon else [w.name for w in unit.weapons[:1]]
        for name in names:
            w = state.catalog.weapon(name)
            out.append(Overlay("range", Reach(fp, w.range_in), f"{w.name} Range {w.range_in:g}\"", unit.side, (unit.unit_id,)))
            if w.is_explosive and not math.isinf(w.range_in):
                out.append(Overlay("blast reach", Reach(fp, w.range_in + (w.radius_in or 0.0)),
                                   f"Range + Radius {w.range_in + (w.radius_in or 0.0):g}\"", unit.side, (unit.unit_id,)))
            if w.is_automatic:
                out.append(Overlay("fan", Cone.from_attacker(fp, axis_deg=unit.heading_deg, range_in=w.range_in),
                                   f"Fan {w.fan}", unit.side, (unit.unit_id,)))
        graph = voice_graph(state, unit.side)
        out.append(Overlay("voice", graph, "voice chain", unit.side, tuple(n.unit_id for n in graph.nodes)))
        if has_radio(state, unit) and unit.on_table and unit.status is Status.ACTIVE:
            # Who a Signal of this unit reaches: every friendly radio that is not jammed, and by voice
            # from them (and from the unit itself); a jammed radio reaches only its voice chain.
            sources = {unit.unit_id}
            if can_use_radio(state, unit):
                sources |= radio_recipients(state, unit.side)
                label = "a Signal reaches"
            else:
                label = "jammed: its Signal reaches by voice only"
            reached = tuple(sorted(graph.reachable_from(sources) - {unit.unit_id}))
            out.append(Overlay("signal", graph, f"{label} {len(reached)}" if label.endswith("reaches") else label,
                               unit.side, reached))
        zones = jamming_zones(state)
        for jammer, reach in zones:
            cut = tuple(u.unit_id for u in state.units if u.side != jammer.side and has_radio(state, u)
                        and is_jammed(state, u, zones=zones))
            out.append(Overlay("jamming", reach, f"jamming {reach.distance_in:g}\"", jammer.side, cut))
        for area in state.areas:
            out.append(Overlay(area.kind, area.circle, area.kind, area.created_by))
        for obs in state.observations:
            if obs.target_unit is not None:
                t = state.unit(obs.target_unit)
                shape: Any = Circle(t.x_in, t.y_in, t.radius_in + 0.5)
            else:
                shape = Circle(obs.x_in or 0.0, obs.y_in or 0.0, 1.0)
            out.append(Overlay("fires observation", shape, "observed", obs.side, (obs.observer,)))
        for u in state.on_table():
            if u.emission is not None:
                out.append(Overlay("emission", Circle(u.x_in, u.y_in, u.radius_in + 0.3),
                                   f"Emitting: {u.emission.purpose_words}", u.side, (u.unit_id,)))
        return tuple(out)

    def blast(self, state: GameState, weapon: str, x_in: float, y_in: float) -> tuple[Overlay, tuple[int, ...]]:
        """A blast circle at a point and every unit in it (friend or foe)."""
        w = state.catalog.weapon(weapon)
        circle = Circle(x_in, y_in, w.radius_in or 0.0)
        caught = tuple(u.unit_id for u in state.on_table() if u.status is Status.ACTIVE and circle.touches(u.footprint))
        return Overlay("blast", circle, f"{w.name} Radius {w.radius_in:g}\"", None, caught), caught

    # -- explaining the log ---------------------------------------------------------------------

    def explain(self, event: RulesEvent) -> tuple[str, ...]:
        """Sentences re-rendered from an event's recorded result (what a replay shows)."""
        data = event.outcome
        kind = data.get("type") if isinstance(data, Mapping) else None
        if kind == "AttackResult":
            return tuple(narrate_attack(from_jsonable(AttackResult, data)))
        if kind == "TreatmentResult":
            return tuple(narrate_treatment(from_jsonable(TreatmentResult, data)))
        if kind == "DamageResult":
            return tuple(narrate_damage(from_jsonable(DamageResult, data)))
        if kind == "InitiativeResult":
            return tuple(narrate_initiative(from_jsonable(InitiativeResult, data)))
        return (event.summary,)

    # -- what the debrief lists (rules/downrange/debriefed.py) ------------------------------------

    # -- every other action (rules/downrange/table_actions.py) ----------------------------------

    def actions_for(self, state: GameState, unit_id: int) -> tuple[ActionForm, ...]:
        return table_actions.actions_for(state, unit_id)

    def action_form(self, state: GameState, request: ActionRequest) -> ActionForm:
        return table_actions.action_form(state, request)

    def action_odds(self, state: GameState, request: ActionRequest) -> tuple[TargetOdds, ...]:
        return table_actions.action_odds(state, request)

    def action_legend(self, state: GameState, request: ActionRequest) -> OddsLegend:
        return table_actions.action_legend(state, request)

    def resolve_action(self, state: GameState, request: ActionRequest, dice: DiceSource) -> Resolution:
        return table_actions.resolve_action(state, request, dice)

    def action_request(self, action: Any) -> ActionRequest | None:
        return table_actions.request_for(action)

    def action_summaries(self, event: RulesEvent) -> tuple[str, ...]:
        return table_actions.action_summaries(event)

    def engagements(self, event: RulesEvent, game: GameState | None = None) -> tuple[EngagementView, ...]:
        return debriefed.engagements(event)

    def casualties(self, event: RulesEvent) -> tuple[CasualtyView, ...]:
        return debriefed.casualties(event)

    def emissions(self, event: RulesEvent) -> tuple[EmissionView, ...]:
        return debriefed.emissions(event)

    def locators(self, game: GameState) -> tuple[LocatorView, ...]:
        return debriefed.locators(game)

    def comms(self, event: RulesEvent) -> tuple[CommsView, ...]:
        return debriefed.comms(event)

    def recorded_rolls(self, event: RulesEvent, game: GameState | None = None) -> tuple[RollView, ...]:
        return debriefed.recorded_rolls(event, game)


def distance_report(state: GameState, a: int, b: int) -> float:
    """Base-to-base distance between two units, as the rules measure it."""
    return gap_in(state.unit(a).footprint, state.unit(b).footprint)


def point_distance(state: GameState, unit_id: int, x_in: float, y_in: float) -> float:
    return distance_to_point_in(state.unit(unit_id).footprint, x_in, y_in)

