"""The initiative test (A.4): how many dice each force rolls, the roll, and its exact odds.

Dice (from the worked example; the general rule is not in the excerpt): one die per two infantry
units, one per vehicle, the basic total capped at 10, then +1 for having had initiative last turn, +1
for a positive leader, +1 for outnumbering the opponent. Each force rolls its Initiative Level die;
dice under 4 are discarded; more dice left wins; a tie (or no 4+ at all) leaves initiative with last
turn's holder. Overrides: the scenario names the first turn's holder, may fix one side for the
whole game, and Regulars always have initiative against an entirely Irregular force.

The rulebook's example (Red 8D8, who had initiative, against Blue 11D6):

>>> data = load_data()
>>> red = dice_pool(data, "Red", infantry_units=6, vehicles=3, previous=True, positive_leader=1, outnumbers=False, sides=8)
>>> blue = dice_pool(data, "Blue", infantry_units=10, vehicles=6, previous=False, positive_leader=0, outnumbers=True, sides=6)
>>> red.dice, blue.dice, blue.basic, blue.capped
(8, 11, 11, 10)
>>> odds = initiative_odds((red, blue), previous="Red")
>>> round(float(odds["Blue"]), 4), round(float(odds["Red"]), 4)
(0.4968, 0.5032)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from rules.dice import DiceSource, RollRequest
from rules.distributions import successes_pmf
from rules.errors import RulesError
from rules.forceonforce.catalog import FofData, load_data
from rules.forceonforce.pieces import TeamKind, TroopType

if TYPE_CHECKING:
    from rules.forceonforce.state import FofState


@dataclass(frozen=True)
class InitiativePool:
    """One force's initiative dice before rolling, and where each came from."""

    side: str
    infantry_units: int
    vehicles: int
    basic: int
    capped: int
    bonuses: tuple[tuple[str, int], ...]
    dice: int
    sides: int


@dataclass(frozen=True)
class InitiativeRoll:
    """The dice a force threw and how many showed 4+."""

    pool: InitiativePool
    faces: tuple[int, ...]
    successes: int


@dataclass(frozen=True)
class InitiativeResult:
    """Who has initiative this turn and why.

    ``method``: "test" (dice rolled), "scenario" (turn 1 as the briefing says), "fixed" (the scenario
    gives one side initiative all game), "regulars" (Regulars against an entirely Irregular force),
    "declared" (a scenario event or a Fog of War card gives it; ``reason`` says which).
    ``kept`` is true when a tie (or no 4+) left it with last turn's holder; ``rerolls`` counts turn-1
    re-rolls of a tie when nobody held it before (proposal).
    """

    turn: int
    method: str
    holder: str
    previous: str | None
    rolls: tuple[InitiativeRoll, ...] = ()
    kept: bool = False
    rerolls: tuple[tuple[InitiativeRoll, ...], ...] = ()
    reason: str = ""


def declared_initiative(state: FofState, side: str, reason: str) -> InitiativeResult:
    """Initiative for the next turn decided by a scenario event or a Fog of War card (A.4.2), not rolled."""
    forces = [s.name for s in state.forces]
    if side not in forces:
        raise RulesError(f"{side!r} cannot take initiative: the forces are {', '.join(forces)}")
    if not reason.strip():
        raise RulesError("say why initiative is declared (the scenario event or Fog of War card)")
    return InitiativeResult(state.round + 1, "declared", side, state.initiative, reason=reason.strip())


def dice_pool(data: FofData, side: str, *, infantry_units: int, vehicles: int, previous: bool, positive_leader: int,
              outnumbers: bool, sides: int, odd_infantry: str = "round down",
              positive_leader_dice: str = "one") -> InitiativePool:
    """A force's initiative dice from its unit counts and bonuses (A.4.1)."""
    rules = data.initiative
    per = rules.infantry_units_per_die
    infantry_dice = infantry_units // per if odd_infantry == "round down" else -(-infantry_units // per)
    basic = infantry_dice + vehicles * rules.dice_per_vehicle
    capped = min(basic, rules.basic_cap)
    bonuses: list[tuple[str, int]] = []
    if previous and rules.bonus_previous:
        bonuses.append(("had initiative last turn", rules.bonus_previous))
    if positive_leader > 0 and rules.bonus_positive_leader:
        n = rules.bonus_positive_leader * (positive_leader if positive_leader_dice == "per point" else 1)
        bonuses.append((f"+{positive_leader} Positive Leader", n))
    if outnumbers and rules.bonus_outnumbering:
        bonuses.append(("outnumbers the opponent", rules.bonus_outnumbering))
    return InitiativePool(side, infantry_units, vehicles, basic, capped, tuple(bonuses),
                          capped + sum(n for _, n in bonuses), sides)


def unit_counts(state: FofState, side: str) -> tuple[int, int]:
    """(infantry units, vehicles) of a force that count for initiative: units on the table with a
    figure still fighting (leaders on their own and reinforcements not yet arrived do not count)."""
    infantry = vehicles = 0
    for t in state.teams_of(side):
        if state.is_out_of_action(t) or not any(f.on_table for f in state.members(t)):
            continue
        if t.kind is TeamKind.VEHICLE:
            vehicles += 1
        else:
            infantry += 1
    return infantry, vehicles


