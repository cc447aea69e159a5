"""The window's side of the tracking loop: frames, poses and events handed to the UI through a poll.

:class:`LiveTracking` runs the one tracking loop (``tracker.tracking_loop.TrackingLoop``, the same loop
``sandtable track`` runs) on a named thread (``sandtable-live-tracking``) and is one of its subscribers:
the one that carries the stream to the UI thread, where the game session takes the poses into the
rules and the tracking status counts them. The recorder and TUIO are subscribers of the same loop
(:meth:`LiveTracking.set_recorder`, ``loop.subscribe``). The UI polls :meth:`LiveTracking.poll` from a
timer: it gets the newest frame and poses (older ones are dropped: the view only ever shows the latest)
and *every* tracker event (none dropped). Requests that must touch the tracker (a turn started, a unit
marked lifted, recording switched on) are queued and run on the tracking thread between two rounds, so
the tracker is only ever used by one thread. A camera that stalls only makes ``poll`` return nothing
new; the UI never waits for it. With several cameras the window shows ``shown_camera``'s picture (the
first camera's unless chosen) and the tracking status gets every camera's part of the round.

:class:`SyntheticLive` has the same ``poll`` interface for the camera-free mode: it renders the game
as the rules state has it on the synthetic table, on its own thread, whenever the units moved.
Qt-free.
"""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from appmodel.tracking.frame_gate import LIVE_FRAMES
from tracker.tracking_loop import LoopSubscriber, RecorderFeed, TrackedRound, TrackingLoop


@dataclass(frozen=True)
class LiveUpdate:
    """What :meth:`LiveTracking.poll` hands the UI: the newest frame and poses (None if nothing new)
    and the events since the last poll."""

    frame_bgr: np.ndarray | None
    tracked: Any | None
    events: tuple[Any, ...]
    error: str | None = None
    finished: bool = False
    #: When the newest result was ready (time.monotonic) and how long tracking its frame took: the
    #: window's tracking status shows the delay from frame to screen.
    ready_at: float | None = None
    tracked_in_s: float | None = None
    #: The cameras (and camera nodes) lost now, the tries to reopen each since, and each camera
    #: node's skipped bad messages: what the Tracking panel and the status strip say of the feed.
    lost_cameras: tuple[str, ...] = ()
    reconnect_attempts: Mapping[str, int] = field(default_factory=dict)
    bad_messages: Mapping[str, int] = field(default_factory=dict)


