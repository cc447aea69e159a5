"""The live loop off the UI thread: frames in, poses and events out, through queues the UI polls.

:class:`LiveTracking` runs a frame source and the tracker on a named thread
(``sandtable-live-tracking``). The UI polls :meth:`LiveTracking.poll` from a timer: it gets the newest
frame and poses (older ones are dropped: the view only ever shows the latest) and *every* tracker
event (none dropped). Requests that must touch the tracker (a turn started, a unit marked lifted,
recording switched on) are queued and run on the tracking thread between two frames, so the tracker
is only ever used by one thread. A camera that stalls only makes ``poll`` return nothing new; the UI
never waits for it.

:class:`SyntheticLive` has the same ``poll`` interface for the camera-free mode: it renders the game
as the rules state has it on the synthetic table, on its own thread, whenever the units moved.
Qt-free.
"""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


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


class LiveTracking:
    """Tracking on its own thread (mutable; ``stop()`` joins it). ``realtime``: pace files and
    recordings at their own frame rate instead of as fast as possible.

    Another frame source with its own loop (the demo's story) subclasses it and overrides ``_run``,
    tracking each frame with :meth:`_track` and handing the UI what :meth:`_take` gives."""

    def __init__(self, source: Any, tracker: Any, *, realtime: bool = True, poll_timeout_s: float = 0.25,
                 thread_name: str = "sandtable-live-tracking") -> None:
        self.source = source
        self.tracker = tracker
        self.realtime = realtime
        self.poll_timeout_s = poll_timeout_s
        self._latest: tuple[np.ndarray, Any] | None = None
        self._lock = threading.Lock()
        self._events: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._commands: queue.SimpleQueue[Callable[[], Any]] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._recorder: Any | None = None
        self._record_video = False
        self._timing: tuple[float | None, float | None] = (None, None)
        self._error: str | None = None
        self._finished = False
        self.frames_processed = 0
        self._unsubscribe = tracker.bus.subscribe(self._events.put)
        self._thread = threading.Thread(target=self._run, name=thread_name, daemon=True)

    def start(self) -> "LiveTracking":
        self._thread.start()
        return self

    # -- requests from the UI thread ------------------------------------------------------------
    def start_turn(self) -> None:
        """Restart the tracker's movement accounting (a player's turn began)."""
        self._commands.put(self.tracker.start_turn)

    def mark_lifted(self, tag_id: int) -> None:
        self._commands.put(lambda: self.tracker.mark_lifted(tag_id))

    def set_recorder(self, recorder: Any | None, *, video: bool = False) -> None:
        """Record frames and tracker events to ``recorder`` from the next frame on (None: stop)."""
        def switch() -> None:
            if recorder is not None:
                recorder.attach(self.tracker.bus)
            self._recorder, self._record_video = recorder, video
        self._commands.put(switch)

    # -- the UI's poll --------------------------------------------------------------------------
    def poll(self) -> LiveUpdate:
        timing = self._timing
        frame, tracked, events = self._take()
        if tracked is None:
            timing = (None, None)
        return LiveUpdate(frame, tracked, events, self._error, self._finished, *timing)

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
        self._unsubscribe()

    # -- the tracking thread --------------------------------------------------------------------
    def _run_commands(self) -> None:
        while True:
            try:
                command = self._commands.get_nowait()
            except queue.Empty:
                return
            command()

    def _run(self) -> None:
        started = time.monotonic()
        first_t: float | None = None
        try:
            while not self._stop.is_set():
                self._run_commands()
                if self.source.is_live:
                    frame = self.source.latest_frame(self.poll_timeout_s)
                    self.tracker.source_status(self.source.connected)
                    if frame is None:
                        continue
                else:
                    frame = self.source.read()
                    if frame is None:
                        break
                    if self.realtime:
                        first_t = frame.t_s if first_t is None else first_t
                        wait = (frame.t_s - first_t) - (time.monotonic() - started)
                        if wait > 0 and self._stop.wait(wait):
                            break
                self._track(frame)
        except Exception as exc:  # shown in the status bar; the game state in the UI is kept
            self._error = f"tracking stopped: {exc}"
        finally:
            self._finished = True

    def _track(self, frame: Any) -> Any:
        """Track one frame (on the tracking thread): recorded if recording, kept as the newest."""
        started = time.monotonic()
        result = self.tracker.process(frame)
        self.frames_processed += 1
        recorder = self._recorder
        if recorder is not None:
            recorder.record_frame(result.frame_index, result.t_s, result.poses,
                                  frame.image_bgr if self._record_video else None)
        with self._lock:
            self._latest = (frame.image_bgr, result)
            done = time.monotonic()
            self._timing = (done, done - started)
        return result


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
