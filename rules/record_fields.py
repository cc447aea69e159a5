"""Reading TOML entries (data files, scenario units, ``[rules]`` options) with errors a user can act on.

Every rule system reads tables of values: its data files, the rules fields of a scenario's
``[[units]]`` and its ``[rules]`` options. :class:`Fields` reads one such entry and names the file,
the entry and the field in every error; :meth:`Fields.finish` refuses keys nobody read, with the
nearest correct spelling. :func:`read_options` fills a frozen options dataclass from ``[rules]``.

>>> f = Fields({"name": "Rifle", "range_in": "far"}, source="weapons.toml", entry="weapon 'Rifle'")
>>> f.text("name")
'Rifle'
>>> f.number("range_in")
Traceback (most recent call last):
...
rules.errors.DataFileError: weapons.toml: weapon 'Rifle', field 'range_in': 'far' is not a number
"""
from __future__ import annotations

import difflib
import math
import tomllib
import typing
from collections.abc import Collection, Mapping, Sequence
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any, TypeVar

from rules.errors import DataFileError, RulesError

#: Die sizes a "d6"-style field may name, unless the caller narrows them.
DIE_SIDES = (4, 6, 8, 10, 12, 20)

O = TypeVar("O")  # noqa: E741 - a type variable, never confused with 0 where it is used (Callable[..., O])


