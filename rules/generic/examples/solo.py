"""A short solo game of the generic miniatures rules as a script (``solo.toml``): the player's company
against an opponent run by the automation tables, every die stated.

It shows the text's procedures: range levels and to-hit, an anonymous unit identified by being fired
at, a mortar that misses and scatters (distance capped at half the range, direction on the d6 x d6
table) and does half damage where it lands, damage points against ranged defence down the status
ladder, a dummy counter found out, close combat in two rounds, and the automation's rolls to move
(route table) and to fire (by range level).

:func:`play` yields a :class:`StepRecord` per step; :func:`synthetic_keyframes` gives
``[[units.path]]`` keyframes for the synthetic table.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules import scripted_game as scripted
from rules.generic import actions as A
from rules.generic.ruleset import CLOSE_COMBAT, GenericMiniatures
from rules.generic.scenario import game_from_scenario
from rules.generic.state import GenericState
from rules.record_fields import read_toml_file
from rules.ruleset import AttackRequest, TargetOdds
from rules.scenario_reading import load_scenario_with
from rules.scripted_game import Pose, Step

SCENARIO_PATH = Path(__file__).with_name("solo.toml")
I1, I2, M1, X1 = 10, 11, 12, 13
T1, R1, G1, R3, R4, R5 = 30, 31, 32, 33, 34, 35


@dataclass(frozen=True)
class Shot:
    """A ranged attack at a unit (or at ``aim`` for an area weapon) with the dice rolled, in the order the
    rules ask: to-hit, then (a miss with an area of effect) distance and the two direction dice, then
    each unit's damage dice."""

    attacker: int
    target: int | None
    dice: tuple[Any, ...]
    aim: tuple[float, float] | None = None
    weapon: str = "ranged"
    range_shift: int = 0


@dataclass(frozen=True)
class CloseCombat:
    attacker: int
    defender: int
    dice: tuple[Any, ...]


@dataclass(frozen=True)
class Turn:
    """The next side's turn; an automated side rolls its tables with these dice."""

    dice: tuple[Any, ...] = ()


Item = Any  # Pose | Shot | CloseCombat | Turn | an action


STEPS: tuple[Step, ...] = (
    Step("Turn 1", "The player's side acts first (the text has no turn sequence: the scenario's order).",
         (A.StartRound(), Turn()),
         "Blue acts."),
    Step("Rifle fire", "I1 fires its rifles at the anonymous counter R1, 9.2\" away: Medium, hits on 4+. It rolls "
         "5; the damage point rolls 3 against defence 0.",
         (Shot(I1, R1, (5, [3])),),
         "R1 is identified (a rifle section) and drops to Superficial Damage."),
    Step("Mortar miss", "M1's mortar fires at the counter T1, 24.5\" away: Very Long, 6 to hit. It rolls 2 and misses; "
         "the shell scatters 5\" (under the 12.3\" cap) in direction 3, 6: East, and lands by the counter G1. G1 takes "
         "half of 3 = 2 points against defence 3: 4 and 2.",
         (Shot(M1, T1, (2, 5, [3, 6], [4, 2])),),
         "Firing at T1 identifies it (a light tank); G1, caught where the shell lands, is identified too (a field "
         "gun) and drops to Superficial Damage; T1 is untouched; M1 has 7 shots left."),
    Step("A dummy", "Blue's scouts report on the counter R4: the players identify it.",
         (A.Identify(R4),),
         "R4 is a dummy and is removed."),
    Step("Close combat", "I2's grenadiers attack the adjacent counter R3. Round 1: average dice 5 and 2; round 2 (R3 "
         "attacks back): 6 and 1.",
         (CloseCombat(I2, R3, ([5, 2], [6, 1])), A.EndTurn()),
         "Round 1: I2 8 against R3 5: R3 loses a level. Round 2: R3 7 against I2 5: I2 loses a level. Both are now "
         "Superficially Damaged."),
    Step("The tables play Red", "Red's turn: each unit rolls to move (a d6 at or under its Probability of movement) "
         "and, if it moves, on the route table; then whether it fires, by the range to the nearest enemy.",
         (Turn((3, [2, 6], 2, [4, 1], 1, 6, 1, [6, 3], [3, 3], [1, 2], 6, 5)),),
         "T1 moves (3 <= 4): OfL Esy; R1 moves (2 <= 4): OfR Dir; G1 never moves (1 > 0); R3 stays (6 > 5); the "
         "dummy R5 moves: Rnd Dir, a Dud then NW. T1 fires at Short (always); R1 holds fire at Medium (6 > 5); G1 "
         "fires at Medium (5 <= 5); R3 attacks I2 in close combat.",
         "The route and firing tables are the text's; the direction each route suggests is a proposal."),
    Step("Red's close combat", "R3 attacks I2: round 1 average dice 3 and 4, round 2 (I2 back) 5 and 5.",
         (CloseCombat(R3, I2, ([3, 4], [5, 5])),),
         "Round 1: R3 5 against I2 7: the attacker loses, no effect. Round 2: I2 8 against R3 6: R3 drops to Damaged."),
    Step("The tank fires", "T1 fires its gun at I2 at Short (3+): 4, a hit. I2 takes 3 points (2, 5, 1 against "
         "defence 0); R3, inside the 3\" area of effect, takes half: 2 points (1, 6).",
         (Shot(T1, I2, (4, [2, 5, 1], [1, 6])),),
         "I2 and R3 are both destroyed; G1's target is gone, so it does not fire."),
    Step("Red moves", "The players move Red's counters as the tables suggested (the tank by the easiest route).",
         (Pose(T1, 29.6, 27.0, 267.0), Pose(R1, 17.3, 17.4, 160.0), Pose(R5, 35.8, 14.2, 135.0), A.EndTurn()),
         "Red's turn ends."),
)


