"""Military symbols of the units: each unit type's MIL-STD-2525 / APP-6 symbol code (SIDC).

Each rule system ships a ``data/symbols.toml`` mapping its unit types (Down Range's unit types and
vehicles, the generic rules' records, Force on Force's roles) to a 20-digit MIL-STD-2525D/E symbol
identification code written as a friendly symbol. A scenario may override them::

    [symbols]
    types = { "average combatant" = "10032700001103010000" }   # by unit type
    tags = { "20" = "10032700001102200000" }                   # one unit, by its tag
    sides = { "Marines" = "friend", "OPFOR" = "hostile", "Villagers" = "neutral" }

A side's affiliation (friend, hostile, neutral, unknown) replaces the code's standard identity (its
4th digit) when a unit is drawn; by default the first side is the friend and every other side hostile.
Drawing the code is the front ends' business (appmodel/overlays/unit_symbols.py renders SVG).

>>> table = load_symbol_table("generic")
>>> table.sidc("Rifle section")
'10031000131211000000'
>>> table.sidc("rifle section", Affiliation.HOSTILE)
'10061000131211000000'
>>> table.sidc("a type nobody listed") == table.default_sidc
True
"""
from __future__ import annotations

import enum
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.errors import RulesError, ScenarioRulesError

RULES_DIR = Path(__file__).resolve().parent


class Affiliation(enum.Enum):
    """MIL-STD-2525D standard identities (the SIDC's 4th digit)."""

    UNKNOWN = "1"
    FRIEND = "3"
    NEUTRAL = "4"
    HOSTILE = "6"


#: Symbol sets (the 5th-6th digits) a unit on a sand table can be.
SYMBOL_SETS = {"01": "air", "02": "air missile", "10": "land unit", "11": "land civilian", "15": "land equipment",
               "27": "dismounted individual", "30": "sea surface", "35": "sea subsurface"}


def check_sidc(sidc: str, *, where: str = "") -> str:
    """The code itself when it is a 20-digit MIL-STD-2525D/E SIDC of a known symbol set."""
    prefix = f"{where}: " if where else ""
    if not (isinstance(sidc, str) and len(sidc) == 20 and sidc.isdigit()):
        raise RulesError(f"{prefix}symbol {sidc!r} is not a 20-digit MIL-STD-2525D SIDC (e.g. '10031000001211000000', infantry)")
    if sidc[4:6] not in SYMBOL_SETS:
        raise RulesError(f"{prefix}symbol {sidc!r}: symbol set {sidc[4:6]!r} is not one of "
                         f"{', '.join(f'{k} ({v})' for k, v in SYMBOL_SETS.items())}")
    if sidc[3] not in {a.value for a in Affiliation} | {"0", "2", "5"}:
        raise RulesError(f"{prefix}symbol {sidc!r}: standard identity {sidc[3]!r} is not one of 1, 3, 4, 6")
    return sidc


def with_affiliation(sidc: str, affiliation: Affiliation) -> str:
    return sidc[:3] + affiliation.value + sidc[4:]


@dataclass(frozen=True)
class SymbolTable:
    """A rule system's symbols (by lower-case unit type), with the scenario's overrides applied."""

    ruleset: str
    default_sidc: str
    by_type: Mapping[str, str] = field(default_factory=dict)
    by_tag: Mapping[int, str] = field(default_factory=dict)
    side_affiliations: Mapping[str, Affiliation] = field(default_factory=dict)

    def sidc(self, unit_type: str | None, affiliation: Affiliation = Affiliation.FRIEND, *, tag_id: int | None = None) -> str:
        """The code to draw for a unit of ``unit_type`` (or the unit with ``tag_id``, when the
        scenario gave it its own), as seen with ``affiliation``."""
        code = self.by_tag.get(tag_id) if tag_id is not None else None
        if code is None:
            code = self.by_type.get((unit_type or "").strip().lower(), self.default_sidc)
        return with_affiliation(code, affiliation)

    def affiliation(self, side: str, sides: Sequence[str] = ()) -> Affiliation:
        """A side's affiliation: the scenario's, else friend for the first of ``sides`` and hostile
        for the others (unknown for a side not among them)."""
        if side in self.side_affiliations:
            return self.side_affiliations[side]
        if sides:
            return Affiliation.FRIEND if side == sides[0] else Affiliation.HOSTILE if side in sides else Affiliation.UNKNOWN
        return Affiliation.UNKNOWN

    def sidc_for_unit(self, unit_type: str | None, side: str, sides: Sequence[str], *, tag_id: int | None = None) -> str:
        return self.sidc(unit_type, self.affiliation(side, sides), tag_id=tag_id)


