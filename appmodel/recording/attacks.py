"""The attacks a recording holds, as a replay shows them: when, what the rules said, and the odds the
players were shown before they rolled (recorded with the attack's first event). Qt-free; the replay
window's panel reads :func:`attack_at` as the timeline moves."""
from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RecordedOdds:
    """One target's odds as shown before the roll (fractions 0-1; ``allowed`` False: the rules refused it)."""

    name: str
    allowed: bool
    reason: str
    p_hit: float
    p_kill_any: float
    shots: int
    distance_in: float | None


@dataclass(frozen=True)
class RecordedAttack:
    t_s: float
    round: int | None
    summary: str
    odds: tuple[RecordedOdds, ...]
    #: The words for p_hit and p_kill_any in the rule system that recorded it ("hit"/"kill" unless given).
    hit_word: str = "hit"
    kill_word: str | None = "kill"


def _odds(data: Mapping[str, Any]) -> RecordedOdds:
    distance = data.get("distance_in")
    return RecordedOdds(str(data.get("name", "?")), bool(data.get("allowed", True)), str(data.get("reason", "")),
                        float(data.get("p_hit", 0.0)), float(data.get("p_kill_any", 0.0)), int(data.get("shots", 1)),
                        None if distance is None else float(distance))


def recorded_attacks(records: Iterable[Any]) -> tuple[RecordedAttack, ...]:
    """Every rules record carrying the odds shown (``payload["odds"]``), in time order."""
    out = []
    for r in records:
        odds = r.payload.get("odds") if isinstance(r.payload, Mapping) else None
        if not odds:
            continue
        event = r.payload.get("event") if isinstance(r.payload.get("event"), Mapping) else r.payload
        legend = odds[0].get("legend") or {}
        out.append(RecordedAttack(float(r.t_s), event.get("round"), str(event.get("summary", r.kind)),
                                  tuple(_odds(o) for o in odds if isinstance(o, Mapping)),
                                  str(legend.get("hit", "hit")), legend.get("kill", "kill") if legend else "kill"))
    return tuple(sorted(out, key=lambda a: a.t_s))


def attack_at(attacks: Sequence[RecordedAttack], t_s: float) -> RecordedAttack | None:
    """The last attack resolved at or before ``t_s`` (None before the first)."""
    i = bisect.bisect_right([a.t_s for a in attacks], t_s + 1e-9) - 1
    return attacks[i] if i >= 0 else None


__all__ = ["RecordedAttack", "RecordedOdds", "attack_at", "recorded_attacks"]
