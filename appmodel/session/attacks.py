"""The attack set up at the table, and a missed explosive waiting for the player who chooses where it lands.

Values only, and the two checks a missed explosive needs (what the rules said about the miss, whether
a chosen landing point is within its reach); rolling the dice is :mod:`appmodel.session.procedures`'.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from appmodel.errors import UsageError
from appmodel.session.dice_sources import Entry
from rules.errors import RulesError
from rules.ruleset import AttackRequest, Resolution, TargetOdds

XY = tuple[float, float]


@dataclass(frozen=True)
class AttackDraft:
    """An attack being set up at the table (what the attack panel shows)."""

    attacker_id: int
    weapon: str
    target_ids: tuple[int, ...] = ()
    declarations: Mapping[str, Any] = field(default_factory=dict)
    target_declarations: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    aim_point: XY | None = None

    def request(self) -> AttackRequest:
        decl = dict(self.declarations)
        mode = str(decl.get("mode", "attack"))
        return AttackRequest(self.attacker_id, self.weapon, tuple(self.target_ids), (),
                             self.aim_point, mode, decl,
                             {uid: dict(self.target_declarations.get(uid, {})) for uid in self.target_ids})


@dataclass(frozen=True)
class MissMarker:
    """Where a missed explosive was aimed, how far it may land, who chooses, and where it landed."""

    intended_in: XY
    miss_radius_in: float
    chooser: str
    landed_in: XY | None = None


@dataclass(frozen=True)
class PendingLanding:
    """A missed explosive waiting for its landing point (the ruleset's ``pending``)."""

    draft: AttackDraft
    entries: tuple[Entry, ...]
    miss: MissMarker
    message: str
    #: The odds the players were shown before the first roll (recorded with the attack once it lands).
    odds: tuple[TargetOdds, ...] = ()
    #: Where the chooser placed it, while the players roll the dice the landing brings (players' dice).
    placed_in: XY | None = None


def miss_marker(res: Resolution) -> MissMarker:
    """The marker of a resolution left pending on a missed explosive (the rules' ``landing``)."""
    miss = res.landing
    if miss is None:
        raise RulesError(res.pending)
    return MissMarker((float(miss.intended_x_in), float(miss.intended_y_in)), float(miss.radius_in), miss.chooser)


def landing_point(miss: MissMarker, point: Sequence[float]) -> XY:
    """``point`` as a landing point of ``miss``; refused, saying where it may land, beyond the miss radius."""
    x, y = float(point[0]), float(point[1])
    ix, iy = miss.intended_in
    off = math.hypot(x - ix, y - iy)
    if off > miss.miss_radius_in + 1e-6:
        raise UsageError(f"({x:.1f}, {y:.1f}) is {off:.1f}\" from the intended point; "
                         f"the round lands within {miss.miss_radius_in:g}\" of ({ix:.1f}, {iy:.1f})")
    return x, y
