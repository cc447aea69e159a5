"""Unit cohesion, splitting and merging (A.5), computed from the figures' tracked positions.

* Cohesion: all figures of a unit within 1" of one another -- read as one connected group in which
  every link is a gap of at most 1" between bases, edge to edge (A.5.1 proposal); 2" for a Regular
  unit wholly occupying a defensive position. Leaders are not bound by cohesion.
* Merging: one of the two units at half strength or less (or a single figure), every figure of both
  within cohesion distance at the beginning of a turn; Troop Quality and Morale of the majority of the
  figures, the lower one on an even split; never Irregulars with Regulars.

>>> from rules.forceonforce.examples.patrol import initial_state
>>> state = initial_state()
>>> cohesion_of(state, "Alpha").is_connected, cohesion_distance_in(state, state.team("Alpha"))
(True, 1.0)
>>> merged_ratings([(8, 8, 3), (6, 6, 2)]), merged_ratings([(8, 8, 2), (6, 6, 2)])
((8, 8), (6, 6))
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules.forceonforce.pieces import Figure, Team, TroopType
from rules.geometry import EPS, Cluster, cluster, gap_in

if TYPE_CHECKING:
    from rules.forceonforce.state import FofState


def cohesion_distance_in(state: FofState, team: Team) -> float:
    """1" normally; 2" for a Regular unit wholly occupying a defensive position (A.5.1)."""
    data = state.data
    if team.defensive and team.troop_type is TroopType.REGULAR:
        return data.defensive_cohesion_in
    return data.cohesion_in


def cohesion_of(state: FofState, team: Team | str) -> Cluster:
    """The links between a unit's figures in play (casualties and lifted figures do not count)."""
    t = team if isinstance(team, Team) else state.team(team)
    figures = state.in_play_members(t)
    return cluster([(f.figure_id, f.footprint) for f in figures], link_in=cohesion_distance_in(state, t))


def in_cohesion(state: FofState, team: Team | str) -> bool:
    return cohesion_of(state, team).is_connected


def within_cohesion(state: FofState, figure: Figure, team: Team) -> bool:
    """A figure (a leader joining, a single figure merging) is within cohesion distance of the unit."""
    distance = cohesion_distance_in(state, team)
    return any(gap_in(figure.footprint, f.footprint) <= distance + EPS for f in state.in_play_members(team))


def at_half_strength_or_less(state: FofState, team: Team) -> bool:
    fighting = sum(1 for f in state.members(team) if f.status.value == "active")
    return 2 * fighting <= team.strength


def merged_ratings(parts: Sequence[tuple[int, int, int]]) -> tuple[int, int]:
    """(Troop Quality, Morale) of a merged unit from (quality, morale, figures) of its parts: the value
    of the majority of the figures, the lower on an even split (TQ and Morale decided separately)."""

    def majority(values: list[tuple[int, int]]) -> int:
        count: dict[int, int] = {}
        for value, n in values:
            count[value] = count.get(value, 0) + n
        most = max(count.values())
        return min(v for v, n in count.items() if n == most)

    return majority([(q, n) for q, _, n in parts]), majority([(m, n) for _, m, n in parts])


def merge_problems(state: FofState, first: Team, second: Team, *, at_hot_spot: int | None = None) -> list[str]:
    """Why two units may not merge now (empty when they may). ``at_hot_spot``: reinforcements arriving
    at a Hot Spot a friendly unit occupies "may merge with that unit automatically" (A.4.4): neither
    need be at half strength, and they arrive at the beginning of the turn; both must be at the Hot
    Spot (a figure within the placement distance of its counter)."""
    problems = []
    if at_hot_spot is not None:
        problems += _hot_spot_problems(state, (first, second), at_hot_spot)
    if first.name == second.name:
        problems.append("a unit cannot merge with itself")
    if first.side != second.side:
        problems.append(f"{first.name} and {second.name} are on different sides")
    if first.troop_type is not second.troop_type:
        problems.append("Irregular units may not merge with Regulars (A.5.3)")
    single = any(len([f for f in state.members(t) if f.status.value == "active"]) == 1 for t in (first, second))
    automatic = at_hot_spot is not None
    if not automatic and not single and not (at_half_strength_or_less(state, first)
                                             or at_half_strength_or_less(state, second)):
        problems.append("neither unit is at half strength or less, and neither is a single figure (A.5.3)")
    if not automatic and any(t.activated for t in state.teams):
        problems.append("units merge at the beginning of a turn, before any unit has activated (A.5.3)")
    figures = state.in_play_members(first) + state.in_play_members(second)
    joined = cluster([(f.figure_id, f.footprint) for f in figures],
                     link_in=min(cohesion_distance_in(state, first), cohesion_distance_in(state, second)))
    if not joined.is_connected:
        far = ", ".join(state.figure(i).name for i in sorted(joined.stragglers))
        problems.append(f"not every figure is within cohesion distance ({far} too far)")
    return problems


def _hot_spot_problems(state: FofState, teams: tuple[Team, Team], number: int) -> list[str]:
    spot = next((h for h in state.hot_spots if h.number == number), None)
    if spot is None:
        return [f"there is no Hot Spot {number}: the Hot Spots are "
                f"{', '.join(str(h.number) for h in state.hot_spots) or 'none'}"]
    reach = state.data.hot_spots.placement_in + state.data.hot_spots.counter_radius_in
    away = [t.name for t in teams
            if not any(math.hypot(f.x_in - spot.x_in, f.y_in - spot.y_in) <= reach + EPS
                       for f in state.in_play_members(t))]
    return [f"{name} is not at Hot Spot {number} (no figure within {reach:g}\" of it)" for name in away]
