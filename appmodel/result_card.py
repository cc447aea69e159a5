"""What the large result card shows after a roll is resolved: what was done, every die as it came up,
the outcome in the rules' words, and the odds the players were shown before they rolled. Qt-free; the
window draws it (gui/result_card_view.py) and keeps it until a player dismisses it."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.events import RollRecord, RulesEvent


@dataclass(frozen=True)
class ResultCard:
    title: str
    #: One line per roll: "Skill 1d6 with Advantage: 6, 2".
    dice: tuple[str, ...]
    #: The rules' sentences saying what happened (hit, damage, kill...).
    outcome: tuple[str, ...]
    #: One line per target: "Automatic rifleman: hit 88.9%, kill 29.6%" (or why the shot was refused).
    odds_before: tuple[str, ...]


def _faces(roll: RollRecord) -> str:
    if roll.faces:
        return ", ".join(str(f) for f in roll.faces)
    return f"total {roll.dice_total}"


def result_card(events: Sequence[RulesEvent], sentences: Sequence[str], odds: Sequence[Any], legend: Any | None) -> ResultCard:
    """The card of one resolution: ``events`` the rules logged for it, ``sentences`` its words, ``odds``
    the TargetOdds shown before the roll, ``legend`` the rule system's words for them (OddsLegend)."""
    # The first sentence says what was done ("Sergeant fires the M4/M16."); the others what came of it.
    summary = next((e.summary for e in events if e.kind != "warning"), "")
    title = sentences[0] if sentences else summary.split(". ")[0]
    dice = tuple(f"{r.label} {r.count}d{r.sides}: {_faces(r)}" for e in events for r in e.rolls)
    outcome = tuple(s for s in sentences[1:] if s != title)
    lines = []
    for o in odds:
        if not o.allowed:
            lines.append(f"{o.name}: not allowed ({o.reason})")
        elif legend is not None:
            lines.append(legend.card_line(o))
        else:
            lines.append(f"{o.name}: hit {float(o.p_hit):.1%}, kill {float(o.p_kill_any):.1%}")
        if o.allowed and getattr(o, "outcomes", ()):
            # A table's results (Table 2-2's restored/injured/no effect/removed): each with its chance.
            lines[-1] += " (" + ", ".join(f"{label} {float(p):.1%}" for label, p in o.outcomes) + ")"
    return ResultCard(title, dice, outcome, tuple(lines))


__all__ = ["ResultCard", "result_card"]