def symbol_files() -> dict[str, Path]:
    """Each rule system's symbols file, by the ruleset name it declares."""
    out = {}
    for path in sorted(RULES_DIR.glob("*/data/symbols.toml")):
        with path.open("rb") as fh:
            out[str(tomllib.load(fh).get("ruleset"))] = path
    return out


def _read(path: Path) -> tuple[str, str, dict[str, str]]:
    try:
        with path.open("rb") as fh:
            doc = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RulesError(f"{path.name}: cannot be read ({exc})") from None
    where = f"{path.parent.parent.name}/data/{path.name}"
    default = check_sidc(doc.get("default", ""), where=f"{where} default")
    by_type: dict[str, str] = {}
    for i, entry in enumerate(doc.get("symbol", [])):
        unknown = set(entry) - {"type", "sidc", "note"}
        if unknown:
            raise RulesError(f"{where} [[symbol]] #{i + 1}: unknown field(s) {sorted(unknown)}; the fields are type, sidc, note")
        name = str(entry.get("type", "")).strip().lower()
        if not name:
            raise RulesError(f"{where} [[symbol]] #{i + 1}: give the unit type it is for (type = ...)")
        by_type[name] = check_sidc(entry.get("sidc", ""), where=f"{where} {entry.get('type')!r}")
    return str(doc.get("ruleset")), default, by_type


def load_symbol_table(ruleset: str, scenario: Mapping[str, Any] | None = None, *, source: str = "scenario") -> SymbolTable:
    """The symbols of ``ruleset`` (its name, e.g. ``"down-range"``) with the ``[symbols]`` overrides
    of a parsed scenario file (``source`` names it in messages)."""
    files = symbol_files()
    if ruleset not in files:
        raise RulesError(f"no symbols file for ruleset {ruleset!r}; known: {', '.join(sorted(files))}")
    _, default, by_type = _read(files[ruleset])
    by_tag: dict[int, str] = {}
    sides: dict[str, Affiliation] = {}
    over = (scenario or {}).get("symbols")
    if over is not None:
        if not isinstance(over, Mapping):
            raise ScenarioRulesError(f"{source}: [symbols] must be a table (types, tags, sides)")
        unknown = set(over) - {"types", "tags", "sides"}
        if unknown:
            raise ScenarioRulesError(f"{source}: [symbols] has unknown field(s) {sorted(unknown)}; the fields are types, tags, sides")
        try:
            for name, code in dict(over.get("types", {})).items():
                by_type[str(name).strip().lower()] = check_sidc(code, where=f"{source}: [symbols] types {name!r}")
            for tag, code in dict(over.get("tags", {})).items():
                if not str(tag).isdigit():
                    raise RulesError(f"{source}: [symbols] tags {tag!r}: give the unit's tag number, e.g. \"20\" = ...")
                by_tag[int(tag)] = check_sidc(code, where=f"{source}: [symbols] tags {tag!r}")
        except RulesError as exc:
            raise ScenarioRulesError(str(exc)) from None
        names = {a.name.lower(): a for a in Affiliation}
        for side, value in dict(over.get("sides", {})).items():
            if str(value).lower() not in names:
                raise ScenarioRulesError(f"{source}: [symbols] sides {side!r} = {value!r}; give one of {', '.join(names)}")
            sides[str(side)] = names[str(value).lower()]
    return SymbolTable(ruleset, default, by_type, by_tag, sides)