def side_pools(state: FofState) -> tuple[InitiativePool, ...]:
    """Every force's initiative dice now (from the previous holder, leaders and unit counts)."""
    counts = {s.name: unit_counts(state, s.name) for s in state.forces}
    pools = []
    for s in state.forces:
        infantry, vehicles = counts[s.name]
        total = infantry + vehicles
        outnumbers = all(total > sum(counts[o]) for o in counts if o != s.name) and len(counts) > 1
        positive = max((f.leader_effect for f in state.leaders() if f.side == s.name and f.in_play), default=0)
        pools.append(dice_pool(state.data, s.name, infantry_units=infantry, vehicles=vehicles,
                               previous=state.initiative == s.name, positive_leader=max(0, positive),
                               outnumbers=outnumbers, sides=s.initiative_level,
                               odd_infantry=state.options.odd_infantry,
                               positive_leader_dice=state.options.positive_leader_dice))
    return tuple(pools)


def initiative_odds(pools: Sequence[InitiativePool], *, previous: str | None,
                    success: int = 4) -> Mapping[str, Fraction]:
    """Exact probability that each force has initiative after the test, by convolution of the
    success counts. With no previous holder a tie is re-rolled (proposal), so the odds are those of
    the decisive rolls."""
    pmfs = {p.side: successes_pmf(p.dice, p.sides, success) for p in pools}
    names = [p.side for p in pools]
    wins = {n: Fraction(0) for n in names}
    tie_mass = Fraction(0)

    def rec(i: int, prob: Fraction, counts: tuple[int, ...]) -> None:
        nonlocal tie_mass
        if i == len(names):
            best = max(counts)
            leaders = [names[k] for k, c in enumerate(counts) if c == best]
            if len(leaders) == 1:
                wins[leaders[0]] += prob
            elif previous in names:
                wins[previous] += prob
            else:
                tie_mass += prob
            return
        pmf = pmfs[names[i]]
        for k in range(len(pmf.counts)):
            if pmf.counts[k]:
                rec(i + 1, prob * pmf.prob(k), counts + (k,))

    rec(0, Fraction(1), ())
    if tie_mass and tie_mass < 1:
        return {n: w / (1 - tie_mass) for n, w in wins.items()}
    return wins


def _override(state: FofState) -> tuple[str, str] | None:
    options = state.options
    names = [s.name for s in state.forces]
    if options.fixed_initiative:
        return options.fixed_initiative, "fixed"
    if options.regulars_always_lead_irregulars and len(names) == 2:
        kinds = {n: {t.troop_type for t in state.teams_of(n)} for n in names}
        for a, b in (names, names[::-1]):
            if kinds[b] == {TroopType.IRREGULAR} and TroopType.REGULAR in kinds[a]:
                return a, "regulars"
    if state.round == 0 and options.first_initiative:
        return options.first_initiative, "scenario"
    return None


def _roll(pools: Sequence[InitiativePool], dice: DiceSource, turn: int, success: int) -> tuple[InitiativeRoll, ...]:
    out = []
    for p in pools:
        if p.dice == 0:
            out.append(InitiativeRoll(p, (), 0))
            continue
        r = dice.roll(RollRequest(f"initiative test of {p.side}, turn {turn} ({p.dice}D{p.sides})", p.dice, p.sides,
                                  each_die=True))
        faces = r.faces if r.faces is not None else ()
        out.append(InitiativeRoll(p, faces, sum(1 for f in faces if f >= success)))
    return tuple(out)


def resolve_initiative(state: FofState, dice: DiceSource) -> InitiativeResult:
    """The initiative test for the next turn (or the scenario's override)."""
    turn = state.round + 1
    forces = [s.name for s in state.forces]
    if not forces:
        raise RulesError("a game needs at least one force (a side that is not civilians) to take initiative")
    override = _override(state)
    if override is not None:
        holder, method = override
        if holder not in forces:
            raise RulesError(f"[rules] names {holder!r} for initiative, but the forces are {', '.join(forces)}")
        return InitiativeResult(turn, method, holder, state.initiative)
    success = state.data.success
    pools = side_pools(state)
    earlier: list[tuple[InitiativeRoll, ...]] = []
    for _ in range(50):
        rolls = _roll(pools, dice, turn, success)
        best = max(r.successes for r in rolls)
        top = [r.pool.side for r in rolls if r.successes == best]
        if len(top) == 1:
            return InitiativeResult(turn, "test", top[0], state.initiative, rolls, False, tuple(earlier))
        if state.initiative is not None:
            return InitiativeResult(turn, "test", state.initiative, state.initiative, rolls, True, tuple(earlier))
        earlier.append(rolls)  # nobody held it before: roll again (proposal)
    raise RulesError("the initiative test tied 50 times in a row: check the dice source")


__all__ = ["InitiativePool", "InitiativeRoll", "InitiativeResult", "declared_initiative", "dice_pool", "initiative_odds", "load_data",
           "resolve_initiative", "side_pools", "unit_counts"]
