"""Frozen dataclasses to JSON-ready data and back, driven by their type hints.

Results, events, actions and game states are plain frozen dataclasses; this turns them into dicts,
lists, strings and numbers (and back) so that a recording can store and replay them.

* dataclasses -> ``{"type": ClassName, field: value, ...}`` (the ``type`` key picks the class when a
  field may hold one of several dataclasses);
* enums -> their value; tuples/frozensets -> lists; ``Fraction`` -> ``"n/d"``; ``inf`` -> ``"inf"``;
* mappings keep string keys (int keys become strings and come back as ints).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Shot:
...     range_in: float
...     dice: tuple[int, ...]
>>> to_jsonable(Shot(float("inf"), (6, 2)))
{'type': 'Shot', 'range_in': 'inf', 'dice': [6, 2]}
>>> from_jsonable(Shot, {'type': 'Shot', 'range_in': 'inf', 'dice': [6, 2]})
Shot(range_in=inf, dice=(6, 2))
"""
from __future__ import annotations

import dataclasses
import enum
import math
import sys
import types
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any, Union, get_args, get_origin

from rules.errors import SaveFileError


def to_jsonable(value: Any) -> Any:
    """Turn a value built from dataclasses, enums, tuples, dicts and numbers into JSON-ready data."""
    if hasattr(value, "to_json_value") and not isinstance(value, type):
        return value.to_json_value()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"type": type(value).__name__}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            # A field added after a format's version 1 is written only when set, so earlier saves
            # load and save back byte for byte.
            if f.metadata.get("json", True) and not (f.metadata.get("added") and item == f.default):
                out[f.name] = to_jsonable(item)
        return out
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((to_jsonable(v) for v in value), key=repr)
    raise TypeError(f"cannot turn {type(value).__name__} into JSON data")


@cache
def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    return typing.get_type_hints(cls, vars(module) if module else None)


def _dataclasses_in(tp: Any) -> list[type]:
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return [tp]
    if get_origin(tp) in (Union, types.UnionType):
        found: list[type] = []
        for arg in get_args(tp):
            found += _dataclasses_in(arg)
        return found
    return []


def from_jsonable(tp: Any, data: Any, *, where: str = "value") -> Any:
    """Rebuild a value of type ``tp`` from :func:`to_jsonable` output; :class:`SaveFileError` if it does not fit."""
    try:
        return _reader(tp)(data)
    except Exception:  # data that does not fit, read again the checking way: its error names where
        return _checked(tp, data, where)


#: What a reader raises for data it does not read (the checking way then says why).
class _Unfit(Exception):
    pass


def _unfit(data: Any) -> Any:
    raise _Unfit


