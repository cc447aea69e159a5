"""The one tracking loop: frames of one camera or several in, one stream of tracked rounds and events out.

Every front end tracks through :class:`TrackingLoop`: ``sandtable track`` runs it on its own thread
until the footage ends or Ctrl+C; the window runs it on a tracking thread (``appmodel.tracking.live_tracking``
hands its results to the UI); ``sandtable run`` adds TUIO and the recorder to it. What differs between
them is only who listens. Listeners are :class:`LoopSubscriber` objects and get, in this order for each
round, every tracker event that round caused (``on_event``) and then the round itself (``on_frame``):
the recorder (:class:`RecorderFeed`), TUIO output (:class:`TuioFeed`), the window's hand-over to the UI
thread (where the game session takes the poses into the rules and the tracking status counts them),
the command line's printers. Events that happen between rounds (a turn started, a unit marked lifted,
a camera dropping out) reach the same listeners the same way.

Sources: one camera's tracker (``tracker.pipeline.Tracker``) takes one frame source; several cameras'
(``tracker.multi_camera.MultiCameraTracker``) take a frame source per local camera and a
``tracker.camera_node.DetectionReceiver`` for cameras on other computers. Files are read frame by
frame, none skipped (in lockstep when there are several, until the last one ends), as fast as possible
or, with ``realtime``, at their own pace; live cameras are polled for their newest frame, so a camera
dropping out is noticed (``source_lost``, with its name when there are several), the game state is
kept, and tracking resumes when it is back (``source_back``). A camera node not heard from for
``node_timeout_s`` is reported lost the same way. Each try to open a lost camera again reaches the
subscribers as a :class:`SourceRetry` (``on_retry``), so the user sees a count; ``run(give_up_after_s=S)``
ends after S seconds in which no camera delivered anything while one is lost, and says why in
:attr:`TrackingLoop.gave_up` (what was tracked until then has been handed out, so it is kept).

Requests that must touch the tracker from another thread (a turn started, a unit lifted, recording
switched on) are queued with :meth:`TrackingLoop.call_soon` and run between two rounds, so the tracker
is only ever used by one thread.
"""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tracker.events import TrackerEvent
from tracker.frames import Frame

#: A camera node not heard from for this long is reported lost.
NODE_TIMEOUT_S = 2.0
#: The name of the one camera when a session has only one.
ONE_CAMERA = "camera"


@dataclass(frozen=True, eq=False)
class TrackedRound:
    """One round of the loop: what the tracker made of it and each local camera's picture.

    ``tracked`` is a ``tracker.pipeline.TrackedFrame`` (one camera) or a
    ``tracker.multi_camera.MultiTrackedFrame`` (several): both have ``frame_index``, ``t_s``, ``poses``,
    ``events`` and ``to_json()``. ``images_bgr`` maps camera names to the pictures tracked this round
    (cameras on other computers send no picture). ``tracked_in_s``: how long tracking the round took.
    """

    tracked: Any
    images_bgr: Mapping[str, np.ndarray] = field(default_factory=dict)
    tracked_in_s: float = 0.0

    @property
    def frame_index(self) -> int:
        return int(self.tracked.frame_index)

    @property
    def t_s(self) -> float:
        return float(self.tracked.t_s)

    @property
    def poses(self) -> tuple[Any, ...]:
        return tuple(self.tracked.poses)

    @property
    def frame_size_px(self) -> tuple[int, int] | None:
        """The one camera's picture size (what uncalibrated TUIO normalises by); None with several."""
        detections = getattr(self.tracked, "detections", None)
        size = getattr(detections, "frame_size_px", None)
        return tuple(size) if size is not None else None

    def image(self, camera: str | None = None) -> np.ndarray | None:
        """The picture of ``camera`` this round (None: the first camera that delivered one)."""
        if camera is not None:
            return self.images_bgr.get(camera)
        return next(iter(self.images_bgr.values()), None)


@dataclass(frozen=True)
class SourceRetry:
    """A lost live camera being opened again: its ``attempt``-th try since it was lost, ``outage_s``
    into the outage, at ``t_s`` on its frames' clock."""

    camera: str
    attempt: int
    t_s: float
    outage_s: float

    def to_json(self) -> dict[str, Any]:
        return {"type": "source_retry", "camera": self.camera, "attempt": self.attempt,
                "t_s": round(self.t_s, 3), "outage_s": round(self.outage_s, 3)}


