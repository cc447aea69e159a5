"""Radios and jamming (5.1, 5.1.2): who has a radio, who is an EW unit, where enemy jammers reach,
and whether a unit's radio works now. Queries only, used by command and signal, unmanned systems and
attacks alike.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rules.downrange.pieces import Unit
from rules.geometry import Reach

if TYPE_CHECKING:
    from rules.downrange.state import GameState


def has_radio(state: GameState, unit: Unit) -> bool:
    return state.has_effect(unit, "radio") or state.has_effect(unit, "electronic_warfare")


def is_ew(state: GameState, unit: Unit) -> bool:
    return state.has_effect(unit, "electronic_warfare")


def active_jammers(state: GameState, against_side: str) -> tuple[Unit, ...]:
    """Enemy EW units jamming now (their emission token marks it)."""
    return tuple(u for u in state.on_table() if u.side != against_side and u.is_active
                 and u.emission is not None and u.emission.jamming)


def jamming_zones(state: GameState) -> tuple[tuple[Unit, Reach], ...]:
    """Every active jammer and its 36" reach (base to base), for drawing and for the rules."""
    return tuple((j, Reach(j.footprint, state.options.jamming_range_in)) for j in state.on_table()
                 if j.is_active and j.emission is not None and j.emission.jamming)


def is_jammed(state: GameState, unit: Unit, *, zones: tuple[tuple[Unit, Reach], ...] | None = None) -> bool:
    """The unit is within an enemy jammer's radius: it cannot use its radio (5.1.2). EW units
    can still do SIGINT and jamming. ``zones``: :func:`jamming_zones` of ``state`` when the caller
    already has them (asking for every unit of a 40-unit table)."""
    fp = position_footprint(state, unit)
    return any(reach.touches(fp) for j, reach in (zones if zones is not None else jamming_zones(state)) if j.side != unit.side)


def position_footprint(state: GameState, unit: Unit):  # type: ignore[no-untyped-def]  # returns the unit's Footprint (Circle | OrientedRect); annotate when radio.py next changes
    if unit.aboard is not None:
        return state.unit(unit.aboard).footprint
    return unit.footprint


def can_use_radio(state: GameState, unit: Unit) -> bool:
    return has_radio(state, unit) and unit.is_active and not is_jammed(state, unit)


def require_radio(state: GameState, unit: Unit, what: str) -> None:
    if not has_radio(state, unit):
        raise state.illegal(f"{unit.name} has no radio, so it cannot {what}: give it a radio in the scenario's equipment")
    if is_jammed(state, unit):
        raise state.illegal(f"{unit.name} is jammed (within {state.options.jamming_range_in:g}\" of an enemy jammer): "
                            f"its radio cannot {what} until the jamming ends")