@cache
def _reader(tp: Any) -> Callable[[Any], Any]:
    """A function that rebuilds a value of type ``tp`` from data that fits it and raises for data that
    does not (any exception): :func:`_checked`'s reading without its checks' messages (a game state of 40
    units is 100,000 values, read at every recorded moment of a replay). It returns what
    :func:`_checked` would return, or raises, never a different value; a kind it does not read fast is
    handed to :func:`_checked`."""
    origin = get_origin(tp)
    if tp is Any:
        return lambda data: data
    if origin in (Union, types.UnionType):
        others = [a for a in get_args(tp) if a is not type(None)]
        if len(others) == 1 and len(get_args(tp)) == 2:  # Optional[X]
            inner = _lazy(others[0])
            return lambda data: None if data is None else inner(data)
        return lambda data: _checked(tp, data, "value")
    if isinstance(tp, type) and hasattr(tp, "from_json_value"):
        return tp.from_json_value  # a class's own reader of its JSON value
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass_reader(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    if tp is float:
        return _float
    if tp in (int, bool, str):
        return lambda data: data if type(data) is tp else _unfit(data)
    if tp is type(None):
        return lambda data: None if data is None else _unfit(data)
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _lazy(args[0])
            return lambda data: tuple([item(v) for v in data]) if type(data) is list else _unfit(data)
    if origin in (frozenset, set):
        item = _lazy(get_args(tp)[0])
        return lambda data: frozenset([item(v) for v in data]) if type(data) is list else _unfit(data)
    if origin in (dict, Mapping):
        key_tp, val_tp = get_args(tp)
        value = _lazy(val_tp)
        if key_tp is int:
            return lambda data: {int(k): value(v) for k, v in data.items()} if isinstance(data, Mapping) else _unfit(data)
        return lambda data: {k: value(v) for k, v in data.items()} if isinstance(data, Mapping) else _unfit(data)
    return lambda data: _checked(tp, data, "value")


def _lazy(tp: Any) -> Callable[[Any], Any]:
    """``_reader(tp)``, made when first called (a dataclass may hold itself)."""
    made: list[Callable[[Any], Any]] = []

    def read(data: Any) -> Any:
        if not made:
            made.append(_reader(tp))
        return made[0](data)

    return read


def _float(data: Any) -> float:
    kind = type(data)
    if kind is float:
        return data
    if kind is int:
        return float(data)
    if data in ("inf", "-inf"):
        return float(data)
    raise _Unfit


def _dataclass_reader(tp: type) -> Callable[[Any], Any]:
    name = tp.__name__
    fields: list[tuple[str, Callable[[Any], Any], bool]] = []

    def read(data: Any) -> Any:
        if not fields:
            hints = _hints(tp)
            fields.extend((f.name, _lazy(hints[f.name]), f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
                          for f in dataclasses.fields(tp) if f.init)
        if type(data) is not dict or data.get("type", name) != name:
            raise _Unfit
        kwargs = {}
        for field_name, reader, required in fields:
            if field_name in data:
                kwargs[field_name] = reader(data[field_name])
            elif required:
                raise _Unfit
        return tp(**kwargs)

    return read


def _checked(tp: Any, data: Any, where: str) -> Any:
    """:func:`from_jsonable`, every value checked on the way (its errors say where the data does not fit)."""
    if tp is Any:
        return data
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        classes = _dataclasses_in(tp)
        if isinstance(data, Mapping) and classes:
            for cls in classes:
                if data.get("type") == cls.__name__:
                    return from_jsonable(cls, data, where=where)
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_jsonable(arg, data, where=where)
            except (SaveFileError, TypeError, ValueError, KeyError):
                continue
        raise SaveFileError(f"{where}: {data!r} fits none of the allowed kinds")
    if isinstance(tp, type) and hasattr(tp, "from_json_value"):
        try:
            return tp.from_json_value(data)
        except ValueError as exc:
            raise SaveFileError(f"{where}: {exc}") from None
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(data, Mapping):
            raise SaveFileError(f"{where}: expected an object for {tp.__name__}, got {data!r}")
        if "type" in data and data["type"] != tp.__name__:
            raise SaveFileError(f"{where}: expected {tp.__name__}, got {data['type']!r}")
        hints = _hints(tp)
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(tp):
            if not f.init:
                continue
            if f.name in data:
                kwargs[f.name] = from_jsonable(hints[f.name], data[f.name], where=f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise SaveFileError(f"{where}: {tp.__name__} is missing its field {f.name!r}")
        try:
            return tp(**kwargs)
        except (TypeError, ValueError) as exc:
            raise SaveFileError(f"{where}: {exc}") from None
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in tp)
            raise SaveFileError(f"{where}: {data!r} is not one of {allowed}") from None
    if tp is float:
        if data in ("inf", "-inf"):
            return float(data)
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise SaveFileError(f"{where}: expected a number, got {data!r}")
        return float(data)
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise SaveFileError(f"{where}: expected a whole number, got {data!r}")
        return data
    if tp is bool:
        if not isinstance(data, bool):
            raise SaveFileError(f"{where}: expected true or false, got {data!r}")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise SaveFileError(f"{where}: expected text, got {data!r}")
        return data
    if tp is Fraction:
        return Fraction(str(data))
    if tp is type(None):
        if data is not None:
            raise SaveFileError(f"{where}: expected null, got {data!r}")
        return None
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(data, list):
            raise SaveFileError(f"{where}: expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], v, where=f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise SaveFileError(f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(from_jsonable(a, v, where=f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
    if origin in (frozenset, set):
        (arg,) = get_args(tp)
        if not isinstance(data, list):
            raise SaveFileError(f"{where}: expected a list, got {data!r}")
        return frozenset(from_jsonable(arg, v, where=where) for v in data)
    if origin in (dict, Mapping):
        key_tp, val_tp = get_args(tp)
        if not isinstance(data, Mapping):
            raise SaveFileError(f"{where}: expected an object, got {data!r}")
        return {
            (int(k) if key_tp is int else k): from_jsonable(val_tp, v, where=f"{where}[{k}]")
            for k, v in data.items()
        }
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise SaveFileError(f"{where}: {data!r} is not one of {get_args(tp)}")
        return data
    raise TypeError(f"from_jsonable does not handle {tp!r}")
