"""The after-action review's events built from a recording's rows: one builder for the replay window's
event list and comms lane (:class:`appmodel.replay_model.ReplayModel`, in its one pass over the rows)
and for the HTML report's review (:mod:`debrief.aar`, through :func:`review_of_rows`), so the two list
the same events of the same kinds, with the same sides, units and comms. Qt-free.

Each recorded rules event becomes a :class:`~appmodel.recording.review.ReviewEvent` whose kind comes
from what the ruleset says of it (:func:`~appmodel.recording.review.review_kind_of`); a signal or
jamming gets its :class:`~appmodel.recording.review.CommsLink`: who the ruleset says it reached
(``Ruleset.comms``), else who the ruleset's own "signal" and "jamming" overlays show in the game state
the event left (the next recorded state, read only for these). Bookmarks and the tracker's listed
events join them when the rows are done.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any

from appmodel.errors import UsageError
from appmodel.recording.reader import RecordedRules, rules_record
from appmodel.recording.review import (LISTED_TRACKER_KINDS, CommsLink, ReviewEvent, bookmark_event, recorded_card,
                                       review_kind_of, topics_of, unit_ids_of)
from appmodel.session.review_topics import ReviewTopic, review_topics
from tracker.recording.schema import STATE_KIND_PREFIX, is_bookkeeping

#: The review kinds that are engagements (the timeline's "next engagement").
ENGAGEMENT_KINDS = frozenset({"kill", "hit", "attack"})


def planned_topics(scenario: Mapping[str, Any]) -> tuple[ReviewTopic, ...]:
    """The scenario's review topics (none from a damaged topic list: the review shows the rest, as the debrief does)."""
    try:
        return review_topics(scenario)
    except UsageError:
        return ()


