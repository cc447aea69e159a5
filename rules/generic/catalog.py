"""The generic miniatures rules' data: range bands, to-hit, scatter, typical values, status levels, close
combat's average die, the automation tables, and the unit records -- loaded from TOML.

``rules/generic/data/tables.toml`` holds the text's tables, ``records.toml`` the unit record
templates; a user adds or replaces entries (by name) with files of the same form. A bad file is
refused naming the file, the entry and the field.

>>> data = load_data()
>>> data.band("Rifle", 10.0).name, data.band("Thrown", 0.5).name, data.band("Artillery", 5.0).name
('Medium', 'Point Blank', 'Short')
>>> data.band("Handgun", 19.0) is None, data.band("Rifle", 24.0).name
(True, 'Very Long')
>>> data.direction(1, 1), data.direction(2, 4), data.direction(3, 3), data.route(2, 6)
('NW', 'N', 'Dud', 'OfL Esy')
>>> data.record("rifle section").ranged_defence, data.record("light tank").ranged_defence
(0, 3)
"""
from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from rules.errors import DataFileError, RulesError, UnknownNameError
from rules.record_fields import Fields, read_toml_file

DATA_DIR = Path(__file__).resolve().parent / "data"
BUILTIN_FILES = ("tables.toml", "records.toml")
BAND_KEYS = ("point_blank_in", "short_in", "medium_in", "long_in", "very_long_in")
ROLES = ("commander", "subordinate", "both")
_TABLES = ("range_level", "delivery", "scatter", "projectile", "defence_class", "movement_type", "status",
           "close_combat", "automation", "manoeuvre", "path", "record")


@dataclass(frozen=True)
class RangeLevel:
    """A row of the to-hit table (B.2) with the automation's chance of firing (B.8.2)."""

    name: str
    index: int
    to_hit: int
    automation_fires: int

    @property
    def automatic(self) -> bool:
        return self.to_hit <= 1


@dataclass(frozen=True)
class Delivery:
    """A row of the range table (B.1): the far limit of each band; None where it has no Point Blank."""

    name: str
    point_blank_in: float | None
    short_in: float
    medium_in: float
    long_in: float
    very_long_in: float

    @property
    def limits_in(self) -> tuple[tuple[str, float | None], ...]:
        return (("Point Blank", self.point_blank_in), ("Short", self.short_in), ("Medium", self.medium_in),
                ("Long", self.long_in), ("Very Long", self.very_long_in))


@dataclass(frozen=True)
class Band:
    """Where a distance falls for a delivery type: the level and the band's near and far limits."""

    name: str
    level: RangeLevel
    near_in: float
    far_in: float


@dataclass(frozen=True)
class Projectile:
    name: str
    aoe_in: float
    damage: int


@dataclass(frozen=True)
class MovementType:
    name: str
    defence_class: str
    max_speed_in: float
    min_speed_in: float
    movement_probability: int


@dataclass(frozen=True)
class Manoeuvre:
    code: str
    name: str
    turn_deg: float | None


@dataclass(frozen=True)
class UnitRecord:
    """A unit record (B.9), every field of the text's record sheet.

    ``delivery`` is None for a unit without a ranged attack; ``shots`` None = unlimited.
    """

    name: str
    unit_name: str = ""
    description: str = ""
    status: str = ""
    role: str = "subordinate"
    commander_id: str | None = None
    unit_ids: tuple[str, ...] = ()
    command_range_in: float | None = None
    movement_type: str = "Foot"
    movement_probability: int = 0
    max_speed_in: float = 0.0
    min_speed_in: float = 0.0
    special_movement: str = ""
    weapon: str = ""
    delivery: str | None = None
    projectile: str | None = None
    aoe_in: float = 0.0
    shots: int | None = None
    max_range_in: float = 0.0
    min_range_in: float = 0.0
    damage: int = 0
    cc_strength: int = 0
    cc_damage: int = 0
    ranged_defence: int = 0
    cc_defence: int = 0

    @property
    def has_ranged_attack(self) -> bool:
        return self.delivery is not None and self.damage > 0

    @property
    def is_commander(self) -> bool:
        return self.role in ("commander", "both")


#: Record fields a scenario unit may override (everything but the template's name).
RECORD_FIELDS = tuple(f for f in UnitRecord.__dataclass_fields__ if f != "name")