class LiveTracking(LoopSubscriber):
    """Tracking on its own thread (mutable; ``stop()`` joins it). ``realtime``: pace files and
    recordings at their own frame rate instead of as fast as possible.

    ``source``: one frame source, or a mapping of camera names to sources with a
    ``MultiCameraTracker`` (``receiver``: its camera nodes). Another frame source with its own loop
    (the demo's story) subclasses it and overrides ``_run``, tracking each frame with :meth:`_track`
    and handing the UI what :meth:`_take` gives."""

    #: Whether a recording can keep this feed's camera picture (``set_recorder(..., video=True)``).
    records_video = True

    def __init__(self, source: Any, tracker: Any, *, realtime: bool = True, poll_timeout_s: float = 0.25,
                 thread_name: str = "sandtable-live-tracking", receiver: Any | None = None,
                 shown_camera: str | None = None, owns_source: bool = False) -> None:
        self.source = source
        #: ``stop()`` also closes the sources and the tracker (the window opened them and nobody else closes them).
        self.owns_source = owns_source
        self._closed = False
        self.tracker = tracker
        self.realtime = realtime
        self.poll_timeout_s = poll_timeout_s
        self.loop = TrackingLoop(tracker, source, receiver=receiver, realtime=realtime, poll_timeout_s=poll_timeout_s)
        self.loop.on_round_start = LIVE_FRAMES.frame_started  # the UI says when it is shown (frame_gate)
        self.shown_camera = shown_camera
        self._latest: tuple[np.ndarray | None, Any] | None = None
        self._lock = threading.Lock()
        self._events: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._recorder_feed: RecorderFeed | None = None
        self._unsubscribe_recorder: Callable[[], None] | None = None
        self._timing: tuple[float | None, float | None] = (None, None)
        self._error: str | None = None
        self._finished = False
        #: Called on the tracking thread whenever a new result is there to poll (the window wakes its
        #: poll with it instead of waiting for its timer's next tick); it must only hand over, fast.
        self.on_ready: Callable[[], None] | None = None
        self._unsubscribe = self.loop.subscribe(self)
        self._thread = threading.Thread(target=self._run, name=thread_name, daemon=True)

    @property
    def end_words(self) -> str:
        """What the window says when this feed comes to its end ("" for a camera: a camera that stops
        sending is a fault, shown as a stalled feed)."""
        sources = self.source.values() if isinstance(self.source, dict) else [self.source]
        if any(getattr(s, "is_live", True) for s in sources):
            return ""
        names = [str(getattr(s, "name", "") or getattr(s, "path", "") or "") for s in sources]
        from pathlib import Path

        shown = ", ".join(Path(n).name for n in names if n)
        return f"The clip {shown} has ended" if shown else "The clip has ended"

    def start(self) -> "LiveTracking":
        self._thread.start()
        return self

    @property
    def frames_processed(self) -> int:
        return self.loop.frames_processed

    @property
    def camera_names(self) -> tuple[str, ...]:
        """The cameras of this session (one name for a single camera)."""
        names = getattr(self.tracker, "camera_names", None)
        return tuple(names) if names is not None else tuple(self.loop.sources) or ("camera",)

    # -- requests from the UI thread ------------------------------------------------------------
    def start_turn(self) -> None:
        """Restart the tracker's movement accounting (a player's turn began)."""
        self.loop.call_soon(self.tracker.start_turn)

    def mark_lifted(self, tag_id: int) -> None:
        self.loop.call_soon(lambda: self.tracker.mark_lifted(tag_id))

    def set_recorder(self, recorder: Any | None, *, video: bool = False) -> None:
        """Record rounds and tracker events to ``recorder`` from the next round on (None: stop);
        ``video`` keeps the shown camera's picture."""
        def switch() -> None:
            if self._unsubscribe_recorder is not None:
                self._unsubscribe_recorder()
                self._unsubscribe_recorder, self._recorder_feed = None, None
            if recorder is not None:
                camera = (self.shown_camera or self.camera_names[0]) if video else None
                self._recorder_feed = RecorderFeed(recorder, video_camera=camera)
                self._unsubscribe_recorder = self.loop.subscribe(self._recorder_feed)
        self.loop.call_soon(switch)

    # -- the loop's stream (on the tracking thread) ---------------------------------------------
    def on_event(self, event: Any) -> None:
        self._events.put(event)

    def on_frame(self, tracked_round: TrackedRound) -> None:
        LIVE_FRAMES.frame_ready()
        image = tracked_round.image(self.shown_camera)
        with self._lock:
            if image is None and self._latest is not None:
                image = self._latest[0]  # this round had no picture of the shown camera: keep the last one
            self._latest = (image, tracked_round.tracked)
            done = time.monotonic()
            self._timing = (done, tracked_round.tracked_in_s)
        ready = self.on_ready
        if ready is not None:
            ready()

    # -- the UI's poll --------------------------------------------------------------------------
    def poll(self) -> LiveUpdate:
        timing = self._timing
        frame, tracked, events = self._take()
        if tracked is None:
            timing = (None, None)
        attempts = {name: int(getattr(source, "reopen_attempts", 0) or 0) for name, source in self.loop.sources.items()}
        receiver = self.loop.receiver
        bad = dict(receiver.bad_messages) if receiver is not None else {}
        return LiveUpdate(frame, tracked, events, self._error, self._finished, *timing,
                          lost_cameras=self.loop.lost_cameras(), reconnect_attempts=attempts, bad_messages=bad)

    def _take(self) -> tuple[np.ndarray | None, Any | None, tuple[Any, ...]]:
        """The newest frame and tracking result (None if nothing new) and every event since last time."""
        with self._lock:
            latest, self._latest = self._latest, None
        events = []
        while True:
            try:
                events.append(self._events.get_nowait())
            except queue.Empty:
                break
        frame, tracked = latest if latest is not None else (None, None)
        return frame, tracked, tuple(events)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)
        LIVE_FRAMES.release()  # no frame of this feed is on its way any more
        self._unsubscribe()
        self.loop.close()
        if self.owns_source and not self._closed:
            # Before the application ends: a camera's capture thread still reading (a stalled stream,
            # one being reopened) while the process exits can crash it. close() joins it.
            self._closed = True
            for source in self.loop.sources.values():
                source.close()
            if self._thread.is_alive():
                self._thread.join(timeout_s)  # the loop was waiting on a source closed just now
            if not self._thread.is_alive():
                self.tracker.close()

    # -- the tracking thread --------------------------------------------------------------------
    def _run_commands(self) -> None:
        self.loop.run_calls()

    def _run(self) -> None:
        try:
            self.loop.run(stop=self._stop)
        except Exception as exc:  # shown in the status bar; the game state in the UI is kept
            self._error = f"tracking stopped: {exc}"
        finally:
            self._finished = True

    def _track(self, frame: Any) -> Any:
        """Track one frame of the one camera (on the tracking thread): handed to every subscriber
        (recorded if recording, kept as the newest for the UI)."""
        return self.loop.track_frame(frame).tracked


class SyntheticLive:
    """The camera-free feed: renders the units where the rules state has them, on its own thread."""

    def __init__(self, feed: Any) -> None:
        self.feed = feed
        self._wanted: Sequence[Any] | None = None
        self._latest: np.ndarray | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sandtable-synthetic-feed", daemon=True)

    def start(self) -> "SyntheticLive":
        self._thread.start()
        return self

    def show(self, units: Sequence[Any]) -> None:
        """Render these units next (the newest request wins)."""
        with self._lock:
            self._wanted = tuple(units)
        self._wake.set()

    def poll(self) -> LiveUpdate:
        with self._lock:
            frame, self._latest = self._latest, None
        return LiveUpdate(frame, None, ())

    def render_now(self, units: Sequence[Any]) -> np.ndarray:
        """Render on the calling thread (screenshots, tests)."""
        return self.feed.render(units)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            with self._lock:
                units, self._wanted = self._wanted, None
            if units is None:
                continue
            frame = self.feed.render(units)
            with self._lock:
                self._latest = frame

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)
