"""The scripted example games the demo can stage, one per rule system, and what the demo needs to know of each.

A rule system's example script (``rules/<ruleset>/examples/<name>.py``) lists its ``STEPS``: each a
title, the text's words and the items played (moves, attacks with the dice the text states, other
rolls, plain actions), and ``play_step`` plays them. The scripts differ in their item types, in what a
tag is (a Down Range unit, with gun teams sharing one token; a Force on Force figure; a generic-rules
counter) and in how a step is named. A :class:`DemoExample` says, for one script, what each item is
to the demo (:class:`ItemRole`) and how a player does it in the companion: the attack panel's draft
for an attack, the session call for a roll. :mod:`demo.story` lays the items out in time with it
and :mod:`demo.director` plays them on a :class:`appmodel.game_session.GameSession` with it.

The examples are registered by name (:data:`EXAMPLES`) and imported only when asked for:

>>> [e for e in EXAMPLES]
['in-depth', 'patrol', 'solo']
>>> example_named("patrol").ruleset
'force-on-force'
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from types import ModuleType
from typing import Any

XY = tuple[float, float]

#: Demo examples by name: "module:class" (imported when first asked for). The default comes first.
EXAMPLES: Mapping[str, str] = {
    "in-depth": "demo.downrange_example:InDepthExample",
    "patrol": "demo.forceonforce_example:PatrolExample",
    "solo": "demo.generic_example:SoloExample",
}
DEFAULT_EXAMPLE = "in-depth"

#: Sizes of the demo table's tags (edge of the black square, inches): troops and counters carry 1"
#: tags, vehicles (a hull footprint) a 1.5" tag on the roof, as the synthetic feed of ``sandtable gui``
#: draws them.
TROOP_TAG_IN = 1.0
VEHICLE_TAG_IN = 1.5


class ItemRole(str, Enum):
    """What an item of a script is to the demo (how it is laid out in time and played)."""

    MOVE = "move"              # a figure moved on the table (the tracker reports it)
    ATTACK = "attack"          # aimed in the attack panel, then resolved with the stated dice
    INITIATIVE = "initiative"  # the round's initiative, rolled with the stated dice
    TREAT = "treat"            # a medic's roll (Down Range)
    ROLL = "roll"              # any other roll with stated dice (an activation, a test, reinforcements)
    TURN = "turn"              # the next side's turn, with the dice an automated side rolls
    ACTION = "action"          # a plain rules action (start or end of a turn, Focus, a split...)


@dataclass(frozen=True)
class Token:
    """A tag on the table as the rules have it: where it stands, whether it is on the table, its size."""

    tag_id: int
    x_in: float
    y_in: float
    heading_deg: float
    on_table: bool
    size_in: float = TROOP_TAG_IN

    @property
    def place(self) -> tuple[float, float, float, bool]:
        return float(self.x_in), float(self.y_in), float(self.heading_deg), bool(self.on_table)


@dataclass(frozen=True)
class AimedAttack:
    """An attack as a player sets it up: the attacker and weapon selected, the blast point picked (if
    any), and the attack panel's draft."""

    draft: Any
    weapon: str
    blast_point: XY | None = None


def tag_size_in(unit: Any) -> float:
    """The demo's tag size for a unit with a length (a vehicle's hull: 1.5") or without (1").

    >>> from types import SimpleNamespace as U
    >>> tag_size_in(U(length_in=6.0)), tag_size_in(U(length_in=None)), tag_size_in(U())
    (1.5, 1.0, 1.0)
    """
    return VEHICLE_TAG_IN if getattr(unit, "length_in", None) else TROOP_TAG_IN


def tokens_from_views(views: Sequence[Any]) -> dict[int, Token]:
    """Tokens from the ruleset-neutral unit views (one tag each; a hull footprint carries the larger tag).

    >>> from rules.geometry import Circle
    >>> from types import SimpleNamespace as U
    >>> tokens_from_views([U(unit_id=10, x_in=1.0, y_in=2.0, heading_deg=90.0, on_table=True, footprint=Circle(1, 2, 0.5))])
    {10: Token(tag_id=10, x_in=1.0, y_in=2.0, heading_deg=90.0, on_table=True, size_in=1.0)}
    """
    return {int(v.unit_id): Token(int(v.unit_id), float(v.x_in), float(v.y_in), float(v.heading_deg), bool(v.on_table),
                                  tag_size_in(v.footprint))
            for v in views}


