"""What a session rolls dice for: the attack set up, initiative, a turn's start, a declared action (an
:class:`~rules.ruleset.ActionRequest`: a treatment, a task roll, a Signal, a boarding...), or one of the
ruleset's own procedures (Force on Force's activation and tests, the generic rules' automation tables...).

Functions of the ruleset, the state, the draft and a dice source: which dice (virtual, entered,
probing, capturing) is the caller's choice (:mod:`appmodel.session.dice_sources`), committing the
result the session's.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from appmodel.errors import UsageError
from appmodel.session.attacks import AttackDraft
from appmodel.session.dice_sources import Entry, NeedDice, ProbeDice, ReplayThenDice
from rules.dice import DiceSource, RollRequest
from rules.ruleset import ActionRequest, Resolution, Ruleset

XY = tuple[float, float]
#: A rule procedure the session runs with its dice: ``fn(state, dice) -> Resolution`` (an activation,
#: a test, reinforcements, the automation tables...).
Procedure = Callable[[Any, DiceSource], Resolution]


#: What a session may roll for: "attack", "initiative", "turn", a declared action, or a procedure.
What = str | ActionRequest | Procedure


def run_rolls(ruleset: Ruleset, state: Any, what: What, dice: DiceSource, *,
              draft: AttackDraft | None = None, landing: XY | None = None) -> Resolution:
    """Resolve ``what`` -- "attack" (``draft``, landing a missed explosive at ``landing``), "initiative",
    "turn", a declared action (:class:`ActionRequest`) or a :data:`Procedure` -- with ``dice``."""
    if isinstance(what, ActionRequest):
        return ruleset.resolve_action(state, what, dice)
    if callable(what):
        return what(state, dice)
    if what == "attack":
        if draft is None:
            raise UsageError("no attack is set up: choose an attacker, a weapon and targets first")
        if not draft.target_ids and draft.aim_point is None:
            raise UsageError("tick at least one target (or pick an aim point for an explosive)")
        return ruleset.resolve_attack(state, draft.request(), dice, landing_point=landing)
    if what == "initiative":
        return ruleset.start_round(state, dice)
    if what == "turn":
        return ruleset.start_turn(state, dice)
    raise ValueError(what)


def dice_needed(ruleset: Ruleset, state: Any, what: What, entries: Sequence[Entry], *,
                draft: AttackDraft | None = None) -> RollRequest | None:
    """The next roll the rules ask for after ``entries`` (None when they are enough): the entered-dice
    form lists exactly these, one at a time, since which dice follow depends on the earlier ones (no
    Damage roll for a miss). An impossible entry raises the rules' message."""
    try:
        run_rolls(ruleset, state, what, ProbeDice(entries), draft=draft)
    except NeedDice as need:
        return need.request
    return None


def landing_dice_needed(ruleset: Ruleset, state: Any, draft: AttackDraft, rolled: Sequence[Entry],
                        entries: Sequence[Entry], landing: XY) -> RollRequest | None:
    """The next roll a missed explosive's landing at ``landing`` asks for after ``entries`` (the rolls
    before the miss, ``rolled``, replayed first); None when they are enough."""
    try:
        run_rolls(ruleset, state, "attack", ReplayThenDice(rolled, ProbeDice(entries)), draft=draft, landing=landing)
    except NeedDice as need:
        return need.request
    return None