class Fields:
    """One TOML table being read. Reading a key marks it used; :meth:`finish` refuses the rest."""

    def __init__(self, data: Mapping[str, Any], *, source: str, entry: str,
                 error: type[RulesError] = DataFileError) -> None:
        if not isinstance(data, Mapping):
            raise error(f"{source}: {entry} must be a table (key = value lines), not {data!r}")
        self.data, self.source, self.entry, self.error = data, source, entry, error
        self.used: set[str] = set()

    def fail(self, name: str, message: str) -> RulesError:
        return self.error(f"{self.source}: {self.entry}, field {name!r}: {message}")

    def has(self, name: str) -> bool:
        self.used.add(name)
        return self.data.get(name) is not None

    def raw(self, name: str, default: Any = ...) -> Any:
        self.used.add(name)
        if name in self.data:
            return self.data[name]
        if default is ...:
            raise self.fail(name, "missing; add it")
        return default

    def text(self, name: str, default: Any = ...) -> str:
        value = self.raw(name, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(name, f"{value!r} is not text; write it in quotes")
        return value.strip()

    def maybe_text(self, name: str) -> str | None:
        return self.text(name) if self.has(name) else None

    def choice(self, name: str, allowed: Sequence[str], default: Any = ...) -> str:
        """One of ``allowed`` (matching ignores case and extra spaces); returns the allowed spelling."""
        value = self.raw(name, default)
        if isinstance(value, str):
            key = " ".join(value.lower().split())
            for a in allowed:
                if " ".join(a.lower().split()) == key:
                    return a
        raise self.fail(name, f"{value!r}: use one of {', '.join(repr(a) for a in allowed)}")

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.raw(name, default)
        if not isinstance(value, bool):
            raise self.fail(name, f"{value!r} is not true or false")
        return value

    def number(self, name: str, default: Any = ..., *, low: float = -math.inf, high: float = math.inf,
               allow_inf: bool = False) -> float:
        value = self.raw(name, default)
        if allow_inf and isinstance(value, str) and value.strip().lower() in ("inf", "unlimited"):
            return math.inf
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            raise self.fail(name, f"{value!r} is not a number" + (' (or "unlimited")' if allow_inf else ""))
        if math.isinf(value) and not allow_inf:
            raise self.fail(name, f"{value!r}: this cannot be unlimited")
        if not low <= value <= high:
            bounds = f"from {low:g} to {high:g}" if math.isfinite(high) else f"at least {low:g}"
            raise self.fail(name, f"{value!r} is out of range: use a number {bounds}")
        return float(value)

    def maybe_number(self, name: str, *, low: float = -math.inf, high: float = math.inf) -> float | None:
        return self.number(name, low=low, high=high) if self.has(name) else None

    def whole(self, name: str, default: Any = ..., *, low: int = 0, high: int = 1000) -> int:
        value = self.raw(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(name, f"{value!r} is not a whole number from {low} to {high}")
        return value

    def maybe_whole(self, name: str, *, low: int = 0, high: int = 1000) -> int | None:
        return self.whole(name, low=low, high=high) if self.has(name) else None

    def names(self, name: str, default: Sequence[str] = ()) -> tuple[str, ...]:
        value = self.raw(name, list(default))
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(name, f"{value!r} is not a list of names in quotes")
        return tuple(v.strip() for v in value)

    def die(self, name: str, default: Any = ..., *, allowed: Sequence[int] = DIE_SIDES) -> int:
        """A single die named like ``"d8"`` or ``"D8"``: its number of sides."""
        value = self.raw(name, default)
        sides = parse_die(value)
        if sides is None or sides not in allowed:
            raise self.fail(name, f"{value!r} is not a die of this game: use "
                            + ", ".join(f"d{s}" for s in allowed))
        return sides

    def point(self, name: str) -> tuple[float, float]:
        value = self.raw(name)
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
            raise self.fail(name, f"{value!r} is not a point: write [x_in, y_in], e.g. [12.0, 30.0]")
        return float(value[0]), float(value[1])

    def table(self, name: str) -> "Fields | None":
        value = self.raw(name, None)
        if value is None:
            return None
        return Fields(value, source=self.source, entry=f"{self.entry} [{name}]", error=self.error)

    def tables(self, name: str) -> list["Fields"]:
        value = self.raw(name, [])
        if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
            raise self.fail(name, f"write it as [[{name}]] tables")
        return [Fields(v, source=self.source, entry=f"{name} #{i + 1}", error=self.error) for i, v in enumerate(value)]

    def finish(self, *, also_allowed: Collection[str] = (), hint: str = "") -> None:
        """Refuse keys that nobody read (a typo must not be silently ignored)."""
        unknown = sorted(set(self.data) - self.used - set(also_allowed))
        if unknown:
            close = difflib.get_close_matches(unknown[0], sorted(self.used | set(also_allowed)), n=1)
            raise self.fail(unknown[0], "unknown field" + (f" (did you mean {close[0]!r}?)" if close else "")
                            + (f"; {hint}" if hint else ""))


def parse_die(value: object) -> int | None:
    """The sides of a die written ``"d8"``, ``"D8"`` or ``"1d8"``; None if it is not one die.

    >>> parse_die("D10"), parse_die("1d6"), parse_die("2d6"), parse_die(8)
    (10, 6, None, None)
    """
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    if text.startswith("1d"):
        text = text[1:]
    if not text.startswith("d") or not text[1:].isdigit():
        return None
    return int(text[1:])


def read_toml_file(path: str | Path, *, error: type[RulesError] = DataFileError, what: str = "data file") -> dict[str, Any]:
    """Parse a TOML file; a missing or malformed file is refused naming it."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise error(f"{p}: {what} not found; check the path") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{p}: not valid TOML ({exc}); fix the line it names") from None
    except UnicodeDecodeError:
        raise error(f"{p}: not a text file (a binary file?); give the {what} as TOML text") from None
    except RecursionError:
        raise error(f"{p}: nested too deeply to read; give a plain TOML {what}") from None
    except OSError as exc:
        raise error(f"{p}: cannot be read ({exc.strerror})") from None


def read_options(cls: type[O], data: Mapping[str, Any], *, source: str, error: type[RulesError],
                 skip: Collection[str] = ()) -> O:
    """A frozen options dataclass from a ``[rules]`` table. Fields may be bool, int, float (inches;
    "inf" allowed), str, a ``Literal`` of strings, or ``tuple[str, ...]``; unknown keys and values
    are refused naming the option and what it accepts. Keys in ``skip`` are read elsewhere."""
    if not isinstance(data, Mapping):
        raise error(f"{source} must be a table")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclass_fields(cls)}  # type: ignore[arg-type]  # cls is a dataclass type (the callers pass only record dataclasses)
    defaults = cls()
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key in skip:
            continue
        if key not in known:
            close = difflib.get_close_matches(key, sorted(known), n=1)
            raise error(f"{source}: unknown rules option {key!r}" + (f" (did you mean {close[0]!r}?)" if close else "")
                        + f"; the options are {', '.join(sorted(known))}")
        hint = hints[key]
        default = getattr(defaults, key)
        literal = typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else ()
        if literal:
            if value not in literal:
                raise error(f"{source}: {key} = {value!r}: use one of {', '.join(repr(a) for a in literal)}")
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise error(f"{source}: {key} = {value!r}: use true or false")
        elif isinstance(default, float):
            if value in ("inf", "unlimited"):
                value = math.inf
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise error(f"{source}: {key} = {value!r}: use a number of inches (0 or more)")
            value = float(value)
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise error(f"{source}: {key} = {value!r}: use a whole number")
        elif isinstance(default, tuple):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise error(f"{source}: {key} = {value!r}: use a list of names in quotes")
            value = tuple(value)
        elif isinstance(default, str) or default is None:
            if not isinstance(value, str):
                raise error(f"{source}: {key} = {value!r}: write it in quotes")
        kwargs[key] = value
    return cls(**kwargs)


#: [[units]] keys the shared scenario format defines (docs/scenario-format.md); every ruleset accepts them.
SHARED_UNIT_FIELDS = frozenset({"tag_id", "name", "side", "type", "weapons", "equipment", "commander",
                                "base_height_in", "base_radius_in", "facing_offset_deg", "tag_size_in", "path"})


def start_pose(f: Fields) -> tuple[float, float, float, bool]:
    """(x_in, y_in, front heading_deg, on_table) of a scenario unit: its first ``[[units.path]]``
    keyframe if it has one, else its ``x_in``/``y_in``/``heading_deg``/``on_table`` (defaults 0, 0, 90,
    true); the front is the tag heading plus ``facing_offset_deg``.

    >>> start_pose(Fields({"path": [{"t_s": 0, "x_in": 3, "y_in": 4}], "facing_offset_deg": 90},
    ...                   source="s.toml", entry="unit 'A'"))
    (3.0, 4.0, 180.0, True)
    """
    x = f.number("x_in", 0.0)
    y = f.number("y_in", 0.0)
    heading = f.number("heading_deg", 90.0)
    on_table = f.flag("on_table", True)
    path = f.raw("path", None)
    if isinstance(path, list) and path and isinstance(path[0], Mapping):
        first = path[0]
        try:
            x = float(first.get("x_in", x))
            y = float(first.get("y_in", y))
            heading = float(first.get("heading_deg", heading))
        except (TypeError, ValueError):
            raise f.fail("path", "the first keyframe needs numbers for x_in, y_in and heading_deg") from None
        on_table = bool(first.get("on_table", on_table))
    offset = f.number("facing_offset_deg", 0.0)
    return x, y, (heading + offset) % 360.0, on_table
