"""Explosives (3.2.4): who is in the blast, the miss procedure, and payloads.

An explosive hits everything within its Radius of the impact point, friend or foe: one Skill roll,
then one Damage roll per unit. A miss still lands: within the miss radius of the intended point, at
a point chosen by the player who had the most targets (a gun team counts once) in the intended blast.

>>> miss_radius_in(4, 3, 1), miss_radius_in(8, 4, 2)
(4.0, 8.0)
>>> miss_radius_in(6, 4, 4)  # a natural 1 lifted to the Difficulty by bonuses: difference taken as 1
3.0
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.downrange.catalog import Payload, Weapon
from rules.downrange.pieces import Area, Compartment, Status, Unit
from rules.downrange.results import MissPlacement
from rules.geometry import EPS, Circle, distance_to_point_in

if TYPE_CHECKING:
    from rules.downrange.state import GameState


def miss_radius_in(radius_in: float, difficulty: int, result: int) -> float:
    """3.2.4.1 (reconstructed): ``(Radius / 2) x (Difficulty - Skill result)``; a difference of 0 or
    less (a natural 1 that bonuses lifted to the Difficulty) counts as 1 (proposal)."""
    return radius_in / 2 * max(1, difficulty - result)


def blast_units(state: GameState, x_in: float, y_in: float, radius_in: float) -> tuple[Unit, ...]:
    """Units in the fight with any part of their base within ``radius_in`` of the impact point,
    nearest first. A vehicle caught brings its riders in open or exposed compartments with it, placed
    where the vehicle is: "Explosives can damage anything in their blast Radius" (3.2.4) and such riders
    "may be attacked" (4.3.1). Riders enclosed are shielded: the blast hits only the vehicle."""
    blast = Circle(x_in, y_in, radius_in)
    hit = [u for u in state.on_table() if u.status is Status.ACTIVE and blast.touches(u.footprint)]
    riders = [replace(r, x_in=v.x_in, y_in=v.y_in, heading_deg=v.heading_deg, length_in=v.length_in,
                      width_in=v.width_in, radius_in=v.radius_in)
              for v in hit if v.is_vehicle for r in state.occupants(v.unit_id)
              if r.status is Status.ACTIVE and r.compartment is not Compartment.ENCLOSED]
    # A rider sorts right after its vehicle (same distance): the vehicle's row comes first.
    return tuple(sorted(hit + riders, key=lambda u: (distance_to_point_in(u.footprint, x_in, y_in), u.aboard is not None,
                                                      u.unit_id)))


def choose_miss_chooser(state: GameState, attacker: Unit, x_in: float, y_in: float, radius_in: float) -> tuple[str, tuple[tuple[str, int], ...], str]:
    """Who picks where a missed explosive lands: the player with the most targets (a gun team is one)
    inside the intended blast radius. On a tie, or with nobody there, the attacker's opponent (proposal); among several
    opponents, the one with the most units there, then the one with a unit nearest the point."""
    in_blast = blast_units(state, x_in, y_in, radius_in)
    # Targets, not members: a gun team shares one token and the blast rolls once for it (3.2.4, 4.3),
    # so it counts once here too.
    tokens = {(u.side, u.team) if u.team is not None else (u.side, u.unit_id): u.side for u in in_blast}
    counts = Counter(tokens.values())
    table = tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    if table and (len(table) == 1 or table[0][1] > table[1][1]):
        side, n = table[0]
        return side, table, f"{side} had the most targets ({n}) in the intended blast radius"
    opponents = [s.name for s in state.sides if s.name != attacker.side]
    if not opponents:
        return attacker.side, table, "there is no other player"

    def nearest(side: str) -> float:
        ds = [distance_to_point_in(u.footprint, x_in, y_in) for u in state.on_table() if u.side == side]
        return min(ds) if ds else math.inf

    best = sorted(opponents, key=lambda s: (-counts.get(s, 0), nearest(s), s))[0]
    why = "a tie in the intended blast radius" if table else "no unit was in the intended blast radius"
    return best, table, f"{why}: the attacker's opponent chooses"


def miss_placement(state: GameState, attacker: Unit, weapon: Weapon, aim: tuple[float, float], result: int,
                   radius_in: float) -> MissPlacement:
    chooser, counts, reason = choose_miss_chooser(state, attacker, aim[0], aim[1], radius_in)
    return MissPlacement(aim[0], aim[1], miss_radius_in(radius_in, weapon.difficulty, result), chooser, counts, reason)


def check_landing(state: GameState, miss: MissPlacement, landing: tuple[float, float]) -> None:
    """The chosen landing point must lie within the miss radius of the intended point."""
    d = math.hypot(landing[0] - miss.intended_x_in, landing[1] - miss.intended_y_in)
    if d > miss.miss_radius_in + EPS:
        raise state.illegal(f"the landing point is {d:.1f}\" from the intended point, beyond the miss radius of "
                            f"{miss.miss_radius_in:g}\": {miss.chooser} must pick a point within it")


def payload_area(state: GameState, payload: Payload, radius_in: float, at: tuple[float, float], side: str) -> Area | None:
    """The cloud or illuminated area a non-HE payload leaves: twice the Radius, until the end of the
    creating player's next turn (the current turn's end does not count if it is the creator's)."""
    if payload.lasts == "instant":
        return None
    ends = 2 if state.active_side == side else 1
    return Area(payload.name, at[0], at[1], radius_in * payload.area_factor, side, ends)
