"""Force on Force behind the ruleset-neutral interface (:class:`rules.ruleset.Ruleset`).

Every figure has its own tag and its own :class:`~rules.ruleset.UnitView` (``group`` = its unit);
:meth:`ForceOnForce.groups` lists the units (fireteams, vehicles). Requests name a unit by the tag id
of any of its figures. The "attack" is a unit's fire: the line-of-sight and line-of-fire checks the
excerpt gives, then the test the players name (opposed Troop Quality by default, with die shifts and
modifiers). ``TargetOdds.p_hit`` and ``p_kill`` are both the probability that the firing unit wins
that test -- what a win does (fire combat) is not in the excerpt -- and ``outcomes`` lists the three
exact outcomes.

>>> from rules.ruleset import get_ruleset, AttackRequest
>>> from rules.forceonforce.examples.patrol import load_scenario
>>> fof = get_ruleset("force-on-force")
>>> state = fof.new_game(load_scenario())
>>> odds = fof.attack_odds(state, AttackRequest(10, "Fire", (30,)))
>>> odds[0].name, odds[0].allowed, odds[0].reason
('Cell 1', False, 'Regulars may not fire with friends in the line of fire: Bravo (A.8)')
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rules.dice import DiceSource
from rules.errors import RulesError
from rules.events import RulesEvent
from rules.forceonforce import actions as A
from rules.forceonforce.dispatch import apply_action
from rules.forceonforce import debriefed
from rules.forceonforce import edit_form as edit_forms
from rules.forceonforce import turn_box as turn_boxes
from rules.forceonforce.checks import (CheckResult, OpposedResult, CheckSide, opposed_odds, p_pass, resolve_check,
                                       resolve_opposed, shifted)
from rules.forceonforce.cohesion import cohesion_of
from rules.forceonforce.fire import FireCheck, check_fire, firepower
from rules.forceonforce.hotspots import ReinforcementResult, resolve_reinforcement
from rules.forceonforce.initiative import InitiativeResult, declared_initiative, resolve_initiative
from rules.forceonforce.leaders import MoraleSource, leader_of, morale_for, needs_quality_check
from rules.forceonforce.narration import (narrate_activation, narrate_fire, narrate_initiative, narrate_reinforcement,
                                          narrate_test)
from rules.forceonforce.results import ActivationResult, FireResult, TestRecord
from rules.forceonforce.scenario import game_from_scenario
from rules.forceonforce.state import FigureStatus, FofState, Team, TroopType
from rules.geometry import Circle, Segment
from rules.ruleset import (Ruleset, AttackRequest, Declaration, GroupView, OddsLegend, Overlay, Resolution, TargetOdds,
                           TargetProposal, UnitView, WeaponView)
from rules.ruleset import CasualtyView, EditForm, EngagementView, FrontEnd, RollView, TurnBox, TurnCommand
from rules.serialize import from_jsonable

if TYPE_CHECKING:  # the ground's sight is imported when asked for (propose_from_ground)
    from rules.terrain_sight import Ground, GroundDeclarations

DIE_CHOICES = ("troop quality", "morale")
FIRE = "Fire"

DECLARATIONS: tuple[Declaration, ...] = (
    Declaration("test", "Test for this fire", "attack", "choice", ("opposed", "unopposed", "none"), "opposed",
                "Firing is an opposed roll: 4+ and higher than the target (A.3). The fire-combat procedure itself "
                "is not in the excerpt; 'none' only checks line of sight and line of fire.", short="Test"),
    Declaration("firer_die", "Firing unit's die", "attack", "choice", DIE_CHOICES, "troop quality", short="Die"),
    Declaration("firer_shift", "Die shifts of the firing unit (+1 up, -1 down)", "attack", "int", (), 0,
                short="Die shifts"),
    Declaration("firer_modifier", "Modifier to the firing unit's roll", "attack", "int", (), 0, short="Modifier"),
    Declaration("firers_seeing", "Figures of the firing unit that see the target (blank: all)", "attack", "int",
                (), None, "Half or more must see it (A.7).", short="Figures that see"),
    Declaration("line_of_sight", "Centre-to-centre line of sight is clear", "target", "bool", (), True,
                "Buildings, high walls, deep trenches block it (A.7).", short="Line of sight clear"),
    Declaration("target_visible", "Figures of the target that are visible (blank: all)", "target", "int", (), None,
                "Less than half visible: it cannot be fired upon (A.7).", short="Figures visible"),
    Declaration("target_die", "Target unit's die", "target", "choice", DIE_CHOICES, "troop quality", short="Die"),
    Declaration("target_shift", "Die shifts of the target (+1 up, -1 down)", "target", "int", (), 0,
                short="Die shifts"),
    Declaration("target_modifier", "Modifier to the target's roll", "target", "int", (), 0, short="Modifier"),
)
_ATTACK_KEYS = {d.key for d in DECLARATIONS if d.scope == "attack"}
#: What the odds of a fire mean, per test (the excerpt stops before what a won test does).
_FIRE_ODDS = {
    "opposed": OddsLegend("wins", None, "the firing unit wins the opposed test (4+ and higher than the target); "
                          "what a win does is fire combat, not in the excerpt", "", shots=False, max_targets=1,
                          refused="may not fire", whose="the firing unit"),
    "unopposed": OddsLegend("passes", None, "the firing unit passes its test (4+); what that does is fire combat, "
                            "not in the excerpt", "", shots=False, max_targets=1, refused="may not fire",
                            whose="the firing unit"),
    "none": OddsLegend("may fire", None, "no test: only line of sight and line of fire are checked", "", shots=False,
                       max_targets=1, refused="may not fire", whose="the firing unit"),
}
_TARGET_KEYS = {d.key for d in DECLARATIONS if d.scope == "target"}


def _int(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"declaration {key} = {value!r}: give a whole number")
    return value


#: A unit's token when its figures do not hold together.
OUT_OF_COHESION = "out of cohesion"


class ForceOnForce(Ruleset):
    """The Force on Force rule system (the rulebook excerpt, pp. 21-30)."""

    name = "force-on-force"
    title = "Force on Force"
    has_groups = True
    has_turn_box = True
    uses_elevation = True
    pose_options = ("z_in",)
    front_end = FrontEnd(dice_hint="each force's dice in turn, e.g. [2 3 7] [4 6]; a test's die, e.g. 5 (empty: virtual dice)",
                         measured="centre to centre",
                         overlays=("cohesion", "line_of_fire", "hot_spots"))

    def edit_action(self, unit_id: int, changes: Mapping[str, Any]) -> A.EditFigure:
        """A figure's status, elevation, leader qualities by hand."""
        return A.EditFigure(unit_id, dict(changes))

    def group_edit_action(self, group_name: str, changes: Mapping[str, Any]) -> A.EditTeam:
        """A unit's defensive position, Supplies, Confidence, Troop Quality, Morale, Firepower by hand."""
        return A.EditTeam(group_name, dict(changes))

    def edit_form(self, state: FofState, unit_id: int) -> EditForm:
        """The figure's fields and its unit's (rules/forceonforce/edit_form.py)."""
        return edit_forms.edit_form(state, unit_id)

    # -- what the turn panel's initiative-test box shows and does ---------------------------------

    def turn_box(self, state: FofState, values: Mapping[str, Any]) -> TurnBox:
        """The initiative test, a force's procedures, the unit's leader and elements (rules/forceonforce/turn_box.py)."""
        return turn_boxes.turn_box(self, state, values)

    def turn_command(self, state: FofState, button: str, values: Mapping[str, Any]) -> TurnCommand | None:
        return turn_boxes.turn_command(self, state, button, values)

    def last_initiative(self, state: FofState) -> InitiativeResult | None:
        """The last initiative result logged, or None before the first."""
        for e in reversed(state.events):
            if e.kind == "initiative" and isinstance(e.outcome, dict) and e.outcome.get("type") == "InitiativeResult":
                return from_jsonable(InitiativeResult, e.outcome)
        return None

    def initiative_preview(self, state: FofState) -> tuple[Any, Mapping[str, Fraction]]:
        """Each force's initiative dice for the next test, and the exact odds each takes the initiative."""
        from rules.forceonforce.initiative import initiative_odds, side_pools

        pools = side_pools(state)
        return pools, initiative_odds(pools, previous=state.initiative, success=state.data.success)

    def pass_odds(self, state: FofState, side: CheckSide) -> Fraction:
        """The chance one side of a test passes it alone."""
        return p_pass(side.sides, modifier=side.modifier, target=state.data.success)

    def opposed_test_odds(self, state: FofState, first: CheckSide, second: CheckSide) -> Any:
        """The exact odds of an opposed test (``p_first``, ``p_second``, ``p_nobody``)."""
        return opposed_odds(first.sides, second.sides, first_modifier=first.modifier, second_modifier=second.modifier,
                            target=state.data.success)

    def join_leader_action(self, figure_id: int, team: str) -> A.JoinLeader:
        return A.JoinLeader(figure_id, team)

    def detach_leader_action(self, figure_id: int) -> A.DetachLeader:
        return A.DetachLeader(figure_id)

    def merge_action(self, element: str, into: str) -> A.Merge:
        return A.Merge(element, into)

    def split_action(self, team: str, figures: tuple[int, ...], name: str) -> A.Split:
        return A.Split(team, figures, name)

    def neutralise_action(self, hot_spot: int, team: str) -> A.NeutraliseHotSpot:
        return A.NeutraliseHotSpot(hot_spot, team)

    # -- games and states -----------------------------------------------------------------------

    def new_game(self, scenario: Mapping[str, Any], *, source: str = "<scenario>",
                 base_dir: str | None = None) -> FofState:
        return game_from_scenario(scenario, source=source, base_dir=base_dir)

    def load_state(self, data: Mapping[str, Any]) -> FofState:
        return FofState.from_json(data)

    def apply(self, state: FofState, action: A.Action) -> FofState:
        return apply_action(state, action)

    def _team_tokens(self, state: FofState, team: Team) -> list[str]:
        out = [f"{team.troop_type.value.capitalize()} TQ D{team.quality} Morale D{team.morale}"]
        if not cohesion_of(state, team).is_connected:
            out.append(OUT_OF_COHESION)
        if team.defensive:
            out.append("defensive position")
        if team.supplies != state.data.supplies().name:
            out.append(f"{team.supplies} Supplies")
        if team.confidence != state.data.confidence():
            out.append(f"{team.confidence} Confidence")
        for flag, word in ((team.finished, "finished"), (team.fired, "fired"), (team.activated, "activated"),
                           (team.move_locked, "may fire, not move")):
            if flag:
                out.append(word)
        if team.leader is not None:
            out.append(self._leader_words(state, team))
        return out

    def _leader_words(self, state: FofState, team: Team) -> str:
        if team.leader is None:
            return ""
        leader = state.figure(team.leader)
        return f"led by {leader.name}" if leader_of(state, team) else f"{leader.name} out of cohesion"

    def units(self, state: FofState) -> tuple[UnitView, ...]:
        """One view per figure; ``group`` is its unit, tokens carry the unit's state."""
        out = []
        team_tokens = {t.name: self._team_tokens(state, t) for t in state.teams}
        stragglers: set[int] = set()
        for t in state.teams:
            stragglers |= cohesion_of(state, t).stragglers
        for f in state.figures:
            tokens: list[str] = []
            weapons: tuple[str, ...] = ()
            if f.team is not None:
                tokens += team_tokens[f.team]
                weapons = (FIRE,)
                if f.figure_id in stragglers:
                    tokens.append("straggler")
            if f.is_leader:
                effect = f" {f.leader_effect:+d}" if f.leader_effect else ""
                tokens.append(f"{f.leader_level} leader{effect}" + (f", Morale D{f.morale}" if f.morale else ""))
                led = [t.name for t in state.teams if t.leader == f.figure_id]
                if led:
                    tokens.append(f"attached to {led[0]}")
            if f.civilian:
                tokens.append("civilians")
            if f.z_in:
                tokens.append(f"elevation {f.z_in:g}\"")
            type_name = f"{f.leader_level} leader" if f.is_leader else ("civilians" if f.civilian else f.role)
            out.append(UnitView(f.figure_id, f.name, f.side, type_name, f.x_in, f.y_in, f.heading_deg, f.footprint,
                                f.on_table, f.status.value, tuple(tokens), math.inf, math.inf, weapons, f.team,
                                z_in=f.z_in))
        return tuple(out)

    def groups(self, state: FofState) -> tuple[GroupView, ...]:
        out = []
        for t in state.teams:
            members = state.members(t)
            if not members:
                continue
            c = state.centre(t)
            status = "out of action" if state.is_out_of_action(t) else "active"
            cohesion = cohesion_of(state, t)
            tokens = tuple(self._team_tokens(state, t))
            leader = self._leader_words(state, t)
            out.append(GroupView(state.team_id(t), t.name, t.side, tuple(f.figure_id for f in members),
                                 cohesion.is_connected, c.x_in, c.y_in, status, tokens, t.leader, leader,
                                 tuple(sorted(cohesion.stragglers)),
                                 tuple(w for w in tokens if w not in (leader, OUT_OF_COHESION))))
        return tuple(out)

    def weapons(self, state: FofState, unit_id: int) -> tuple[WeaponView, ...]:
        fig = state.figure(unit_id)
        if fig.team is None:
            return ()
        team = state.team(fig.team)
        return (WeaponView(FIRE, math.inf, difficulty=state.data.success, damage=f"Firepower {firepower(state, team)}"),)

    def declarations(self) -> tuple[Declaration, ...]:
        return DECLARATIONS

    def set_pose(self, state: FofState, unit_id: int, x_in: float, y_in: float, heading_deg: float, *,
                 moved_in: float | None = None, on_table: bool = True, z_in: float | None = None) -> FofState:
        return state.apply(A.SetPose(unit_id, x_in, y_in, heading_deg, moved_in, on_table, z_in))

    # -- fire -------------------------------------------------------------------------------------

    def _check(self, state: FofState, request: AttackRequest) -> tuple[Team, Team, FireCheck, dict[str, Any], dict[str, Any]]:
        d = dict(request.declarations)
        unknown = set(d) - _ATTACK_KEYS
        if unknown:
            raise RulesError(f"unknown fire declaration {sorted(unknown)[0]!r}: use {', '.join(sorted(_ATTACK_KEYS))}")
        targets = list(request.target_ids) or list(request.target_declarations)
        if len(targets) != 1:
            raise RulesError(f"a unit fires at one target unit; {len(targets)} were given")
        td = dict(request.target_declarations.get(targets[0], {}))
        unknown = set(td) - _TARGET_KEYS
        if unknown:
            raise RulesError(f"unknown target declaration {sorted(unknown)[0]!r}: use {', '.join(sorted(_TARGET_KEYS))}")
        firer, target = state.team(request.attacker_id), state.team(targets[0])
        seeing = d.get("firers_seeing")
        visible = td.get("target_visible")
        check = check_fire(state, firer, target, line_of_sight=bool(td.get("line_of_sight", True)),
                           firers_seeing=None if seeing is None else _int(seeing, "firers_seeing"),
                           target_visible=None if visible is None else _int(visible, "target_visible"))
        return firer, target, check, d, td

    def _side(self, state: FofState, team: Team, die: Any, shift: Any, modifier: Any, key: str) -> CheckSide:
        if die not in DIE_CHOICES:
            raise RulesError(f"declaration {key}_die = {die!r}: use {' or '.join(DIE_CHOICES)}")
        if die == "morale":
            base, what = morale_for(state, team).sides, "Morale"
        else:
            base, what = team.quality, "Troop Quality"
        steps = _int(shift, f"{key}_shift")
        return CheckSide(team.name, what, base, steps, shifted(state.data.ladder, base, steps), _int(modifier, f"{key}_modifier"))

    def _sides(self, state: FofState, firer: Team, target: Team, d: Mapping[str, Any],
               td: Mapping[str, Any]) -> tuple[CheckSide, CheckSide, str]:
        test = d.get("test", "opposed")
        if test not in ("opposed", "unopposed", "none"):
            raise RulesError(f"declaration test = {test!r}: use opposed, unopposed or none")
        a = self._side(state, firer, d.get("firer_die", "troop quality"), d.get("firer_shift", 0),
                       d.get("firer_modifier", 0), "firer")
        b = self._side(state, target, td.get("target_die", "troop quality"), td.get("target_shift", 0),
                       td.get("target_modifier", 0), "target")
        return a, b, test

    def propose_targets(self, state: FofState, attacker_id: int, weapon: str, *,
                        aim_point: tuple[float, float] | None = None,
                        axis_deg: float | None = None) -> tuple[TargetProposal, ...]:
        """Every other unit with a figure in play, with the line-of-fire verdict (sight assumed clear)."""
        firer = state.team(attacker_id)
        out = []
        for t in state.teams:
            if t.name == firer.name or not state.in_play_members(t):
                continue
            c = check_fire(state, firer, t)
            friendly = t.side == firer.side
            reason = c.reasons[0] if c.reasons else ("friendly" if friendly else "; ".join(c.warnings))
            out.append(TargetProposal(state.team_id(t), t.name, t.side, round(c.centre_distance_in, 6), True, True,
                                      False, True, c.allowed and not friendly, reason,
                                      tuple(f.figure_id for f in state.members(t))))
        return tuple(sorted(out, key=lambda p: (not p.eligible, p.distance_in)))

    def propose_from_ground(self, state: FofState, request: AttackRequest, ground: Ground) -> GroundDeclarations:
        """The relief's proposal for the request's line-of-sight declarations (see rules/terrain_sight.py)."""
        from rules.forceonforce.ground_sight import propose_from_ground

        return propose_from_ground(state, request.attacker_id, request.target_ids, ground)

    def attack_odds(self, state: FofState, request: AttackRequest) -> tuple[TargetOdds, ...]:
        firer, target, check, d, td = self._check(state, request)
        a, b, test = self._sides(state, firer, target, d, td)
        outcomes: tuple[tuple[str, Fraction], ...]
        if test == "opposed":
            o = opposed_odds(a.sides, b.sides, first_modifier=a.modifier, second_modifier=b.modifier,
                             target=state.data.success)
            p_win = o.p_first
            outcomes = ((f"{firer.name} wins", o.p_first), (f"{target.name} wins", o.p_second),
                        ("nobody wins", o.p_nobody))
        elif test == "unopposed":
            p_win = p_pass(a.sides, modifier=a.modifier, target=state.data.success)
            outcomes = (("passes", p_win), ("fails", 1 - p_win))
        else:
            p_win = Fraction(1)
            outcomes = ()
        reason = "; ".join(check.reasons) if check.reasons else "; ".join(check.warnings)
        p = p_win if check.allowed else Fraction(0)
        return (TargetOdds(state.team_id(target), target.name, target.side, 1, check.allowed, reason, p, Fraction(1),
                           p, p, True, roll=test, distance_in=round(check.centre_distance_in, 6),
                           outcomes=outcomes if check.allowed else (),
                           members=tuple(f.figure_id for f in state.members(target))),)

    def odds_legend(self, state: FofState, request: AttackRequest) -> OddsLegend:
        """``p_hit`` (= ``p_kill``) is the firing unit winning its test: "wins" (opposed), "passes"
        (unopposed) or "may fire" (no test); one target unit per fire."""
        return _FIRE_ODDS.get(str(request.declarations.get("test", "opposed")), _FIRE_ODDS["opposed"])

    def resolve_attack(self, state: FofState, request: AttackRequest, dice: DiceSource, *,
                       landing_point: tuple[float, float] | None = None) -> Resolution:
        """Check the fire and roll the test; a fire the rules forbid changes nothing (its reasons are
        the sentences)."""
        firer, target, check, d, td = self._check(state, request)
        a, b, test = self._sides(state, firer, target, d, td)
        if not check.allowed:
            result = FireResult(check)
            return Resolution(result, tuple(narrate_fire(result)), state)
        label = f"{firer.name} fires at {target.name}"
        rolled: OpposedResult | CheckResult | None = None
        if test == "opposed":
            rolled = resolve_opposed(a, b, dice, label=label, target=state.data.success)
        elif test == "unopposed":
            rolled = resolve_check(a, dice, label=label, target=state.data.success)
        result = FireResult(check, rolled)
        return Resolution(result, tuple(narrate_fire(result)), state.apply(A.RecordFire(result)))

    # -- the other procedures -------------------------------------------------------------------

    def activate(self, state: FofState, team_ref: int | str, dice: DiceSource) -> Resolution:
        """A unit activates; an Irregular unit without its leader first passes a Troop Quality check."""
        team = state.team(team_ref)
        check = None
        if needs_quality_check(state, team):
            side = CheckSide(team.name, "Troop Quality", team.quality)
            check = resolve_check(side, dice, label=f"{team.name} acts without a leader (TQ check)",
                                  target=state.data.success)
        result = ActivationResult(team.name, team.side, check, check is None or check.passed, team.move_locked)
        return Resolution(result, tuple(narrate_activation(result)), state.apply(A.RecordActivation(result)))

    def test(self, state: FofState, purpose: str, first: CheckSide, dice: DiceSource, *,
             second: CheckSide | None = None, about: str | None = None) -> Resolution:
        """A generic test the players call for (a morale test, a reaction, first aid...): unopposed,
        or opposed when ``second`` is given. Build the sides with :meth:`test_side`."""
        label = purpose if about is None else f"{purpose} ({about})"
        result: CheckResult | OpposedResult
        if second is None:
            result = resolve_check(first, dice, label=label, target=state.data.success)
        else:
            result = resolve_opposed(first, second, dice, label=label, target=state.data.success)
        record = TestRecord(about, purpose, result)
        return Resolution(record, tuple(narrate_test(record)), state.apply(A.RecordTest(record)))

    def test_side(self, state: FofState, team_ref: int | str, what: str = "troop quality", *, shift: int = 0,
                  modifier: int = 0) -> CheckSide:
        """A unit's side of a test: its Troop Quality, or its Morale (with leader substitution)."""
        return self._side(state, state.team(team_ref), what, shift, modifier, "test")

    def morale(self, state: FofState, team_ref: int | str, *, out_of_sight: tuple[int, ...] = ()) -> MoraleSource:
        return morale_for(state, state.team(team_ref), out_of_sight=out_of_sight)

    def reinforce(self, state: FofState, team_ref: int | str, dice: DiceSource) -> Resolution:
        result = resolve_reinforcement(state, state.team(team_ref), dice)
        return Resolution(result, tuple(narrate_reinforcement(result)), state.apply(A.RecordReinforcement(result)))

    # -- turns ----------------------------------------------------------------------------------

    def start_round(self, state: FofState, dice: DiceSource) -> Resolution:
        """The next game turn: the initiative test (or the scenario's override)."""
        result = resolve_initiative(state, dice)
        return Resolution(result, tuple(narrate_initiative(result)), state.apply(A.StartRound(result)))

    def declare_initiative(self, state: FofState, side: str, reason: str) -> Resolution:
        """The next game turn with initiative given by a scenario event or a Fog of War card."""
        result = declared_initiative(state, side, reason)
        return Resolution(result, tuple(narrate_initiative(result)), state.apply(A.StartRound(result)))

    def start_turn(self, state: FofState, dice: DiceSource) -> Resolution:
        """The next force (initiative force first) starts activating its units."""
        after = state.apply(A.StartTurn())
        return Resolution(None, (after.events[-1].summary,), after)

    def end_turn(self, state: FofState) -> FofState:
        return state.apply(A.EndTurn())

    # -- drawing --------------------------------------------------------------------------------

    def overlays(self, state: FofState, unit_id: int, *, weapon: str | None = None) -> tuple[Overlay, ...]:
        """The cohesion of every unit of the figure's side (links, hull, in or out), the Hot Spots and
        where arriving units may be placed, and the link from each attached leader to his unit."""
        fig = state.figure(unit_id)
        out: list[Overlay] = []
        for t in state.teams_of(fig.side):
            if not state.in_play_members(t):
                continue
            c = cohesion_of(state, t)
            words = "in cohesion" if c.is_connected else f"OUT OF COHESION ({len(c.stragglers)} astray)"
            out.append(Overlay("cohesion", c, f"{t.name}: {words} ({c.link_in:g}\")", t.side,
                               tuple(i for i, _ in c.members)))
            leader = state.attached_leader(t)
            if leader is not None and leader.in_play:
                centre = state.centre(t)
                out.append(Overlay("leader", Segment(leader.x_in, leader.y_in, centre.x_in, centre.y_in),
                                   f"{leader.name} leads {t.name}" if leader_of(state, t) else f"{leader.name} out of cohesion",
                                   t.side, (leader.figure_id,)))
        rules = state.data.hot_spots
        for h in state.hot_spots:
            if h.neutralised:
                continue
            out.append(Overlay("hot spot", Circle(h.x_in, h.y_in, rules.counter_radius_in), f"Hot Spot {h.number}"))
        for t in state.teams:
            if t.arrived_at is not None and any(not f.on_table for f in state.members(t)):
                spot = next((h for h in state.hot_spots if h.number == t.arrived_at), None)
                if spot is not None:
                    out.append(Overlay("hot spot", Circle(spot.x_in, spot.y_in, rules.placement_in),
                                       f"{t.name} arrives within {rules.placement_in:g}\"", t.side,
                                       tuple(f.figure_id for f in state.members(t))))
        return tuple(out)

    def attack_overlays(self, state: FofState, request: AttackRequest) -> tuple[Overlay, ...]:
        """The line of sight (centre to centre) and the 2" line-of-fire corridor with who is in it."""
        firer, target, check, _, _ = self._check(state, request)
        line = check.corridor.line
        inside = tuple(i for x in check.in_line_of_fire for i in x.figure_ids)
        names = ", ".join(f"{x.name} ({x.relation})" for x in check.in_line_of_fire)
        if check.same_elevation:
            label = f"line of fire: {names}" if names else "line of fire clear"
        else:
            label = "line of fire: different elevation, passes over or under"
        return (Overlay("line of sight", line, f"{firer.name} to {target.name} {line.length_in:.1f}\"", firer.side,
                        (state.team_id(firer), state.team_id(target))),
                Overlay("line of fire", check.corridor, label, firer.side, inside))

    # -- explaining the log ---------------------------------------------------------------------

    def explain(self, event: RulesEvent) -> tuple[str, ...]:
        data = event.outcome
        kind = data.get("type") if isinstance(data, Mapping) else None
        if kind == "InitiativeResult":
            return tuple(narrate_initiative(from_jsonable(InitiativeResult, data)))
        if kind == "FireResult":
            return tuple(narrate_fire(from_jsonable(FireResult, data)))
        if kind == "ActivationResult":
            return tuple(narrate_activation(from_jsonable(ActivationResult, data)))
        if kind == "TestRecord":
            return tuple(narrate_test(from_jsonable(TestRecord, data)))
        if kind == "ReinforcementResult":
            return tuple(narrate_reinforcement(from_jsonable(ReinforcementResult, data)))
        return (event.summary,)

    # -- what the debrief lists (rules/forceonforce/debriefed.py) ---------------------------------

    def engagements(self, event: RulesEvent, game: FofState | None = None) -> tuple[EngagementView, ...]:
        return debriefed.engagements(event, game)

    def casualties(self, event: RulesEvent) -> tuple[CasualtyView, ...]:
        return debriefed.casualties(event)

    def recorded_rolls(self, event: RulesEvent, game: FofState | None = None) -> tuple[RollView, ...]:
        return debriefed.recorded_rolls(event, game)


__all__ = ["ForceOnForce", "DECLARATIONS", "FigureStatus", "TroopType"]
