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
from appmodel.recording.reader import START_STATE_KIND, recorded_setup, rules_record
from appmodel.recording.review import CommsLink, ReviewEvent, passes
from appmodel.recording.review_builder import ENGAGEMENT_KINDS, ReviewBuilder, planned_topics
from appmodel.recording.state_rows import StateRows
from appmodel.session.game_log import LogEntry
from appmodel.session.tracked_poses import replayed_poses
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
        self._read_states = StateRows()
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
        # the review's events, built as the report's are (appmodel/recording/review_builder.py)
        review = ReviewBuilder(self.session.ruleset, self._initial, planned_topics(setup.scenario))
        self._known = review.known
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
                latest = len(self._state_rows) - 1
                review.state_recorded(lambda: self._recorded_state(latest))  # called at once, if at all
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
                entry = review.add(record)
                if entry is not None and entry.kind in ENGAGEMENT_KINDS:
                    self.engagement_times.append(r.t_s)
        if progress is not None:
            progress(total_s, total_s)
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
        self.review = review.finish(bookmarks=self.bookmarks, tracker_events=tracker_events, state_at=self.state_at)
        self._review_times = [e.t_s for e in self.review]
        self.duration_s = self.reader.duration_s
        self.t_s = 0.0
        self._source: Any | None = None
        self._video_ok = self.reader.video_path is not None and self.reader.video_path.is_file()
        #: The recording's own camera video (None without one: the window shows no video pane).
        self.video_path: Path | None = self.reader.video_path if self._video_ok else None

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
        return replayed_poses(self.session.ruleset, self._recorded_state(i), self.reader.poses_at(t_s),
                              base_height_in=self.session.base_height_in)

    def _recorded_state(self, i: int) -> Any:
        """The ``i``-th recorded game state (the scenario's start before the first), read when first
        needed; a row without a state (damaged) gives the one before it."""
        while i >= 0:
            state = self._states.get(i)
            if state is not None:
                self._states.move_to_end(i)
                return state
            state = self._read_states.load(self.session.ruleset, self.reader.rules_payload_text(self._state_rows[i]))
            if state is not None:
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
