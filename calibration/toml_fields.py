"""Reading the calibration layer's parts of TOML files with errors that name file, entry and field.

A misspelt key is refused with the nearest correct spelling, because a silently ignored typo
(``heigth_in``) would put something at the wrong place without anyone noticing.
"""
from __future__ import annotations

import difflib
import math
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from calibration.errors import CalibrationError


def read_toml(path: str | Path, *, error: type[CalibrationError], what: str) -> dict[str, Any]:
    """Parse a TOML file, turning a missing file or a syntax error into ``error`` with a fix."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{what} file {str(p)!r} does not exist; check the path") from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as exc:
        raise error(f"{what} file {str(p)!r} cannot be read ({exc.__class__.__name__}); give a readable TOML file") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{what} file {str(p)!r} is not valid TOML: {exc}") from None


class Fields:
    """One TOML table (``data``) at location ``where`` (e.g. ``"scenario.toml [[units]] #2"``)."""

    def __init__(self, data: Any, where: str, *, error: type[CalibrationError]) -> None:
        if not isinstance(data, Mapping):
            raise error(f"{where}: expected a table of fields, got {data!r}")
        self.data = data
        self.where = where
        self.error = error

    def refuse_unknown(self, allowed: Iterable[str]) -> None:
        allowed = sorted(set(allowed))
        for key in self.data:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f"did you mean {close[0]!r}?" if close else f"known fields: {', '.join(allowed)}"
                raise self.error(f"{self.where}: unknown field {key!r}; {hint}")

    def has(self, key: str) -> bool:
        return key in self.data

    def fail(self, key: str, message: str) -> CalibrationError:
        return self.error(f"{self.where}: field {key!r} = {self.data.get(key)!r} {message}")

    def number(
        self, key: str, default: float | None = None, *, minimum: float | None = None, maximum: float | None = None,
        positive: bool = False,
    ) -> float:
        if key not in self.data:
            if default is None:
                raise self.error(f"{self.where}: field {key!r} is missing; add it (a number)")
            return float(default)
        value = self.data[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail(key, "must be a number")
        if positive and not value > 0:
            raise self.fail(key, "must be greater than 0")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"must be at least {minimum:g}")
        if maximum is not None and value > maximum:
            raise self.fail(key, f"must be at most {maximum:g}")
        return float(value)

    def integer(self, key: str, default: int | None = None, *, minimum: int | None = None, maximum: int | None = None) -> int:
        if key not in self.data:
            if default is None:
                raise self.error(f"{self.where}: field {key!r} is missing; add it (a whole number)")
            return int(default)
        value = self.data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, "must be a whole number")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"must be at least {minimum}")
        if maximum is not None and value > maximum:
            raise self.fail(key, f"must be at most {maximum}")
        return int(value)

    def boolean(self, key: str, default: bool) -> bool:
        if key not in self.data:
            return default
        value = self.data[key]
        if not isinstance(value, bool):
            raise self.fail(key, "must be true or false")
        return value

    def string(self, key: str, default: str | None = None) -> str:
        if key not in self.data:
            if default is None:
                raise self.error(f"{self.where}: field {key!r} is missing; add it (a string)")
            return default
        value = self.data[key]
        if not isinstance(value, str):
            raise self.fail(key, "must be a string in quotes")
        return value

    def numbers(self, key: str, count: int | tuple[int, ...], default: tuple[float, ...] | None = None) -> tuple[float, ...]:
        counts = (count,) if isinstance(count, int) else count
        if key not in self.data:
            if default is None:
                raise self.error(f"{self.where}: field {key!r} is missing; add a list of {counts[0]} numbers")
            return default
        value = self.data[key]
        if (
            not isinstance(value, list)
            or len(value) not in counts
            or any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) for v in value)
        ):
            want = " or ".join(str(c) for c in counts)
            raise self.fail(key, f"must be a list of {want} numbers, e.g. [{', '.join(['0.0'] * counts[0])}]")
        return tuple(float(v) for v in value)

    def table(self, key: str) -> "Fields | None":
        if key not in self.data:
            return None
        return Fields(self.data[key], f"{self.where} [{key}]", error=self.error)

    def tables(self, key: str) -> list["Fields"]:
        if key not in self.data:
            return []
        value = self.data[key]
        if not isinstance(value, list):
            raise self.fail(key, f"must be an array of tables ([[{key}]] entries)")
        return [Fields(v, f"{self.where} [[{key}]] #{i + 1}", error=self.error) for i, v in enumerate(value)]
