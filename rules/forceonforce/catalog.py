"""The Force on Force data: characteristics, die ladder and turn constants, loaded from TOML.

``rules/forceonforce/data/characteristics.toml`` holds the tables of the excerpt (Troop Quality,
Morale, Confidence, Supplies, suggested ratings) and the numbers of its procedures (initiative dice,
cohesion distances, the line-of-fire corridor, hot spots, leader levels). A user's file of the same
form replaces entries by name. Every problem names the file, the entry and the field.

>>> data = load_data()
>>> data.quality("Veteran"), data.quality("d8"), data.morale("good")
(10, 8, 10)
>>> data.shift(6, -1), data.shift(8, 3)
(6, 12)
>>> data.quality("d7")
Traceback (most recent call last):
...
rules.errors.UnknownNameError: unknown Troop Quality 'd7': use Green (d6), Trained (d8), Veteran (d10), Elite (d12)
"""
from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.errors import DataFileError, UnknownNameError
from rules.record_fields import Fields, parse_die, read_toml_file

DATA_DIR = Path(__file__).resolve().parent / "data"
BUILTIN_FILE = DATA_DIR / "characteristics.toml"
_TABLES = ("dice", "troop_quality", "morale", "confidence", "supplies", "rating", "limits", "initiative",
           "cohesion", "line_of_fire", "hot_spots", "leaders")


@dataclass(frozen=True)
class DieLevel:
    """A named level with a die: a Troop Quality or a Morale rating."""

    name: str
    die: int
    aliases: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Confidence:
    name: str
    default: bool = False
    note: str = ""


@dataclass(frozen=True)
class SupplyLevel:
    """A supply level and the Firepower dice it loses or gains (A.2.4)."""

    name: str
    firepower_dice: int
    default: bool = False


@dataclass(frozen=True)
class Rating:
    """A suggested rating (A.2.5); None where the book says "variable" or "scenario"."""

    name: str
    troop_quality: int | None
    morale: int | None = None
    confidence: str | None = None
    supplies: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class InitiativeRules:
    infantry_units_per_die: int
    dice_per_vehicle: int
    basic_cap: int
    bonus_previous: int
    bonus_positive_leader: int
    bonus_outnumbering: int


@dataclass(frozen=True)
class HotSpotRules:
    count: int
    min_spacing_in: float
    placement_in: float
    die: int
    player_chooses_on: int
    contact_in: float
    counter_radius_in: float