@dataclass(frozen=True)
class GenericData:
    """Every table of the generic rules, and the unit record templates."""

    levels: tuple[RangeLevel, ...]
    deliveries: Mapping[str, Delivery]
    distance_die: int
    row_faces: tuple[tuple[int, ...], ...]
    column_faces: tuple[tuple[int, ...], ...]
    directions: tuple[tuple[str, ...], ...]
    projectiles: Mapping[str, Projectile]
    defence_classes: Mapping[str, int]
    movement_types: Mapping[str, MovementType]
    status_ladder: tuple[str, ...]
    average_die: tuple[int, ...]
    movement_die: int
    routes: tuple[tuple[str, ...], ...]
    manoeuvres: Mapping[str, Manoeuvre]
    paths: Mapping[str, str]
    records: Mapping[str, UnitRecord]
    files: tuple[str, ...] = ()
    #: Each template's fields as written (a scenario unit's own fields go on top of them).
    record_fields: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    # -- lookups ---------------------------------------------------------------------------------

    def level(self, name: str) -> RangeLevel:
        for lv in self.levels:
            if _key(lv.name) == _key(name):
                return lv
        raise UnknownNameError(f"unknown range level {name!r}: use {', '.join(lv.name for lv in self.levels)}")

    def delivery(self, name: str) -> Delivery:
        return _find("delivery type", self.deliveries, name)

    def projectile(self, name: str) -> Projectile:
        return _find("projectile type", self.projectiles, name)

    def movement_type(self, name: str) -> MovementType:
        return _find("movement type", self.movement_types, name)

    def record(self, name: str) -> UnitRecord:
        return _find("unit record", self.records, name)

    def band(self, delivery: str | Delivery, distance_in: float) -> Band | None:
        """The range band a distance falls in; None beyond Very Long (no fire). Bands hold their near
        limit, not their far limit, except Very Long, which holds it (proposal)."""
        d = delivery if isinstance(delivery, Delivery) else self.delivery(delivery)
        near = 0.0
        limits = [(n, lim) for n, lim in d.limits_in if lim is not None]
        for i, (name, far) in enumerate(limits):
            last = i == len(limits) - 1
            if distance_in < far - 1e-9 or (last and distance_in <= far + 1e-9):
                return Band(name, self.level(name), near, far)
            near = far
        return None

    def shifted(self, delivery: str | Delivery, band: Band, steps: int) -> Band | None:
        """The band ``steps`` levels farther (+) or nearer (-): beyond Very Long is None (no fire);
        nearer than the delivery's nearest band stays there (never Adjacent)."""
        d = delivery if isinstance(delivery, Delivery) else self.delivery(delivery)
        limits = [(n, lim) for n, lim in d.limits_in if lim is not None]
        names = [n for n, _ in limits]
        i = names.index(band.name) + steps
        if i >= len(names):
            return None
        i = max(0, i)
        near = 0.0 if i == 0 else float(limits[i - 1][1] or 0.0)
        return Band(names[i], self.level(names[i]), near, float(limits[i][1] or 0.0))

    def direction(self, first: int, second: int) -> str:
        """The scatter direction for two d6 (first picks the row, second the column)."""
        row = next(i for i, faces in enumerate(self.row_faces) if first in faces)
        col = next(i for i, faces in enumerate(self.column_faces) if second in faces)
        return self.directions[row][col]

    def route(self, first: int, second: int) -> str:
        return self.routes[first - 1][second - 1]

    def status_index(self, name: str) -> int:
        for i, s in enumerate(self.status_ladder):
            if _key(s) == _key(name):
                return i
        raise UnknownNameError(f"unknown status {name!r}: use {', '.join(self.status_ladder)}")

    def average(self, face: int) -> int:
        return self.average_die[face - 1]


def _key(name: str) -> str:
    return " ".join(name.lower().split())


T = TypeVar("T")


def _find(what: str, items: Mapping[str, T], name: str) -> T:
    if isinstance(name, str):
        for k, v in items.items():
            if _key(k) == _key(name):
                return v
    close = difflib.get_close_matches(_key(str(name)), [_key(k) for k in items], n=1)
    hint = f"did you mean {next(k for k in items if _key(k) == close[0])!r}? " if close else ""
    raise UnknownNameError(f"unknown {what} {name!r}: {hint}use one of {', '.join(items)}")


