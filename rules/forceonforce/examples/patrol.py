"""A short Force on Force game as a script: the market patrol (``patrol.toml``), three turns, every die
stated.

It walks through what the excerpt covers: the scenario's first-turn initiative; a Regular unit that may
not fire with friends in its line of fire; a fireteam moving and a straggler leaving cohesion; a squad
leader joining a unit before it activates (it may fire, not move) and lending his Morale; an Irregular
cell without its leader failing its Troop Quality check; a rooftop gunner firing over everyone's heads;
Irregulars firing through their own; the initiative test; reinforcements at a Hot Spot; a fireteam
splitting and merging back. Where the excerpt stops (what a won fire test does), the step says what
the players decided and the script applies it as a hand edit.

:func:`play` yields a :class:`StepRecord` per step (state, sentences, odds shown before each roll);
:func:`synthetic_keyframes` gives ``[[units.path]]`` keyframes for the synthetic table.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import scripted_game as scripted
from rules.forceonforce import actions as A
from rules.forceonforce.cohesion import cohesion_of
from rules.forceonforce.ruleset import ForceOnForce
from rules.forceonforce.scenario import game_from_scenario
from rules.forceonforce.state import FofState
from rules.record_fields import read_toml_file
from rules.ruleset import AttackRequest, TargetOdds
from rules.scenario_reading import load_scenario_with
from rules.scripted_game import Step

SCENARIO_PATH = Path(__file__).with_name("patrol.toml")
US, INSURGENTS = "US Army", "Insurgents"
HALE, KARIM, RPG = 20, 40, 44


@dataclass(frozen=True)
class Pose:
    """A figure moved on the table (what the camera sees)."""

    figure: int
    x_in: float
    y_in: float
    heading_deg: float | None = None


@dataclass(frozen=True)
class Fire:
    """A unit fires (figure tags name the units) with the dice rolled, first the firer's then the target's."""

    firer: int
    target: int
    dice: tuple[Any, ...] = ()
    declarations: Mapping[str, Any] = field(default_factory=dict)
    target_declarations: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Activate:
    team: str
    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class Initiative:
    dice: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Reinforce:
    team: str
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Test:
    """A generic test the players call for: ``what`` is "troop quality" or "morale"."""

    purpose: str
    team: str
    what: str
    dice: tuple[int, ...]


Item = Any  # Pose | Fire | Activate | Initiative | Reinforce | Test | an action


CASUALTY = {"status": "casualty"}

STEPS: tuple[Step, ...] = (
    Step("Turn 1", "The briefing gives the patrol initiative on the first turn.",
         (Initiative(), A.StartTurn()),
         "US Army is the initiative force; no dice are rolled."),
    Step("Friends in the way", "Alpha wants to fire at Cell 1 down the street, but Bravo is between them.",
         (Fire(10, 30),),
         "Not allowed: Regulars may not fire with friends in the line of fire (Bravo, 0\" from the line)."),
    Step("Bravo moves", "Bravo activates and moves off the street toward the market; Bravo 4 lags behind.",
         (Activate("Bravo"), Pose(14, 22.0, 26.0, 0.0), Pose(15, 23.8, 26.0, 0.0), Pose(16, 25.6, 26.0, 0.0),
          Pose(17, 27.4, 23.0, 0.0)),
         "Bravo is out of cohesion: Bravo 4 is 2.5\" from the nearest figure (more than 1\")."),
    Step("The squad leader joins Alpha", "Sgt. Hale moves into cohesion with Alpha, which has not activated yet.",
         (Pose(HALE, 16.5, 21.0), A.JoinLeader(HALE, "Alpha")),
         "Alpha may still activate, but only to fire: the joining counts as its movement."),
    Step("Alpha fires", "Alpha, led by Sgt. Hale, fires at Cell 1 (opposed Troop Quality D8 against D6: 6 and 3). "
         "The players apply the effect from the rulebook: one insurgent falls.",
         (Activate("Alpha"), Fire(10, 30, (6, 3)), A.EditFigure(34, CASUALTY)),
         "The shoppers are in the line of fire (a warning; Regulars may fire with civilians in it). Alpha wins the "
         "opposed test; Cell 1 e is a casualty.",
         "The fire-combat procedure is not in the excerpt: the casualty is the players' ruling, entered by hand."),
    Step("Bravo's morale", "The players call for a Morale test on Bravo: in sight of Sgt. Hale (a squad leader, "
         "higher command for Bravo) it tests on his D10, not its own D8; it rolls 7.",
         (Test("Morale test", "Bravo", "morale", (7,)), A.EndTurn(), A.StartTurn()),
         "Bravo passes on the D10. The insurgents' turn begins.",
         "When morale tests are taken (Combat Stress) is not in the excerpt; the generic test tool rolls it."),
    Step("Cell 2 hesitates", "Cell 2 has no leader figure attached: it must pass a Troop Quality check to act, and "
         "rolls 2 on its D6.",
         (Activate("Cell 2", (2,)),),
         "Cell 2 fails and takes no action this turn."),
    Step("From the rooftop", "The RPG gunner, an army deserter (a Regular), fires down from the rooftop at Bravo "
         "(5 against 3). The players rule one of Bravo down.",
         (Activate("RPG team"), Fire(RPG, 14, (5, 3)), A.EditFigure(14, CASUALTY)),
         "Firing down 3\": nothing near the line is in the line of fire. The gunner wins; Bravo 1 is a casualty."),
    Step("Cell 1 fires into the market", "Cell 1, led by Abu Karim, fires at Alpha with the shoppers in the line "
         "(Irregulars may): 4 against 4.",
         (Activate("Cell 1"), Fire(30, 10, (4, 4)), A.EndTurn()),
         "A tie: nobody wins. The civilians may be hit (Civilians on the Battlefield, not in the excerpt)."),
    Step("Turn 2 initiative", "US Army: Alpha and Bravo (1 die), +1 for last turn's initiative, +1 for Sgt. Hale: "
         "3D8 rolls 2, 3, 7. Insurgents: three units on the table (1 die), +1 for outnumbering: 2D6 rolls 4, 6.",
         (Initiative(((2, 3, 7), (4, 6))),),
         "US Army 1 success, Insurgents 2: the insurgents have initiative."),
    Step("Reinforcements", "Cell 3 arrives: the Hot Spot die shows 3. It is placed within 4\" of Hot Spot 3.",
         (Reinforce("Cell 3", (3,)), Pose(41, 55.0, 23.0, 180.0), Pose(42, 56.8, 23.0, 180.0),
          Pose(43, 55.9, 24.6, 180.0)),
         "Cell 3 comes on at Hot Spot 3 (56, 26)."),
    Step("Cell 2 fires through its own", "Cell 2 now passes its TQ check (5) and fires at Bravo, with Cell 1 in the "
         "line of fire -- Irregulars may. 4 against 2; the players rule Bravo 2 down.",
         (A.StartTurn(), Activate("Cell 2", (5,)), Fire(35, 15, (4, 2)), A.EditFigure(15, CASUALTY), A.EndTurn()),
         "Allowed, with a warning that Cell 1 may be hit. Cell 2 wins; Bravo 2 is a casualty."),
    Step("Alpha splits", "At the start of its activation Alpha splits: Alpha 3 and Alpha 4 form Alpha Two, which "
         "must wait. Alpha fires at the rooftop gunner over Bravo's heads: 7 against 2.",
         (A.StartTurn(), A.Split("Alpha", (12, 13), "Alpha Two"), Activate("Alpha"), Fire(10, RPG, (7, 2))),
         "The target is 3\" higher: Bravo, near the line at street level, is not in the line of fire. Alpha wins."),
    Step("Bravo regroups", "Bravo 4 rejoins the others; Bravo activates.",
         (Pose(17, 27.4, 26.0), Activate("Bravo"), A.EndTurn()),
         "Bravo is back in cohesion."),
    Step("Turn 3: merge", "US Army: three units (1 die) and Sgt. Hale: 2D8 rolls 8, 5. Insurgents: four units "
         "(2 dice), last turn's initiative and outnumbering: 4D6 rolls 1, 2, 3, 6. At the beginning of the turn "
         "Alpha Two (half strength) merges back into Alpha.",
         (Initiative(((8, 5), (1, 2, 3, 6))), A.Merge("Alpha", "Alpha Two"), A.StartTurn()),
         "US Army has initiative (2 successes against 1); Alpha is one unit of four again, TQ D8, Morale D8."),
)


#: What one step came to: the state after it, the sentences, the odds shown before each fire.
StepRecord = scripted.StepRecord[FofState]


def load_scenario() -> dict[str, Any]:
    return read_toml_file(SCENARIO_PATH, what="scenario file")


def initial_state() -> FofState:
    """The forces at the start of the game."""
    return load_scenario_with(game_from_scenario, SCENARIO_PATH)


def _odds_line(o: TargetOdds) -> str:
    if not o.allowed:
        return f"  {o.name}: not allowed ({o.reason})"
    return "  " + ", ".join(f"{label} {float(p):.3f}" for label, p in o.outcomes)


def play_step(state: FofState, step: Step, fof: ForceOnForce | None = None) -> StepRecord:
    """Apply one step to ``state`` through the ruleset interface."""
    fof = fof or ForceOnForce()
    run = scripted.StepRun(state)
    for item in step.items:
        if isinstance(item, Pose):
            fig = run.state.figure(item.figure)
            heading = fig.heading_deg if item.heading_deg is None else item.heading_deg
            before = len(run.state.events)
            run.state = fof.set_pose(run.state, item.figure, item.x_in, item.y_in, heading)
            run.lines.append(f"{fig.name} moves to ({item.x_in:g}, {item.y_in:g}).")
            run.lines += [e.summary for e in run.state.events[before:]]
        elif isinstance(item, Fire):
            request = AttackRequest(item.firer, "Fire", (item.target,), declarations=dict(item.declarations),
                                    target_declarations={item.target: dict(item.target_declarations)})
            run.attack(fof, request, item.dice, _odds_line)
        elif isinstance(item, Activate):
            with run.dice(item.dice) as dice:
                run.resolved(fof.activate(run.state, item.team, dice))
        elif isinstance(item, Initiative):
            with run.dice(item.dice, all_used=False) as dice:
                run.resolved(fof.start_round(run.state, dice))
        elif isinstance(item, Reinforce):
            with run.dice(item.dice, all_used=False) as dice:
                run.resolved(fof.reinforce(run.state, item.team, dice))
        elif isinstance(item, Test):
            side = fof.test_side(run.state, item.team, item.what)
            with run.dice(item.dice, all_used=False) as dice:
                run.resolved(fof.test(run.state, item.purpose, side, dice, about=item.team))
        else:
            run.apply(item)
    run.lines += _cohesion_changes(state, run.state)
    return run.record(step)


def _cohesion_changes(before: FofState, after: FofState) -> list[str]:
    """Units that left or regained cohesion during a step (figures move one at a time, so the check
    that counts is the one after the whole move)."""
    out = []
    for team in after.teams:
        if not after.in_play_members(team):
            continue
        now = cohesion_of(after, team)
        was = cohesion_of(before, team.name).is_connected if before.has_team(team.name) else True
        if now.is_connected and not was:
            out.append(f"{team.name} is back in cohesion.")
        elif not now.is_connected and was:
            far = ", ".join(after.figure(i).name for i in sorted(now.stragglers))
            out.append(f"{team.name} is out of cohesion: {far} more than {now.link_in:g}\" from the rest.")
    return out


def play(steps: Sequence[Step] = STEPS, state: FofState | None = None) -> Iterator[StepRecord]:
    """Run the game step by step."""
    fof = ForceOnForce()
    return scripted.play_steps(steps, state or initial_state(), lambda s, step: play_step(s, step, fof))


def synthetic_keyframes(*, step_s: float = 4.0) -> dict[int, list[dict[str, Any]]]:
    """``[[units.path]]`` keyframes that move every figure as the steps do (each step takes ``step_s``
    seconds). Figures off the table (reinforcements not yet arrived) have ``on_table = false``;
    casualties stay where they fell."""
    state = initial_state()
    return scripted.keyframes([(f.figure_id, f) for f in state.figures],
                              ([(f.figure_id, f) for f in r.state.figures] for r in play(state=state)), step_s=step_s)
