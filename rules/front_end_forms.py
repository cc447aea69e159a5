"""The hand-edit form and the turn panel's box a rule system describes, as data: typed fields
(:class:`EditField`) in sections (:class:`EditSection`) of a form (:class:`EditForm`), and a box
(:class:`TurnBox`) of sections with text, a table, rows of fields and buttons. One dialog and one box
in ``gui/`` draw any of them; front ends import them from :mod:`rules.ruleset`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.dice import DiceSource
from rules.resolution import Resolution


@dataclass(frozen=True)
class EditField:
    """One field of a hand-edit form, as the rule system describes it; a front end draws it (a check box,
    a number box, a drop-down) and hands back the values.

    ``key``: how the rule system's changes name it; ``kind``: "bool", "int", "float", "choice" (one of
    ``choices``, pairs of the words shown and the value) or "text" (free words; ``choices`` are
    suggestions); ``value``: what it is now (a field left at it is no change). Numbers stay within
    ``minimum`` and ``maximum``, floats with ``decimals`` and a ``suffix`` ('"'); ``blank``: the words
    an "int" field's lowest value shows, standing for None ("its figures"); a field with an empty
    ``label`` shows none. ``inline``: a check box
    whose label is its own text (a token to untick). ``links``: choosing a value sets other fields,
    (value chosen, other field's key, its value) -- "suppressed by X" sets "until" to X's side.
    """

    key: str
    label: str
    kind: str
    value: Any
    choices: tuple[tuple[str, Any], ...] = ()
    help: str = ""
    minimum: float = 0
    maximum: float = 999
    decimals: int = 1
    suffix: str = ""
    blank: str = ""
    inline: bool = False
    links: tuple[tuple[Any, str, Any], ...] = ()
    #: Greyed words a "text" field without choices shows while it is empty ("tags, e.g. 12 13").
    hint: str = ""
    #: The name the change takes when it is not ``key`` (keys are unique in a form; a figure's and its
    #: unit's Morale are both "morale" to the rules).
    change: str = ""
    #: What the rule system keeps with the field for reading the form back (the token it stands for).
    data: Any = None

    @property
    def change_name(self) -> str:
        return self.change or self.key


@dataclass(frozen=True)
class EditSection:
    """A group of fields in a hand-edit form ("The figure: Bravo 1", "Suppressed"): ``title`` "" for the
    form's first, untitled part; ``note`` a sentence above the fields; ``group`` True when the fields
    are the whole unit's of several figures (:meth:`rules.ruleset.Ruleset.group_edit_action`), not the figure's."""

    title: str
    fields: tuple[EditField, ...]
    note: str = ""
    group: bool = False


@dataclass(frozen=True)
class EditForm:
    """The hand-edit form of one unit: its window title and its sections, in order."""

    title: str
    sections: tuple[EditSection, ...]

    def fields(self) -> tuple[EditField, ...]:
        return tuple(f for s in self.sections for f in s.fields)


@dataclass(frozen=True)
class EditChanges:
    """What a filled-in form changes: ``unit`` for :meth:`rules.ruleset.Ruleset.edit_action`, ``group`` for
    :meth:`rules.ruleset.Ruleset.group_edit_action` (both empty: nothing changed)."""

    unit: Mapping[str, Any] = field(default_factory=dict)
    group: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TurnButton:
    """A button of the turn panel's box; :meth:`rules.ruleset.Ruleset.turn_command` says what it does. ``clears``:
    the fields emptied once it went through (the reason typed for a declared initiative)."""

    key: str
    label: str
    help: str = ""
    clears: tuple[str, ...] = ()


@dataclass(frozen=True)
class TurnTable:
    """A read-only table of the turn panel's box (the last initiative test, the tables' decisions).
    ``stretch``: columns that take the room left; ``height``: "rows" (exactly as tall as its rows) or
    "room" (tall enough to show a dozen rows without scrolling); ``wrap``: long cells wrap;
    ``hide_empty``: no rows, no table."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    stretch: tuple[int, ...] = ()
    height: str = "rows"
    wrap: bool = False
    hide_empty: bool = False


@dataclass(frozen=True)
class TurnSection:
    """One part of the turn panel's box, top to bottom: ``text`` (rich text: the next test and its odds,
    what the tables decided), a ``caption`` and a ``table``, ``after`` the table (who holds the
    initiative), ``rows`` of fields and buttons (each field after its label), and a ``note`` below them
    (the odds of the test set up). ``key`` names the section to front ends and tests."""

    key: str
    title: str
    text: str = ""
    caption: str = ""
    table: TurnTable | None = None
    after: str = ""
    rows: tuple[tuple[EditField | TurnButton, ...], ...] = ()
    note: str = ""


@dataclass(frozen=True)
class TurnBox:
    """The rule system's own part of the turn panel (an initiative test and a force's procedures, the
    solo tables' decisions), as data; ``visible`` False: nothing to show now."""

    sections: tuple[TurnSection, ...]
    visible: bool = True

    def fields(self) -> tuple[EditField, ...]:
        return tuple(item for s in self.sections for row in s.rows for item in row if isinstance(item, EditField))


@dataclass(frozen=True)
class TurnCommand:
    """What a turn-box button does: a procedure rolled with the players' dice (``run(state, dice)``
    giving a :class:`Resolution`, logged as ``kind``), or one of the rules' actions (``action``)."""

    kind: str
    run: Callable[[Any, DiceSource], Resolution] | None = None
    action: Any = None


def same_value(f: EditField, value: Any) -> bool:
    """Whether ``value`` is ``f``'s starting value (a float within half its last decimal)."""
    if f.kind == "float" and value is not None and f.value is not None:
        return abs(float(value) - float(f.value)) < 0.5 * 10 ** -f.decimals + 1e-9
    return bool(value == f.value)