# ----------------------------------------------------------------------------------------------
# Reading


def read_record(f: Fields, data: "GenericData", *, name: str | None = None) -> UnitRecord:
    """A unit record from a table: a template from a data file, or a scenario unit's template fields
    with its own on top (``name`` then is the template's). Fields left out take the defaults of the
    movement type and projectile type (B.9: "can be used to determine default values")."""
    values: dict[str, Any] = {"name": name if name is not None else f.text("name")}
    for key in ("unit_name", "description", "special_movement"):
        values[key] = f.text(key, "-") if f.has(key) else ""
    values["role"] = f.choice("role", ROLES, "subordinate")
    values["commander_id"] = f.maybe_text("commander_id")
    values["unit_ids"] = f.names("unit_ids")
    values["command_range_in"] = f.maybe_number("command_range_in", low=0.0)
    try:
        mt = data.movement_type(f.text("movement_type", "Foot"))
    except RulesError as exc:
        raise f.fail("movement_type", str(exc)) from None
    values["movement_type"] = mt.name
    values["movement_probability"] = f.whole("movement_probability", mt.movement_probability, low=0, high=6)
    values["max_speed_in"] = f.number("max_speed_in", mt.max_speed_in, low=0.0, allow_inf=True)
    values["min_speed_in"] = f.number("min_speed_in", mt.min_speed_in, low=0.0)
    values["ranged_defence"] = f.whole("ranged_defence", data.defence_classes[mt.defence_class], low=0, high=6)
    delivery = f.text("delivery", "none")
    if _key(delivery) == "none":
        for key in ("projectile", "aoe_in", "damage", "weapon", "max_range_in", "shots"):
            if f.has(key):
                raise f.fail(key, "a unit without a delivery type has no ranged attack; give delivery = \"Rifle\" (or another)")
    else:
        try:
            d = data.delivery(delivery)
            p = data.projectile(f.text("projectile", "Bullet"))
        except RulesError as exc:
            raise f.fail("delivery" if "delivery" in str(exc) else "projectile", str(exc)) from None
        values.update(delivery=d.name, projectile=p.name, weapon=f.text("weapon", d.name),
                      aoe_in=f.number("aoe_in", p.aoe_in, low=0.0), damage=f.whole("damage", p.damage, low=0, high=100),
                      max_range_in=f.number("max_range_in", d.very_long_in, low=0.0, allow_inf=True))
        shots = f.raw("shots", None)
        values["shots"] = None if shots in (None, "unlimited") else f.whole("shots", low=0, high=10000)
    values["min_range_in"] = f.number("min_range_in", 0.0, low=0.0)
    for key in ("cc_strength", "cc_damage", "cc_defence"):
        values[key] = f.whole(key, low=0, high=100)
    try:
        values["status"] = data.status_ladder[data.status_index(f.text("status", data.status_ladder[0]))]
    except RulesError as exc:
        raise f.fail("status", str(exc)) from None
    if values.get("delivery") and values["min_range_in"] > values["max_range_in"]:
        raise f.fail("min_range_in", f"{values['min_range_in']:g} is beyond the maximum range "
                     f"{values['max_range_in']:g}: nothing could be engaged")
    return UnitRecord(**values)


