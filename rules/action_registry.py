"""One rule system's actions: which handler applies each kind, and their JSON round trip.

Every ruleset changes its state only through frozen action dataclasses (``state.apply(action)``). Its
``actions`` module lists them in an ``Action`` union and builds one :class:`ActionRegistry` from that
union and a table ``{ActionClass: handler(state, action) -> state}``; ``apply_action``,
``action_to_json`` and ``action_from_json`` are the registry's methods. A table whose handlers live in
modules that import the actions module is given as a function, called on first use.

>>> from dataclasses import dataclass
>>> from typing import Union
>>> @dataclass(frozen=True)
... class Advance:
...     inches: float
>>> @dataclass(frozen=True)
... class Halt:
...     pass
>>> registry = ActionRegistry(Union[Advance, Halt], what="a convoy action",
...                           handlers={Advance: lambda km, a: km + a.inches, Halt: lambda km, a: km})
>>> registry.apply(10.0, Advance(2.5))
12.5
>>> registry.to_json(Advance(2.5))
{'type': 'Advance', 'inches': 2.5}
>>> registry.apply(10.0, "charge")
Traceback (most recent call last):
...
TypeError: str is not a convoy action
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from rules.serialize import from_jsonable, to_jsonable

StateT = TypeVar("StateT")
Handlers = Mapping[type, Callable[[Any, Any], Any]]


class ActionRegistry(Generic[StateT]):
    """The actions of one rule system. ``action_type`` is its ``Action`` union (what
    :meth:`from_json` may rebuild); ``what`` names them in the error for anything else ("a Down Range
    action"); ``handlers`` is the table, or a function returning it."""

    def __init__(self, action_type: Any, *, what: str, handlers: Handlers | Callable[[], Handlers]) -> None:
        self.action_type = action_type
        self.what = what
        self._build: Callable[[], Handlers] | None = handlers if callable(handlers) else None
        self._table: Handlers | None = None if callable(handlers) else handlers

    def handlers(self) -> Handlers:
        if self._table is None:
            # Built once, on first use: the handlers' modules import the actions module.
            assert self._build is not None
            self._table = self._build()
        return self._table

    def apply(self, state: StateT, action: Any) -> StateT:
        """Dispatch ``action`` to its handler (a ``TypeError`` for anything that is not one of ours)."""
        handler = self.handlers().get(type(action))
        if handler is None:
            raise TypeError(f"{type(action).__name__} is not {self.what}")
        new_state: StateT = handler(state, action)
        return new_state

    def to_json(self, action: Any) -> dict[str, Any]:
        data: dict[str, Any] = to_jsonable(action)
        return data

    def from_json(self, data: Mapping[str, Any]) -> Any:
        """The action a :meth:`to_json` dict describes (:class:`~rules.errors.SaveFileError` if none fits)."""
        return from_jsonable(self.action_type, data, where="action")
