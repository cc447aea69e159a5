"""One rule system's actions: which handler applies each kind, and their JSON round trip.

Every ruleset changes its state only through frozen action dataclasses (``state.apply(action)``). Its
``actions`` module holds the value types, lists them in an ``Action`` union and offers their JSON
round trip (an :class:`ActionCodec`); its ``dispatch`` module builds one :class:`ActionRegistry` from
that union and a table ``{ActionClass: handler(state, action) -> state}``, importing the modules of
the handlers. So the value types sit below the handlers and the dispatcher above them: no module
imports one that imports it back.

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


class ActionCodec:
    """The JSON round trip of one rule system's actions: ``action_type`` is its ``Action`` union (what
    :meth:`from_json` may rebuild). Needs only the value types, so the actions module offers it."""

    def __init__(self, action_type: Any) -> None:
        self.action_type = action_type

    def to_json(self, action: Any) -> dict[str, Any]:
        data: dict[str, Any] = to_jsonable(action)
        return data

    def from_json(self, data: Mapping[str, Any]) -> Any:
        """The action a :meth:`to_json` dict describes (:class:`~rules.errors.SaveFileError` if none fits)."""
        return from_jsonable(self.action_type, data, where="action")


class ActionRegistry(ActionCodec, Generic[StateT]):
    """The actions of one rule system and their handlers. ``what`` names them in the error for
    anything else ("a Down Range action"); ``handlers`` is the table ``{ActionClass: handler}``."""

    def __init__(self, action_type: Any, *, what: str, handlers: Handlers) -> None:
        super().__init__(action_type)
        self.what = what
        self.handlers = handlers

    def apply(self, state: StateT, action: Any) -> StateT:
        """Dispatch ``action`` to its handler (a ``TypeError`` for anything that is not one of ours)."""
        handler = self.handlers.get(type(action))
        if handler is None:
            raise TypeError(f"{type(action).__name__} is not {self.what}")
        new_state: StateT = handler(state, action)
        return new_state
