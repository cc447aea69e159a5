"""Reinforcements and Hot Spots (A.4.4).

Five numbered counters, none within 6" of another. An arriving unit rolls 1D6: 1-5 arrive at that
Hot Spot, a 6 lets the player choose (reconstructed from OCR damage); the unit is placed anywhere
within 4" of it, possibly Hidden. A Regular unit that spends a turn stationary in contact with a
counter neutralises it (removed); reinforcements that roll a neutralised number are lost (no re-roll).

>>> spacing_problems([(10.0, 10.0), (14.0, 10.0)], min_spacing_in=6.0)
['hot spots 1 and 2 are 4.0" apart: keep them at least 6" apart']
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.dice import DiceSource, RollRequest
from rules.forceonforce.pieces import Team, TroopType
from rules.geometry import Circle, gap_in

if TYPE_CHECKING:
    from rules.forceonforce.state import FofState


@dataclass(frozen=True)
class ReinforcementResult:
    """Where an arriving unit comes on: ``hot_spot`` (None when the player chooses or it is lost)."""

    team: str
    side: str
    face: int
    hot_spot: int | None
    player_chooses: bool
    lost: bool
    x_in: float | None = None
    y_in: float | None = None
    placement_in: float = 4.0


def spacing_problems(points: Sequence[tuple[float, float]], *, min_spacing_in: float) -> list[str]:
    out = []
    for i, (ax, ay) in enumerate(points):
        for j in range(i + 1, len(points)):
            bx, by = points[j]
            d = math.hypot(bx - ax, by - ay)
            if d < min_spacing_in - 1e-9:
                out.append(f"hot spots {i + 1} and {j + 1} are {d:.1f}\" apart: keep them at least {min_spacing_in:g}\" apart")
    return out


def resolve_reinforcement(state: FofState, team: Team | str, dice: DiceSource) -> ReinforcementResult:
    """Roll which Hot Spot an arriving unit comes on at."""
    t = team if isinstance(team, Team) else state.team(team)
    rules = state.data.hot_spots
    roll = dice.roll(RollRequest(f"Hot Spot for {t.name}", 1, rules.die))
    face = roll.dice_total
    if face >= rules.player_chooses_on or not state.hot_spots:
        return ReinforcementResult(t.name, t.side, face, None, True, False, placement_in=rules.placement_in)
    spot = next((h for h in state.hot_spots if h.number == face), None)
    if spot is None:
        return ReinforcementResult(t.name, t.side, face, None, True, False, placement_in=rules.placement_in)
    return ReinforcementResult(t.name, t.side, face, spot.number, False, spot.neutralised, spot.x_in, spot.y_in,
                               rules.placement_in)


def neutralise_problems(state: FofState, number: int, team: Team) -> list[str]:
    """Why a unit may not neutralise Hot Spot ``number`` now (empty when it may)."""
    rules = state.data.hot_spots
    spot = next((h for h in state.hot_spots if h.number == number), None)
    if spot is None:
        return [f"there is no Hot Spot {number}: the counters are "
                f"{', '.join(str(h.number) for h in state.hot_spots) or 'none'}"]
    problems = []
    if spot.neutralised:
        problems.append(f"Hot Spot {number} is already neutralised")
    if team.troop_type is not TroopType.REGULAR:
        problems.append("only Regular units neutralise Hot Spots (A.4.4)")
    counter = Circle(spot.x_in, spot.y_in, rules.counter_radius_in)
    if not any(gap_in(counter, f.footprint) <= rules.contact_in + 1e-9 for f in state.in_play_members(team)):
        problems.append(f"{team.name} is not in contact with Hot Spot {number}")
    if any(f.moved_in > 0.25 for f in state.in_play_members(team)):
        problems.append(f"{team.name} moved this turn: it must spend the turn stationary on the counter")
    return problems