@dataclass(frozen=True)
class FofData:
    """Every Force on Force table and constant."""

    ladder: tuple[int, ...]
    success: int
    troop_qualities: tuple[DieLevel, ...]
    morales: tuple[DieLevel, ...]
    confidences: tuple[Confidence, ...]
    supplies_levels: tuple[SupplyLevel, ...]
    ratings: tuple[Rating, ...]
    irregular_max_quality: int
    initiative: InitiativeRules
    cohesion_in: float
    defensive_cohesion_in: float
    lof_half_width_in: float
    hot_spots: HotSpotRules
    leader_levels: tuple[str, ...]
    files: tuple[str, ...] = ()

    # -- lookups ---------------------------------------------------------------------------------

    def _level(self, what: str, levels: Sequence[DieLevel], name: object) -> int:
        sides = parse_die(name)
        if sides is not None and sides in self.ladder:
            return sides
        if isinstance(name, str):
            key = _key(name)
            for level in levels:
                if key in (_key(level.name), *map(_key, level.aliases)):
                    return level.die
        listing = ", ".join(f"{lv.name} (d{lv.die})" for lv in levels)
        raise UnknownNameError(f"unknown {what} {name!r}: use {listing}")

    def quality(self, name: object) -> int:
        """The Troop Quality die (sides) for a level name or a die such as "d8"."""
        return self._level("Troop Quality", self.troop_qualities, name)

    def morale(self, name: object) -> int:
        return self._level("Morale", self.morales, name)

    def quality_name(self, sides: int) -> str:
        return next((lv.name for lv in self.troop_qualities if lv.die == sides), f"d{sides}")

    def morale_name(self, sides: int) -> str:
        return next((lv.name for lv in self.morales if lv.die == sides), f"d{sides}")

    def confidence(self, name: object | None = None) -> str:
        """A confidence level by name; the default level for None."""
        if name is None:
            return next(c.name for c in self.confidences if c.default)
        for c in self.confidences:
            if isinstance(name, str) and _key(name) == _key(c.name):
                return c.name
        raise UnknownNameError(f"unknown Confidence {name!r}: use {', '.join(c.name for c in self.confidences)}")

    def supplies(self, name: object | None = None) -> SupplyLevel:
        if name is None:
            return next(s for s in self.supplies_levels if s.default)
        for s in self.supplies_levels:
            if isinstance(name, str) and _key(name) == _key(s.name):
                return s
        raise UnknownNameError(f"unknown Supplies {name!r}: use {', '.join(s.name for s in self.supplies_levels)}")

    def rating(self, name: str) -> Rating:
        key = _key(name)
        for r in self.ratings:
            if key in (_key(r.name), *map(_key, r.aliases)):
                return r
        close = difflib.get_close_matches(key, [_key(r.name) for r in self.ratings], n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise UnknownNameError(f"unknown rating {name!r}: {hint}use {', '.join(r.name for r in self.ratings)}")

    def shift(self, sides: int, steps: int) -> int:
        """The die ``steps`` sizes up (positive) or down the ladder; the ends hold (a D6 cannot shift
        lower, a D12 cannot shift higher: A.3.1 proposal)."""
        i = self.ladder.index(sides) + steps
        return self.ladder[max(0, min(len(self.ladder) - 1, i))]

    def leader_level(self, name: str) -> int:
        key = _key(name)
        for i, level in enumerate(self.leader_levels):
            if key == _key(level):
                return i
        raise UnknownNameError(f"unknown leader level {name!r}: use {', '.join(self.leader_levels)}")


def _key(name: str) -> str:
    return " ".join(name.lower().split())


# ----------------------------------------------------------------------------------------------


def _levels(f: Fields, table: str, ladder: Sequence[int], into: dict[str, DieLevel]) -> None:
    for e in f.tables(table):
        e.entry = f"{table} {e.data.get('name', '#?')!r}"
        level = DieLevel(e.text("name"), e.die("die", allowed=ladder), e.names("aliases"), e.text("note", "-"))
        e.finish()
        into[_key(level.name)] = level


def _merge(raw: Mapping[str, Any], source: str, acc: dict[str, Any]) -> None:
    f = Fields(raw, source=source, entry="the file")
    unknown = sorted(set(raw) - set(_TABLES))
    if unknown:
        raise DataFileError(f"{source}: unknown table {unknown[0]!r}; the tables are {', '.join(_TABLES)}")
    if f.has("dice"):
        d = f.table("dice")
        assert d is not None
        d.entry = "[dice]"
        ladder = tuple(parse_die(x) for x in d.names("ladder"))
        if any(s is None for s in ladder) or len(ladder) < 2 or list(ladder) != sorted(set(ladder)):  # type: ignore[type-var]  # None entries are refused by the first test before sorted() sees them
            raise d.fail("ladder", "write the dice from smallest to largest, e.g. [\"d6\", \"d8\", \"d10\", \"d12\"]")
        acc["ladder"] = tuple(int(s) for s in ladder if s is not None)
        acc["success"] = d.whole("success", low=1, high=20)
        d.finish()
    ladder = acc["ladder"]
    _levels(f, "troop_quality", ladder, acc["troop_quality"])
    _levels(f, "morale", ladder, acc["morale"])
    for e in f.tables("confidence"):
        e.entry = f"confidence {e.data.get('name', '#?')!r}"
        c = Confidence(e.text("name"), e.flag("default"), e.text("note", "-"))
        e.finish()
        acc["confidence"][_key(c.name)] = c
    for e in f.tables("supplies"):
        e.entry = f"supplies {e.data.get('name', '#?')!r}"
        s = SupplyLevel(e.text("name"), e.whole("firepower_dice", low=-10, high=10), e.flag("default"))
        e.finish()
        acc["supplies"][_key(s.name)] = s
    for e in f.tables("rating"):
        e.entry = f"rating {e.data.get('name', '#?')!r}"
        r = Rating(e.text("name"), e.die("troop_quality", allowed=ladder),
                   e.die("morale", allowed=ladder) if e.has("morale") else None,
                   e.maybe_text("confidence"), e.maybe_text("supplies"), e.names("aliases"))
        e.finish()
        acc["rating"][_key(r.name)] = r
    for table in ("limits", "initiative", "cohesion", "line_of_fire", "hot_spots", "leaders"):
        t = f.table(table)
        if t is None:
            continue
        t.entry = f"[{table}]"
        if table == "limits":
            acc["irregular_max_quality"] = t.die("irregular_max_troop_quality", allowed=ladder)
        elif table == "initiative":
            acc["initiative"] = InitiativeRules(
                t.whole("infantry_units_per_die", low=1, high=10), t.whole("dice_per_vehicle", low=0, high=10),
                t.whole("basic_cap", low=1, high=20), t.whole("bonus_previous", low=0, high=5),
                t.whole("bonus_positive_leader", low=0, high=5), t.whole("bonus_outnumbering", low=0, high=5))
        elif table == "cohesion":
            acc["cohesion_in"] = t.number("distance_in", low=0.0, high=24.0)
            acc["defensive_cohesion_in"] = t.number("defensive_distance_in", low=0.0, high=24.0)
        elif table == "line_of_fire":
            acc["lof_half_width_in"] = t.number("half_width_in", low=0.0, high=24.0)
        elif table == "hot_spots":
            acc["hot_spots"] = HotSpotRules(
                t.whole("count", low=1, high=20), t.number("min_spacing_in", low=0.0),
                t.number("placement_in", low=0.0), t.die("die"), t.whole("player_chooses_on", low=1, high=20),
                t.number("contact_in", low=0.0), t.number("counter_radius_in", low=0.0))
        else:
            levels = t.names("levels")
            if not levels:
                raise t.fail("levels", "give the command levels from lowest to highest")
            acc["leader_levels"] = levels
        t.finish()


def _load(paths: tuple[Path, ...]) -> FofData:
    acc: dict[str, Any] = {"ladder": (6, 8, 10, 12), "troop_quality": {}, "morale": {}, "confidence": {},
                           "supplies": {}, "rating": {}}
    for path in paths:
        source = "rules/forceonforce/data/characteristics.toml" if path == BUILTIN_FILE else str(path)
        _merge(read_toml_file(path), source, acc)
    missing = [k for k in ("success", "initiative", "cohesion_in", "lof_half_width_in", "hot_spots",
                           "leader_levels", "irregular_max_quality") if k not in acc]
    if missing:
        raise DataFileError(f"the Force on Force data lacks {missing[0]!r}; keep {BUILTIN_FILE.name} in the data files")
    for table in ("confidence", "supplies"):
        defaults = [x.name for x in acc[table].values() if x.default]
        if len(defaults) != 1:
            raise DataFileError(f"the [[{table}]] entries need exactly one default = true (found {defaults or 'none'})")
    data = FofData(
        ladder=acc["ladder"], success=acc["success"],
        troop_qualities=tuple(sorted(acc["troop_quality"].values(), key=lambda lv: lv.die)),
        morales=tuple(sorted(acc["morale"].values(), key=lambda lv: lv.die)),
        confidences=tuple(acc["confidence"].values()), supplies_levels=tuple(acc["supplies"].values()),
        ratings=tuple(acc["rating"].values()), irregular_max_quality=acc["irregular_max_quality"],
        initiative=acc["initiative"], cohesion_in=acc["cohesion_in"],
        defensive_cohesion_in=acc["defensive_cohesion_in"], lof_half_width_in=acc["lof_half_width_in"],
        hot_spots=acc["hot_spots"], leader_levels=acc["leader_levels"], files=tuple(str(p) for p in paths))
    for r in data.ratings:
        for value, lookup in ((r.confidence, data.confidence), (r.supplies, data.supplies)):
            if value is not None:
                try:
                    lookup(value)
                except UnknownNameError as exc:
                    raise DataFileError(f"rating {r.name!r}: {exc}") from None
    return data


@lru_cache(maxsize=8)
def _load_cached(paths: tuple[Path, ...]) -> FofData:
    return _load(paths)


def load_data(extra_files: Sequence[str | Path] = ()) -> FofData:
    """The built-in data plus ``extra_files`` (entries with the same name replace built-in ones)."""
    return _load_cached(_paths(tuple(str(f) for f in extra_files)))


@lru_cache(maxsize=32)
def _paths(extra_files: tuple[str, ...]) -> tuple[Path, ...]:
    # Resolved once per set of files: the state asks for its data on every rules decision.
    return (BUILTIN_FILE,) + tuple(Path(p).expanduser().resolve() for p in extra_files)
