"""Close combat in the generic rules (B.5): adjacent units fight in pairs, two rounds, each unit the
attacker in one of them, both rounds applied together.

In a round the attacker's close-combat Strength plus an "average die" meets the defender's defence
against close combat plus an average die; the lower score loses; a losing defender drops the
attacker's close-combat Damage in status levels. The average die reads a d6 as 2, 3, 3, 4, 4, 5
(proposal; the text is cut off). Ties and a losing attacker change nothing (proposal). A unit
initiates close combat once per turn and may be attacked any number of times.

>>> from rules.generic.examples.solo import initial_state
>>> s = initial_state()
>>> odds = close_combat_odds(s, 11, 33)
>>> odds.p_defender_loses_round, odds.p_attacker_loses_round
(Fraction(31, 36), Fraction(5, 36))
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from rules.dice import DiceSource, RollRequest
from rules.generic.pieces import Unit
from rules.geometry import EPS, gap_in

if TYPE_CHECKING:
    from rules.generic.state import GenericState


@dataclass(frozen=True)
class CombatRound:
    """One round: who attacks, both average dice, both scores, who lost (None: a tie)."""

    attacker: int
    defender: int
    attacker_face: int
    attacker_score: int
    defender_face: int
    defender_score: int
    loser: int | None
    levels: int


@dataclass(frozen=True)
class CloseCombatResult:
    """Both rounds of a close combat and what they did to each unit."""

    attacker: int
    attacker_name: str
    defender: int
    defender_name: str
    rounds: tuple[CombatRound, ...]
    attacker_levels: int
    defender_levels: int
    attacker_status: tuple[str, str]
    defender_status: tuple[str, str]
    attacker_destroyed: bool
    defender_destroyed: bool


@dataclass(frozen=True)
class CloseCombatOdds:
    """Exact odds: the defender loses the first round, the attacker loses the return round, and the
    chance each ends destroyed."""

    p_defender_loses_round: Fraction
    p_attacker_loses_round: Fraction
    p_defender_destroyed: Fraction
    p_attacker_destroyed: Fraction


def close_combat_problems(state: GenericState, attacker: Unit, defender: Unit) -> list[str]:
    problems = []
    if attacker.unit_id == defender.unit_id:
        problems.append("a unit cannot fight itself")
    if not attacker.in_play or not defender.in_play:
        problems.append("both units must be on the table and in play")
    elif gap_in(attacker.footprint, defender.footprint) > state.options.adjacent_in + EPS:
        gap = gap_in(attacker.footprint, defender.footprint)
        problems.append(f"{attacker.short_id} and {defender.short_id} are {gap:.1f}\" apart: close combat needs "
                        f"them adjacent (bases within {state.options.adjacent_in:g}\")")
    if attacker.initiated_close_combat:
        problems.append(f"{attacker.short_id} has already initiated a close combat this turn")
    return problems


def _round(state: GenericState, att: Unit, dfn: Unit, a_face: int, d_face: int) -> CombatRound:
    data = state.data
    a_score = att.record.cc_strength + data.average(a_face)
    d_score = dfn.record.cc_defence + data.average(d_face)
    loser = dfn.unit_id if d_score < a_score else (att.unit_id if a_score < d_score else None)
    levels = att.record.cc_damage if loser == dfn.unit_id else 0
    return CombatRound(att.unit_id, dfn.unit_id, a_face, a_score, d_face, d_score, loser, levels)


def resolve_close_combat(state: GenericState, attacker_id: int, defender_id: int, dice: DiceSource) -> CloseCombatResult:
    """Roll both rounds: the attacker's average die and the defender's, then the return round."""
    a, d = state.unit(attacker_id), state.unit(defender_id)
    rounds = []
    for att, dfn in ((a, d), (d, a)):
        r = dice.roll(RollRequest(f"close combat, {att.short_id} attacks {dfn.short_id} (average dice: "
                                  f"{att.short_id}, {dfn.short_id})", 2, 6, each_die=True))
        faces = r.faces or (1, 1)
        rounds.append(_round(state, att, dfn, faces[0], faces[1]))
    d_levels = rounds[0].levels
    a_levels = rounds[1].levels
    ladder = state.data.status_ladder
    last = len(ladder) - 1
    a_after, d_after = min(last, a.status_level + a_levels), min(last, d.status_level + d_levels)
    return CloseCombatResult(a.unit_id, a.short_id, d.unit_id, d.short_id, tuple(rounds), a_levels, d_levels,
                             (ladder[a.status_level], ladder[a_after]), (ladder[d.status_level], ladder[d_after]),
                             a_after == last, d_after == last)


def close_combat_odds(state: GenericState, attacker_id: int, defender_id: int) -> CloseCombatOdds:
    """Exact odds by enumerating the four average dice (6^4 outcomes)."""
    a, d = state.unit(attacker_id), state.unit(defender_id)
    lose_d = lose_a = kill_d = kill_a = 0
    for f1 in range(1, 7):
        for f2 in range(1, 7):
            r1 = _round(state, a, d, f1, f2)
            lose_d += 36 * (r1.loser == d.unit_id)
            kill_d += 36 * (r1.levels >= state.levels_left(d) and r1.loser == d.unit_id)
            r2 = _round(state, d, a, f1, f2)
            lose_a += 36 * (r2.loser == a.unit_id)
            kill_a += 36 * (r2.levels >= state.levels_left(a) and r2.loser == a.unit_id)
    total = 6**4
    return CloseCombatOdds(Fraction(lose_d, total), Fraction(lose_a, total), Fraction(kill_d, total),
                           Fraction(kill_a, total))