StepRecord = scripted.StepRecord[GenericState]


def load_scenario() -> dict[str, Any]:
    return read_toml_file(SCENARIO_PATH, what="scenario file")


def initial_state() -> GenericState:
    return load_scenario_with(game_from_scenario, SCENARIO_PATH)


def _odds_line(o: TargetOdds) -> str:
    if not o.allowed:
        return f"  {o.name}: not allowed ({o.reason})"
    return f"  {o.name}: " + ", ".join(f"{label} {float(p):.3f}" for label, p in o.outcomes)


def play_step(state: GenericState, step: Step, g: GenericMiniatures | None = None) -> StepRecord:
    g = g or GenericMiniatures()
    run = scripted.StepRun(state)
    for item in step.items:
        if isinstance(item, Pose):
            u = run.state.unit(item.unit)
            heading = u.heading_deg if item.heading_deg is None else item.heading_deg
            run.state = g.set_pose(run.state, item.unit, item.x_in, item.y_in, heading)
            run.lines.append(f"{u.short_id} moves to ({item.x_in:g}, {item.y_in:g}).")
        elif isinstance(item, Shot):
            request = AttackRequest(item.attacker, item.weapon, (item.target,) if item.target is not None else (),
                                    aim_point=item.aim, declarations={"range_shift": item.range_shift})
            run.attack(g, request, item.dice, _odds_line)
        elif isinstance(item, CloseCombat):
            run.attack(g, AttackRequest(item.attacker, CLOSE_COMBAT, (item.defender,)), item.dice, _odds_line)
        elif isinstance(item, Turn):
            with run.dice(item.dice) as dice:
                run.resolved(g.start_turn(run.state, dice))
        else:
            run.apply(item)
    return run.record(step)


def play(steps: Sequence[Step] = STEPS, state: GenericState | None = None) -> Iterator[StepRecord]:
    g = GenericMiniatures()
    return scripted.play_steps(steps, state or initial_state(), lambda s, step: play_step(s, step, g))


def synthetic_keyframes(*, step_s: float = 4.0) -> dict[int, list[dict[str, Any]]]:
    """``[[units.path]]`` keyframes following the steps (``step_s`` seconds each); removed dummies are
    lifted off the table."""
    state = initial_state()
    return scripted.keyframes([(u.unit_id, u) for u in state.units],
                              ([(u.unit_id, u) for u in r.state.units] for r in play(state=state)), step_s=step_s)
