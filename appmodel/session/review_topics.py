"""Review topics the instructor plans before play (scenario ``[[review_topics]]``), and the bookmarks
made during play that attach to them (Qt-free).

A topic names what the class should look at afterwards -- first contact, casualty evacuation, the jammer,
a named unit -- by units (name or tag), kinds of action ("attack", "treat", "signal", "jam", ...) and a
time window. The debrief lists each topic's moments: its bookmarks and the recorded events that match.

A bookmark's topic is kept in the recording's bookmark note as a leading ``[topic]`` so recordings
keep one bookmarks table and older ones (no topic) read unchanged.

>>> t = review_topics({"units": [{"tag_id": 12, "name": "Alpha"}],
...                    "review_topics": [{"name": "First contact", "units": ["Alpha"], "kinds": ["attack"],
...                                       "until_s": 600}]})
>>> t[0].unit_tags, t[0].kinds, t[0].until_s
((12,), ('attack',), 600.0)
>>> split_topic(bookmark_note("Alpha fires early", "First contact"))
('First contact', 'Alpha fires early')
>>> split_topic("an old note")
('', 'an old note')
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from appmodel.errors import UsageError

#: The kinds a topic may name, and the recorded rules-event kinds each covers across the rule systems
#: (each names its own: Down Range "attack" and "medicine", Force on Force "fire").
KINDS: dict[str, frozenset[str]] = {
    "attack": frozenset({"attack", "fire", "damage", "close_combat", "reaction"}),
    "treat": frozenset({"treat", "treatment", "medicine", "repair"}),
    "signal": frozenset({"signal", "sigint", "command", "leader"}),
    "jam": frozenset({"jam", "jamming"}),
    "move": frozenset({"move", "sprint", "vehicle", "carry", "board", "disembark"}),
    "task": frozenset({"task", "rpv", "identify", "focus"}),
    "roll": frozenset({"roll", "test"}),
}

_TOPIC_PREFIX = re.compile(r"^\[([^\]]+)\]\s*(.*)$", re.S)


@dataclass(frozen=True)
class ReviewTopic:
    """One thing to look at in the debrief (empty ``unit_tags``/``kinds``: any; None times: open)."""

    name: str
    unit_tags: tuple[int, ...] = ()
    kinds: tuple[str, ...] = ()
    from_s: float | None = None
    until_s: float | None = None

    def in_window(self, t_s: float) -> bool:
        return (self.from_s is None or t_s >= self.from_s) and (self.until_s is None or t_s <= self.until_s)

    def covers_kind(self, recorded_kind: str) -> bool:
        return not self.kinds or any(recorded_kind in KINDS[k] for k in self.kinds)


def review_topics(scenario: Mapping[str, Any]) -> tuple[ReviewTopic, ...]:
    """The scenario's ``[[review_topics]]``; a topic naming an unknown unit or kind is refused (UsageError)."""
    by_name = {str(u.get("name", "")).casefold(): int(u["tag_id"]) for u in scenario.get("units", ()) if "tag_id" in u}
    tags = set(by_name.values())
    topics = []
    for i, entry in enumerate(scenario.get("review_topics", ()), 1):
        name = str(entry.get("name", "")).strip() if isinstance(entry, Mapping) else ""
        if not name:
            raise UsageError(f"review topic {i} has no name: give it name = \"...\"")
        unit_tags = []
        for unit in entry.get("units", ()):
            tag = unit if isinstance(unit, int) else by_name.get(str(unit).casefold())
            if tag is None or tag not in tags:
                raise UsageError(f"review topic {name!r} names unit {unit!r}, which is not among the scenario's units")
            unit_tags.append(int(tag))
        kinds = tuple(str(k).casefold() for k in entry.get("kinds", ()))
        for k in kinds:
            if k not in KINDS:
                raise UsageError(f"review topic {name!r} names kind {k!r}; known kinds: {', '.join(KINDS)}")
        from_s, until_s = entry.get("from_s"), entry.get("until_s")
        topics.append(ReviewTopic(name, tuple(unit_tags), kinds,
                                  None if from_s is None else float(from_s), None if until_s is None else float(until_s)))
    return tuple(topics)


def bookmark_note(note: str, topic: str = "") -> str:
    """The note stored for a bookmark: ``[topic] note`` when it has a topic."""
    return f"[{topic.strip()}] {note.strip()}".rstrip() if topic.strip() else note.strip()


def split_topic(stored: str) -> tuple[str, str]:
    """(topic, note) of a stored bookmark note ("" topic for one without, as older recordings have)."""
    m = _TOPIC_PREFIX.match(stored)
    return (m.group(1).strip(), m.group(2)) if m else ("", stored)
