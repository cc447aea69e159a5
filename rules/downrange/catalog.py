"""The Down Range data: weapons, unit types, vehicles, equipment and tables, loaded from TOML.

The files under ``rules/downrange/data/`` are read and validated when a catalog is built; a user adds
or replaces entries with extra files (same format, any of the tables). A bad file is refused with a
:class:`DataFileError` naming the file, the entry and the field; a user's bad extra file never
changes the built-in data.

>>> catalog = load_catalog()
>>> catalog.weapon("m4").range_in, str(catalog.weapon("MAAWS").damage)
(36.0, '2d10')
>>> catalog.weapon("M4/M61")
Traceback (most recent call last):
...
rules.errors.UnknownNameError: unknown weapon 'M4/M61': did you mean 'M4/M16'? (the weapons are listed by `sandtable odds --list weapons`)
"""
from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, TypeVar

from rules.dice import Dice
from rules.downrange.options import VARIANTS
from rules.errors import DataFileError, DiceError, UnknownNameError
from rules.record_fields import read_toml_file

DATA_DIR = Path(__file__).resolve().parent / "data"
BUILTIN_FILES = ("weapons.toml", "units.toml", "vehicles.toml", "equipment.toml", "tables.toml")
#: The only dice Down Range has (2.1.1).
SIDES = (4, 6, 8, 10)

WEAPON_CATEGORIES = ("small arm", "automatic", "explosive", "artillery", "vehicle")
MOBILITIES = ("road", "off-road", "tracked", "aerial", "water", "amphibious")
CONTROLS = ("crewed", "remote", "autonomous")
EQUIPMENT_EFFECTS = ("defense_bonus", "radio", "electronic_warfare", "ignores_darkness", "sees_ir",
                     "sees_in_total_darkness", "light", "medical", "repair", "snow_movement")
MEDICAL_RESULTS = ("removed", "no effect", "injured", "restored")
PAYLOAD_DURATIONS = ("instant", "end of creator's next turn")


@dataclass(frozen=True)
class Weapon:
    """One weapon row (Tables 3-1/3-2). ``range_in`` may be ``inf``."""

    name: str
    category: str
    range_in: float
    difficulty: int
    damage: Dice
    max_assistants: int
    focus: bool = False
    fan: int | None = None
    radius_in: float | None = None
    ammunition: int | None = None
    indirect: bool = False
    payloads: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    uncertain: tuple[str, ...] = ()
    note: str = ""
    source: str = ""

    @property
    def is_explosive(self) -> bool:
        return self.radius_in is not None

    @property
    def is_automatic(self) -> bool:
        return self.fan is not None

    @property
    def suppression_limit(self) -> int | None:
        """At most Fan units (2.6.5 #4); an explosive: everything in the Radius (None); else 1 (proposal)."""
        if self.fan is not None:
            return self.fan
        return None if self.is_explosive else 1


@dataclass(frozen=True)
class UnitType:
    """A basic troop type (3.1)."""

    name: str
    move_in: float
    skill: Dice
    defense: Dice
    specialty_skill: Dice | None = None
    aliases: tuple[str, ...] = ()
    uncertain: tuple[str, ...] = ()
    note: str = ""
    source: str = ""


@dataclass(frozen=True)
class VehicleType:
    """A vehicle row (Table 4-1) or an example vehicle."""

    name: str
    move_in: float
    crew: int
    defense: Dice
    passengers: int
    mobility: str
    weapons: tuple[str, ...] = ()
    unlisted_weapons: tuple[str, ...] = ()
    control: str = "crewed"
    skill: Dice | None = None
    length_in: float | None = None
    width_in: float | None = None
    radius_in: float | None = None
    aliases: tuple[str, ...] = ()
    uncertain: tuple[str, ...] = ()
    note: str = ""
    source: str = ""


@dataclass(frozen=True)
class Equipment:
    """An equipment item (Table 3-3) with the effects it gives."""

    name: str
    defense_bonus: int = 0
    radio: bool = False
    electronic_warfare: bool = False
    ignores_darkness: bool = False
    sees_ir: bool = False
    sees_in_total_darkness: bool = False
    light: bool = False
    medical: bool = False
    repair: bool = False
    snow_movement: bool = False
    aliases: tuple[str, ...] = ()
    note: str = ""
    source: str = ""