class DemoExample:
    """One example script as the demo stages it. Subclasses fill in the class attributes and the item
    roles; the defaults suit scripts built on :mod:`rules.scripted_game` (numbered steps, one tag per
    unit view)."""

    #: The name ``--example`` takes.
    name: str = ""
    #: The script module (``STEPS``, ``play_step``, ``initial_state``, ``load_scenario``, ``SCENARIO_PATH``).
    module: str = ""
    #: The rule system of its scenario.
    ruleset: str = ""
    #: What the caption band and the Story panel say before the first step.
    title: str = ""
    #: Who is on the table, in a sentence or two.
    cast: str = ""
    #: What the log says when the whole example has been played.
    finale: str = "End of the example."
    #: What the text walkthrough calls a step's ``expect`` (what the text or the script says comes of it).
    expect_label: str = "Expected"
    #: ... and the Story panel (what the text says comes of the step, or what the script makes of it).
    expect_words: str = "What comes of it"
    #: (step, note) bookmarks an instructor would set: the debrief lists them.
    bookmarks: tuple[tuple[str, str], ...] = ()
    #: Unit statuses that are not "out of the fight" (a generic-rules dummy is removed, not beaten).
    in_the_fight: tuple[str, ...] = ("active",)

    def __repr__(self) -> str:
        return f"<demo example {self.name!r}>"

    @property
    def introduction(self) -> str:
        """The text walkthrough's opening paragraph."""
        import textwrap

        return textwrap.fill(f"{self.title}. {self.cast}", width=100)

    # -- the script ---------------------------------------------------------------------------------
    @property
    def script(self) -> ModuleType:
        return importlib.import_module(self.module)

    @property
    def steps(self) -> tuple[Any, ...]:
        return tuple(self.script.STEPS)

    @property
    def scenario_path(self) -> Any:
        return self.script.SCENARIO_PATH

    def load_scenario(self) -> dict[str, Any]:
        return dict(self.script.load_scenario())

    def initial_state(self) -> Any:
        return self.script.initial_state()

    def play_item(self, state: Any, step: Any, item: Any) -> Any:
        """The script's record of playing one item of ``step`` on ``state``."""
        return self.script.play_step(state, replace(step, items=(item,)))

    def merge_records(self, step: Any, parts: Sequence[Any]) -> Any:
        """One record for a step played item by item (its lines, odds and results in order)."""
        return self.script.StepRecord(step, parts[-1].state, tuple(line for p in parts for line in p.lines),
                                      tuple(o for p in parts for o in p.odds), tuple(x for p in parts for x in p.results))

    def play(self, steps: Sequence[Any]) -> Any:
        """The script's own run of ``steps`` (records, one per step)."""
        return self.script.play(tuple(steps))

    # -- naming steps -------------------------------------------------------------------------------
    def section(self, index: int, step: Any) -> str:
        """How a step is named on screen and by ``--until`` (numbered from 1 unless the script names it)."""
        return str(getattr(step, "section", None) or index + 1)

    def heading(self, section: str, title: str) -> str:
        return f"{section}. {title}"

    def step_name(self, index: int, step: Any) -> str:
        """A step named in a sentence ("6.5.1"; "step 8 (From the rooftop)")."""
        section = self.section(index, step)
        return section if getattr(step, "section", None) else f"step {section} ({step.title})"

    def steps_until(self, section: str | None) -> tuple[Any, ...] | None:
        """The steps up to and including ``section`` (a step's number or title; None: all of them); a
        name that is no step is refused, naming the steps."""
        if section is None:
            return None
        from appmodel.errors import UsageError

        steps = self.steps
        names = [self.section(i, s) for i, s in enumerate(steps)]
        wanted = section.strip().lower()
        for i, step in enumerate(steps):
            if wanted in (names[i].lower(), str(getattr(step, "title", "")).strip().lower()):
                return steps[: i + 1]
        listed = ", ".join(names) if all(hasattr(s, "section") for s in steps) else \
            ", ".join(f"{n} ({s.title})" for n, s in zip(names, steps))
        raise UsageError(f"--until {section!r}: not a step of the example; the steps are {listed}")

    # -- the table ----------------------------------------------------------------------------------
    def tokens(self, state: Any) -> dict[int, Token]:
        """Every tag the table shows for ``state`` (riders excluded)."""
        from rules.ruleset import get_ruleset

        return tokens_from_views(get_ruleset(self.ruleset).units(state))

    def riders(self, state: Any) -> frozenset[int]:
        """Units without a tag of their own (they ride on a team-mate's token)."""
        return frozenset()

    def out_of_fight(self, views: Sequence[Any]) -> list[str]:
        """Names of the units out of the fight, from the session's unit views."""
        return [v.name for v in views if v.status not in self.in_the_fight]

    def out_of_fight_sentence(self, views: Sequence[Any]) -> str:
        """"Out of the fight (3): Bravo 1, Bravo 2 and "Cell 1 e"." -- how many, then the names; a name
        ending in a lone letter is quoted so that the sentence's full stop does not read as a cut-off word."""
        down = self.out_of_fight(views)
        if not down:
            return "Out of the fight: nobody."
        names = [f'"{n}"' if len(n.split()[-1]) == 1 and n.split()[-1].isalpha() else n for n in down]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"Out of the fight ({len(down)}): {listed}."

    # -- items --------------------------------------------------------------------------------------
    def role(self, item: Any) -> ItemRole:
        raise NotImplementedError

    def attack_units(self, item: Any) -> tuple[int, ...]:
        """The attacker, then its targets (the units the view follows while it is aimed and rolled)."""
        raise NotImplementedError

    def acting_units(self, item: Any, state: Any) -> tuple[int, ...]:
        """The units a roll or an action is about (the view follows the first on the table)."""
        for name in ("unit_id", "operator_id", "commander_id", "medic", "figure_id"):
            value = getattr(item, name, None)
            if isinstance(value, int):
                return (value,)
        return ()

    def aim(self, item: Any, session: Any) -> AimedAttack:
        raise NotImplementedError

    def attack_dice(self, item: Any) -> tuple[Any, ...]:
        return tuple(item.dice)

    def landing(self, item: Any) -> XY | None:
        """Where a missed explosive lands, when a player chooses it (Down Range)."""
        return None

    def initiative_dice(self, item: Any) -> tuple[Any, ...]:
        return tuple(item.dice)

    def turn_dice(self, item: Any) -> tuple[Any, ...]:
        return tuple(getattr(item, "dice", ()))

    def roll(self, item: Any, session: Any) -> Any:
        """Play a ROLL item on the session (with the stated dice); returns the rules' result."""
        raise NotImplementedError

    def treat(self, item: Any, session: Any) -> Any:
        raise NotImplementedError

    def action_kind(self, action_name: str) -> str:
        """The recording's ``state:<why>`` for an action (docs/gui.md: start, attack, initiative, turn, edit)."""
        return "edit" if action_name.startswith("Edit") else "action"

    def bookmark(self, section: str, step: Any) -> str | None:
        """The instructor's bookmark for a step (set after its first roll), or None."""
        notes = dict(self.bookmarks)
        title = str(getattr(step, "title", ""))
        for key in (section, title):
            if key in notes:
                return f"{key}: {notes[key]}"
        return None


def example_named(name: str | None) -> DemoExample:
    """The demo example registered as ``name`` (None: the default); a wrong name is refused, listing them."""
    from appmodel.errors import UsageError

    key = (name or DEFAULT_EXAMPLE).strip().lower()
    target = EXAMPLES.get(key)
    if target is None:
        raise UsageError(f"--example {name!r}: no such example; use one of {', '.join(EXAMPLES)}")
    module_name, attr = target.split(":")
    example: DemoExample = getattr(importlib.import_module(module_name), attr)()
    return example


__all__ = ["AimedAttack", "DEFAULT_EXAMPLE", "DemoExample", "EXAMPLES", "ItemRole", "TROOP_TAG_IN", "Token",
           "VEHICLE_TAG_IN", "example_named", "tag_size_in", "tokens_from_views"]
