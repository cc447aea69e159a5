"""Which tag is which unit: the roster fields of a scenario file's ``[[units]]`` (docs/scenario-format.md).

The tracker reads tag id, name, side, base height, base radius, facing offset and tag size, and keeps
the rules fields (type, weapons, equipment, commander) as given for whoever displays them; the rules
engine validates those. A misspelt roster field (``base_heigth_in``) is refused with a hint, since a
silently ignored typo would put a unit at the wrong height. Other keys belong to the rules layer or
the synthetic table and are left to them.
"""
from __future__ import annotations

import difflib
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tracker.errors import ScenarioError

SCENARIO_FORMAT = "sandtable-scenario"
SCENARIO_VERSION = 1
FIRST_UNIT_TAG_ID = 10  # ids 0-9 are anchors (calibration.table_layout)
MAX_TAG36H11_ID = 586

#: [[units]] keys the tracker reads.
ROSTER_KEYS = frozenset(
    {"tag_id", "name", "side", "base_height_in", "base_radius_in", "facing_offset_deg", "tag_size_in"}
)
#: [[units]] keys other layers read (rules: type, weapons...; the synthetic table: path).
OTHER_LAYER_KEYS = frozenset({"type", "weapons", "equipment", "commander", "path"})


@dataclass(frozen=True)
class UnitSpec:
    """One unit of the roster. ``base_height_in``: tag surface above the ground the unit stands on."""

    tag_id: int
    name: str
    side: str = ""
    unit_type: str = ""
    weapons: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    commander: int | None = None
    base_height_in: float = 1.0
    base_radius_in: float = 0.5
    facing_offset_deg: float = 0.0
    tag_size_in: float | None = None  # None: the layout's unit tag size


@dataclass(frozen=True)
class Roster:
    """The units of a scenario, by tag id. An empty roster means "every non-anchor tag is a unit"."""

    units: tuple[UnitSpec, ...] = ()
    sides: tuple[str, ...] = ()
    source: str = ""
    _by_id: dict[int, UnitSpec] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {u.tag_id: u for u in self.units})

    @property
    def is_open(self) -> bool:
        """True when no roster was given: every tag that is not an anchor is tracked as a unit."""
        return not self.units

    def unit(self, tag_id: int) -> UnitSpec | None:
        return self._by_id.get(int(tag_id))

    def spec_for(self, tag_id: int) -> UnitSpec | None:
        """The unit for ``tag_id``: the roster's, or an unnamed default for an open roster."""
        spec = self._by_id.get(int(tag_id))
        if spec is None and self.is_open and tag_id >= FIRST_UNIT_TAG_ID:
            return UnitSpec(tag_id=int(tag_id), name=f"tag {tag_id}")
        return spec

    @property
    def tag_ids(self) -> frozenset[int]:
        return frozenset(self._by_id)


def load_roster(path: str | Path) -> Roster:
    """Read the roster of a scenario file; :class:`ScenarioError` names file, entry and field on any problem."""
    path = Path(path)
    if not path.is_file():
        raise ScenarioError(f"no scenario file at '{path}'; check the path")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML ({exc}); fix the line it names") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not a text file; a scenario is a TOML text file") from None
    return roster_from_scenario(data, source=str(path))


def roster_from_scenario(data: dict[str, Any], *, source: str = "scenario") -> Roster:
    """The roster of an already parsed scenario dict (see :func:`load_roster`)."""
    fmt = data.get("format")
    if fmt != SCENARIO_FORMAT:
        raise ScenarioError(f'{source}: format = {fmt!r}; a scenario file starts with format = "{SCENARIO_FORMAT}"')
    version = data.get("version")
    if version != SCENARIO_VERSION:
        raise ScenarioError(
            f"{source}: version = {version!r}; this program reads scenario version {SCENARIO_VERSION}"
            + (" (update sandtable-companion to read newer files)" if isinstance(version, int) and version > 1 else "")
        )
    sides = _read_sides(data.get("sides", []), source)
    raw_units = data.get("units", [])
    if not isinstance(raw_units, list):
        raise ScenarioError(f"{source}: 'units' must be a list of [[units]] tables")
    units: list[UnitSpec] = []
    seen: dict[int, str] = {}
    for number, entry in enumerate(raw_units, start=1):
        spec = _read_unit(entry, number, source, sides)
        if spec.tag_id in seen:
            raise ScenarioError(
                f"{source}: units #{number} ({spec.name!r}): tag_id {spec.tag_id} is already used by {seen[spec.tag_id]!r}; "
                "give each unit its own tag"
            )
        seen[spec.tag_id] = spec.name
        units.append(spec)
    return Roster(units=tuple(units), sides=sides, source=source)