def _merge(raw: Mapping[str, Any], source: str, acc: dict[str, Any], records: list[tuple[Fields, str]]) -> None:
    unknown = sorted(set(raw) - set(_TABLES))
    if unknown:
        raise DataFileError(f"{source}: unknown table {unknown[0]!r}; the tables are {', '.join(_TABLES)}")
    f = Fields(raw, source=source, entry="the file")
    levels = f.tables("range_level")
    if levels:
        acc["levels"] = []
        for i, e in enumerate(levels):
            e.entry = f"range_level {e.data.get('name', '#?')!r}"
            acc["levels"].append(RangeLevel(e.text("name"), i, e.whole("to_hit", low=1, high=7),
                                            e.whole("automation_fires", low=0, high=6)))
            e.finish()
    for e in f.tables("delivery"):
        e.entry = f"delivery {e.data.get('name', '#?')!r}"
        pb = e.maybe_number("point_blank_in", low=0.0)
        limits = [e.number(k, low=0.0) for k in BAND_KEYS[1:]]
        chain = ([pb] if pb is not None else []) + limits
        if any(b <= a for a, b in zip(chain, chain[1:])):
            raise e.fail("very_long_in", f"the band limits {chain} must grow from Point Blank to Very Long")
        d = Delivery(e.text("name"), pb, *limits)
        e.finish()
        acc["deliveries"][d.name] = d
    sc = f.table("scatter")
    if sc is not None:
        sc.entry = "[scatter]"
        acc["distance_die"] = sc.die("distance_die")
        rows = sc.raw("row_faces")
        cols = sc.raw("column_faces")
        dirs = sc.raw("directions")
        for key, grid in (("row_faces", rows), ("column_faces", cols)):
            faces = sorted(x for group in grid for x in group) if isinstance(grid, list) and all(
                isinstance(g, list) for g in grid) else None
            if faces != [1, 2, 3, 4, 5, 6]:
                raise sc.fail(key, f"{grid!r}: the groups must share out the faces 1-6, each once")
        if not (isinstance(dirs, list) and len(dirs) == len(rows) and all(isinstance(r, list) and len(r) == len(cols)
                                                                          for r in dirs)):
            raise sc.fail("directions", f"give {len(rows)} rows of {len(cols)} directions")
        acc["row_faces"] = tuple(tuple(g) for g in rows)
        acc["column_faces"] = tuple(tuple(g) for g in cols)
        acc["directions"] = tuple(tuple(str(x) for x in r) for r in dirs)
        bad = [x for r in acc["directions"] for x in r if x not in COMPASS and x != "Dud"]
        if bad:
            raise sc.fail("directions", f"{bad[0]!r}: use N, NE, E, SE, S, SW, W, NW or Dud")
        sc.finish()
    for e in f.tables("projectile"):
        e.entry = f"projectile {e.data.get('name', '#?')!r}"
        p = Projectile(e.text("name"), e.number("aoe_in", low=0.0), e.whole("damage", low=0, high=100))
        e.finish()
        acc["projectiles"][p.name] = p
    for e in f.tables("defence_class"):
        e.entry = f"defence_class {e.data.get('name', '#?')!r}"
        acc["defence_classes"][e.text("name")] = e.whole("ranged_defence", low=0, high=6)
        e.finish()
    for e in f.tables("movement_type"):
        e.entry = f"movement_type {e.data.get('name', '#?')!r}"
        m = MovementType(e.text("name"), e.text("defence_class"), e.number("max_speed_in", low=0.0),
                         e.number("min_speed_in", low=0.0), e.whole("movement_probability", low=0, high=6))
        e.finish()
        acc["movement_types"][m.name] = m
    st = f.table("status")
    if st is not None:
        st.entry = "[status]"
        ladder = st.names("ladder")
        if len(ladder) < 2:
            raise st.fail("ladder", "give at least two status levels, from undamaged to destroyed")
        acc["status_ladder"] = ladder
        st.finish()
    cc = f.table("close_combat")
    if cc is not None:
        cc.entry = "[close_combat]"
        avg = cc.raw("average_die")
        if not (isinstance(avg, list) and len(avg) == 6 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                 for x in avg)):
            raise cc.fail("average_die", f"{avg!r}: give the six values a d6's faces 1-6 read as")
        acc["average_die"] = tuple(avg)
        cc.finish()
    au = f.table("automation")
    if au is not None:
        au.entry = "[automation]"
        acc["movement_die"] = au.die("movement_die")
        routes = au.raw("routes")
        if not (isinstance(routes, list) and len(routes) == 6 and all(isinstance(r, list) and len(r) == 6 and all(
                isinstance(x, str) for x in r) for r in routes)):
            raise au.fail("routes", "give six rows of six route codes such as \"Adv Dir\"")
        acc["routes"] = tuple(tuple(r) for r in routes)
        au.finish()
    for e in f.tables("manoeuvre"):
        e.entry = f"manoeuvre {e.data.get('code', '#?')!r}"
        random = e.flag("random")
        m2 = Manoeuvre(e.text("code"), e.text("name"), None if random else e.number("turn_deg", low=-360, high=360))
        e.finish()
        acc["manoeuvres"][m2.code] = m2
    for e in f.tables("path"):
        e.entry = f"path {e.data.get('code', '#?')!r}"
        acc["paths"][e.text("code")] = e.text("name")
        e.finish()
    for e in f.tables("record"):
        e.entry = f"record {e.data.get('name', '#?')!r}"
        records.append((e, source))


