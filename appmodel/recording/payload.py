"""How a rule resolution is stored in a recording's ``rules_events`` table, and read back.

One shape is written, by :meth:`appmodel.recording.rows.RecordingRows.rules_events` (the GUI session,
``sandtable run``, the demo): ``{"event": RulesEvent JSON, "odds": [...]}``. The event is the ruleset's
(``RulesEvent.to_json()``: kind, round, side, summary, inputs, outcome, every die rolled, warnings);
``odds``, for an attack, are the odds the players were shown before rolling: one entry per target,
``TargetOdds.as_floats()``, the exact fractions as text and, when the ruleset names its figures otherwise
than "hit" and "kill", ``legend``: the words for ``p_hit`` and ``p_kill_any`` (:func:`odds_json`).
Recording it this way lets the replay and the debrief explain every roll without the live game state.

Older recordings (the demo's, before it wrote through the session's writer) hold the flat shape: the
event's JSON with ``odds`` beside its keys. :func:`read_rules_payload` reads both, so the shape is
migrated in one place (:func:`appmodel.recording.reader.rules_record`). A payload that is not a rules
event (a front end's own record) is kept and shown as it is; the session's bookkeeping records (kinds
``log``, ``view``, ``state:...``) are not game events and are skipped by the debrief.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PAYLOAD_KEYS = ("seq", "kind", "summary", "outcome")


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
    >>> from rules.events import RulesEvent
    >>> event = RulesEvent(1, "attack", 1, "Blue", "Alpha fires").to_json()
    >>> read_rules_payload({"event": event, "odds": [{"p_hit": 0.5}]})[1]  # the shape written
    ({'p_hit': 0.5},)
    >>> read_rules_payload({**event, "odds": [{"p_hit": 0.5}]})[0].summary  # the older flat shape
    'Alpha fires'
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