@dataclass(frozen=True)
class GaveUp:
    """Why :meth:`TrackingLoop.run` stopped waiting: ``cameras`` lost, nothing delivered for ``waited_s``."""

    cameras: tuple[str, ...]
    waited_s: float
    attempts: int
    t_s: float

    def message(self) -> str:
        which = ", ".join(self.cameras) or "every camera"
        return (f"gave up: no frame from {which} for {self.waited_s:.1f} s ({self.attempts} reconnect attempt"
                f"{'' if self.attempts == 1 else 's'}); check that the stream is running")

    def to_json(self) -> dict[str, Any]:
        return {"type": "gave_up", "cameras": list(self.cameras), "waited_s": round(self.waited_s, 3),
                "attempts": self.attempts, "t_s": round(self.t_s, 3)}


class LoopSubscriber:
    """A listener of the loop's stream; override what it needs. All are called on the tracking thread."""

    def on_retry(self, retry: SourceRetry) -> None:
        """A lost live camera is being opened again (one call per try)."""

    def on_event(self, event: TrackerEvent) -> None:
        """A tracker event (published before the round that caused it is handed out)."""

    def on_frame(self, tracked_round: TrackedRound) -> None:
        """A tracked round."""


class Listener(LoopSubscriber):
    """A subscriber made of plain functions (the command line's printers, tests)."""

    def __init__(self, on_frame: Callable[[TrackedRound], None] | None = None,
                 on_event: Callable[[TrackerEvent], None] | None = None,
                 on_retry: Callable[[SourceRetry], None] | None = None) -> None:
        self._on_frame = on_frame
        self._on_event = on_event
        self._on_retry = on_retry

    def on_retry(self, retry: SourceRetry) -> None:
        if self._on_retry is not None:
            self._on_retry(retry)

    def on_event(self, event: TrackerEvent) -> None:
        if self._on_event is not None:
            self._on_event(event)

    def on_frame(self, tracked_round: TrackedRound) -> None:
        if self._on_frame is not None:
            self._on_frame(tracked_round)


class RecorderFeed(LoopSubscriber):
    """Records every event and every round's changed poses to a ``tracker.recording.Recorder``.

    ``video_camera``: also keep that camera's picture in the recording's video (the recorder must have
    been opened with ``video=True``); None keeps none. A recorder closed meanwhile (the window stopped
    recording between two rounds) is left alone: a stopped recording takes nothing more.
    """

    def __init__(self, recorder: Any, *, video_camera: str | None = None) -> None:
        self.recorder = recorder
        self.video_camera = video_camera

    def _open(self) -> bool:
        return not getattr(self.recorder, "closed", False)

    def on_event(self, event: TrackerEvent) -> None:
        if self._open():
            self.recorder.record_event(event)

    def on_frame(self, tracked_round: TrackedRound) -> None:
        if not self._open():
            return
        image = None
        if self.video_camera is not None:
            image = tracked_round.images_bgr.get(self.video_camera)
        self.recorder.record_frame(tracked_round.frame_index, tracked_round.t_s, tracked_round.poses, image)


class TuioFeed(LoopSubscriber):
    """Sends every round's units as TUIO 1.1 (``tracker.tuio.TuioSender``)."""

    def __init__(self, sender: Any) -> None:
        self.sender = sender

    def on_frame(self, tracked_round: TrackedRound) -> None:
        self.sender.send(tracked_round.poses, t_s=tracked_round.t_s, frame_size_px=tracked_round.frame_size_px)


class _End:
    """The sources are all over (files end; live cameras never do)."""


_END = _End()


