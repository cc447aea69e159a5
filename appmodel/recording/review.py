"""A recording's events as an after-action review lists them: each with its kind (kill, hit, signal,
jamming...), the side that acted, the units it concerns, its result card in the ruleset's words, and,
for a signal or jamming, who it reached or cut (the comms lane). Qt-free; the replay window's event
list, its pause-at-events and its comms lane read these (:class:`appmodel.replay_model.ReplayModel`
builds them in its one pass over the recording's rules rows).

The kind comes from what the ruleset says of the event, never from a rule system's name: its
engagements (a target "killed" is a kill, one hit but not killed a hit), its casualties, its emissions
(a token put on for jamming, any other a signal; an emitter located), and its action summaries (a
treatment, a boarding: an action without dice is listed all the same).

>>> [k.name for k in REVIEW_KINDS][:3]
['kill', 'hit', 'attack']
>>> review_kind_of(("killed", "miss"), (), ())
'kill'
>>> review_kind_of(("miss",), (), (("emits", "jamming"),))
'attack'
>>> review_kind_of((), (), (("emits", "jamming"),)), review_kind_of((), (), (("located", ""),))
('jamming', 'signal')
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from appmodel.recording.reader import RecordedRules
from appmodel.result_card import ResultCard, result_card
from appmodel.session.review_topics import ReviewTopic, split_topic
from rules.ruleset import OddsLegend


@dataclass(frozen=True)
class ReviewKind:
    name: str
    #: What the window's filters and its "pause at" menu call it (and the report's).
    label: str
    #: One event of it, as the report's list names it.
    one: str = ""
    #: Left out of the lists until asked (every unit appearing or lifted is the tracker's news, not the game's).
    hidden_at_first: bool = False


REVIEW_KINDS = (
    ReviewKind("kill", "Kills", "kill"),
    ReviewKind("hit", "Hits", "hit"),
    ReviewKind("attack", "Misses, other attacks", "attack"),
    ReviewKind("signal", "Signals", "signal"),
    ReviewKind("jamming", "Jamming", "jamming"),
    ReviewKind("action", "Other actions", "action"),
    ReviewKind("bookmark", "Bookmarks", "bookmark"),
    ReviewKind("rules", "Turns, rounds, notes", "turn"),
    ReviewKind("tracker", "Tracker events", "tracker", hidden_at_first=True),
)
#: Not a kind of its own: every moment of a review topic the scenario planned (its bookmarks and the
#: events it matches), whatever their kind -- what playback can pause at, as PowerSTRIPES's "High
#: Interest Events".
TOPIC_MOMENTS = ReviewKind("topic", "Review topics' moments")
KIND_LABELS = {k.name: k.label for k in (*REVIEW_KINDS, TOPIC_MOMENTS)}
#: The kinds a replay pauses at until the user chooses others (VBS's "pause at events": hits and kills).
DEFAULT_PAUSE_KINDS = frozenset({"kill", "hit"})
#: The tracker's events a review lists (a unit moving is every frame's news, not an event to stop at).
LISTED_TRACKER_KINDS = frozenset({"appeared", "lifted", "lost", "reappeared", "returned", "conflict", "drift",
                                  "reregistered", "source_lost", "source_ended"})


@dataclass(frozen=True)
class CommsLink:
    """A signal or jamming on the comms lane: who sent it (``from_id``) and who it reached, or, for
    jamming, whose radios it cut (``to_ids``); ``kind`` is the ruleset's (``CommsView.kind``: "signal",
    "command", "sigint" or "jamming")."""

    t_s: float
    kind: str
    from_id: int | None
    to_ids: tuple[int, ...]
    text: str


@dataclass(frozen=True)
class ReviewEvent:
    """One entry of the review's event list."""

    t_s: float
    kind: str  # one of REVIEW_KINDS' names
    text: str
    #: The side that acted (None: a bookmark, a tracker event of no unit, a rules row of no side).
    side: str | None = None
    #: Every unit the event concerns (the actor, targets, patients, the units it reached or cut).
    unit_ids: tuple[int, ...] = ()
    #: The result card as the window shows it after a resolution (None: nothing was resolved).
    card: ResultCard | None = None
    #: The review topics this moment belongs to (a bookmark's topic, or the topics whose units,
    #: kinds and time window it matches).
    topics: tuple[str, ...] = ()
    comms: CommsLink | None = None


