"""Leaders (A.6): who leads a unit, which Morale it tests on, and Irregulars without a leader.

* A leader leads a unit he is attached to only while in cohesion with it, unless he has remote
  contact (radio, phone, HUD).
* Morale substitution: a unit with an attached leader uses his Morale; any unit within sight of a
  "higher command" leader must use his Morale, even if lower (A.6.1). When both apply, the
  higher-command leader takes precedence (proposal; ``higher_command_overrides_attached``).
* An Irregular unit without an attached leader figure must pass a Troop Quality check to act.

Line of sight for leaders is not something the camera can see: every leader on the table counts as in
sight unless the players name him in ``out_of_sight``.

>>> from rules.forceonforce.examples.patrol import initial_state
>>> state = initial_state()
>>> morale_for(state, "Bravo")
MoraleSource(sides=10, source='Morale of Sgt. Hale (squad leader, in sight)', leader=20)
"""
from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.forceonforce.cohesion import within_cohesion
from rules.forceonforce.pieces import Figure, Team, TroopType

if TYPE_CHECKING:
    from rules.forceonforce.state import FofState


@dataclass(frozen=True)
class MoraleSource:
    """The Morale die a unit tests on and whose it is."""

    sides: int
    source: str
    leader: int | None = None


def leads(state: FofState, leader: Figure, team: Team) -> bool:
    """The leader is attached to the unit and can lead it (in cohesion, or remote contact)."""
    if team.leader != leader.figure_id or not leader.in_play:
        return False
    return leader.remote_contact or within_cohesion(state, leader, team)


def leader_of(state: FofState, team: Team) -> Figure | None:
    """The unit's attached leader, if he can lead it now."""
    leader = state.attached_leader(team)
    return leader if leader is not None and leads(state, leader, team) else None


def needs_quality_check(state: FofState, team: Team) -> bool:
    """An Irregular unit without an attached leader figure tests Troop Quality to act (A.6)."""
    return team.troop_type is TroopType.IRREGULAR and leader_of(state, team) is None


def higher_command_leaders(state: FofState, team: Team, *, out_of_sight: Collection[int] = ()) -> tuple[Figure, ...]:
    """Leaders of the unit's side, in sight of it, of a higher command level than its own leader
    (above the lowest level when it has none), highest level first, then nearest."""
    data = state.data
    own = leader_of(state, team)
    floor = data.leader_level(own.leader_level) if own is not None and own.leader_level else 0
    centre = state.centre(team)
    found = []
    for f in state.leaders():
        if f.side != team.side or not f.in_play or f.figure_id in out_of_sight or f.figure_id == team.leader:
            continue
        level = data.leader_level(f.leader_level or data.leader_levels[0])
        if level > floor:
            found.append((-level, math.hypot(f.x_in - centre.x_in, f.y_in - centre.y_in), f.figure_id, f))
    return tuple(f for *_, f in sorted(found, key=lambda x: x[:3]))


def morale_for(state: FofState, team: Team | str, *, out_of_sight: Collection[int] = ()) -> MoraleSource:
    """The Morale die a unit uses for morale-based tests now (A.6.1)."""
    t = team if isinstance(team, Team) else state.team(team)
    higher = higher_command_leaders(state, t, out_of_sight=out_of_sight)
    attached = leader_of(state, t)
    options = state.options
    if higher and (attached is None or options.higher_command_overrides_attached) and higher[0].morale:
        h = higher[0]
        return MoraleSource(h.morale or t.morale, f"Morale of {h.name} ({h.leader_level} leader, in sight)", h.figure_id)
    if attached is not None and attached.morale:
        return MoraleSource(attached.morale, f"Morale of {attached.name} (attached leader)", attached.figure_id)
    return MoraleSource(t.morale, f"{t.name}'s own Morale")


def join_problems(state: FofState, leader: Figure, team: Team) -> list[str]:
    """Why a leader may not join a unit now (empty when he may)."""
    problems = []
    if not leader.is_leader:
        problems.append(f"{leader.name} is not a leader")
    if leader.side != team.side:
        problems.append(f"{leader.name} and {team.name} are on different sides")
    leader_type = leader.troop_type or TroopType.REGULAR
    if leader_type is TroopType.IRREGULAR and team.troop_type is TroopType.REGULAR:
        problems.append("Irregulars cannot be integrated into a Regular unit (A.1)")
    if not leader.in_play:
        problems.append(f"{leader.name} is not in play")
    elif not within_cohesion(state, leader, team):
        problems.append(f"{leader.name} must move into cohesion with {team.name} to join it (A.6.2)")
    return problems
