"""The configurable readings of the generic miniatures rules: every Proposal of
../shared/rules/other-systems.md (Part B) the players may switch, in a scenario's ``[rules]`` table.

>>> GenericOptions().half_rounding, GenericOptions().scatter_north
('up', 'table')
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import ScenarioRulesError
from rules.record_fields import read_options

#: [rules] keys read by the scenario loader, not options.
SCENARIO_KEYS = ("data",)


@dataclass(frozen=True)
class GenericOptions:
    """Switches for the readings the text leaves open. Field docs name the section."""

    #: B.1: bases at most this far apart are in contact ("Adjacent": automatic hit, close combat).
    adjacent_in: float = 0.5
    #: B.3 proposal: "N" of the scatter table is the top edge of the table ("table"), or the line of
    #: fire away from the firer ("line of fire").
    scatter_north: Literal["table", "line of fire"] = "table"
    #: B.4.1 proposal: half damage for every unit in the area of effect except the one hit directly
    #: ("all but the direct target"), or half damage only around a missed shot ("misses only": a hit
    #: does full damage to everyone in the area).
    half_damage: Literal["all but the direct target", "misses only"] = "all but the direct target"
    #: B.4.1 proposal: half damage rounds up (1 point stays 1) or down.
    half_rounding: Literal["up", "down"] = "up"
    #: B.6 proposal: firing at an anonymous unit identifies it (a dummy is then removed and the shot
    #: is wasted).
    attack_identifies: bool = True
    #: Refuse what the rules forbid (firing out of range or twice a turn, a second close combat
    #: initiated in one turn...); false only warns.
    strict: bool = True

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "[rules]") -> "GenericOptions":
        options: GenericOptions = read_options(cls, data, source=source, error=ScenarioRulesError, skip=SCENARIO_KEYS)
        return options