def review_kind_of(outcomes: Sequence[str], casualty_changes: Sequence[str],
                   emissions: Sequence[tuple[str, str]]) -> str | None:
    """The review kind of a rules event from what the ruleset says of it: its engagements' outcomes,
    its casualties' changes and its emissions' (change, purpose); None when it says nothing of it."""
    if outcomes:
        if "killed" in outcomes or any(c in ("down", "removed") for c in casualty_changes):
            return "kill"
        if any(o.startswith("hit") or o in ("suppressed", "won the test") for o in outcomes):
            return "hit"
        return "attack"
    if any(c in ("down", "removed") for c in casualty_changes):
        return "kill"
    for change, purpose in emissions:
        if change == "emits" and "jamming" in purpose and "by hand" not in purpose:
            return "jamming"
    if any(change == "located" or (change == "emits" and "by hand" not in purpose) for change, purpose in emissions):
        return "signal"
    return None


def recorded_card(record: RecordedRules, sentences: Sequence[str], summaries: Sequence[str]) -> ResultCard:
    """The result card of a recorded resolution, as the window showed it live: what was done (the
    ruleset's summary of an action, else its first sentence), every die, what came of it, and the odds
    shown before the roll in the ruleset's own words."""
    event = record.event
    assert event is not None
    words = list(summaries) + [s for s in sentences if s not in summaries]
    legend = OddsLegend(*record.odds_words) if record.odds else None
    return result_card((event,), words or [event.summary], record.odds, legend)


def unit_ids_of(event: Any, known: Iterable[int]) -> tuple[int, ...]:
    """The units a rules event names in its inputs and outcome (any ``..._id`` or ``..._ids`` key, and
    lists of ids, that is a unit of the game), in the order named."""
    known = set(known)
    out: dict[int, None] = {}

    def walk(value: Any, key: str) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int) and (key.endswith("_id") or key.endswith("_ids") or key in ("units", "found")):
            if value in known:
                out[value] = None
        elif isinstance(value, Mapping):
            for k, v in value.items():
                walk(v, str(k))
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, key)

    walk(event.inputs, "")
    walk(event.outcome, "")
    return tuple(out)


def topics_of(topics: Sequence[ReviewTopic], t_s: float, recorded_kind: str, unit_ids: Sequence[int]) -> tuple[str, ...]:
    """The planned topics a recorded rules event belongs to (a topic with no criteria takes only its bookmarks)."""
    out = []
    for topic in topics:
        if not (topic.unit_tags or topic.kinds or topic.from_s is not None or topic.until_s is not None):
            continue
        if not topic.in_window(t_s) or not topic.covers_kind(recorded_kind):
            continue
        if topic.unit_tags and not set(topic.unit_tags) & set(unit_ids):
            continue
        out.append(topic.name)
    return tuple(out)


def bookmark_event(t_s: float, note: str) -> ReviewEvent:
    topic, text = split_topic(note)
    return ReviewEvent(t_s, "bookmark", f"★ {f'[{topic}] ' if topic else ''}{text}".rstrip(), topics=(topic,) if topic else ())


def passes(event: ReviewEvent, *, kinds: frozenset[str] | set[str] | None = None, side: str | None = None,
           unit_id: int | None = None) -> bool:
    """Whether ``event`` passes the review's filters: one of ``kinds`` (None: any; "topic" takes any
    moment of a review topic), acted by ``side``
    (None: any; an event of no side, a bookmark, always passes), concerning ``unit_id`` (None: any)."""
    if kinds is not None and event.kind not in kinds and not (TOPIC_MOMENTS.name in kinds and event.topics):
        return False
    if side is not None and event.side is not None and event.side != side:
        return False
    if unit_id is not None and unit_id not in event.unit_ids:
        return False
    return True


__all__ = ["CommsLink", "DEFAULT_PAUSE_KINDS", "KIND_LABELS", "LISTED_TRACKER_KINDS", "REVIEW_KINDS", "ReviewEvent",
           "ReviewKind", "TOPIC_MOMENTS", "bookmark_event", "passes", "recorded_card", "review_kind_of", "topics_of", "unit_ids_of"]