@dataclass(frozen=True)
class DifficultyRating:
    """A row of Table 2-1."""

    value: int
    meaning: str
    examples: tuple[str, ...]


@dataclass(frozen=True)
class MedicalBand:
    """A row of Table 2-2: Skill results ``min``..``max`` give ``result``."""

    min: int
    max: int
    result: str
    text: str


@dataclass(frozen=True)
class Hazard:
    """A row of Table 2-3."""

    name: str
    damage: Dice
    nature: str


@dataclass(frozen=True)
class Payload:
    """An explosive payload (3.2.4.2)."""

    name: str
    damage: bool
    area_factor: float
    effect: str
    lasts: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class TerrainCost:
    """An impaired-movement condition (2.3.1)."""

    name: str
    cost_factor: float
    exempt: tuple[str, ...]
    applies_to: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


T = TypeVar("T")


@dataclass(frozen=True)
class Catalog:
    """Every Down Range data table, looked up by name (case-insensitive, aliases allowed)."""

    weapons: Mapping[str, Weapon]
    unit_types: Mapping[str, UnitType]
    vehicles: Mapping[str, VehicleType]
    equipment: Mapping[str, Equipment]
    difficulties: tuple[DifficultyRating, ...]
    medical: tuple[MedicalBand, ...]
    hazards: Mapping[str, Hazard]
    payloads: Mapping[str, Payload]
    terrain: Mapping[str, TerrainCost]
    task_max_assistants: int = 1
    files: tuple[str, ...] = ()
    _index: Mapping[str, Mapping[str, str]] = field(default_factory=dict, repr=False, compare=False)

    def _find(self, table: str, items: Mapping[str, T], name: str, listing: str) -> T:
        if not isinstance(name, str):
            raise UnknownNameError(f"{name!r} is not a {table} name")
        key = _key(name)
        index = self._index.get(table, {})
        if key in index:
            return items[index[key]]
        close = difflib.get_close_matches(key, list(index), n=1, cutoff=0.6)
        hint = f"did you mean {index[close[0]]!r}? " if close else ""
        raise UnknownNameError(f"unknown {table} {name!r}: {hint}(the {listing} are listed by `sandtable odds --list {listing}`)")

    def weapon(self, name: str) -> Weapon:
        return self._find("weapon", self.weapons, name, "weapons")

    def unit_type(self, name: str) -> UnitType:
        return self._find("unit type", self.unit_types, name, "units")

    def vehicle(self, name: str) -> VehicleType:
        return self._find("vehicle", self.vehicles, name, "vehicles")

    def equipment_item(self, name: str) -> Equipment:
        return self._find("equipment item", self.equipment, name, "equipment")

    def payload(self, name: str) -> Payload:
        return self._find("payload", self.payloads, name, "payloads")

    def hazard(self, name: str) -> Hazard:
        return self._find("hazard", self.hazards, name, "hazards")

    def terrain_cost(self, name: str) -> TerrainCost:
        return self._find("terrain", self.terrain, name, "terrain")

    def is_vehicle(self, type_name: str) -> bool:
        return _key(type_name) in self._index.get("vehicle", {})

    def has_unit_type(self, type_name: str) -> bool:
        return _key(type_name) in self._index.get("unit type", {}) or self.is_vehicle(type_name)

    def medical_band(self, result: int) -> MedicalBand:
        """The Table 2-2 row for a Skill result (results below 1 read as 1, above the table as the top)."""
        for band in self.medical:
            if band.min <= result <= band.max:
                return band
        return self.medical[0] if result < self.medical[0].min else self.medical[-1]

    def with_weapon_changes(self, changes: Mapping[str, Mapping[str, Any]], *, source: str) -> "Catalog":
        """A catalog whose named weapons have some fields replaced (data variants)."""
        weapons = dict(self.weapons)
        for name, fields_ in changes.items():
            w = self.weapon(name)
            entry = _weapon_entry(w)
            entry.update(fields_)
            weapons[w.name] = _read_weapon(_Entry(source, "weapon", entry, w.name))
        return replace(self, weapons=weapons, _index=_build_index(weapons, self.unit_types, self.vehicles,
                                                                  self.equipment, self.payloads, self.hazards,
                                                                  self.terrain))


