"""Every action a unit can take now, as data a front end draws without knowing the rule system: a form
(:class:`ActionForm`) of fields (:class:`ActionField`) whose choices the rules propose from the measured
geometry (:class:`ActionChoice`: the downed unit touching the medic, the vehicle close enough to board,
the enemy emitters a SIGINT check finds), and the filled-in declaration a front end hands back
(:class:`ActionRequest`). A rule system gives the forms from :meth:`rules.ruleset.Ruleset.actions_for`,
the odds of a declaration from :meth:`~rules.ruleset.Ruleset.action_odds` and plays it with
:meth:`~rules.ruleset.Ruleset.resolve_action`; front ends import these types from :mod:`rules.ruleset`.

>>> form = ActionForm("treat", "Treat a downed unit", 14, (ActionField("patient", "Patient", "unit",
...     (ActionChoice(11, "Rifleman", reason='touching'),), default=11),), rolls=True)
>>> form.defaults()
{'patient': 11}
>>> ActionRequest("treat", 14, {"patient": 11}).value("patient"), ActionRequest("treat", 14).value("patient", 3)
(11, 3)
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The kinds of :class:`ActionField` a front end draws: one unit of the choices, several of them, one
#: of a list of words, a check box, a whole number, a distance, a point on the table (x_in, y_in).
FIELD_KINDS = ("unit", "units", "choice", "bool", "int", "float", "point")


@dataclass(frozen=True)
class ActionChoice:
    """One value a field may take, as the rules propose it: ``label`` the words shown, ``eligible``
    whether the rules would take it now and ``reason`` why (not) -- the measured distance, "touching",
    "out of voice range" -- so a panel lists the ineligible ones greyed with their reason."""

    value: Any
    label: str
    eligible: bool = True
    reason: str = ""


@dataclass(frozen=True)
class ActionField:
    """One field of an action's form. ``kind`` is one of :data:`FIELD_KINDS`; ``choices`` the
    proposals (for "unit", "units" and "choice"); ``default`` the value the form starts with;
    ``limit``: how many a "units" field takes at most (None: any); numbers stay within ``minimum`` and
    ``maximum``, with ``suffix`` ('"')."""

    key: str
    label: str
    kind: str
    choices: tuple[ActionChoice, ...] = ()
    default: Any = None
    help: str = ""
    limit: int | None = None
    minimum: float = 0
    maximum: float = 999
    suffix: str = ""


@dataclass(frozen=True)
class ActionForm:
    """An action ``unit_id`` may declare now: ``key`` names it to the rules, ``label`` to the players.

    ``rolls``: it is rolled (odds are shown before the roll and the dice are virtual or the players');
    ``allowed`` False with ``reason``: the rules would refuse it as the form starts (its fields may still
    change that); ``notes``: what the geometry says that is not a field (who hears a Signal, which radios
    a jammer cuts); ``kind``: how the log and the recording name it ("treatment", "signal")."""

    key: str
    label: str
    unit_id: int
    fields: tuple[ActionField, ...] = ()
    rolls: bool = False
    allowed: bool = True
    reason: str = ""
    notes: tuple[str, ...] = ()
    help: str = ""
    kind: str = "action"

    def defaults(self) -> dict[str, Any]:
        """Every field's starting value, by key."""
        return {f.key: f.default for f in self.fields}

    def field(self, key: str) -> ActionField:
        for f in self.fields:
            if f.key == key:
                return f
        raise KeyError(f"{self.label} has no field {key!r}: it has {', '.join(f.key for f in self.fields) or 'none'}")


@dataclass(frozen=True)
class ActionRequest:
    """A declared action: ``action`` is an :class:`ActionForm`'s key, ``unit_id`` the acting unit, and
    ``values`` the fields as the players set them (keys left out take the form's defaults)."""

    action: str
    unit_id: int
    values: Mapping[str, Any] = field(default_factory=dict)

    def value(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "unit": self.unit_id, **{k: _jsonable(v) for k, v in self.values.items()}}


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def with_defaults(form: ActionForm, request: ActionRequest) -> ActionRequest:
    """``request`` with the form's defaults filled in for the fields it leaves out; a key the form does
    not have is refused, naming the form's keys."""
    unknown = sorted(set(request.values) - {f.key for f in form.fields})
    if unknown:
        raise KeyError(f"{form.label} has no field {unknown[0]!r}: it has "
                       f"{', '.join(f.key for f in form.fields) or 'none'}")
    values: dict[str, Any] = form.defaults()
    values.update(request.values)
    return ActionRequest(request.action, request.unit_id, values)


__all__ = ["ActionChoice", "ActionField", "ActionForm", "ActionRequest", "FIELD_KINDS", "with_defaults"]

