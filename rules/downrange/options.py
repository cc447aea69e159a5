"""The configurable readings of Down Range: every Proposal and Variant the players may switch.

Defaults follow ../shared/rules/down-range.md (rulebook text first, proposals where it is silent).
A scenario switches them in its ``[rules]`` table, e.g.::

    [rules]
    initiative_tie_break = "youngest"
    smoke = "partial"
    variants = ["mortar-60mm-radius-12", "heavy-dice-d8"]

>>> RulesOptions().initiative_tie_break
'reroll'
>>> sorted(VARIANTS)[:2]
['grenade-prose', 'grenade-qr']
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from rules.errors import ScenarioRulesError

#: Named data variants: weapon name -> field -> value, applied over the data files.
VARIANTS: Mapping[str, Mapping[str, Mapping[str, Any]]] = {
    # 6.4.2 and the quick reference print the 60 mm mortar's Radius as 12 (Table 3-2: 6).
    "mortar-60mm-radius-12": {"60 mm mortar": {"radius_in": 12}},
    # Reconciliation note 11: continue the d8 progression for the heavy pieces instead of d10.
    "heavy-dice-d8": {"120 mm mortar": {"damage": "4d8"}, "Tube artillery": {"damage": "5d8"},
                      "MLRS": {"damage": "6d8"}},
    # Example 3.3's prose: hand grenade Difficulty 2, Radius 3.
    "grenade-prose": {"Hand grenade": {"difficulty": 2, "radius_in": 3}},
    # The quick reference: hand grenade Range 12, Difficulty 2, Radius 3.
    "grenade-qr": {"Hand grenade": {"range_in": 12, "difficulty": 2, "radius_in": 3}},
    # Reconciliation note 8: the MAAWS range printed 38 may be an OCR of 36.
    "maaws-range-36": {"Carl Gustaf / MAAWS": {"range_in": 36}},
}


@dataclass(frozen=True)
class RulesOptions:
    """Switches for the readings the text leaves open. Field docs name the section."""

    #: 2.1.4.1 Proposal: with Advantage/Disadvantage the automatic failure is judged on the kept die
    #: ("kept die"); the alternative fails only when both dice show 1 ("both dice").
    auto_failure: Literal["kept die", "both dice"] = "kept die"
    #: 2.1.4.1 Proposal: a dice Defense that rolls all ones fails (the target dies).
    defense_all_ones_fails: bool = True
    #: 2.1.5: Advantages and Disadvantages cancel completely ("cancel", rulebook) or by count
    #: ("net", the quick reference's variant: two Advantages and one Disadvantage = Advantage).
    advantage_counting: Literal["cancel", "net"] = "cancel"
    #: 2.2.1: initiative ties: re-roll the tied players' d10 ("reroll", proposal), the youngest player
    #: wins ("youngest", QR, needs the sides' ages order), or the players settle it ("players").
    initiative_tie_break: Literal["reroll", "youngest", "players"] = "reroll"
    #: 3.2.4.2 / Example 2.3: smoke blocks line of sight ("blocks") or is partial concealment ("partial").
    smoke: Literal["blocks", "partial"] = "blocks"
    #: 5.2.2 "One per turn, a Commander can use an Action to designate ... the Main Effort": one
    #: designation per player per turn (the text's limit; a limit per Commander adds nothing, as a
    #: Commander has one Action), or one per Commander per turn.
    main_effort_limit: Literal["per player", "per commander"] = "per player"
    #: Table 3-3: a white light "ignores all Disadvantage due to darkness"; pitch black is total
    #: concealment (2.4.1.1.2), not a Disadvantage, so the light leaves it ("blocked", the text), or
    #: the table rules that the light reveals what it shines on ("lifts").
    white_light_in_pitch_black: Literal["blocked", "lifts"] = field(default="blocked", metadata={"added": True})
    #: 2.9.2, optional ruling for disabling hazards (tear gas): in a turn its Damage beats the unit's
    #: Defense the unit cannot act ("cannot act") or acts at Disadvantage ("disadvantage") ...
    disabling_hazard: Literal["cannot act", "disadvantage"] = field(default="cannot act", metadata={"added": True})
    #: ... and its Movement is halved ("may slow any affected unit's movement").
    disabling_hazard_slows: bool = field(default=True, metadata={"added": True})
    #: 2.9.1 Proposal: the die for a falling object with a static Defense.
    fall_die_sides: int = 8
    #: 4, 2.9.1: an aircraft that loses its operator crashes; the table does not track altitude, so
    #: this is the fall before impact (10": one die of its Defense type, the rule's minimum).
    crash_fall_in: float = field(default=10.0, metadata={"added": True})
    #: 2.6.5 Proposal: suppressing spends Ammunition like an attack.
    suppression_uses_ammunition: bool = True
    #: 5.1.1 Proposal: how far the voice of a unit with unlimited Movement carries.
    voice_range_unlimited_move_in: float = 8.0
    #: 5.1.2 Proposal: SIGINT covers the whole table (inf) or a given radius.
    sigint_range_in: float = float("inf")
    #: 5.1.2: the jamming radius.
    jamming_range_in: float = 36.0
    #: 2.6.3, 2.8, 6.6.1 Proposal: an assistant "helps operate the weapon" or comes "to the site of the
    #: treatment": its base within this many inches of the assisted unit (or of the patient).
    assist_reach_in: float = field(default=1.0, metadata={"added": True})
    #: 2.6.5: how close to a unit a suppressing attacker must be able to aim.
    suppression_aim_in: float = 6.0
    #: Refuse actions the rules do not allow (a second Action, moving while Focused...). False only
    #: warns, for tables that play loose.
    strict: bool = True
    #: Named data variants (see VARIANTS).
    variants: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "[rules]") -> "RulesOptions":
        """Read a scenario's ``[rules]`` table; unknown keys and values are refused with a hint."""
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("data", "lighting"):
                continue  # read by the scenario loader
            if key not in known:
                raise ScenarioRulesError(
                    f"{source}: unknown rules option {key!r}: known options are {', '.join(sorted(known))}"
                )
            default = getattr(cls(), key)
            if key == "variants":
                if not isinstance(value, list) or any(v not in VARIANTS for v in value):
                    raise ScenarioRulesError(
                        f"{source}: variants = {value!r}: use a list of {', '.join(sorted(VARIANTS))}"
                    )
                kwargs[key] = tuple(value)
                continue
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ScenarioRulesError(f"{source}: {key} = {value!r}: use true or false")
            elif isinstance(default, float):
                if value in ("inf", "unlimited"):
                    value = float("inf")
                if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                    raise ScenarioRulesError(f"{source}: {key} = {value!r}: use a positive number of inches")
                value = float(value)
            elif isinstance(default, int):
                if value not in (4, 6, 8, 10):
                    raise ScenarioRulesError(f"{source}: {key} = {value!r}: use 4, 6, 8 or 10")
            else:
                allowed = _literal_values(cls, key)
                if value not in allowed:
                    raise ScenarioRulesError(
                        f"{source}: {key} = {value!r}: use one of {', '.join(repr(a) for a in allowed)}"
                    )
            kwargs[key] = value
        return cls(**kwargs)


def _literal_values(cls: type, name: str) -> tuple[Any, ...]:
    import typing

    hints = typing.get_type_hints(cls)
    return typing.get_args(hints[name])


DEFAULT_OPTIONS = RulesOptions()