COMPASS = {"N": 90.0, "NE": 45.0, "E": 0.0, "SE": -45.0, "S": -90.0, "SW": -135.0, "W": 180.0, "NW": 135.0}


def _load(paths: tuple[Path, ...]) -> GenericData:
    acc: dict[str, Any] = {"deliveries": {}, "projectiles": {}, "defence_classes": {}, "movement_types": {},
                           "manoeuvres": {}, "paths": {}}
    record_entries: list[tuple[Fields, str]] = []
    for path in paths:
        source = f"rules/generic/data/{path.name}" if path.parent == DATA_DIR else str(path)
        _merge(read_toml_file(path), source, acc, record_entries)
    needed = ("levels", "distance_die", "status_ladder", "average_die", "movement_die", "routes")
    missing = [k for k in needed if k not in acc]
    if missing:
        raise DataFileError(f"the generic rules data lacks {missing[0]!r}; keep rules/generic/data/tables.toml")
    for code in {c.split()[0] for r in acc["routes"] for c in r}:
        if code not in acc["manoeuvres"]:
            raise DataFileError(f"route code {code!r} has no [[manoeuvre]] entry")
    for code in {c.split()[-1] for r in acc["routes"] for c in r}:
        if code not in acc["paths"]:
            raise DataFileError(f"route code {code!r} has no [[path]] entry")
    for m in acc["movement_types"].values():
        if m.defence_class not in acc["defence_classes"]:
            raise DataFileError(f"movement_type {m.name!r}: defence class {m.defence_class!r} is not a [[defence_class]]")
    data = GenericData(tuple(acc["levels"]), acc["deliveries"], acc["distance_die"], acc["row_faces"],
                       acc["column_faces"], acc["directions"], acc["projectiles"], acc["defence_classes"],
                       acc["movement_types"], acc["status_ladder"], acc["average_die"], acc["movement_die"],
                       acc["routes"], acc["manoeuvres"], acc["paths"], {}, tuple(str(p) for p in paths))
    records: dict[str, UnitRecord] = {}
    raw: dict[str, Mapping[str, Any]] = {}
    for e, source in record_entries:
        rec = read_record(e, data)
        e.finish(hint=f"see the field list at the top of {source}")
        for k in list(records):
            if _key(k) == _key(rec.name):
                del records[k], raw[k]
        records[rec.name] = rec
        raw[rec.name] = {k: v for k, v in e.data.items() if k != "name"}
    return replace(data, records=records, record_fields=raw)


@lru_cache(maxsize=8)
def _load_cached(paths: tuple[Path, ...]) -> GenericData:
    return _load(paths)


def load_data(extra_files: Sequence[str | Path] = ()) -> GenericData:
    """The built-in tables and records plus ``extra_files`` (later entries replace earlier ones)."""
    return _load_cached(_paths(tuple(str(f) for f in extra_files)))


@lru_cache(maxsize=32)
def _paths(extra_files: tuple[str, ...]) -> tuple[Path, ...]:
    # Resolved once per set of files: the state asks for its data on every rules decision.
    return tuple(DATA_DIR / f for f in BUILTIN_FILES) + tuple(Path(p).expanduser().resolve() for p in extra_files)


def compass_bearing_deg(direction: str, *, north_deg: float = 90.0) -> float:
    """Table bearing (degrees counter-clockwise from +x) of a compass direction, with north along
    ``north_deg`` (90: the top edge of the table, +y).

    >>> compass_bearing_deg("N"), compass_bearing_deg("SW"), compass_bearing_deg("E", north_deg=0.0)
    (90.0, 225.0, 270.0)
    """
    return (COMPASS[direction] - 90.0 + north_deg) % 360.0


__all__ = ["Band", "Delivery", "GenericData", "RangeLevel", "UnitRecord", "compass_bearing_deg", "load_data"]
