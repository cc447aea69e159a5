"""Exact odds of one shot of the generic rules, as data and plain lines (``sandtable odds --ruleset
generic``): the range band and to-hit number for a distance, and how many status levels the damage
points take off.

>>> data, lines = shot_table("Rifle", 10.0, damage=1, defence=0, status="Undamaged")
>>> data["band"], data["p_hit"], data["p_destroyed"]
('Medium', '1/2', '0')
"""
from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from rules.errors import RulesError
from rules.generic.catalog import load_data
from rules.generic.ranged import p_point_applies, shifted_beyond_very_long


def shot_table(delivery: str, distance_in: float, *, damage: int, defence: int, status: str | None = None,
               range_shift: int = 0, adjacent: bool = False) -> tuple[dict[str, Any], list[str]]:
    data = load_data()
    d = data.delivery(delivery)
    if adjacent:
        level = data.level("Adjacent")
        band_name = "Adjacent"
    else:
        band = data.band(d, distance_in)
        if band is None:
            raise RulesError(f"{distance_in:g}\" is beyond Very Long for a {d.name} ({d.very_long_in:g}\"): no fire")
        if range_shift:
            measured = band.name
            band = data.shifted(d, band, range_shift)
            if band is None:
                raise RulesError(shifted_beyond_very_long(distance_in, measured, range_shift, d.name))
        level, band_name = band.level, band.name
    p_hit = Fraction(7 - level.to_hit, 6) if level.to_hit > 1 else Fraction(1)
    start = data.status_index(status or data.status_ladder[0])
    left = len(data.status_ladder) - 1 - start
    q = p_point_applies(defence)
    levels = {k: Fraction(comb(damage, k)) * q**k * (1 - q) ** (damage - k) for k in range(damage + 1)}
    p_destroyed = p_hit * sum((p for k, p in levels.items() if k >= left), Fraction(0))
    p_damaged = p_hit * sum((p for k, p in levels.items() if k >= 1), Fraction(0))
    out = {"delivery": d.name, "distance_in": distance_in, "band": band_name, "to_hit": level.to_hit,
           "p_hit": str(p_hit), "p_damaged": str(p_damaged), "p_destroyed": str(p_destroyed),
           "p_hit_float": float(p_hit), "p_damaged_float": float(p_damaged), "p_destroyed_float": float(p_destroyed)}
    needs = "automatic" if level.to_hit <= 1 else f"{level.to_hit}+"
    through = ("every point gets through" if defence <= 0 else "no point gets through" if defence >= 6
               else f"a point gets through on {defence + 1}+")
    lines = [f"{d.name} at {distance_in:g}\": {band_name}, hits on {needs}; Damage {damage} against ranged defence "
             f"{defence} ({through}), target {data.status_ladder[start]}.",
             f"  p(hit)        {str(p_hit):>10}  {float(p_hit) * 100:5.1f}%",
             f"  p(damaged)    {str(p_damaged):>10}  {float(p_damaged) * 100:5.1f}%   at least one status level",
             f"  p(destroyed)  {str(p_destroyed):>10}  {float(p_destroyed) * 100:5.1f}%   {left} level"
             f"{'s' if left != 1 else ''} to go"]
    return out, lines


def listing(what: str) -> list[str]:
    data = load_data()
    if what == "records":
        return [f"{r.name}: {r.movement_type}, speed {r.max_speed_in:g}\", {r.weapon or 'no ranged attack'}"
                + (f" ({r.delivery}, {r.projectile}, Damage {r.damage}, AoE {r.aoe_in:g}\", range {r.min_range_in:g}-"
                   f"{r.max_range_in:g}\")" if r.delivery else "")
                + f", close combat {r.cc_strength}/{r.cc_damage}/{r.cc_defence}, ranged defence {r.ranged_defence}"
                for r in data.records.values()]
    return [f"{d.name}: " + ", ".join(f"{n} <{lim:g}\"" if n != "Very Long" else f"{n} to {lim:g}\""
                                      for n, lim in d.limits_in if lim is not None)
            for d in data.deliveries.values()]