class TrackingLoop:
    """Runs ``tracker`` over its sources and hands every round and event to the subscribers (mutable).

    ``sources``: one frame source, or a mapping of camera names to frame sources (one entry for a
    ``Tracker``; one per local camera for a ``MultiCameraTracker``). ``receiver``: detections of camera
    nodes (several cameras only). ``realtime``: pace files at their own frame rate. The loop runs on
    the thread that calls :meth:`run` (or, one frame at a time, :meth:`track`); ``close()`` detaches it
    from the tracker's events.
    """

    def __init__(self, tracker: Any, sources: Any = None, *, receiver: Any | None = None, realtime: bool = False,
                 poll_timeout_s: float = 0.5, node_timeout_s: float = NODE_TIMEOUT_S) -> None:
        self.tracker = tracker
        self.several = hasattr(tracker, "camera_names")
        if sources is None:
            sources = {}
        elif not isinstance(sources, Mapping):
            sources = {ONE_CAMERA if not self.several else tracker.camera_names[0]: sources}
        self.sources: dict[str, Any] = dict(sources)
        if not self.several and len(self.sources) > 1:
            raise ValueError("one camera's tracker takes one source; several cameras need a MultiCameraTracker")
        if receiver is not None and not self.several:
            raise ValueError("camera nodes need a MultiCameraTracker")
        self.receiver = receiver
        self.realtime = realtime
        self.poll_timeout_s = float(poll_timeout_s)
        self.node_timeout_s = float(node_timeout_s)
        self.frames_processed = 0
        #: Called on the loop's thread when a round's frames are in hand, before they are tracked (the
        #: window's live feed: its views' workers give the frame the interpreter until it is painted).
        self.on_round_start: Callable[[], None] | None = None
        self._subscribers: tuple[LoopSubscriber, ...] = ()
        self._subscribe_lock = threading.Lock()
        self._calls: queue.SimpleQueue[Callable[[], Any]] = queue.SimpleQueue()
        self._ended: set[str] = set()
        self._started = time.monotonic()
        self._pace_start: tuple[float, float] | None = None  # (first frame's t_s, monotonic then)
        self._stop: threading.Event | None = None
        self._attempts_told: dict[str, int] = {}  # each lost camera's reopen attempts already handed out
        #: Set when :meth:`run` gave up on lost cameras (``give_up_after_s``); None otherwise.
        self.gave_up: GaveUp | None = None
        self._unsubscribe_bus = tracker.bus.subscribe(self._publish_event)

    # -- subscribers --------------------------------------------------------------------------------
    def subscribe(self, subscriber: LoopSubscriber) -> Callable[[], None]:
        """Add a listener (from any thread; it gets the stream from the next event on); returns the
        function that removes it again."""
        with self._subscribe_lock:
            self._subscribers = self._subscribers + (subscriber,)

        def unsubscribe() -> None:
            with self._subscribe_lock:
                self._subscribers = tuple(s for s in self._subscribers if s is not subscriber)

        return unsubscribe

    @property
    def subscribers(self) -> tuple[LoopSubscriber, ...]:
        return self._subscribers

    def _publish_event(self, event: TrackerEvent) -> None:
        for subscriber in self._subscribers:
            subscriber.on_event(event)

    # -- requests from other threads -----------------------------------------------------------------
    def call_soon(self, function: Callable[[], Any]) -> None:
        """Run ``function`` on the tracking thread before the next round (it may use the tracker)."""
        self._calls.put(function)

    def run_calls(self) -> None:
        while True:
            try:
                function = self._calls.get_nowait()
            except queue.Empty:
                return
            function()

    # -- running ------------------------------------------------------------------------------------
    def run(self, *, stop: threading.Event | None = None, max_frames: int | None = None,
            give_up_after_s: float | None = None) -> int:
        """Track until every source has ended, ``stop`` is set, ``max_frames`` rounds were tracked or,
        with ``give_up_after_s``, nothing came for that long while a camera is lost (:attr:`gave_up`
        says so); returns the number of rounds tracked by this call."""
        self._stop = stop
        done = 0
        last_round_at = time.monotonic()
        while stop is None or not stop.is_set():
            self.run_calls()
            if max_frames is not None and done >= max_frames:
                break
            result = self.step()
            if result is _END:
                break
            if result is not None:
                done += 1
                last_round_at = time.monotonic()
            elif give_up_after_s is not None:
                waited = time.monotonic() - last_round_at
                lost = self.lost_cameras()
                if waited >= give_up_after_s and lost:
                    attempts = sum(int(getattr(self.sources.get(n), "reopen_attempts", 0) or 0) for n in lost)
                    self.gave_up = GaveUp(lost, waited, attempts, time.monotonic() - self._started)
                    break
        return done

    def lost_cameras(self) -> tuple[str, ...]:
        """The live cameras and camera nodes not delivering now."""
        lost = [name for name, source in self.sources.items() if source.is_live and not source.connected]
        if self.receiver is not None:
            now = time.monotonic()
            for name in self.tracker.camera_names:
                if name not in self.sources and now - self.receiver.last_heard_s.get(name, self._started) >= self.node_timeout_s:
                    lost.append(name)
        return tuple(lost)

    def _watch_retries(self, name: str, source: Any) -> None:
        """Hand out each new try to reopen a lost camera (a count the user sees)."""
        attempts = int(getattr(source, "reopen_attempts", 0) or 0)
        told = self._attempts_told.get(name, 0)
        if attempts < told:  # it delivered again: a new outage counts from 1
            self._attempts_told[name] = told = 0
        if attempts > told:
            self._attempts_told[name] = attempts
            t_s = getattr(source, "now_t_s", time.monotonic() - self._started)
            retry = SourceRetry(name, attempts, float(t_s), float(getattr(source, "outage_s", 0.0)))
            for subscriber in self._subscribers:
                subscriber.on_retry(retry)

    def step(self) -> Any:
        """One round: the :class:`TrackedRound` handed out, None when no camera had anything new (a live
        camera waited for), or the end marker when every source has ended."""
        if self.several:
            return self._step_several()
        name, source = next(iter(self.sources.items()))
        if source.is_live:
            frame = source.latest_frame(self.poll_timeout_s)
            # source_lost / source_back on a change only, each at the time it is noticed (not the last frame's)
            self.tracker.source_status(source.connected, t_s=getattr(source, "now_t_s", None))
            self._watch_retries(name, source)
            if frame is None:
                return None
        else:
            frame = source.read()
            if frame is None:
                return _END
            if not self._pace(frame.t_s):
                return _END
        return self.track({name: frame})

    @staticmethod
    def ended(result: Any) -> bool:
        """Whether :meth:`step`'s result says every source has ended."""
        return result is _END

    def track(self, frames: Mapping[str, Any], detections: Mapping[str, Any] | None = None,
              *, t_s: float | None = None) -> TrackedRound:
        """Track one round from frames in hand (the frame a camera check already read, the demo's
        story) and hand it to the subscribers; with several cameras ``detections`` adds camera nodes'
        batches (a round of batches only needs ``t_s``)."""
        started = time.monotonic()
        if self.on_round_start is not None:
            self.on_round_start()
        if self.several:
            if frames:
                tracked = self.tracker.process(frames, detections=detections or None)
            else:
                tracked = self.tracker.process_detections(detections or {}, t_s=float(t_s or 0.0))
        else:
            (frame,) = frames.values()
            tracked = self.tracker.process(frame)
        images = {name: f.image_bgr for name, f in frames.items() if f is not None}
        tracked_round = TrackedRound(tracked, images, time.monotonic() - started)
        self.frames_processed += 1
        for subscriber in self._subscribers:
            subscriber.on_frame(tracked_round)
        return tracked_round

    def track_frame(self, frame: Any) -> TrackedRound:
        """One camera's frame (:meth:`track` for a one-camera session)."""
        name = next(iter(self.sources), ONE_CAMERA)
        return self.track({name: frame})

    def close(self) -> None:
        self._unsubscribe_bus()

    # -- several cameras ----------------------------------------------------------------------------
    def _step_several(self) -> Any:
        frames: dict[str, Frame] = {}
        for name, source in self.sources.items():
            if name in self._ended:
                continue
            if source.is_live:
                frame = source.latest_frame(self.poll_timeout_s / max(1, len(self.sources)) if not frames else 0.0)
                self.tracker.camera_status(name, source.connected, t_s=time.monotonic() - self._started)
                self._watch_retries(name, source)
            else:
                frame = source.read()
                if frame is None:
                    self._ended.add(name)
            if frame is not None:
                frames[name] = frame
        batches = {}
        if self.receiver is not None:
            for name, dets in self.receiver.receive(0.0 if frames else self.poll_timeout_s):
                if name in self.tracker.camera_names:
                    batches[name] = dets  # the newest of each node's batches wins
            now = time.monotonic()
            for name in self.tracker.camera_names:
                if name not in self.sources:
                    heard = self.receiver.last_heard_s.get(name, self._started)
                    self.tracker.camera_status(name, now - heard < self.node_timeout_s, t_s=now - self._started)
        if not frames and not batches:
            remote = [n for n in self.tracker.camera_names if n not in self.sources]
            nodes_done = self.receiver is None or set(remote) <= self.receiver.ended
            if len(self._ended) == len(self.sources) and nodes_done:
                return _END  # every file and every node's file is over (live cameras never end)
            return None
        if frames and not any(s.is_live for s in self.sources.values()):
            if not self._pace(max(f.t_s for f in frames.values())):
                return _END
        return self.track(frames, batches, t_s=time.monotonic() - self._started)

    # -- pacing files -------------------------------------------------------------------------------
    def _pace(self, t_s: float) -> bool:
        """With ``realtime``, wait until a file's frame is due; False if stopped meanwhile."""
        if not self.realtime:
            return True
        now = time.monotonic()
        if self._pace_start is None:
            self._pace_start = (float(t_s), now)
        first_t, first_at = self._pace_start
        wait = (float(t_s) - first_t) - (now - first_at)
        if wait <= 0:
            return True
        if self._stop is not None:
            return not self._stop.wait(wait)
        time.sleep(wait)
        return True


__all__ = ["GaveUp", "Listener", "LoopSubscriber", "SourceRetry", "NODE_TIMEOUT_S", "ONE_CAMERA", "RecorderFeed", "TrackedRound",
           "TrackingLoop", "TuioFeed"]