def _read_sides(raw: Any, source: str) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise ScenarioError(f"{source}: 'sides' must be a list of [[sides]] tables")
    names = []
    for number, entry in enumerate(raw, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
            raise ScenarioError(f"{source}: sides #{number}: field 'name' is missing; give each side a name")
        _check_name(entry["name"], f"{source}: sides #{number}")
        color = entry.get("color")
        if color is not None and not is_color(color):
            raise ScenarioError(f"{source}: sides #{number} ({entry['name']!r}): field 'color' = {_short(color)} is not a "
                                'colour; give "#rrggbb" (e.g. "#1f77b4") or a CSS colour name such as "steelblue"')
        names.append(entry["name"])
    return tuple(names)


#: Longest unit or side name: a label on the table and in the log, not a paragraph.
MAX_NAME_CHARS = 80

_CSS_COLORS = frozenset("""aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet
brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan
darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred
darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue
dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray grey
green greenyellow honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon
lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon
lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta
maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen
mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab
orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum
powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver
skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white
whitesmoke yellow yellowgreen""".split())


def is_color(value: Any) -> bool:
    """A colour every front end draws the same: ``#rgb``, ``#rrggbb`` or a CSS colour name.

    >>> is_color("#1f77b4"), is_color("SteelBlue"), is_color("not-a-color"), is_color("#12345")
    (True, True, False, False)
    """
    if not isinstance(value, str):
        return False
    text = value.strip().lower()
    if text.startswith("#"):
        return len(text) in (4, 7) and all(c in "0123456789abcdef" for c in text[1:])
    return text in _CSS_COLORS


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "...'"


def _check_name(name: str, where: str) -> None:
    if len(name) > MAX_NAME_CHARS:
        raise ScenarioError(f"{where}: field 'name' is {len(name)} characters long; keep a name to {MAX_NAME_CHARS} "
                            "(it is a label on the table)")
    if any(ord(c) < 32 for c in name):
        raise ScenarioError(f"{where}: field 'name' = {_short(name)} holds control characters; use plain text")


def _read_unit(entry: Any, number: int, source: str, sides: tuple[str, ...]) -> UnitSpec:
    where = f"{source}: units #{number}"
    if not isinstance(entry, dict):
        raise ScenarioError(f"{where}: expected a [[units]] table")
    if isinstance(entry.get("name"), str):
        where += f" ({_short(entry['name'])})"
    for key in entry:
        if key in ROSTER_KEYS or key in OTHER_LAYER_KEYS:
            continue
        close = difflib.get_close_matches(key, sorted(ROSTER_KEYS), n=1, cutoff=0.8)
        if close:
            raise ScenarioError(f"{where}: unknown field '{key}'; did you mean '{close[0]}'?")

    tag_id = entry.get("tag_id")
    if isinstance(tag_id, bool) or not isinstance(tag_id, int):
        raise ScenarioError(f"{where}: field 'tag_id' = {tag_id!r} must be an integer tag id (10-{MAX_TAG36H11_ID})")
    if not FIRST_UNIT_TAG_ID <= tag_id <= MAX_TAG36H11_ID:
        raise ScenarioError(
            f"{where}: field 'tag_id' = {tag_id} is outside {FIRST_UNIT_TAG_ID}-{MAX_TAG36H11_ID}; "
            "ids 0-9 are the table's anchors, unit tags start at 10"
        )
    name = entry.get("name", f"tag {tag_id}")
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"{where}: field 'name' = {_short(name)} must be a non-empty string")
    _check_name(name, where)
    side = entry.get("side", "")
    if not isinstance(side, str):
        raise ScenarioError(f"{where}: field 'side' = {side!r} must be a string")
    if sides and side and side not in sides:
        raise ScenarioError(f"{where}: field 'side' = {side!r} is not one of the [[sides]]: {', '.join(sides)}")
    commander = entry.get("commander")
    if commander is not None and (isinstance(commander, bool) or not isinstance(commander, int) or commander < 1):
        raise ScenarioError(f"{where}: field 'commander' = {commander!r} must be a whole number >= 1 (1 = most senior)")
    tag_size = entry.get("tag_size_in")
    return UnitSpec(
        tag_id=tag_id,
        name=name,
        side=side,
        unit_type=_string(entry, "type", where),
        weapons=_strings(entry, "weapons", where),
        equipment=_strings(entry, "equipment", where),
        commander=commander,
        base_height_in=_number(entry, "base_height_in", where, default=1.0, low=0.0, high=24.0),
        base_radius_in=_number(entry, "base_radius_in", where, default=0.5, low=0.0, high=24.0, strict_low=True),
        facing_offset_deg=_number(entry, "facing_offset_deg", where, default=0.0, low=-360.0, high=360.0),
        tag_size_in=None
        if tag_size is None
        else _number(entry, "tag_size_in", where, default=1.0, low=0.0, high=12.0, strict_low=True),
    )


def _string(entry: dict[str, Any], key: str, where: str) -> str:
    value = entry.get(key, "")
    if not isinstance(value, str):
        raise ScenarioError(f"{where}: field '{key}' = {value!r} must be a string")
    return value


def _strings(entry: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError(f'{where}: field \'{key}\' = {value!r} must be a list of names, e.g. ["M4/M16"]')
    return tuple(value)


def _number(
    entry: dict[str, Any], key: str, where: str, *, default: float, low: float, high: float, strict_low: bool = False
) -> float:
    value = entry.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ScenarioError(f"{where}: field '{key}' = {value!r} must be a number")
    too_low = value <= low if strict_low else value < low
    if too_low or value > high:
        bound = f"more than {low:g}" if strict_low else f"at least {low:g}"
        raise ScenarioError(f"{where}: field '{key}' = {value!r} must be {bound} and at most {high:g}")
    return float(value)
