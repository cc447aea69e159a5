"""Replaying a recorded session: the game state, overlays and log as they were at any moment.

:class:`ReplayModel` reads a recording (``tracker.replay.RecordingReader``, docs/recording-format.md)
written while the companion ran: the tracker's poses and events, and in ``rules_events`` what the
session handed over — ``state:<why>`` rows with the full game state after every rules change, ``log``
rows with each log line as it was shown, ``view`` rows with the selection (unit, weapon, blast point),
and the rules engine's own events. :meth:`ReplayModel.apply_to` puts a :class:`~appmodel.game_session.GameSession`
in the state of time t (units where the tracker saw them then), so every view and overlay replays
exactly as it was drawn. Qt-free.
"""
from __future__ import annotations

import bisect
import math
from collections import OrderedDict
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from appmodel.errors import UsageError
from appmodel.game_session import GameSession
from appmodel.recording.attacks import RecordedAttack, attack_of
from appmodel.recording.reader import START_STATE_KIND, RecordedRules, recorded_setup, rules_record
from appmodel.recording.review import (LISTED_TRACKER_KINDS, CommsLink, ReviewEvent, bookmark_event, passes,
                                       recorded_card, review_kind_of, topics_of, unit_ids_of)
from appmodel.session.review_topics import review_topics
from appmodel.session.game_log import LogEntry
from appmodel.session.tracked_poses import set_tracked_pose, sharing_spot
from tracker.recording.schema import LOG_KIND, STATE_KIND_PREFIX, VIEW_KIND, is_bookkeeping


#: Game states kept read (a replay moves mostly forwards and back a little; each state of a long game
#: holds all its events so far: megabytes, not kilobytes; three hours of 40 units: ~700 states, 2 GB
#: as objects were they all held).
STATES_KEPT = 8


@dataclass(frozen=True)
class Moment:
    """Something to jump to on the timeline: a rules decision, a tracker event or a bookmark."""

    t_s: float
    kind: str
    text: str