def _key(name: str) -> str:
    return " ".join(name.lower().split())


# ----------------------------------------------------------------------------------------------
# Reading and validating entries


class _Entry:
    """One [[table]] entry being read; every problem names the file, the entry and the field."""

    def __init__(self, source: str, table: str, data: Mapping[str, Any], name: str | None = None) -> None:
        self.source, self.table, self.data = source, table, data
        raw_name = data.get("name", name)
        self.name = raw_name if isinstance(raw_name, str) and raw_name.strip() else None
        self.used: set[str] = set()

    def where(self, field_name: str) -> str:
        entry = f"{self.table} {self.name!r}" if self.name else f"a [[{self.table}]] entry without a name"
        return f"{self.source}: {entry}, field {field_name!r}"

    def fail(self, field_name: str, message: str) -> DataFileError:
        return DataFileError(f"{self.where(field_name)}: {message}")

    def get(self, name: str, default: Any = ..., ) -> Any:
        self.used.add(name)
        if name in self.data:
            return self.data[name]
        if default is ...:
            raise self.fail(name, "missing; add it to the entry")
        return default

    def text(self, name: str, default: Any = ...) -> str:
        value = self.get(name, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(name, f"{value!r} is not text; write it in quotes")
        return value.strip()

    def choice(self, name: str, allowed: Sequence[str], default: Any = ...) -> str:
        value = self.get(name, default)
        if value not in allowed:
            raise self.fail(name, f"{value!r} is not one of {', '.join(repr(a) for a in allowed)}")
        return str(value)

    def boolean(self, name: str, default: bool = False) -> bool:
        value = self.get(name, default)
        if not isinstance(value, bool):
            raise self.fail(name, f"{value!r} is not true or false")
        return value

    def whole(self, name: str, default: Any = ..., *, low: int = 0, high: int = 1000) -> int:
        value = self.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(name, f"{value!r} is not a whole number from {low} to {high}")
        return value

    def maybe_whole(self, name: str, *, low: int = 0, high: int = 1000) -> int | None:
        self.used.add(name)
        return None if self.data.get(name) is None else self.whole(name, low=low, high=high)

    def inches(self, name: str, default: Any = ..., *, allow_inf: bool = False, low: float = 0.0) -> float:
        value = self.get(name, default)
        if isinstance(value, str) and value.strip().lower() in ("inf", "unlimited", "∞") and allow_inf:
            return math.inf
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            raise self.fail(name, f"{value!r} is not a number of inches" + (' (or "unlimited")' if allow_inf else ""))
        if math.isinf(value) and not allow_inf:
            raise self.fail(name, f"{value!r}: this distance cannot be unlimited")
        if value < low:
            raise self.fail(name, f"{value!r} must be at least {low:g}")
        return float(value)

    def maybe_inches(self, name: str, *, low: float = 0.0) -> float | None:
        self.used.add(name)
        return None if self.data.get(name) is None else self.inches(name, low=low)

    def dice(self, name: str, default: Any = ...) -> Dice:
        value = self.get(name, default)
        try:
            return Dice.parse(value, allowed_sides=SIDES)
        except DiceError as exc:
            raise self.fail(name, str(exc)) from None

    def maybe_dice(self, name: str) -> Dice | None:
        self.used.add(name)
        return None if self.data.get(name) is None else self.dice(name)

    def names(self, name: str) -> tuple[str, ...]:
        value = self.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(name, f"{value!r} is not a list of names in quotes")
        return tuple(v.strip() for v in value)

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            close = difflib.get_close_matches(unknown[0], sorted(self.used), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise self.fail(unknown[0], f"unknown field{hint}; the fields are listed at the top of the built-in file")


def _read_weapon(e: _Entry) -> Weapon:
    name = e.text("name")
    fan = e.maybe_whole("fan", low=1, high=50)
    radius = e.maybe_inches("radius_in", low=0.0)
    payloads = e.names("payloads") if "payloads" in e.data else (("HE",) if radius is not None else ())
    if payloads and radius is None:
        raise e.fail("payloads", "only explosives (with a radius_in) fire payloads")
    w = Weapon(
        name=name,
        category=e.choice("category", WEAPON_CATEGORIES),
        range_in=e.inches("range_in", allow_inf=True),
        difficulty=e.whole("difficulty", low=1, high=20),
        damage=e.dice("damage"),
        max_assistants=e.whole("max_assistants", low=0, high=10),
        focus=e.boolean("focus"),
        fan=fan,
        radius_in=radius,
        ammunition=e.maybe_whole("ammunition", low=1, high=1000),
        indirect=e.boolean("indirect"),
        payloads=payloads,
        aliases=e.names("aliases"),
        uncertain=e.names("uncertain"),
        note=e.text("note", "-") if "note" in e.data else "",
        source=e.source,
    )
    e.finish()
    return w


def _weapon_entry(w: Weapon) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": w.name, "category": w.category, "range_in": w.range_in,
                             "difficulty": w.difficulty, "damage": str(w.damage),
                             "max_assistants": w.max_assistants, "focus": w.focus, "indirect": w.indirect,
                             "aliases": list(w.aliases), "uncertain": list(w.uncertain)}
    if w.damage.is_static:
        entry["damage"] = w.damage.bonus
    for key in ("fan", "radius_in", "ammunition"):
        if getattr(w, key) is not None:
            entry[key] = getattr(w, key)
    if w.payloads:
        entry["payloads"] = list(w.payloads)
    if w.note:
        entry["note"] = w.note
    return entry


def _read_unit_type(e: _Entry) -> UnitType:
    u = UnitType(
        name=e.text("name"),
        move_in=e.inches("move_in", allow_inf=True),
        skill=_single_die(e, "skill"),
        defense=e.dice("defense"),
        specialty_skill=_maybe_single_die(e, "specialty_skill"),
        aliases=e.names("aliases"),
        uncertain=e.names("uncertain"),
        note=e.text("note", "-") if "note" in e.data else "",
        source=e.source,
    )
    e.finish()
    return u


def _single_die(e: _Entry, name: str) -> Dice:
    d = e.dice(name)
    if d.count != 1 or d.bonus != 0:
        raise e.fail(name, f"{str(d)!r}: a Skill is always a single die such as '1d6' (2.1.1)")
    return d


def _maybe_single_die(e: _Entry, name: str) -> Dice | None:
    e.used.add(name)
    return None if e.data.get(name) is None else _single_die(e, name)


def _read_vehicle(e: _Entry) -> VehicleType:
    v = VehicleType(
        name=e.text("name"),
        move_in=e.inches("move_in", allow_inf=True),
        crew=e.whole("crew", low=0, high=50),
        defense=e.dice("defense"),
        passengers=e.whole("passengers", low=0, high=500),
        mobility=e.choice("mobility", MOBILITIES),
        weapons=e.names("weapons"),
        unlisted_weapons=e.names("unlisted_weapons"),
        control=e.choice("control", CONTROLS, "crewed"),
        skill=_maybe_single_die(e, "skill"),
        length_in=e.maybe_inches("length_in", low=0.01),
        width_in=e.maybe_inches("width_in", low=0.01),
        radius_in=e.maybe_inches("radius_in", low=0.01),
        aliases=e.names("aliases"),
        uncertain=e.names("uncertain"),
        note=e.text("note", "-") if "note" in e.data else "",
        source=e.source,
    )
    if (v.length_in is None) != (v.width_in is None):
        raise e.fail("width_in" if v.width_in is None else "length_in", "give both length_in and width_in, or neither")
    if v.control == "crewed" and v.crew == 0:
        raise e.fail("crew", "a crewed vehicle needs at least one crew member (or set control = \"remote\")")
    e.finish()
    return v


def _read_equipment(e: _Entry) -> Equipment:
    kwargs: dict[str, Any] = {"name": e.text("name"), "aliases": e.names("aliases"), "source": e.source}
    if "note" in e.data:
        kwargs["note"] = e.text("note")
    for effect in EQUIPMENT_EFFECTS:
        if effect == "defense_bonus":
            kwargs[effect] = e.whole(effect, 0, low=0, high=10)
        else:
            kwargs[effect] = e.boolean(effect)
    e.finish()
    return Equipment(**kwargs)


# ----------------------------------------------------------------------------------------------
# Loading files


def _read_toml(path: Path) -> dict[str, Any]:
    return read_toml_file(path, error=DataFileError)


_TABLES = ("weapon", "unit_type", "vehicle", "equipment", "difficulty", "medical", "hazard", "payload",
           "terrain", "tasks")


def _entries(doc: Mapping[str, Any], table: str, source: str) -> list[Mapping[str, Any]]:
    raw = doc.get(table, [])
    if not isinstance(raw, list) or not all(isinstance(x, Mapping) for x in raw):
        raise DataFileError(f"{source}: {table!r} must be written as [[{table}]] tables")
    return raw


def _merge_named(target: dict[str, T], items: Iterable[T], source: str, table: str) -> None:
    seen: set[str] = set()
    for item in items:
        name: str = getattr(item, "name")  # noqa: B009 - every table entry has a name
        if _key(name) in seen:
            raise DataFileError(f"{source}: {table} {name!r} appears twice in this file; keep one")
        seen.add(_key(name))
        for existing in list(target):
            if _key(existing) == _key(name):
                del target[existing]  # a later file replaces an entry with the same name
        target[name] = item


def _build_index(*tables: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    labels = ("weapon", "unit type", "vehicle", "equipment item", "payload", "hazard", "terrain")
    index: dict[str, dict[str, str]] = {}
    for label, items in zip(labels, tables):
        keys: dict[str, str] = {}
        for name, item in items.items():
            for alias in (name, *getattr(item, "aliases", ())):
                keys.setdefault(_key(alias), name)
            keys[_key(name)] = name
        index[label] = keys
    return index


def _load(paths: Sequence[Path]) -> Catalog:
    weapons: dict[str, Weapon] = {}
    unit_types: dict[str, UnitType] = {}
    vehicles: dict[str, VehicleType] = {}
    equipment: dict[str, Equipment] = {}
    hazards: dict[str, Hazard] = {}
    payloads: dict[str, Payload] = {}
    terrain: dict[str, TerrainCost] = {}
    difficulties: list[DifficultyRating] = []
    medical: list[MedicalBand] = []
    task_assist = 1
    for path in paths:
        source = str(path) if path.parent != DATA_DIR else f"rules/downrange/data/{path.name}"
        doc = _read_toml(path)
        unknown = sorted(set(doc) - set(_TABLES))
        if unknown:
            raise DataFileError(f"{source}: unknown table {unknown[0]!r}; the tables are {', '.join(_TABLES)}")
        _merge_named(weapons, (_read_weapon(_Entry(source, "weapon", d)) for d in _entries(doc, "weapon", source)), source, "weapon")
        _merge_named(unit_types, (_read_unit_type(_Entry(source, "unit_type", d)) for d in _entries(doc, "unit_type", source)), source, "unit type")
        _merge_named(vehicles, (_read_vehicle(_Entry(source, "vehicle", d)) for d in _entries(doc, "vehicle", source)), source, "vehicle")
        _merge_named(equipment, (_read_equipment(_Entry(source, "equipment", d)) for d in _entries(doc, "equipment", source)), source, "equipment")
        for d in _entries(doc, "difficulty", source):
            e = _Entry(source, "difficulty", d, name=str(d.get("value")))
            difficulties.append(DifficultyRating(e.whole("value", low=1, high=20), e.text("meaning"), e.names("examples")))
            e.finish()
        new_medical = []
        for d in _entries(doc, "medical", source):
            e = _Entry(source, "medical", d, name=f"{d.get('min')}-{d.get('max')}")
            band = MedicalBand(e.whole("min", low=-100, high=100), e.whole("max", low=-100, high=1000),
                               e.choice("result", MEDICAL_RESULTS), e.text("text"))
            e.finish()
            if band.max < band.min:
                raise e.fail("max", f"{band.max} is below min {band.min}")
            new_medical.append(band)
        if new_medical:
            medical = sorted(new_medical, key=lambda b: b.min)
            for a, b in zip(medical, medical[1:]):
                if b.min != a.max + 1:
                    raise DataFileError(f"{source}: medical bands {a.min}-{a.max} and {b.min}-{b.max} leave a gap or overlap; make them consecutive")
        hz = []
        for d in _entries(doc, "hazard", source):
            e = _Entry(source, "hazard", d)
            hz.append(Hazard(e.text("name"), e.dice("damage"), e.choice("nature", ("lethal", "disabling"))))
            e.finish()
        _merge_named(hazards, hz, source, "hazard")
        pl = []
        for d in _entries(doc, "payload", source):
            e = _Entry(source, "payload", d)
            factor = e.inches("area_factor", low=0.0)
            pl.append(Payload(e.text("name"), e.boolean("damage"), factor, e.text("effect"),
                              e.choice("lasts", PAYLOAD_DURATIONS), e.names("aliases")))
            e.finish()
        _merge_named(payloads, pl, source, "payload")
        tc = []
        for d in _entries(doc, "terrain", source):
            e = _Entry(source, "terrain", d)
            tc.append(TerrainCost(e.text("name"), e.inches("cost_factor", low=1.0), e.names("exempt"),
                                  e.names("applies_to"), e.names("aliases")))
            if "note" in d:
                e.text("note")
            e.finish()
        _merge_named(terrain, tc, source, "terrain")
        if "tasks" in doc:
            tasks = doc["tasks"]
            if not isinstance(tasks, Mapping):
                raise DataFileError(f"{source}: 'tasks' must be a [tasks] table")
            e = _Entry(source, "tasks", tasks, name="tasks")
            task_assist = e.whole("max_assistants", low=0, high=10)
            e.finish()
    # Cross-references: a vehicle's weapons and a weapon's payloads must exist.
    catalog = Catalog(weapons, unit_types, vehicles, equipment, tuple(sorted(difficulties, key=lambda d: d.value)),
                      tuple(medical), hazards, payloads, terrain, task_assist,
                      tuple(str(p) for p in paths),
                      _build_index(weapons, unit_types, vehicles, equipment, payloads, hazards, terrain))
    for v in vehicles.values():
        for wname in v.weapons:
            try:
                catalog.weapon(wname)
            except UnknownNameError as exc:
                raise DataFileError(f"{v.source}: vehicle {v.name!r}, field 'weapons': {exc}") from None
    for w in weapons.values():
        for pname in w.payloads:
            try:
                catalog.payload(pname)
            except UnknownNameError as exc:
                raise DataFileError(f"{w.source}: weapon {w.name!r}, field 'payloads': {exc}") from None
    if not medical:
        raise DataFileError("no [[medical]] bands (Table 2-2) in the data files; keep rules/downrange/data/tables.toml")
    return catalog


@lru_cache(maxsize=16)
def _load_cached(paths: tuple[Path, ...]) -> Catalog:
    return _load(paths)


def load_catalog(extra_files: Sequence[str | Path] = (), *, variants: Sequence[str] = ()) -> Catalog:
    """The built-in data plus ``extra_files`` (later entries replace earlier ones with the same name),
    with the named data ``variants`` (see :data:`rules.downrange.options.VARIANTS`) applied."""
    if not extra_files:
        # The game asks for its catalog at every lookup (a replay of three hours: hundreds of thousands
        # of times): the built-in data with its variants is made once.
        return _builtin_catalog(tuple(variants))
    paths = _builtin_paths() + tuple(Path(p).expanduser().resolve() for p in extra_files)
    return _with_variants(_load(paths), variants)


@lru_cache(maxsize=1)
def _builtin_paths() -> tuple[Path, ...]:
    return tuple(DATA_DIR / f for f in BUILTIN_FILES)


@lru_cache(maxsize=16)
def _builtin_catalog(variants: tuple[str, ...]) -> Catalog:
    return _with_variants(_load_cached(_builtin_paths()), variants)


def _with_variants(catalog: Catalog, variants: Sequence[str]) -> Catalog:
    for name in variants:
        if name not in VARIANTS:
            raise DataFileError(f"unknown data variant {name!r}: use one of {', '.join(sorted(VARIANTS))}")
        catalog = catalog.with_weapon_changes(VARIANTS[name], source=f"variant {name!r}")
    return catalog


Kind = Literal["troop", "vehicle"]
