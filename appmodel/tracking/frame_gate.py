"""Who goes first while a camera frame is on its way to the screen: the frame.

Python runs one thread at a time. A view's overlay worker making an exact overlay image (tens of
milliseconds of Python, a few times a second while a unit is carried) made the frame path wait for
the interpreter at every step: the tracking thread between its detector calls, the UI thread taking
the poses and painting the carried unit's preview. With a frame in flight those steps took two to
five times as long, and such frames were the tail of the delay from camera to paint
(``bench/overlay_latency.py``).

So a live feed opens the gate when a frame is in hand (the tracking thread) and the UI closes it
once every view has painted what that frame moved (or the frame moved nothing), unless a newer frame
is in hand by then; meanwhile a thread
that yields to frames (the overlay workers, :func:`yield_to_frames`) stops at its pause points
(:func:`pause_point`, placed between steps of a few hundred microseconds). A pause lasts at most
:data:`HOLD_MAX_S` from the frame's start, so a frame the UI never finishes (a closed window, a
stalled poll) costs the workers that much once, never a freeze. One gate per process: one live feed
at a time drives the views' workers. Qt-free.
"""
from __future__ import annotations

import threading
import time

#: The longest a worker waits at its pause points for one frame (s): longer than a frame path
#: normally takes on a quiet machine (10-20 ms), shorter than the 33 ms between camera frames plus
#: the worker's share.
HOLD_MAX_S = 0.03


class FrameGate:
    """Open while a frame is on its way to the screen (thread-safe)."""

    def __init__(self, hold_max_s: float = HOLD_MAX_S) -> None:
        self.hold_max_s = hold_max_s
        self._clear = threading.Event()
        self._clear.set()
        self._opened_at = 0.0
        self._lock = threading.Lock()
        #: the frames counted as they come (started), the newest one tracked (ready), and the one
        #: whose poses the UI took and paints now (showing): a frame shown only lets the workers go
        #: on when no newer one is in hand meanwhile
        self._started = self._ready = self._showing = 0
        #: How many frames opened it, and how often a worker waited at a pause point (tests, bench).
        self.frames = 0
        self.pauses = 0

    @property
    def open(self) -> bool:
        return not self._clear.is_set() and time.monotonic() < self._opened_at + self.hold_max_s

    def frame_started(self) -> None:
        """A frame is in hand (the tracking thread): workers yield until :meth:`frame_shown`."""
        with self._lock:
            self._started += 1
            self._opened_at = time.monotonic()
            self.frames += 1
            self._clear.clear()

    def frame_ready(self) -> None:
        """The frame in hand is tracked, its poses handed to the UI (the tracking thread)."""
        with self._lock:
            self._ready = self._started

    def frame_taken(self) -> None:
        """The UI took the newest tracked frame's poses into the session (the UI thread)."""
        with self._lock:
            self._showing = self._ready

    def frame_shown(self) -> None:
        """The poses taken are painted in every view, or moved nothing (the UI thread): the workers go
        on, unless a newer frame is already in hand."""
        with self._lock:
            if self._showing >= self._started:
                self._clear.set()

    def release(self) -> None:
        """Let every worker go on now (the feed stopped, a test is over)."""
        with self._lock:
            self._showing = self._ready = self._started
            self._clear.set()

    def pause(self) -> None:
        """Wait while the gate is open, at most until ``hold_max_s`` after the frame started."""
        if self._clear.is_set():
            return
        left = self._opened_at + self.hold_max_s - time.monotonic()
        if left > 0:
            self.pauses += 1
            self._clear.wait(left)


#: The gate of this process's live feed.
LIVE_FRAMES = FrameGate()

_yielding = threading.local()


def yield_to_frames(on: bool = True) -> None:
    """The calling thread stops at its pause points while a frame is in flight (an overlay worker's
    thread says so once; the UI thread and the tracking thread never do)."""
    _yielding.on = on


def pause_point() -> None:
    """Between two steps of a worker's job: wait here while a frame is on its way, if this thread
    yields to frames (otherwise, and with no frame in flight, returns at once)."""
    if getattr(_yielding, "on", False):
        LIVE_FRAMES.pause()


__all__ = ["FrameGate", "HOLD_MAX_S", "LIVE_FRAMES", "pause_point", "yield_to_frames"]
