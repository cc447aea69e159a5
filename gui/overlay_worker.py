"""A view's pictures made on threads of their own, so the UI thread only paints.

While units are carried, every tracked frame changes the game. Asking the rules for the new shapes,
rebuilding the draw items, bringing the cached overlay layer up to date and drawing what moves costs
more than the 8 ms a frame may take on the UI thread, the selected vehicle's 64" rings most of all
(docs/gui.md, "Drawing: what a frame costs"). :class:`OverlayWorker` does all of that on its own
thread: the UI thread hands it a frozen request — the session's
:class:`~gui.session.SnapshotInputs` and the view's transform, toggles and size — carries on, and is
told (``on_ready``, called on the worker thread) when the finished
:class:`~gui.compositor.OverlayImage` is there. :class:`BackgroundWorker` likewise turns each new
camera frame into the view's background (scaled into the view, or rectified onto the table for the
top-down view: OpenCV, which lets other Python threads run meanwhile). Painting a frame is then
drawing the one image and blending the other over it.

Hand-over, not sharing. While a job runs the worker owns its compositor's overlay caches (the
compositor's lock); what it hands back — the snapshot it built, the images — is never changed
again, and the session only ever gives it frozen inputs. The newest request wins: one made while a
job runs replaces any that has not started, so a slow moment never queues up work, and an older job
finishing late never replaces a newer result. A job that fails is reported (``error``) and the view
draws on its own thread instead.

Python runs one thread at a time (the GIL, which Qt's painter keeps while it draws): the overlay
worker takes the work off the UI thread, it does not add a processor. ``bench/gui_draw.py`` reports
both sides.

>>> import os; _ = os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
>>> from gui.compositor import Compositor, ensure_qt_app
>>> from gui.session import GameSession
>>> from gui.settings import OverlayToggles
>>> from gui.transforms import TopDownTransform
>>> from rules.downrange.examples.in_depth import SCENARIO_PATH
>>> _ = ensure_qt_app()
>>> session = GameSession.from_scenario_file(SCENARIO_PATH)
>>> worker = OverlayWorker(Compositor())
>>> worker.request(session.snapshot_inputs(), TopDownTransform((72.0, 48.0), (640, 420)), OverlayToggles(), (640, 420))
>>> worker.wait_idle(10.0), worker.latest_overlay().version == session.version
(True, True)
>>> worker.stop()
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import numpy as np

from gui.compositor import BackgroundImage, Compositor, OverlayImage, background_key, view_key
from gui.settings import OverlayToggles

R = TypeVar("R")


class JobThread(Generic[R]):
    """Runs the newest job handed to it on one daemon thread (started on first use) and keeps the
    newest result. ``on_ready()`` is called on that thread after every job, finished or failed; a
    Qt view forwards it to its own thread with a queued signal."""

    def __init__(self, name: str, on_ready: Callable[[], None] | None = None) -> None:
        self.name = name
        self.on_ready = on_ready
        self._cv = threading.Condition()
        self._job: tuple[int, Callable[[], R]] | None = None
        self._running = False
        self._seq = 0
        self._published = 0
        self._latest: R | None = None
        self._stopped = False
        self._thread: threading.Thread | None = None
        #: Why the last job failed ('' when it did not).
        self.error = ""
        #: How long the last finished job took on the thread, milliseconds.
        self.last_ms = 0.0
        self.jobs_done = 0

    def submit(self, job: Callable[[], R]) -> None:
        """Run ``job`` on the thread; replaces a job that has not started yet."""
        with self._cv:
            if self._stopped:
                return
            self._seq += 1
            self._job = (self._seq, job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._cv.notify_all()

    def run_here(self, job: Callable[[], R]) -> R:
        """Run ``job`` on the calling thread now and keep its result as the newest; jobs not yet
        started are dropped (this one is newer)."""
        with self._cv:
            self._seq += 1
            seq = self._seq
            self._job = None
        result = job()
        self._publish(seq, result)
        return result

    def latest(self) -> R | None:
        with self._cv:
            return self._latest

    @property
    def busy(self) -> bool:
        """A job is running or waiting to."""
        with self._cv:
            return self._running or self._job is not None

    def wait_idle(self, timeout_s: float) -> bool:
        """Block until no job runs or waits (tests, the bench, screenshots); False on timeout."""
        end = time.monotonic() + timeout_s
        with self._cv:
            while self._running or self._job is not None:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cv.wait(left)
        return True

    def stop(self, timeout_s: float = 5.0) -> None:
        """Let a running job finish, drop the rest, end the thread."""
        with self._cv:
            self._stopped = True
            self._job = None
            self._cv.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout_s)

    def _publish(self, seq: int, result: R) -> None:
        with self._cv:
            if seq > self._published:  # an older job finishing late never replaces a newer result
                self._published = seq
                self._latest = result

    def _run(self) -> None:
        while True:
            with self._cv:
                while self._job is None and not self._stopped:
                    self._cv.wait()
                if self._stopped:
                    return
                (seq, job), self._job = self._job, None  # type: ignore[misc]
                self._running = True
            try:
                t0 = time.perf_counter()
                result = job()
                self.last_ms = (time.perf_counter() - t0) * 1000.0
                self._publish(seq, result)
                self.error = ""
            except Exception as exc:  # the view falls back to drawing on its own thread, which shows it
                self.error = f"{type(exc).__name__}: {exc}"
            finally:
                with self._cv:
                    self._running = False
                    self.jobs_done += 1
                    self._cv.notify_all()
            callback = self.on_ready
            if callback is not None:
                try:
                    callback()
                except Exception:  # a view closed under us; a live one gets the next result
                    pass


class OverlayWorker(JobThread[tuple[OverlayImage, Any]]):
    """Makes :class:`~gui.compositor.OverlayImage` values for one view with ``compositor``, which it
    owns from now on (other threads use it only through :meth:`render_now`)."""

    def __init__(self, compositor: Compositor, *, on_ready: Callable[[], None] | None = None,
                 name: str = "sandtable-overlays") -> None:
        super().__init__(name, on_ready)
        self.compositor = compositor
        #: The last job's split: building the snapshot (the rules) and making the image, milliseconds.
        self.snapshot_ms = 0.0
        self.overlay_ms = 0.0

    def request(self, inputs: Any, transform: Any, toggles: OverlayToggles, size: tuple[int, int]) -> None:
        """Make the overlays of ``inputs`` (``session.snapshot_inputs()``) for this view, in the background."""
        size = (int(size[0]), int(size[1]))

        def job() -> tuple[OverlayImage, Any]:
            t0 = time.perf_counter()
            snapshot = inputs.build()
            t1 = time.perf_counter()
            overlay = self.compositor.overlay_image(snapshot, transform, toggles, size, started_s=t0)
            self.snapshot_ms, self.overlay_ms = (t1 - t0) * 1000.0, (time.perf_counter() - t1) * 1000.0
            return overlay, snapshot
        self.submit(job)

    def render_now(self, snapshot: Any, transform: Any, toggles: OverlayToggles, size: tuple[int, int]) -> OverlayImage:
        """Make the overlays on the calling thread (a view whose zoom changed, a user's click that must
        show at once); waits for a running job to finish with the compositor first."""
        return self.run_here(lambda: (self.compositor.overlay_image(snapshot, transform, toggles, size), snapshot))[0]

    def latest_overlay(self) -> OverlayImage | None:
        found = self.latest()
        return found[0] if found is not None else None

    def latest_snapshot(self) -> Any:
        """The snapshot the newest overlay image was made from."""
        found = self.latest()
        return found[1] if found is not None else None

    @staticmethod
    def fits(overlay: OverlayImage | None, transform: Any, toggles: OverlayToggles, size: tuple[int, int]) -> bool:
        """Whether ``overlay`` was made for this view (transform, size and toggles)."""
        return overlay is not None and overlay.view_key == view_key(transform, size, toggles)


class BackgroundWorker(JobThread[BackgroundImage]):
    """Turns camera frames into one view's background (:meth:`Compositor.background_image`)."""

    def __init__(self, compositor: Compositor, *, on_ready: Callable[[], None] | None = None,
                 name: str = "sandtable-background") -> None:
        super().__init__(name, on_ready)
        self.compositor = compositor

    def request(self, frame_bgr: np.ndarray, transform: Any, size: tuple[int, int], *, calibration: Any | None,
                table_size_in: tuple[float, float]) -> None:
        self.submit(lambda: self.compositor.background_image(frame_bgr, transform, size, calibration=calibration,
                                                             table_size_in=table_size_in))

    @staticmethod
    def fits(background: BackgroundImage | None, frame_bgr: np.ndarray | None, transform: Any, size: tuple[int, int],
             calibration: Any | None) -> bool:
        return background is not None and background.frame is frame_bgr \
            and background.key == background_key(transform, size, calibration)


__all__ = ["BackgroundWorker", "JobThread", "OverlayWorker"]