class ReplayModel:
    """A recording opened for replay (``close()`` it)."""

    def __init__(self, path: str | Path, *, progress: Callable[[int, int], None] | None = None) -> None:
        """``progress(seconds read, seconds in all)`` follows the one pass over a long recording's rows."""
        from tracker.recording import open_recording

        self.path = Path(path)
        self._opened = ExitStack()
        self.reader = self._opened.enter_context(open_recording(self.path))  # a damaged file is rescued, as debrief does
        try:
            self.problems = list(self.reader.problems)
            setup = recorded_setup(self.reader.meta)
            if not setup.has_scenario:
                raise UsageError(f"recording {str(self.path)!r} holds no scenario; only recordings made with a scenario "
                                 "(sandtable gui --scenario, sandtable track --scenario) can be replayed with the rules")
            if setup.scenario_error:
                raise UsageError(f"the scenario stored in {str(self.path)!r} is damaged ({setup.scenario_error}); "
                                 "write its debrief instead (sandtable debrief)")
            self.session = GameSession.from_scenario(setup.scenario, source=setup.scenario_path or "<recording>",
                                                     base_dir=setup.base_dir)
        except BaseException:
            self._opened.close()
            raise
        self.session.scenario_path = None
        self._initial = self.session.state
        # Streamed, the full game states left unread (each holds the game's events so far: in a three-hour
        # game they are most of the file): a state is read when a moment needs it, a few kept at a time.
        records = self.reader.iter_rules_events(states_later=True)
        self._state_times: list[float] = []
        #: The recording's row of each game state: read again when a moment needs it.
        self._state_rows: list[int] = []
        self._states: OrderedDict[int, Any] = OrderedDict()
        self._events_read = _EventsRead()
        self._log: list[LogEntry] = []
        self._view_times: list[float] = []
        self._views: list[dict[str, Any]] = []
        self._starts_with_state = False
        #: When each engagement (an attack the rules resolved) happened: "next engagement" jumps
        #: past the tracker's many small events, as the HTML report's timeline does.
        self.engagement_times: list[float] = []
        #: The after-action review's events (kills, hits, signals, jamming, actions, bookmarks...) in time order.
        self.review: list[ReviewEvent] = []
        #: The attacks recorded with the odds shown before their roll (the replay's Attack dock), in time order.
        self.attacks: list[RecordedAttack] = []
        self._topics = self._planned_topics(setup.scenario)
        self._known = {u.unit_id: u for u in self.session.ruleset.units(self._initial)}
        waiting_comms: list[tuple[int, RecordedRules]] = []  # reached/cut once the state after them is read
        total_s = max(1, int(self.reader.duration_s))
        for n, r in enumerate(records):
            if progress is not None and n % 100 == 0:
                progress(min(total_s, int(r.t_s)), total_s)
            if r.kind == START_STATE_KIND and not self._state_times \
                    and self.reader.rules_payload(r.row_id).get("state") is not None:
                self._starts_with_state = True
            if r.kind.startswith(STATE_KIND_PREFIX):
                self._state_times.append(r.t_s)
                self._state_rows.append(r.row_id)
                if waiting_comms:
                    latest = len(self._state_rows) - 1
                    self._reach_comms(waiting_comms, lambda: self._recorded_state(latest))
                    waiting_comms = []
            elif r.kind == LOG_KIND:
                self._log.append(LogEntry.from_payload(r.t_s, r.payload))
            elif r.kind == VIEW_KIND:
                self._view_times.append(r.t_s)
                self._views.append(dict(r.payload))
            elif not is_bookkeeping(r.kind):
                record = rules_record(r.t_s, r.kind, r.payload)
                attack = attack_of(record)
                if attack is not None:
                    self.attacks.append(attack)
                entry = self._review_entry(record)
                if entry is not None:
                    if entry.kind in ("kill", "hit", "attack"):
                        self.engagement_times.append(r.t_s)
                    if entry.comms is not None:
                        waiting_comms.append((len(self.review), record))
                    self.review.append(entry)
        if progress is not None:
            progress(total_s, total_s)
        for waiting in waiting_comms:  # no state row after them (a recording not written by a session)
            self._reach_comms([waiting], lambda t=waiting[1].t_s: self.state_at(t))
        self.engagement_times.sort()
        self.attacks.sort(key=lambda a: a.t_s)
        self._log_times = [e.t_s for e in self._log]
        self.bookmarks = self.reader.bookmarks()
        # Bookmarks are listed from the recording's own table (with their star), not again from the log.
        moments = [Moment(e.t_s, e.kind, e.text) for e in self._log if e.kind != "bookmark"]
        tracker_events = [e for e in self.reader.events_between() if e.kind.value != "moved"]  # read once
        moments += [Moment(e.t_s, e.kind.value, f"{e.name or ''} {e.kind.value}".strip()) for e in tracker_events]
        self.moments = sorted(moments, key=lambda m: m.t_s)
        self._moment_times = [m.t_s for m in self.moments]
        self.review += [bookmark_event(b.t_s, b.note) for b in self.bookmarks]
        self.review += [self._tracker_entry(e) for e in tracker_events if e.kind.value in LISTED_TRACKER_KINDS]
        self.review.sort(key=lambda e: e.t_s)
        self._review_times = [e.t_s for e in self.review]
        self.duration_s = self.reader.duration_s
        self.t_s = 0.0
        self._source: Any | None = None
        self._video_ok = self.reader.video_path is not None and self.reader.video_path.is_file()
        #: The recording's own camera video (None without one: the window shows no video pane).
        self.video_path: Path | None = self.reader.video_path if self._video_ok else None

    # -- the after-action review's events ---------------------------------------------------------
    def _planned_topics(self, scenario: Any) -> tuple[Any, ...]:
        try:
            return review_topics(scenario)
        except UsageError:  # a damaged topic list: the replay shows the rest, as the debrief does
            return ()

    def _review_entry(self, record: RecordedRules) -> ReviewEvent | None:
        """One recorded rules event as the review lists it (its kind from what the ruleset says of it)."""
        event = record.event
        if event is None:
            return None
        ruleset = self.session.ruleset

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
        ids = dict.fromkeys(unit_ids_of(event, self._known))
        for e in engagements:
            ids.update(dict.fromkeys(i for i in (e.attacker_id, e.target_id) if i is not None))
        ids.update(dict.fromkeys(c.unit_id for c in casualties))
        ids.update(dict.fromkeys(e.unit_id for e in emissions))
        unit_ids = tuple(i for i in ids if i in self._known)
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
            unit_ids += tuple(u for u in comms.to_ids if u not in unit_ids and u in self._known)
        return ReviewEvent(record.t_s, kind, text, side, unit_ids, card,
                           topics_of(self._topics, record.t_s, event.kind, unit_ids), comms)

    def _said_comms(self, t_s: float, views: tuple[Any, ...], text: str) -> CommsLink | None:
        """The comms link a ruleset that says what an event sent over the radio (``Ruleset.comms``: who a
        Signal reached, whose radios jamming cut) gives; None when it says nothing (then the ruleset's
        overlays in the state the event left tell it)."""
        view = next((v for v in views if getattr(v, "to_ids", ()) or getattr(v, "cut_names", ())), None)
        if view is None:
            return None
        by_name = {u.name: uid for uid, u in self._known.items()}
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
        unit = self._known.get(actor) if actor is not None else None
        return unit.side if unit is not None else None

    def _reach_comms(self, waiting: list[tuple[int, RecordedRules]], state_after: Callable[[], Any]) -> None:
        """Who each waiting signal reached, or whose radios the jamming cut: the ruleset's own "signal" and
        "jamming" overlays (what the window draws) in the game state the signal left."""
        ruleset = self.session.ruleset
        try:
            state = state_after()
        except (KeyError, TypeError, ValueError):
            return
        for i, _ in waiting:
            entry = self.review[i]
            link = entry.comms
            if link is None or link.from_id is None or link.to_ids:
                continue
            try:
                overlays = ruleset.overlays(state, link.from_id)
            except (KeyError, TypeError, ValueError, AttributeError):
                continue
            sender_side = self._known[link.from_id].side if link.from_id in self._known else None
            if link.kind == "jamming":
                reached = {u for o in overlays if o.kind == "jamming" and o.side == sender_side for u in o.unit_ids}
            else:
                reached = {u for o in overlays if o.kind == "signal" for u in o.unit_ids}
            to_ids = tuple(sorted(reached - {link.from_id}))
            new = CommsLink(link.t_s, link.kind, link.from_id, to_ids, link.text)
            self.review[i] = ReviewEvent(entry.t_s, entry.kind, entry.text, entry.side,
                                         entry.unit_ids + tuple(u for u in to_ids if u not in entry.unit_ids),
                                         entry.card, entry.topics, new)

    def _tracker_entry(self, e: Any) -> ReviewEvent:
        unit = self._known.get(e.tag_id) if e.tag_id is not None else None
        name = e.name or (unit.name if unit is not None else "")
        return ReviewEvent(e.t_s, "tracker", f"{name} {e.kind.value.replace('_', ' ')}".strip(),
                           unit.side if unit is not None else None, (e.tag_id,) if unit is not None else ())

    @property
    def comms(self) -> list[CommsLink]:
        """The comms lane: every signal, order, SIGINT fix and jamming, in time order."""
        return [e.comms for e in self.review if e.comms is not None]

    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(u.side for u in self._known.values() if u.side))

    def unit_name(self, unit_id: int) -> str:
        u = self._known.get(unit_id)
        return u.name if u is not None else f"tag {unit_id}"

    def next_review_after(self, t_s: float, **filters: Any) -> ReviewEvent | None:
        """The first review event after ``t_s`` that passes ``filters`` (:func:`appmodel.recording.review.passes`)."""
        i = bisect.bisect_right(self._review_times, t_s + 1e-6)
        return next((e for e in self.review[i:] if passes(e, **filters)), None)

    def previous_review_before(self, t_s: float, **filters: Any) -> ReviewEvent | None:
        i = bisect.bisect_left(self._review_times, t_s - 1e-6)
        return next((e for e in reversed(self.review[:i]) if passes(e, **filters)), None)

    def review_between(self, t0_s: float, t1_s: float, **filters: Any) -> list[ReviewEvent]:
        """The review events with ``t0_s < t_s <= t1_s`` that pass ``filters`` (what a tick of playback crossed)."""
        lo = bisect.bisect_right(self._review_times, t0_s + 1e-9)
        hi = bisect.bisect_right(self._review_times, t1_s + 1e-9)
        return [e for e in self.review[lo:hi] if passes(e, **filters)]

    def next_engagement_after(self, t_s: float) -> float | None:
        """The time of the next engagement after ``t_s`` (None after the last)."""
        i = bisect.bisect_right(self.engagement_times, t_s + 1e-6)
        return self.engagement_times[i] if i < len(self.engagement_times) else None

    def previous_engagement_before(self, t_s: float) -> float | None:
        i = bisect.bisect_left(self.engagement_times, t_s - 1e-6) - 1
        return self.engagement_times[i] if i >= 0 else None

    # -- what was, at time t ------------------------------------------------------------------------
    def state_at(self, t_s: float) -> Any:
        """The game state at ``t_s``: the last recorded rules state, units moved to their tracked poses."""
        i = bisect.bisect_right(self._state_times, t_s) - 1
        if i < 0 and self._starts_with_state:
            # The recording opens with the game as it stood when recording began (``state:start``,
            # written before any other row): time 0 shows that game, not the scenario's first turn.
            i = 0
        state = self._recorded_state(i)
        ruleset = self.session.ruleset
        known = {u.unit_id: u for u in ruleset.units(state)}
        poses = self.reader.poses_at(t_s)
        tagged = {p.tag_id for p in poses}  # these have tags of their own: none rides on another's token
        for pose in poses:
            u = known.get(pose.tag_id)
            if u is None or pose.x_in is None:
                continue
            on_table = pose.state.value != "lifted"
            if abs(u.x_in - pose.x_in) > 1e-3 or abs(u.y_in - pose.y_in) > 1e-3 or abs(u.heading_deg - pose.heading_deg) > 1e-3 \
                    or u.on_table != on_table:
                # moved_in=0: where the unit stood is replayed, its movement was already accounted live
                alone = any(uid in tagged for uid in sharing_spot(known, u))
                state = set_tracked_pose(ruleset, state, pose, moved_in=0.0, on_table=on_table, alone=alone,
                                         base_height_in=self.session.base_height_in(pose.tag_id))
        return state

    def _recorded_state(self, i: int) -> Any:
        """The ``i``-th recorded game state (the scenario's start before the first), read when first
        needed; a row without a state (damaged) gives the one before it."""
        while i >= 0:
            state = self._states.get(i)
            if state is not None:
                self._states.move_to_end(i)
                return state
            data = self.reader.rules_payload(self._state_rows[i]).get("state")
            if data is not None:
                state = self._events_read.load(self.session.ruleset, data)
                self._states[i] = state
                while len(self._states) > STATES_KEPT:
                    self._states.popitem(last=False)
                return state
            i -= 1
        return self._initial

    def log_at(self, t_s: float) -> list[LogEntry]:
        return self._log[: bisect.bisect_right(self._log_times, t_s)]

    def view_at(self, t_s: float) -> dict[str, Any]:
        i = bisect.bisect_right(self._view_times, t_s) - 1
        return self._views[i] if i >= 0 else {}

    def change_times(self) -> list[float]:
        """Every time what the replay shows changes other than by units moving: a game state, a log
        line, the selection, a tracker event or a bookmark (the timeline samples these)."""
        return sorted({*self._state_times, *self._log_times, *self._view_times, *self._moment_times,
                       *(b.t_s for b in self.bookmarks)})

    def next_moment_after(self, t_s: float) -> Moment | None:
        i = bisect.bisect_right(self._moment_times, t_s + 1e-6)
        return self.moments[i] if i < len(self.moments) else None

    def previous_moment_before(self, t_s: float) -> Moment | None:
        i = bisect.bisect_left(self._moment_times, t_s - 1e-6) - 1
        return self.moments[i] if i >= 0 else None

    def frame_at(self, t_s: float) -> np.ndarray | None:
        """The recorded camera frame at ``t_s`` (None without a video)."""
        if not self._video_ok:
            return None
        if self._source is None:
            from tracker.replay import ReplaySource

            self._source = ReplaySource(self.path)
        self._source.seek(t_s)
        frame = self._source.read()
        return None if frame is None else frame.image_bgr

    def seek(self, t_s: float) -> None:
        """Show time ``t_s``: state, log and selection as they were."""
        t = float(min(max(0.0, t_s), self.duration_s)) if math.isfinite(t_s) else 0.0
        self.t_s = t
        s = self.session
        s.set_time(t)
        s.set_state(self.state_at(t))
        s.set_log(self.log_at(t))
        view = self.view_at(t)
        blast = view.get("blast_point")
        s.restore_view(view.get("selected_unit"), view.get("selected_weapon"), tuple(blast) if blast else None)

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
        self._opened.close()


class _EventsRead:
    """The events of the last game state read, to read only what the next one adds: a recorded state
    holds the game's events so far, so reading the states of a long game one after another rebuilt
    every earlier event again at each (in three hours of play, most of the debrief's time). A state
    whose events do not begin with the same recorded events is read whole."""

    def __init__(self) -> None:
        self._raw: list[Any] = []
        self._events: tuple[Any, ...] = ()

    def load(self, ruleset: Any, data: Any) -> Any:
        import dataclasses

        raw = data.get("events") if isinstance(data, dict) else None
        k = len(self._raw)
        # The history only grows between recorded states, unless an undo rewrote it: a rewrite changes
        # the last events it reaches, so the last few known ones are compared (comparing them all
        # costs as much as reading them).
        if not isinstance(raw, list) or not k or len(raw) < k or raw[max(0, k - 4):k] != self._raw[-4:]:
            state = ruleset.load_state(data)
        else:
            # Only the new events are rebuilt as typed values.
            added = ruleset.load_state({**data, "events": raw[k:]})
            state = dataclasses.replace(added, events=self._events + tuple(added.events))
        if isinstance(raw, list):
            self._raw, self._events = raw, tuple(state.events)
        return state

