"""The attacks a recording holds, as a replay shows them: when, what the rules said, and the odds the
players were shown before they rolled (recorded with the attack's first event, read by
:mod:`appmodel.recording.reader`). Qt-free; the replay window's panel reads :func:`attack_at` as the
timeline moves."""
from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from appmodel.recording.reader import RecordedOdds, RecordedRules, rules_record


@dataclass(frozen=True)
class RecordedAttack:
    t_s: float
    round: int | None
    summary: str
    odds: tuple[RecordedOdds, ...]
    #: The words for p_hit and p_kill_any in the rule system that recorded it ("hit"/"kill" unless given).
    hit_word: str = "hit"
    kill_word: str | None = "kill"


def attack_of(rec: RecordedRules) -> RecordedAttack | None:
    """The attack a rules record holds, when it carries the odds shown (``payload["odds"]``)."""
    if not rec.odds:
        return None
    return RecordedAttack(rec.t_s, rec.body.get("round"), str(rec.body.get("summary", rec.kind)), rec.odds, *rec.odds_words)


def recorded_attacks(records: Iterable[Any]) -> tuple[RecordedAttack, ...]:
    """Every rules record carrying the odds shown (``payload["odds"]``), in time order."""
    attacks = (attack_of(rules_record(r.t_s, r.kind, r.payload)) for r in records)
    return tuple(sorted((a for a in attacks if a is not None), key=lambda a: a.t_s))


def attack_at(attacks: Sequence[RecordedAttack], t_s: float) -> RecordedAttack | None:
    """The last attack resolved at or before ``t_s`` (None before the first)."""
    i = bisect.bisect_right([a.t_s for a in attacks], t_s + 1e-9) - 1
    return attacks[i] if i >= 0 else None


__all__ = ["RecordedAttack", "RecordedOdds", "attack_at", "attack_of", "recorded_attacks"]
