"""The Force on Force game state: figures (one tag each), the units (fireteams, vehicles) they form,
the sides, the initiative, the hot spots, and the log.

A **unit** in Force on Force is a fireteam or smaller element (A.1); on the table every figure carries
its own tag, so the state keeps :class:`Figure` values (positions from the tracker) and
:class:`Team` values (the unit's characteristics) linked by the team's name. Leaders are figures
that may be attached to a team; civilians are figures of a side marked ``civilians``.

The state changes only through ``state.apply(action)`` (:mod:`rules.forceonforce.actions`).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from rules.errors import UnknownNameError
from rules.events import RulesEvent
from rules.forceonforce.catalog import FofData, load_data
from rules.forceonforce.options import FofOptions
# The pieces are re-exported: code that reads a game state finds them beside it.
from rules.forceonforce.pieces import (RULESET_NAME, STATE_FORMAT, STATE_VERSION, Figure, FigureStatus, HotSpot,
                                       SideState, Team, TeamKind, TroopType)
from rules.geometry import Point, rough_centre
from rules.ruleset_state import RulesetState


@dataclass(frozen=True)
class FofState(RulesetState[SideState]):
    """Everything the rules know about a Force on Force game in progress.

    ``round`` is the game turn; ``initiative`` the side that has it this turn (``previous`` last
    turn's holder); ``order`` is (initiative force, non-initiative force) and ``turn_index`` which of
    them is acting (:meth:`active_side`).
    """

    figures: tuple[Figure, ...]
    teams: tuple[Team, ...]
    sides: tuple[SideState, ...]
    round: int = 0
    initiative: str | None = None
    previous: str | None = None
    order: tuple[str, ...] = ()
    turn_index: int = -1
    in_turn: bool = False
    hot_spots: tuple[HotSpot, ...] = ()
    options: FofOptions = field(default_factory=FofOptions)
    data_files: tuple[str, ...] = ()
    events: tuple[RulesEvent, ...] = ()
    name: str = ""
    #: Before the first turn: the units are being placed (:class:`rules.ruleset_state.RulesetState`).
    setting_up: bool = field(default=False, metadata={"added": True})

    ruleset_name = RULESET_NAME
    state_format = STATE_FORMAT
    state_version = STATE_VERSION
    state_title = "Force on Force"

    # -- lookups --------------------------------------------------------------------------------

    @property
    def data(self) -> FofData:
        return load_data(self.data_files)

    def figure(self, ref: int | str) -> Figure:
        """A figure by tag id or name (case-insensitive)."""
        for f in self.figures:
            if f.figure_id == ref or (isinstance(ref, str) and f.name.lower() == ref.strip().lower()):
                return f
        if isinstance(ref, str) and ref.strip().isdigit():
            return self.figure(int(ref))
        raise UnknownNameError(f"no figure {ref!r} in this game: tag ids {', '.join(str(f.figure_id) for f in self.figures[:16])}...")

    def team(self, ref: int | str) -> Team:
        """A unit by name, or by the tag id of any of its figures (clicking a figure picks its unit)."""
        if isinstance(ref, str):
            key = ref.strip().lower()
            for t in self.teams:
                if t.name.lower() == key:
                    return t
            if not key.isdigit():
                names = ", ".join(t.name for t in self.teams)
                raise UnknownNameError(f"no unit {ref!r} in this game: the units are {names}")
            ref = int(key)
        fig = self.figure(ref)
        if fig.team is None:
            for t in self.teams:
                if t.leader == fig.figure_id:
                    return t
            raise UnknownNameError(f"{fig.name} (tag {fig.figure_id}) is not part of a unit"
                                   + (" (a leader on his own)" if fig.is_leader else ""))
        return self.team(fig.team)

    def has_team(self, ref: int | str) -> bool:
        try:
            self.team(ref)
        except UnknownNameError:
            return False
        return True

    def members(self, team: Team | str) -> tuple[Figure, ...]:
        """The figures of a unit (not its attached leader), casualties included."""
        name = team.name if isinstance(team, Team) else team
        return tuple(f for f in self.figures if f.team == name)

    def in_play_members(self, team: Team | str) -> tuple[Figure, ...]:
        return tuple(f for f in self.members(team) if f.in_play)

    def team_id(self, team: Team | str) -> int:
        """The unit's id in the neutral interface: the lowest tag id among its figures."""
        members = self.members(team)
        if not members:
            t = team if isinstance(team, Team) else self.team(team)
            return t.leader if t.leader is not None else -1
        return min(f.figure_id for f in members)

    def centre(self, team: Team | str) -> Point:
        """The rough centre of a unit (A.7): the mean of its figures in play (all figures if none)."""
        figs = self.in_play_members(team) or self.members(team)
        return rough_centre([f.footprint for f in figs])

    def elevation_in(self, team: Team | str) -> float:
        figs = self.in_play_members(team) or self.members(team)
        return sum(f.z_in for f in figs) / len(figs) if figs else 0.0

    @property
    def forces(self) -> tuple[SideState, ...]:
        """The fighting sides (not civilians)."""
        return tuple(s for s in self.sides if not s.civilians)

    def teams_of(self, side: str) -> tuple[Team, ...]:
        return tuple(t for t in self.teams if t.side == side)

    def leaders(self) -> tuple[Figure, ...]:
        return tuple(f for f in self.figures if f.is_leader)

    def attached_leader(self, team: Team) -> Figure | None:
        return self.figure(team.leader) if team.leader is not None else None

    def is_out_of_action(self, team: Team) -> bool:
        """No figure of the unit is fighting (all casualties or removed)."""
        return not any(f.status is FigureStatus.ACTIVE for f in self.members(team))

    # -- helpers for the modules that implement actions ----------------------------------------

    def with_figure(self, figure: Figure) -> "FofState":
        return replace(self, figures=tuple(figure if f.figure_id == figure.figure_id else f for f in self.figures))

    def with_figures(self, changed: Iterable[Figure]) -> "FofState":
        by_id = {f.figure_id: f for f in changed}
        return replace(self, figures=tuple(by_id.get(f.figure_id, f) for f in self.figures))

    def with_team(self, team: Team) -> "FofState":
        return replace(self, teams=tuple(team if t.name == team.name else t for t in self.teams))

    def check_data(self) -> None:
        self.data  # noqa: B018 - fail now, not later, if the data files are gone
