"""How a rule resolution is stored in a recording's ``rules_events`` table, and read back.

The payload is the ruleset's event as JSON (``RulesEvent.to_json()``: kind, round, side, summary,
inputs, outcome, every die rolled, warnings) plus, for an attack, the odds the players were shown
before rolling (``odds``: one entry per target, ``TargetOdds.as_floats()``, the exact fractions as
text and, when the ruleset names its figures otherwise than "hit" and "kill", ``legend``: the words
for ``p_hit`` and ``p_kill_any``). Recording it this way lets the replay and the debrief explain every
roll without the live game state::

    recorder.record_rules_event(t_s, event.kind, rules_payload(event, odds=table, legend=legend))

The GUI session records every attack this way, in its form ``{"event": RulesEvent JSON, "odds":
[...]}``, which is read the same way. A payload
that is not a rules event (a front end's own record) is kept and shown as it is; the session's
bookkeeping records (kinds ``log``, ``view``, ``state:...``) are not game events and are skipped by the
debrief.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

PAYLOAD_KEYS = ("seq", "kind", "summary", "outcome")


def rules_payload(event: Any, *, odds: Sequence[Any] | None = None, legend: Any | None = None) -> dict[str, Any]:
    """The JSON dict to record for a ``rules.events.RulesEvent`` (and the ``TargetOdds`` shown for it,
    with the ruleset's ``OddsLegend`` for them)."""
    payload: dict[str, Any] = dict(event.to_json())
    if odds:
        payload["odds"] = [odds_json(o, legend=legend) for o in odds]
    return payload


def odds_json(o: Any, *, legend: Any | None = None) -> dict[str, Any]:
    """One target's odds as recorded: ``TargetOdds.as_floats()``, the exact fractions as text, and the
    words of a legend that is not the plain "hit"/"kill".

    >>> from fractions import Fraction
    >>> from rules.ruleset import OddsLegend, TargetOdds
    >>> o = TargetOdds(30, "Cell 1", "Insurgents", 1, True, "", Fraction(7, 16), Fraction(1), Fraction(7, 16),
    ...                Fraction(7, 16), True)
    >>> data = odds_json(o, legend=OddsLegend("wins", None))
    >>> data["p_hit_exact"], data["legend"]
    ('7/16', {'hit': 'wins', 'kill': None})
    """
    data: dict[str, Any] = dict(o.as_floats())
    for key in ("p_hit", "p_damage", "p_kill", "p_kill_any"):
        data[f"{key}_exact"] = str(getattr(o, key))
    if legend is not None and (legend.hit, legend.kill) != ("hit", "kill"):
        data["legend"] = {"hit": legend.hit, "kill": legend.kill}
    return data


def read_rules_payload(payload: Mapping[str, Any]) -> tuple[Any | None, tuple[dict[str, Any], ...]]:
    """(RulesEvent or None, odds shown) from a recorded payload; None when it is not a rules event.

    >>> read_rules_payload({"note": "free text"})
    (None, ())
    """
    odds = payload.get("odds") or ()
    if isinstance(payload.get("event"), Mapping):  # the GUI session's form: {"event": RulesEvent JSON}
        payload = payload["event"]
    if not all(k in payload for k in PAYLOAD_KEYS):
        return None, ()
    from rules.errors import RulesError
    from rules.events import RulesEvent

    body = {k: v for k, v in payload.items() if k != "odds"}
    body.setdefault("type", "RulesEvent")
    try:
        event = RulesEvent.from_json(body)
    except (RulesError, TypeError, ValueError, KeyError):
        return None, ()
    odds = odds or payload.get("odds") or ()
    return event, tuple(dict(o) for o in odds if isinstance(o, Mapping))
