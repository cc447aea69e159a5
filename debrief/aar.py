"""The report's after-action review around the table's timeline: the events a viewer can pause at and
filter, and the comms lane (who signalled whom, what jamming cut, when), as compact JSON for
``debrief/static/aar.js``.

    data = aar_data(facts)   # -> {"kinds": ..., "units": ..., "events": [...], "comms": [...], "topics": [...]}

The events are the replay window's (``facts.review``, built by
:mod:`appmodel.recording.review_builder` over the same recorded rows): the same kinds, sides, units and
comms in the window's event list and in the report. Events are rows ``[t_s, kind, [unit ids], text,
side]`` (side: the one that acted, None for a bookmark or a row of no side); comms are rows ``[t_s,
kind, from unit id, [unit ids reached], [radios cut], text, event]`` (``event``: the row in ``events``
it belongs to, whose kind, units and side filter it); kinds are ``[kind, label, one, shown at first]``.
"""
from __future__ import annotations

from typing import Any

from appmodel.recording.review import REVIEW_KINDS
from debrief.facts import DebriefFacts


def _t(t_s: float) -> float:
    return round(float(t_s), 3)


def aar_data(facts: DebriefFacts) -> dict[str, Any]:
    """The events, comms and topics of ``facts`` for the report's review panel (JSON-ready)."""
    names = {u.tag_id: u.name for u in facts.units}
    events: list[list[Any]] = []
    comms: list[list[Any]] = []
    for e in facts.review:
        if e.comms is not None:
            link = e.comms
            jamming = link.kind == "jamming"
            comms.append([_t(link.t_s), link.kind, link.from_id, [] if jamming else list(link.to_ids),
                          [names.get(u, f"tag {u}") for u in link.to_ids] if jamming else [], link.text, len(events)])
        events.append([_t(e.t_s), e.kind, list(e.unit_ids), e.text, e.side])
    present = {row[1] for row in events}
    return {
        "kinds": [[k.name, k.label, k.one, not k.hidden_at_first] for k in REVIEW_KINDS if k.name in present],
        "sides": [[side, facts.color_of(side)] for side in facts.sides],
        "units": [[u.tag_id, u.name, u.side] for u in facts.units],
        "events": events,
        "comms": comms,
        "topics": [[t.name, sorted({_t(m.t_s) for m in t.moments})] for t in facts.topics],
    }
