"""The report's after-action review around the table's timeline: the events a viewer can pause at and
filter, and the comms lane (who signalled whom, what jamming cut, when), as compact JSON for
``debrief/static/aar.js``.

    data = aar_data(facts)   # -> {"kinds": ..., "units": ..., "events": [...], "comms": [...], "topics": [...]}

Events are rows ``[t_s, kind, [unit ids], text]`` (the acting unit first); comms are rows
``[t_s, kind, from unit id, [unit ids reached], [radios cut], text]``. What a logged event sent over
the radio is the rule system's to say (:meth:`rules.ruleset.Ruleset.comms`); this module adds nothing
but the recording's times and the engagements' outcomes.
"""
from __future__ import annotations

from typing import Any

from appmodel.recording.payload import read_rules_payload
from debrief.facts import DebriefFacts, EngagementOutcome
from rules.errors import RulesError
from rules.ruleset import get_ruleset

#: The kinds of event, in the order the page offers them, with the words it uses (a choice, one row).
KINDS = (("kill", "kills", "kill"), ("hit", "hits", "hit"), ("miss", "misses", "miss"), ("signal", "signals", "signal"),
         ("jamming", "jamming", "jamming"), ("casualty", "casualties", "casualty"), ("bookmark", "bookmarks", "bookmark"))
#: What an engagement's outcome counts as.
OUTCOME_KIND = {EngagementOutcome.KILLED: "kill", EngagementOutcome.HIT: "hit", EngagementOutcome.SUPPRESSED: "hit",
                EngagementOutcome.WON: "hit", EngagementOutcome.MISS: "miss", EngagementOutcome.LOST: "miss",
                EngagementOutcome.NO_WINNER: "miss"}
#: A comms row's kind counted among the events (a Main Effort order or SIGINT is radio traffic too).
COMMS_KIND = {"signal": "signal", "command": "signal", "sigint": "signal", "jamming": "jamming"}


def _t(t_s: float) -> float:
    return round(float(t_s), 3)


def aar_data(facts: DebriefFacts) -> dict[str, Any]:
    """The events, comms and topics of ``facts`` for the report's review panel (JSON-ready)."""
    events: list[list[Any]] = []
    for e in facts.engagements:
        who = [e.attacker_id] + ([e.target_id] if e.target_id is not None else [])
        events.append([_t(e.t_s), OUTCOME_KIND.get(e.outcome, "hit"), who,
                       f"{e.attacker_name} ({e.weapon}) on {e.target_name}: {e.outcome.value}"])
    for c in facts.casualties:
        events.append([_t(c.t_s), "casualty", [c.tag_id], f"{c.name} {c.change}" + (f" ({c.cause})" if c.cause else "")])
    comms = comms_rows(facts)
    for t_s, kind, sender, reached, _cut, text in comms:
        events.append([t_s, COMMS_KIND.get(kind, "signal"), [sender, *reached], text])
    for b in facts.bookmarks:
        events.append([_t(b.t_s), "bookmark", [], (f"[{b.topic}] " if b.topic else "") + (b.note or "bookmark")])
    events.sort(key=lambda row: row[0])
    present = {row[1] for row in events}
    return {
        "kinds": [[k, words, one] for k, words, one in KINDS if k in present],
        "sides": [[side, facts.color_of(side)] for side in facts.sides],
        "units": [[u.tag_id, u.name, u.side] for u in facts.units],
        "events": events,
        "comms": comms,
        "topics": [[t.name, sorted({_t(m.t_s) for m in t.moments})] for t in facts.topics],
    }


def comms_rows(facts: DebriefFacts) -> list[list[Any]]:
    """``[t_s, kind, from id, [ids reached], [radios cut], text]`` for every logged event the rule
    system says went over the radio, in time order."""
    try:
        ruleset = get_ruleset(facts.ruleset)
    except RulesError:  # a rule system this program does not know: no comms to say
        return []
    out: list[list[Any]] = []
    for fact in facts.rules:
        event, _ = read_rules_payload(fact.payload)
        if event is None:
            continue
        try:
            views = ruleset.comms(event)
        except (KeyError, TypeError, ValueError, AttributeError):  # an event of another program's
            continue
        for v in views:
            out.append([_t(fact.t_s), v.kind, int(v.unit_id), [int(i) for i in v.to_ids], list(v.cut_names),
                        v.text or fact.summary])
    return out