class ReviewBuilder:
    """Fed a recording's rules records in order (:meth:`add`), told when a game state was recorded
    (:meth:`state_recorded`), then :meth:`finish`-ed with the bookmarks and tracker events.

    ``ruleset`` and ``initial_state``: the recorded game's rule system and its start (the units it
    knows, what an engagement is measured against); ``topics``: the planned review topics."""

    def __init__(self, ruleset: Any, initial_state: Any, topics: Sequence[ReviewTopic] = ()) -> None:
        self.ruleset = ruleset
        self._initial = initial_state
        self._topics = tuple(topics)
        self.known: dict[int, Any] = {u.unit_id: u for u in ruleset.units(initial_state)}
        self.events: list[ReviewEvent] = []
        self._waiting: list[tuple[int, RecordedRules]] = []  # reached/cut once the state after them is read

    def add(self, record: RecordedRules) -> ReviewEvent | None:
        """List one recorded rules record (None: nothing to list, e.g. a row of no rules event)."""
        entry = self._entry(record)
        if entry is not None:
            if entry.comms is not None:
                self._waiting.append((len(self.events), record))
            self.events.append(entry)
        return entry

    def state_recorded(self, state_after: Callable[[], Any]) -> None:
        """A game state was recorded: ``state_after()`` reads it, called only when a signal or jamming
        before it still needs to know whom it reached."""
        if self._waiting:
            self._reach(self._waiting, state_after)
            self._waiting = []

    def finish(self, *, bookmarks: Iterable[Any] = (), tracker_events: Iterable[Any] = (),
               state_at: Callable[[float], Any] | None = None) -> list[ReviewEvent]:
        """Every event in time order, with the bookmarks (``t_s``, ``note``) and the tracker's listed
        events; ``state_at(t_s)`` reaches the comms no recorded state followed (a recording not written
        by a session)."""
        if state_at is not None:
            for waiting in self._waiting:
                self._reach([waiting], partial(state_at, waiting[1].t_s))
        self._waiting = []
        self.events += [bookmark_event(b.t_s, b.note) for b in bookmarks]
        self.events += [self._tracker_entry(e) for e in tracker_events if e.kind.value in LISTED_TRACKER_KINDS]
        self.events.sort(key=lambda e: e.t_s)
        return self.events

    # -- one rules event ----------------------------------------------------------------------------
    def _entry(self, record: RecordedRules) -> ReviewEvent | None:
        """One recorded rules event as the review lists it (its kind from what the ruleset says of it)."""
        event = record.event
        if event is None:
            return None
        ruleset = self.ruleset

        def ask(method: str, *args: Any) -> tuple[Any, ...]:
            try:
                return tuple(getattr(ruleset, method)(event, *args))
            except (KeyError, TypeError, ValueError, AttributeError):  # an event this rule system does not read
                return ()

        engagements = ask("engagements", self._initial)
        casualties = ask("casualties")
        emissions = ask("emissions")
        summaries = ask("action_summaries")
        sentences = ask("explain")
        kind = review_kind_of([e.outcome for e in engagements], [c.change for c in casualties],
                              [(e.change, e.purpose) for e in emissions])
        if kind is None:
            kind = "action" if summaries else "rules"
        ids = dict.fromkeys(unit_ids_of(event, self.known))
        for e in engagements:
            ids.update(dict.fromkeys(i for i in (e.attacker_id, e.target_id) if i is not None))
        ids.update(dict.fromkeys(c.unit_id for c in casualties))
        ids.update(dict.fromkeys(e.unit_id for e in emissions))
        unit_ids = tuple(i for i in ids if i in self.known)
        # the acting unit's side: a Reaction is the other side's act in this side's turn
        side = self._actor_side(engagements, emissions, event) or event.side
        card = recorded_card(record, sentences, summaries) if (event.rolls or summaries or engagements or casualties) else None
        comms = self._said_comms(record.t_s, ask("comms"), summaries[0] if summaries else event.summary)
        if comms is None and kind in ("signal", "jamming"):
            sender = next((e.by_unit if e.change == "located" else e.unit_id for e in emissions
                           if e.change in ("emits", "located")), None)
            located = tuple(e.unit_id for e in emissions if e.change == "located")
            comms = CommsLink(record.t_s, kind, sender, located, summaries[0] if summaries else event.summary)
        text = summaries[0] if summaries else event.summary
        if comms is not None:
            unit_ids += tuple(u for u in comms.to_ids if u not in unit_ids and u in self.known)
        return ReviewEvent(record.t_s, kind, text, side, unit_ids, card,
                           topics_of(self._topics, record.t_s, event.kind, unit_ids), comms)

    def _said_comms(self, t_s: float, views: tuple[Any, ...], text: str) -> CommsLink | None:
        """The comms link a ruleset that says what an event sent over the radio (``Ruleset.comms``: who a
        Signal reached, whose radios jamming cut) gives; None when it says nothing (then the ruleset's
        overlays in the state the event left tell it)."""
        view = next((v for v in views if getattr(v, "to_ids", ()) or getattr(v, "cut_names", ())), None)
        if view is None:
            return None
        by_name = {u.name: uid for uid, u in self.known.items()}
        cut = tuple(by_name[n] for n in getattr(view, "cut_names", ()) if n in by_name)
        jamming = view.kind == "jamming"
        # a Main Effort order ("command") or a SIGINT fix is comms too: the lane keeps the ruleset's kind
        return CommsLink(t_s, view.kind, view.unit_id, cut if jamming else tuple(view.to_ids), text)

    def _actor_side(self, engagements: tuple[Any, ...], emissions: tuple[Any, ...], event: Any) -> str | None:
        """The side of the unit that acted, for an event logged outside any side's turn: the attacker, the
        unit that emitted, else the acting unit its inputs name."""
        actor = next((e.attacker_id for e in engagements), None)
        actor = actor if actor is not None else next((e.unit_id for e in emissions if e.change == "emits"), None)
        if actor is None and isinstance(event.inputs.get("unit_id"), int):
            actor = event.inputs["unit_id"]
        unit = self.known.get(actor) if actor is not None else None
        return unit.side if unit is not None else None

    def _reach(self, waiting: list[tuple[int, RecordedRules]], state_after: Callable[[], Any]) -> None:
        """Who each waiting signal reached, or whose radios the jamming cut: the ruleset's own "signal" and
        "jamming" overlays (what the window draws) in the game state the signal left."""
        try:
            state = state_after()
        except (KeyError, TypeError, ValueError):
            return
        for i, _ in waiting:
            entry = self.events[i]
            link = entry.comms
            if link is None or link.from_id is None or link.to_ids:
                continue
            try:
                overlays = self.ruleset.overlays(state, link.from_id)
            except (KeyError, TypeError, ValueError, AttributeError):
                continue
            sender_side = self.known[link.from_id].side if link.from_id in self.known else None
            if link.kind == "jamming":
                reached = {u for o in overlays if o.kind == "jamming" and o.side == sender_side for u in o.unit_ids}
            else:
                reached = {u for o in overlays if o.kind == "signal" for u in o.unit_ids}
            to_ids = tuple(sorted(reached - {link.from_id}))
            new = CommsLink(link.t_s, link.kind, link.from_id, to_ids, link.text)
            self.events[i] = ReviewEvent(entry.t_s, entry.kind, entry.text, entry.side,
                                         entry.unit_ids + tuple(u for u in to_ids if u not in entry.unit_ids),
                                         entry.card, entry.topics, new)

    def _tracker_entry(self, e: Any) -> ReviewEvent:
        unit = self.known.get(e.tag_id) if e.tag_id is not None else None
        name = e.name or (unit.name if unit is not None else "")
        return ReviewEvent(e.t_s, "tracker", f"{name} {e.kind.value.replace('_', ' ')}".strip(),
                           unit.side if unit is not None else None, (e.tag_id,) if unit is not None else ())


def review_of_rows(rows: Iterable[Any], *, ruleset: Any, initial_state: Any, topics: Sequence[ReviewTopic] = (),
                   state_of_row: Callable[[int], Any] | None = None, bookmarks: Iterable[Any] = (),
                   tracker_events: Iterable[Any] = (), state_at: Callable[[float], Any] | None = None) -> list[ReviewEvent]:
    """The review's events of a recording's rules rows (``RecordingReader.iter_rules_events``' rows:
    ``t_s``, ``kind``, ``payload``, ``row_id``; game states may be left unread): ``state_of_row(row_id)``
    reads a recorded game state, asked only for the state after a signal whose reach the ruleset does
    not say; ``state_at(t_s)`` the game at a signal no recorded state follows (a recording of the rules
    alone); without them such a signal reaches nobody known."""
    builder = ReviewBuilder(ruleset, initial_state, topics)
    for row in rows:
        if row.kind.startswith(STATE_KIND_PREFIX):
            if state_of_row is not None:
                builder.state_recorded(partial(state_of_row, row.row_id))
        elif not is_bookkeeping(row.kind):
            builder.add(rules_record(row.t_s, row.kind, row.payload))
    return builder.finish(bookmarks=bookmarks, tracker_events=tracker_events, state_at=state_at)


__all__ = ["ENGAGEMENT_KINDS", "ReviewBuilder", "planned_topics", "review_of_rows"]
