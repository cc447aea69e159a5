"""A view's pictures made on threads of their own, so the UI thread only paints.

While units are carried, every tracked frame changes the game. Asking the rules for the new shapes,
rebuilding the draw items, bringing the cached overlay layer up to date and drawing what moves costs
more than the 8 ms a frame may take on the UI thread, the selected vehicle's 64" rings most of all
(docs/gui.md, "Drawing: what a frame costs"). :class:`OverlayWorker` does all of that on its own
thread: the UI thread hands it a frozen request — the session's
:class:`~appmodel.game_session.SnapshotInputs` and the view's transform, toggles and size — carries on, and is
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
>>> from appmodel.game_session import GameSession
>>> from appmodel.overlays.registry import OverlayToggles
>>> from appmodel.overlays.transforms import TopDownTransform
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

import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QPainter

from gui.compositor import BackgroundImage, Compositor, OverlayImage, background_key, view_key
from appmodel.tracking.frame_gate import yield_to_frames
from gui.frame_path import frame_path
from appmodel.overlays.registry import OverlayToggles

#: A new camera frame is shown with the overlays of the poses tracked in it as soon as they are ready
#: (painted when the worker finishes, not on a timer); should they take longer than this
#: (milliseconds) it is shown with the last ones: a stalled worker never freezes the picture.
FRAME_MAX_WAIT_MS = 250
#: How long the overlay worker waits for the view to paint its result before the next job (seconds).
PAINT_HOLD_S = 0.03
#: While a carried unit's pictures are moved with it on the UI thread (the preview), the exact
#: overlays are made at most this often (seconds between job starts): the preview carries the
#: frames between, and the processor they leave goes to the tracker and the UI thread. Four a second,
#: as the panels refresh during a carry: what depends on several units (voice links, lines of sight)
#: follows at a rate a player can read. bench/overlay_latency.py, two 10 s runs each, load 0.2-1.3:
#: 0.1 s gave the window's p95 51 ms and the projector's 54 ms (frames shown), 0.25 s 40 and 51 ms.
EXACT_SPACING_S = 0.25
#: The workers' threads are this much nicer to the processor than the tracking thread and the UI
#: thread (Linux: each thread's own priority), which then win the cores the moment a frame is there
#: to track or a result to paint. On the shared 2-core machine (bench/overlay_latency.py's figures,
#: 3-4 runs a side) 5 against 0 took 3-4 ms of processor time off each frame and the window's 95th
#: percentile from 197 to 164 ms (load 5) and from 514 to 223 ms (load 15); 10 starved the workers
#: under load (625 ms).
WORKER_NICENESS = 5


def lower_this_threads_priority(niceness: int) -> None:
    """Make the calling thread ``niceness`` nicer, where the OS gives a thread a priority of its own
    (Linux); elsewhere, or if refused, it stays as it was."""
    if niceness <= 0 or not sys.platform.startswith("linux"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + niceness))
    except (OSError, AttributeError):
        pass

R = TypeVar("R")


class JobThread(Generic[R]):
    """Runs the newest job handed to it on one daemon thread (started on first use) and keeps the
    newest result. ``on_ready()`` is called on that thread after every job, finished or failed; a
    Qt view forwards it to its own thread with a queued signal."""

    #: How much nicer than the program this thread runs (:func:`lower_this_threads_priority`).
    niceness = 0
    #: Whether this thread's spaced jobs stop at their pause points while a camera frame is on its way
    #: to the screen (:mod:`appmodel.tracking.frame_gate`).
    yields_to_frames = False

    def __init__(self, name: str, on_ready: Callable[[], None] | None = None, *, hold_s: float = 0.0) -> None:
        self.name = name
        self.on_ready = on_ready
        #: After a job, wait up to this long for :meth:`shown` before starting the next one, so the UI
        #: thread paints the result while this thread is idle (Python runs one thread at a time).
        self.hold_s = hold_s
        self._shown = threading.Event()
        self._shown.set()
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
        #: The least time between the starts of two jobs (seconds; a request meanwhile waits, and a
        #: newer one replaces it).
        self.spacing_s = 0.0
        self._started_at = -1e9

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

    def shown(self) -> None:
        """The UI thread has painted the newest result: the next job may start."""
        self._shown.set()

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
        lower_this_threads_priority(self.niceness)
        while True:
            if self.hold_s > 0:
                self._shown.wait(self.hold_s)
            with self._cv:
                while not self._stopped:
                    due = self._started_at + self.spacing_s - time.monotonic()
                    if self._job is not None and due <= 0:
                        break
                    self._cv.wait(due if self._job is not None else None)
                if self._stopped:
                    return
                self._started_at = time.monotonic()
                (seq, job), self._job = self._job, None  # type: ignore[misc]  # the wait above ends with a job set (or stopped, returned)
                self._running = True
                # A spaced job (the carried units' preview shows each frame meanwhile) gives way to a
                # frame on its way; one the frame waits for (no preview: spacing 0) never does.
                yield_to_frames(self.yields_to_frames and self.spacing_s > 0)
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
            if callback is not None and self.hold_s > 0:
                self._shown.clear()
            if callback is not None:
                try:
                    callback()
                except Exception:  # a view closed under us; a live one gets the next result
                    pass


class OverlayWorker(JobThread[tuple[OverlayImage, Any, Any]]):
    """Makes :class:`~gui.compositor.OverlayImage` values for one view with ``compositor``, which it
    owns from now on (other threads use it only through :meth:`render_now`). ``prepare(snapshot)``,
    when given, is made with each image from the same snapshot (the projector's tag mask), on the
    same thread: :meth:`latest` is (image, snapshot, prepared)."""

    niceness = WORKER_NICENESS
    yields_to_frames = True

    def __init__(self, compositor: Compositor, *, on_ready: Callable[[], None] | None = None,
                 name: str = "sandtable-overlays", hold_s: float = 0.0,
                 prepare: Callable[[Any], Any] | None = None) -> None:
        super().__init__(name, on_ready, hold_s=hold_s)
        self.compositor = compositor
        self.prepare = prepare
        #: The last job's split: building the snapshot (the rules) and making the image, milliseconds.
        self.snapshot_ms = 0.0
        self.overlay_ms = 0.0

    def _made(self, snapshot: Any, transform: Any, toggles: OverlayToggles, size: tuple[int, int],
              started_s: float | None = None) -> tuple[OverlayImage, Any, Any]:
        overlay = self.compositor.overlay_image(snapshot, transform, toggles, size, started_s=started_s)
        return overlay, snapshot, self.prepare(snapshot) if self.prepare is not None else None

    def request(self, inputs: Any, transform: Any, toggles: OverlayToggles, size: tuple[int, int]) -> None:
        """Make the overlays of ``inputs`` (``session.snapshot_inputs()``) for this view, in the background."""
        size = (int(size[0]), int(size[1]))

        def job() -> tuple[OverlayImage, Any, Any]:
            t0 = time.perf_counter()
            snapshot = inputs.build()
            t1 = time.perf_counter()
            made = self._made(snapshot, transform, toggles, size, started_s=t0)
            self.snapshot_ms, self.overlay_ms = (t1 - t0) * 1000.0, (time.perf_counter() - t1) * 1000.0
            return made
        self.submit(job)

    def render_now(self, snapshot: Any, transform: Any, toggles: OverlayToggles, size: tuple[int, int]) -> OverlayImage:
        """Make the overlays on the calling thread (a view whose zoom changed, a user's click that must
        show at once); waits for a running job to finish with the compositor first."""
        return self.run_here(lambda: self._made(snapshot, transform, toggles, size))[0]

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

    niceness = WORKER_NICENESS

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


@dataclass(frozen=True)
class ViewSpec:
    """How a widget shows the session now: its transform, overlay toggles and size in pixels, and its
    background: "frame" (the camera frame, scaled or rectified), "black" (a projector) or "plain"
    (the surround colour, the table in sand for the top-down view)."""

    transform: Any
    toggles: OverlayToggles
    size: tuple[int, int]
    background: str = "frame"


class ViewRenderer(QObject):
    """Draws a session into a widget without making the UI thread wait for the overlays (the table
    view; the projector and presenter windows can use it the same way).

    The widget calls :meth:`paint` from its ``paintEvent`` and :meth:`set_frame` with each camera
    frame; ``spec()`` tells how it shows the session now. Tracked moves (``changed("poses")``) go to
    the overlay worker and the widget repaints when the new overlays are ready, showing the newest
    frame with them (or, after :data:`FRAME_WAIT_MS`, with the last ones); meanwhile it repaints at
    once with the carried units' own pictures moved to their new poses (the preview,
    :meth:`Compositor.preview_moves`), the exact overlays then made at most every
    :data:`EXACT_SPACING_S`. So are the game states of a replay playing (``states_in_background``).
    Any other change — a click, a zoom, a toggle, a rules change, a jump in a replay — is drawn at once
    on the UI thread, so the picture never shows overlays out of date for the user's own action. Call
    :meth:`close` when the widget goes."""

    _done = Signal()

    def __init__(self, session: Any, compositor: Compositor, widget: Any, spec: Callable[[], ViewSpec], *,
                 calibration: Any | None = None, prepare: Callable[[Any], Any] | None = None) -> None:
        super().__init__(widget)
        self.session = session
        self.compositor = compositor
        self.widget = widget
        self.spec = spec
        self.calibration = calibration
        self.overlays = OverlayWorker(compositor, on_ready=self._done.emit, hold_s=PAINT_HOLD_S, prepare=prepare)
        self.backgrounds = BackgroundWorker(compositor, on_ready=self._done.emit)
        self._done.connect(self._worker_done, Qt.ConnectionType.QueuedConnection)
        #: Overlay images of an older game version than this are not shown (a user's own change).
        self._exact_from = session.version
        self.frame_bgr: np.ndarray | None = None
        #: The frame and the game version the last paint showed.
        self.shown_frame: np.ndarray | None = None
        self.shown_version = -1
        #: The snapshot the last paint's overlays were made from, and what ``prepare`` (made on the
        #: worker with them) made of it: a widget draws what goes with the overlays from these.
        self.shown_snapshot: Any = None
        self.shown_prepared: Any = None
        #: While this says so (a replay playing), a new game state is drawn by the overlay worker as
        #: tracked moves are: a tick of playback changes the state 20 times a second, and drawing each
        #: on the UI thread (a third of a second for a long game on a loaded machine) kept the window busy.
        self.states_in_background: Callable[[], bool] = lambda: False
        #: The game version whose poses the last paint showed the carried units at (newer than
        #: ``shown_version`` when it moved their pictures there: a preview), and those moves.
        self.shown_pose_version = -1
        self.shown_moves: dict[int, Any] = {}
        self._preview_due = False
        self._moves: tuple[Any, dict[int, Any], Any] = (None, {}, None)
        self._disconnect = session.changed.connect(self._session_changed)
        #: the session's frame path: work the UI thread can put off waits until this view has painted
        self.frame_path = frame_path(session)
        self.frame_path.add_view(self)

    def close(self) -> None:
        self._disconnect()
        self.overlays.stop()
        self.backgrounds.stop()

    def _live(self) -> bool:
        return bool(self.widget.isVisible())

    def preview_pending(self) -> bool:
        """A tracked move is waiting for this view's paint of its preview."""
        return self._preview_due and self._live()

    def frame_pending(self) -> bool:
        """Overlays of a newer game version are being made for this view, or wait for its paint."""
        if not self._live():
            return False
        overlay = self.overlays.latest_overlay()
        return self.overlays.busy or (overlay is not None and overlay.version > self.shown_version)

    # -- what arrives -----------------------------------------------------------------------------
    def set_frame(self, frame_bgr: np.ndarray | None) -> None:
        """A new camera frame: its background is made on the background worker; the widget repaints
        once the poses tracked in it (applied by the live loop right after) have their overlays."""
        self.frame_bgr = frame_bgr
        spec = self.spec()
        if frame_bgr is not None and self._live() and spec.background == "frame":
            self.backgrounds.request(frame_bgr, spec.transform, spec.size, calibration=self.calibration,
                                     table_size_in=self.session.table_size_in)
        QTimer.singleShot(0, self, self._frame_arrived)

    def _frame_arrived(self) -> None:
        if not (self.overlays.busy or self.backgrounds.busy):
            self.widget.update()
        else:  # painted when its background and overlays are ready (_worker_done), at the latest after
            frame = self.frame_bgr  # FRAME_MAX_WAIT_MS: a stalled worker never freezes the picture
            QTimer.singleShot(FRAME_MAX_WAIT_MS, self, lambda: self._frame_due(frame))

    def _frame_due(self, frame: np.ndarray | None) -> None:
        if frame is self.frame_bgr and self.shown_frame is not frame:
            self.widget.update()

    def _session_changed(self, kind: str) -> None:
        if (kind == "poses" or (kind == "state" and self.states_in_background())) and self._live():
            # Tracked units moved: the worker makes the new overlays and the widget repaints then.
            spec = self.spec()
            latest = self.overlays.latest_overlay()
            # (a carried unit out of this view's sight has nothing to preview, and waits for nothing)
            preview = latest is not None and bool(latest.poses or latest.unseen)
            self.overlays.spacing_s = EXACT_SPACING_S if preview else 0.0
            self.overlays.request(self.session.snapshot_inputs(), spec.transform, spec.toggles, spec.size)
            if preview:
                # the carried units' pictures moved to the new poses now, over the newest background
                # ready (painted again with this frame's when it is: _worker_done); the exact image follows
                self._preview_due = True
                self.widget.update()
            return
        if kind in ("log", "recording"):
            return  # nothing drawn changed
        self._exact_from = self.session.version
        self.widget.update()

    def _worker_done(self) -> None:
        """A worker finished: paint as soon as there is something newer to show. A new overlay image
        waits only for the background of the same frame (being made, a few milliseconds); a new
        background waits for the overlays of its poses when they are being made."""
        snapshot = self.overlays.latest_snapshot()
        if snapshot is not None:
            self.session.adopt_snapshot(snapshot)  # the panels read it instead of building it again
        overlay = self.overlays.latest_overlay()
        new_overlay = overlay is not None and overlay.version > self.shown_version
        background = self.backgrounds.latest()
        new_background = background is not None and background.frame is not self.shown_frame
        previewing = self._preview_due or self.shown_pose_version > self.shown_version
        if (new_overlay and not self.backgrounds.busy) or (new_background and (previewing or not self.overlays.busy)):
            self.widget.update()

    # -- painting -----------------------------------------------------------------------------------
    def current_overlays(self, spec: ViewSpec) -> OverlayImage:
        """The overlay image to show now: the worker's newest if it was made for this view and only
        tracked moves came since (asking for the next one if none is on its way), else one made now."""
        return self._current(spec)[0]

    def _current(self, spec: ViewSpec) -> tuple[OverlayImage, Any, Any]:
        """:meth:`current_overlays` with the snapshot it shows and what ``prepare`` made of it."""
        found = self.overlays.latest()
        latest = found[0] if found is not None else None
        if found is not None and latest is not None and self.overlays.fits(latest, spec.transform, spec.toggles, spec.size) \
                and latest.version >= self._exact_from and not self.overlays.error:
            if latest.version != self.session.version and not self.overlays.busy:
                self.overlays.request(self.session.snapshot_inputs(), spec.transform, spec.toggles, spec.size)
            return found
        snapshot = self.session.snapshot()
        overlay = self.overlays.render_now(snapshot, spec.transform, spec.toggles, spec.size)
        found = self.overlays.latest()  # what render_now made (only this thread asks for newer ones)
        return found if found is not None and found[0] is overlay else (overlay, snapshot, None)

    def current_background(self, spec: ViewSpec) -> BackgroundImage | None:
        """The frame as this view shows it: the worker's if it is of this frame (or an older one while
        this one is being made), else made now; None without a frame."""
        frame = self.frame_bgr
        if frame is None or spec.background != "frame":
            return None
        latest = self.backgrounds.latest()
        if self.backgrounds.fits(latest, frame, spec.transform, spec.size, self.calibration):
            return latest
        if latest is not None and self.backgrounds.busy and not self.backgrounds.error \
                and self.backgrounds.fits(latest, latest.frame, spec.transform, spec.size, self.calibration):
            return latest
        return self.backgrounds.run_here(lambda: self.compositor.background_image(
            frame, spec.transform, spec.size, calibration=self.calibration, table_size_in=self.session.table_size_in))

    def paint(self, p: QPainter, spec: ViewSpec | None = None) -> ViewSpec:
        """The background and the overlays onto ``p`` (the widget's painter); returns the spec used."""
        spec = spec or self.spec()
        overlay, snapshot, prepared = self._current(spec)
        background = self.current_background(spec)
        self.compositor.paint_background(p, spec.size, spec.transform, frame_bgr=None, calibration=self.calibration,
                                         table_size_in=self.session.table_size_in, black=spec.background == "black",
                                         background=background)
        # only tracked moves came since the overlay's game (else _current made it now): the carried
        # units' own pictures go where they stand now
        key = (id(overlay), self.session.version, spec.transform.cache_key)
        if self._moves[0] != key:  # (a frame's second paint, for its background, moves the same)
            moves = self.compositor.preview_moves(overlay, self.session.units(), spec.transform) \
                if overlay.poses and overlay.version < self.session.version else {}
            self._moves = (key, moves, overlay)
        moves = self._moves[1]
        self.compositor.paint_overlay_image(p, overlay, moves)
        self._preview_due = False
        self.shown_moves = moves
        self.shown_pose_version = self.session.version if moves and len(moves) == len(overlay.poses) else overlay.version
        self.shown_frame = background.frame if background is not None else self.frame_bgr
        self.shown_version = overlay.version
        self.shown_snapshot, self.shown_prepared = snapshot, prepared
        self.overlays.shown()
        self.frame_path.painted()
        return spec


__all__ = ["BackgroundWorker", "EXACT_SPACING_S", "FRAME_MAX_WAIT_MS", "JobThread", "OverlayWorker", "ViewRenderer", "ViewSpec"]
