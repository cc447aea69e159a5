"""The configurable readings of Force on Force: every Proposal of ../shared/rules/other-systems.md
(Part A) the players may switch, and the scenario's initiative overrides.

A scenario sets them in its ``[rules]`` table::

    [rules]
    first_initiative = "US Army"        # who has initiative on turn 1 (the scenario briefing)
    elevation_tolerance_in = 1.5

>>> FofOptions().elevation_tolerance_in, FofOptions().odd_infantry
(1.0, 'round down')
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import ScenarioRulesError
from rules.record_fields import read_options

#: [rules] keys read by the scenario loader, not options.
SCENARIO_KEYS = ("data", "hot_spots")


@dataclass(frozen=True)
class FofOptions:
    """Switches for the readings the excerpt leaves open. Field docs name the section."""

    #: A.4.2: the side with initiative on turn 1 ("" = roll the test on turn 1 as well, re-rolling ties).
    first_initiative: str = ""
    #: A.4.2: a side that has initiative for the whole game (no Initiative Checks); "" = none.
    fixed_initiative: str = ""
    #: A.4.2: Regulars against an entirely Irregular force always have initiative.
    regulars_always_lead_irregulars: bool = True
    #: A.4.1 proposal: an odd number of infantry units rounds down (one die per complete pair) or up.
    odd_infantry: Literal["round down", "round up"] = "round down"
    #: A.4.1 gap: a positive leader gives one bonus die ("one"), or one per point of his rating
    #: ("per point": a +2 leader gives two).
    positive_leader_dice: Literal["one", "per point"] = "one"
    #: A.8 proposal: heights (inches) closer than this count as "the same elevation".
    elevation_tolerance_in: float = 1.0
    #: A.8: Irregulars may fire whatever is in their line of fire (with the same risk as civilians).
    irregulars_fire_through_friends: bool = True
    #: A.8: a scenario may forbid fire that might injure civilians.
    forbid_fire_near_civilians: bool = False
    #: A.8 proposal: Regulars may not fire directly through "any unit" at the same elevation, or only
    #: through "friends" (the narrower reading).
    regulars_blocked_by: Literal["any unit", "friends"] = "any unit"
    #: A.6.1 proposal: a higher-command leader in sight overrides an attached leader's Morale.
    higher_command_overrides_attached: bool = True
    #: Refuse what the rules forbid (merging without cohesion, splitting after activating...);
    #: false only warns.
    strict: bool = True

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "[rules]") -> "FofOptions":
        options: FofOptions = read_options(cls, data, source=source, error=ScenarioRulesError, skip=SCENARIO_KEYS)
        return options
