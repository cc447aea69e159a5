"""How close the rules want two units, measured on the table from the tracked positions.

The rulebook asks for contact in several places: a medic "touching the affected unit" (2.8), a unit
picking up another (2.3.1), a unit boarding "as part of its Move" (4.3), and assistants who "help
operate the weapon" (2.6.3) or come "to the site of the treatment" (6.6.1). The camera measures the
gap between two bases (edge to edge, in inches); these readings turn "touching" and "at the weapon"
into distances (docs/rules-down-range.md, "What the table measures"). What the camera cannot know
(inside a building, prone, behind a wall) stays a declaration the players make.

A unit aboard a vehicle stands where the vehicle is.

>>> from rules.downrange.scenario import demo_state
>>> s = demo_state()
>>> out_of_reach(s, s.unit(14), s.unit(11), reach_in=0.5, needs="touching it to treat it (2.8)")
'Corpsman is 6.1" from Mortar gunner, beyond the reach of 0.5": it must be touching it to treat it (2.8)'
>>> out_of_reach(s, s.unit(12), s.unit(11), reach_in=0.5, needs="touching it")
''
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.downrange.pieces import Unit
from rules.geometry import EPS, gap_in

if TYPE_CHECKING:
    from rules.downrange.state import GameState

#: Proposal: "touching" (medicine, carrying, boarding) allows this much gap between two bases, for
#: the tracker's error and bases that cannot quite meet.
TOUCH_IN = 0.5


def placed(state: GameState, unit: Unit) -> Unit:
    """The unit where it is on the table: a rider stands where its vehicle is."""
    if unit.aboard is None:
        return unit
    v = state.unit(unit.aboard)
    return replace(unit, x_in=v.x_in, y_in=v.y_in, heading_deg=v.heading_deg, length_in=v.length_in,
                   width_in=v.width_in, radius_in=v.radius_in)


def gap_between_in(state: GameState, a: Unit, b: Unit) -> float:
    """Base edge to base edge, 0 when they touch or overlap."""
    return gap_in(placed(state, a).footprint, placed(state, b).footprint)


def out_of_reach(state: GameState, unit: Unit, other: Unit, *, reach_in: float, needs: str) -> str:
    """'' if ``unit`` is within ``reach_in`` of ``other``, else one sentence naming both distances.

    ``needs`` says what the rule asks, completing "... : <unit> must be <needs>".
    """
    if unit.unit_id == other.unit_id:
        return ""
    d = gap_between_in(state, unit, other)
    if d <= reach_in + EPS:
        return ""
    return (f"{unit.name} is {d:.1f}\" from {other.name}, beyond the reach of {reach_in:g}\": "
            f"it must be {needs}")


def within_reach(state: GameState, of: Unit, reach_in: float) -> tuple[Unit, ...]:
    """Every other unit of ``of``'s side in the fight within ``reach_in`` of it, nearest first (what a
    form proposes as assistants)."""
    near = [(gap_between_in(state, u, of), u.unit_id, u) for u in state.units
            if u.unit_id != of.unit_id and u.side == of.side and u.is_active]
    return tuple(u for d, _, u in sorted(near, key=lambda t: t[:2]) if d <= reach_in + EPS)
