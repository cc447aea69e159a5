"""The rulebook's in-depth example (section 6) as a script: units, who does what when, which dice.

The forces are in ``in_depth.toml`` (a normal scenario file). :data:`STEPS` lists what happens, in
order: tracked moves (:class:`Pose`), plain actions, and rolls with the dice the text states
(:class:`Attack`, :class:`Initiative`, :class:`Treat`). :func:`play` runs the steps through the rules
engine and yields what each one came to; ``sandtable demo`` narrates it, the tests check it against
the text, and the full demo can drive the synthetic table from :func:`synthetic_keyframes`.

Where the text contradicts itself the step's ``note`` says which reading the script takes (the
choices follow ../shared/rules/down-range.md, "Worked examples as test cases").
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rules import scripted_game as scripted
from rules.downrange import actions as A
from rules.downrange.attack import attack_odds, resolve_attack
from rules.downrange.declarations import AttackSetup, Level, TargetSpec
from rules.downrange.medicine import resolve_treatment
from rules.downrange.narration import narrate_attack, narrate_initiative, narrate_treatment
from rules.downrange.results import AttackResult, InitiativeResult, TreatmentResult
from rules.downrange.scenario import IN_DEPTH_SCENARIO, demo_state
from rules.downrange.state import GameState
from rules.downrange.turns import roll_initiative
from rules.record_fields import read_toml_file
from rules.ruleset import TargetOdds
from rules.scripted_game import Pose

SCENARIO_PATH = IN_DEPTH_SCENARIO

MARINES, PLA = "Marines", "PLA Marine Corps"
SERGEANT, GUNNER, ASSISTANT, MAAWS, CORPSMAN, UTV, HORNET = 10, 11, 12, 13, 14, 15, 16
OFFICER, AR, AT, R1, R2, R3, R4, R5, ZBL, ENEMY_UAS = 30, 31, 32, 33, 34, 35, 36, 37, 40, 41


@dataclass(frozen=True)
class Attack:
    """An attack with the dice the text states (entered in the order the rules ask for them)."""

    setup: AttackSetup
    dice: tuple[Any, ...]
    landing: tuple[float, float] | None = None


@dataclass(frozen=True)
class Initiative:
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Treat:
    medic: int
    patient: int
    dice: tuple[int, ...]
    assistants: tuple[int, ...] = ()


Item = Any  # Pose | Attack | Initiative | Treat | an Action


@dataclass(frozen=True)
class Step:
    """One step of the example: the section, what the rulebook narrates, what happens, and what
    the rulebook says comes of it."""

    section: str
    title: str
    text: str
    items: tuple[Item, ...]
    expect: str
    note: str = ""


def _spot(uid: int, **kw: Any) -> TargetSpec:
    return TargetSpec(uid, **kw)


STEPS: tuple[Step, ...] = (
    Step("6.1", "Initiative", "The Marine player rolls his d10 for initiative: 5 against the other player's 3.",
         (Initiative((5, 3)), A.StartTurn()),
         "The Marines take the first turn."),
    Step("6.2 a", "Set-up", "The mortar team sets up a firing position; the MAAWS gunner fills sandbags around it.",
         (A.Focus(GUNNER, "set up the mortar"), A.Focus(ASSISTANT, "set up the mortar"),
          A.TakeAction(MAAWS, "fill sandbags around the mortar position")),
         "Sandbags give the mortar position partial cover and concealment: Disadvantage to direct fire and to "
         "indirect fire that does not land head-on."),
    Step("6.2 b", "UAS launch", "The sergeant Focuses and Signals to pilot the Black Hornet, which enters next to "
         "him and flies up to its Move of 24\" over a hill.",
         (A.ControlRpv(SERGEANT, HORNET, launch=True), Pose(HORNET, 33.0, 27.0, 0.0)),
         "The sergeant takes an emission token (until the start of the Marines' next turn) and cannot move.",
         "Table 4-1's small UAS has Move 48; the example's Black Hornet has 24."),
    Step("6.2 c", "Sighting", "The Black Hornet sights the enemy squad, about 15\" away and about 30\" from the "
         "Marines; the MAAWS gunner and corpsman set in behind cover.",
         (Pose(MAAWS, 14.5, 30.0), Pose(CORPSMAN, 18.5, 30.0), A.EndTurn()),
         "The sergeant sees what the UAS sees. With no enemy EW unit, his emission goes unexploited.",
         "6.4.2 later puts the enemy about 60\" away; the script keeps 6.2's 30\", which its later steps need."),
    Step("6.3 a", "Dismount", "The ZBL-09 moves up; its squad dismounts through the rear hatch and forms a screen; "
         "the officer Focuses to launch his own UAS.",
         (A.StartTurn(), Pose(ZBL, 44.0, 25.0, 180.0),
          *(A.Disembark(u, 46.9, 25.0) for u in (AT, R1, R2, R4, R5)),
          Pose(AT, 40.0, 27.5, 180.0), Pose(R1, 40.0, 22.5, 180.0), Pose(R2, 41.5, 20.0, 180.0),
          Pose(R4, 53.0, 27.0, 180.0), Pose(R5, 51.5, 30.5, 180.0), Pose(AR, 43.0, 24.0, 180.0),
          A.ControlRpv(OFFICER, ENEMY_UAS, launch=True), Pose(ENEMY_UAS, 30.0, 42.0, 180.0), A.EndTurn()),
         "A standard disembark: no Focus; the troops and the IFV move at full speed. The officer does not move."),
    Step("6.3 b", "Initiative", "The Marine player again wins the initiative roll.",
         (Initiative((7, 4)), A.StartTurn()),
         "The Marines go first in round 2.", "The dice are not stated; the script rolls 7 against 4."),
    Step("6.4.1", "Visibility", "The sergeant stops Signalling and the Black Hornet returns to him. The mortar "
         "team cannot see the enemy, but the sergeant, within his Move of 8\", tells them by voice.",
         (A.ReleaseRpv(SERGEANT),),
         "The mortar may attack on the sergeant's sighting, passed by voice (no Signal, no token)."),
    Step("6.4.2-6.4.4", "Mortar fire", "The mortar, assisted by the assistant gunner (+1), aims at a point that "
         "catches five enemy soldiers in its 12\" Radius; the ZBL-09 is in the radius too. The gunner rolls 4; "
         "Damage 2d8 rolls 4 (officer), 4 (automatic rifleman), 3 (AT missileman), and 6 for each rifleman.",
         (Attack(AttackSetup(GUNNER, "60 mm mortar", tuple(_spot(u, line_of_sight=False, spotter=SERGEANT)
                                                             for u in (OFFICER, AR, AT, R1, R2)),
                             aim_x_in=37.5, aim_y_in=25.0, assistants=(ASSISTANT,)),
                 (4, 4, 4, 3, 6, 6)),),
         "4 + 1 = 5 meets Difficulty 5: hit (p_hit 1/2). Officer, automatic rifleman and AT missileman survive "
         "(4, 4, 3 < 5); both riflemen are killed. The ZBL-09 is not affected: 2d8 cannot hurt Defense 2d10.",
         "The Radius is the example's 12\" (variant mortar-60mm-radius-12; Table 3-2: 6\"). The riflemen's "
         "'16' is read as 6 (any value of 5 or more gives the same outcome)."),
    Step("6.4.4 b", "Reactions", "The mortar crew stays put (Focused). The sergeant and the corpsman reposition "
         "off to the side of the likely approach and ready a Reaction; the MAAWS gunner readies one too.",
         (Pose(SERGEANT, 25.0, 24.5), A.ReadyReaction(SERGEANT), Pose(CORPSMAN, 26.0, 29.0),
          A.ReadyReaction(CORPSMAN), A.ReadyReaction(MAAWS), A.EndTurn()),
         "Sergeant, corpsman and MAAWS gunner hold Reactions until the start of the Marines' next turn.",
         "The text does not say the MAAWS gunner readied a Reaction, but he uses one in 6.5."),
    Step("6.5 a", "Main Effort", "The enemy officer uses his Action to make the ZBL-09 his Main Effort.",
         (A.StartTurn(), A.DesignateMainEffort(OFFICER, ZBL)),
         "The ZBL-09 has Advantage on its Skill rolls for the rest of the enemy turn."),
    Step("6.5 b", "MAAWS Reaction", "The MAAWS gunner fires at the ZBL-09 as a Reaction, before it acts, and "
         "rolls 1.",
         (Attack(AttackSetup(MAAWS, "Carl Gustaf / MAAWS", (_spot(ZBL),), reaction=True), (1,), landing=(44.0, 16.5)),),
         "An automatic failure; ammunition 4 -> 3. The rocket sails off harmlessly.",
         "By 3.2.4.1 the round still lands within (6/2) x (4 - 1) = 9\"; the enemy player (most units in the "
         "intended radius) chooses a point where it hurts nobody."),
    Step("6.5.1", "Autocannon", "The ZBL-09's commander fires the autocannon (Fan 4) with the gunner assisting "
         "(+1): two shots at the UTV with Advantage, rolling (6, 2) and (4, 1); two at the mortar team behind its "
         "sandbags, rolling 2 and 6. Damage 12 against the UTV's Defense roll of 8; 10 against the mortar team.",
         (Attack(AttackSetup(ZBL, "Autocannon", (_spot(UTV, shots=2), _spot(GUNNER, shots=2, cover=Level.PARTIAL)),
                             crew_assistants=1),
                 ((6, 2), (4, 1), 12, 8, 2, 6, 10)),),
         "UTV: 6 + 1 = 7 hits, 4 + 1 = 5 misses ((4, 1) keeps the 4: no automatic failure); 12 >= 8 destroys it. "
         "Mortar team: Advantage (Main Effort) and Disadvantage (cover) cancel; 2 + 1 misses, 6 + 1 hits; "
         "10 >= 5: the team is killed and the mortar destroyed.",
         "The text's '7' for a d6 is read as a natural 6 (+1 = 7); its 'damage roll of 10' against the UTV is a "
         "garbled icon for the 12 it totals."),
    Step("6.5.2", "Marine Reactions", "The enemy infantry advances. The sergeant's Reaction: M4 at the automatic "
         "rifleman, Skill 6, Damage 6. The corpsman's Reaction: a sprint behind the UTV wreck.",
         (Pose(AR, 36.0, 24.5), Pose(AT, 33.0, 27.5), Pose(R3, 38.5, 33.0),
          Attack(AttackSetup(SERGEANT, "M4/M16", (_spot(AR),), reaction=True), (6, 6)),
          A.Sprint(CORPSMAN, reaction=True), Pose(CORPSMAN, 20.0, 27.5)),
         "6 >= 3 hits; 6 >= 5: the automatic rifleman is killed. The corpsman moves up to 8\" as a Reaction.",
         "The text says four infantrymen advance; the later counts need the AT missileman and a rifleman here "
         "and two riflemen plus the officer at the ZBL-09."),
    Step("6.5.3", "AT missile", "The AT missileman fires at the sergeant and the corpsman behind partial cover "
         "(Disadvantage): (6, 2), keeps 2 against Difficulty 4. The Marine player picks where it lands; Damage "
         "2d10 rolls 8 for the missileman and 7 for a rifleman next to him.",
         (Attack(AttackSetup(AT, "AT missile (example 6.5.3)", (_spot(SERGEANT, cover=Level.PARTIAL),
                                                                _spot(CORPSMAN, cover=Level.PARTIAL)),
                             aim_x_in=28.0, aim_y_in=27.5),
                 ((6, 2), 8, 7), landing=(34.5, 31.0)),),
         "A miss; miss radius (8/2) x (4 - 2) = 8\"; the Marines had the most units in the intended radius and "
         "choose; the missileman and the rifleman are both killed.",
         "The text says 'missed by 4' but the margin is 2, as its own formula uses."),
    Step("6.5.3 d", "Re-embark", "The two remaining infantrymen and the officer use their Move to get back into "
         "the ZBL-09.",
         (Pose(R4, 46.9, 25.8), A.Board(R4, ZBL), Pose(R5, 46.9, 24.2), A.Board(R5, ZBL),
          Pose(OFFICER, 46.9, 25.0), A.Board(OFFICER, ZBL), A.EndTurn()),
         "Their tokens leave the table."),
    Step("6.6 a", "Initiative and Main Effort", "The Marines win initiative again. The sergeant makes the MAAWS "
         "gunner his Main Effort and moves behind the UTV wreck.",
         (Initiative((8, 2)), A.StartTurn(), A.DesignateMainEffort(SERGEANT, MAAWS), Pose(SERGEANT, 20.0, 25.5)),
         "The MAAWS gunner has Advantage this turn.", "Initiative dice not stated; the script rolls 8 against 2."),
    Step("6.6 b", "MAAWS", "The MAAWS gunner fires (ammunition 3 -> 2) with Advantage: (6, 2) keeps 6 against "
         "Difficulty 4. Damage 2d10 rolls 14 against the ZBL-09's Defense roll of 13.",
         (Attack(AttackSetup(MAAWS, "Carl Gustaf / MAAWS", (_spot(ZBL),)), ((6, 2), 14, 13)),),
         "Hit; d10 against d10 may damage; 14 >= 13: the ZBL-09 is destroyed and everyone aboard (the officer "
         "and two riflemen) dies with it, none having a bail-out Reaction ready.",
         "The text's troops 'staggering out, burning' is flavour."),
    Step("6.6 c", "To the wounded", "With the threat gone, the corpsman moves to the downed mortarmen.",
         (Pose(CORPSMAN, 14.95, 24.6), A.EndTurn(), A.StartTurn(), A.EndTurn()),
         "The corpsman is next to the mortar team."),
    Step("6.6.1 a", "First treatment", "Next turn the corpsman Focuses to treat a downed mortarman: as a medical "
         "specialist he rolls a d8 and gets 6. The sergeant moves to the site.",
         (Initiative((9, 1)), A.StartTurn(), Treat(CORPSMAN, GUNNER, (6,)), Pose(SERGEANT, 15.5, 23.0),
          A.EndTurn(), A.StartTurn(), A.EndTurn()),
         "Table 2-2, 6-8: the Marine is back in play, Injured (Disadvantage on everything, half Movement).",
         "Initiative dice not stated; the script rolls 9 against 1."),
    Step("6.6.1 b", "Second treatment", "The sergeant Focuses to assist (+1); the corpsman rolls 8, +1 = 9.",
         (Initiative((6, 2)), A.StartTurn(), Treat(CORPSMAN, ASSISTANT, (8,), assistants=(SERGEANT,)), A.EndTurn(),
          A.StartTurn(), A.EndTurn()),
         "9+: the second (still downed) mortarman is back in play with no ill effects.",
         "Read as treating the second mortarman; the already-Injured one could only come back Injured."),
    Step("6.6.1 c", "Extraction", "On the last turn the sergeant Signals by radio to call for extraction.",
         (Initiative((7, 3)), A.StartTurn(), A.Signal(SERGEANT, "other")),
         "He takes an emission token."),
)


@dataclass(frozen=True)
class StepRecord(scripted.StepRecord[GameState]):
    """What one step came to: the state after it, the sentences, the odds shown before each roll,
    and the results of every roll."""

    @property
    def attacks(self) -> tuple[AttackResult, ...]:
        return tuple(r for r in self.results if isinstance(r, AttackResult))

    @property
    def treatments(self) -> tuple[TreatmentResult, ...]:
        return tuple(r for r in self.results if isinstance(r, TreatmentResult))

    @property
    def initiatives(self) -> tuple[InitiativeResult, ...]:
        return tuple(r for r in self.results if isinstance(r, InitiativeResult))


def load_scenario() -> dict[str, Any]:
    return read_toml_file(SCENARIO_PATH, what="scenario file")


def initial_state() -> GameState:
    """The forces at the start of the example."""
    return demo_state()


def _odds_line(o: TargetOdds) -> str:
    if not o.allowed:
        return f"  {o.name}: not allowed ({o.reason})"
    shots = f", {o.shots} attacks: p(kill) {float(o.p_kill_any):.3f}" if o.shots > 1 else ""
    return (f"  {o.name}: p(hit) {o.p_hit} = {float(o.p_hit):.3f}, p(kill) {o.p_kill} = {float(o.p_kill):.3f}"
            f"{shots}")


def play_step(state: GameState, step: Step) -> StepRecord:
    """Apply one step to ``state``."""
    run = scripted.StepRun(state)
    for item in step.items:
        if isinstance(item, Pose):
            unit = run.state.unit(item.unit)
            heading = unit.heading_deg if item.heading_deg is None else item.heading_deg
            run.state = run.state.apply(A.SetPose(item.unit, item.x_in, item.y_in, heading))
            moved = run.state.unit(item.unit).moved_in - unit.moved_in
            run.lines.append(f"{unit.name} moves {moved:.1f}\" to ({item.x_in:g}, {item.y_in:g}).")
        elif isinstance(item, Attack):
            run.show_odds(attack_odds(run.state, item.setup), _odds_line)
            with run.dice(item.dice) as dice:
                result = resolve_attack(run.state, item.setup, dice, landing=item.landing)
            run.results.append(result)
            run.lines += narrate_attack(result, vehicles={u.unit_id for u in run.state.units if u.is_vehicle},
                                        names={u.unit_id: u.name for u in run.state.units})
            run.state = run.state.apply(A.RecordAttack(result))
        elif isinstance(item, Initiative):
            with run.dice(item.dice, all_used=False) as dice:
                result_i = roll_initiative(run.state, dice)
            run.results.append(result_i)
            run.lines += narrate_initiative(result_i)
            run.state = run.state.apply(A.StartRound(result_i))
        elif isinstance(item, Treat):
            with run.dice(item.dice, all_used=False) as dice:
                result_t = resolve_treatment(run.state, item.medic, item.patient, dice, assistants=item.assistants)
            run.results.append(result_t)
            run.lines += narrate_treatment(result_t)
            run.state = run.state.apply(A.RecordTreatment(result_t))
        else:
            before = len(run.state.events)
            run.apply(item, keep=lambda e: e.kind != "turn")
            if isinstance(item, (A.StartTurn, A.EndTurn)):
                run.lines += [e.summary for e in run.state.events[before:] if e.kind == "turn"]
    return StepRecord(step, run.state, tuple(run.lines), tuple(run.odds), tuple(run.results))


def play(steps: Sequence[Step] = STEPS, state: GameState | None = None) -> Iterator[StepRecord]:
    """Run the example step by step."""
    return scripted.play_steps(steps, state or initial_state(), play_step)


def gun_team_riders(state: GameState) -> frozenset[int]:
    """Gun-team members standing on a team-mate's token (same team, same spot): the token carries
    the lowest tag id of them, the others ride on it and have no tag of their own on the table."""
    return frozenset(u.unit_id for u in state.units if u.team and any(
        m.unit_id < u.unit_id and m.team == u.team and (m.x_in, m.y_in) == (u.x_in, u.y_in) for m in state.units))


def synthetic_keyframes(*, step_s: float = 4.0) -> dict[int, list[dict[str, Any]]]:
    """Keyframes (``[[units.path]]`` entries) that move every tagged unit as the steps do: each step
    takes ``step_s`` seconds and its moves happen in it. Units off the table have ``on_table = false``.
    A gun team's members that stand on one token (same team, same spot) get one tag: the first member's.
    """
    state = initial_state()
    riders = gun_team_riders(state)

    def tagged(s: GameState) -> list[tuple[int, Any]]:
        return [(u.unit_id, u) for u in s.units if u.unit_id not in riders]

    return scripted.keyframes(tagged(state), (tagged(r.state) for r in play(state=state)), step_s=step_s)
