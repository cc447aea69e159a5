"""The live loop's side of the window: each timer tick takes what the tracking thread produced (never
waiting for it) and hands it on — the picture to the view and the projector, the poses and events to
the game session, the round to the tracking status and the height check, a frame now and then to the
sand-change watch.

The tracking status (a strip in the status bar, the Tracking panel, marks on the view) is shown at most
twice a second. The sand watch (``calibration.sand_change``) compares camera frames with the relief
scan's view of the sand, units left out; once the sand changed, the status bar says so until it is
rescanned.
"""
from __future__ import annotations

import threading
import time
from typing import Any

import cv2
import numpy as np
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel

from appmodel.tracking.height_check import HeightCheck, heights_summary
from appmodel.tracking.tracking_status import TrackingMonitor, roster_names
from appmodel.tracking.frame_gate import LIVE_FRAMES
from gui.frame_path import frame_path
from gui.sculptor_rescans import SculptorRescans
from gui.theme import TEXT_COLORS
from gui.window_parts import WindowParts


#: How often the UI polls the tracking thread (ms) when the feed cannot wake it (a feed without
#: ``on_ready``; with it, a tracked frame is taken as soon as it is ready and the timer only catches
#: what comes without a result: events, errors, the end of a clip).
POLL_MS = 25
#: The sand watch looks at one frame in this many (plenty: sand is reshaped by hand, slowly).
SAND_EVERY_FRAMES = 10
#: OpenCV's threads while the window follows a live feed: one, the calling thread's own. Its pool split
#: each frame's few milliseconds of OpenCV (the views' background resize and remap, the tracker's
#: conversions) with threads of its own that only competed with the tracking thread, the UI thread
#: and the views' workers for two cores: about 4 ms of processor time a frame more, and later paints
#: (bench/overlay_latency.py, several runs).
LIVE_OPENCV_THREADS = 1
#: Tracked frames in a row that move nothing before the units count as put down (the panels put off
#: while they were carried then show at once where they stand).
SETTLED_FRAMES = 2
#: The tracking status is redrawn at most this often (s).
TRACKING_SHOWN_EVERY_S = 0.5


class _Wake(QObject):
    """Carries the tracking thread's "a result is ready" to the UI thread (a queued signal), at most
    one on its way at a time."""

    ready = Signal()

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)  # goes with the window, and a wake still queued with it
        self._pending = threading.Event()

    def notify(self) -> None:  # on the tracking thread
        if not self._pending.is_set():
            self._pending.set()
            self.ready.emit()

    def taken(self) -> None:  # on the UI thread, as the poll starts
        self._pending.clear()


class LivePresenter:
    """Carries the live feed to the window (mutable: the sand notice, frame count, last redraw).
    ``tracker``: the feed's tracker when it tracks a camera (None for the synthetic table): the
    tracking status and the height check follow it."""

    def __init__(self, window: WindowParts, tracker: Any | None) -> None:
        self.window = window
        self.tracking_monitor: TrackingMonitor | None = None
        self.height_check: HeightCheck | None = None  # tag size against base height, per unit
        if tracker is not None:
            # several cameras share one table layout (``MultiCameraTracker.layout``); one camera's is its calibration's
            layout = getattr(tracker, "layout", None) or getattr(getattr(tracker, "calibration", None), "layout", None)
            anchors = [(a.tag_id, a.x_in, a.y_in) for a in getattr(layout, "anchors", ())]
            # The units the game has on the table are expected in view (reserves join when first seen).
            units = [u for u in window.session.units() if u.on_table]
            self.tracking_monitor = TrackingMonitor(roster_names(units), anchors)
            self.height_check = HeightCheck.for_tracker(tracker)
        #: compares camera frames with the relief scan's view of the sand (calibration.sand_change)
        self.sand_watch: Any | None = None
        self.sand_notice = ""
        self._sand_frames = 0
        #: tracked frames in a row that moved no unit
        self._still_frames = 0
        #: quick rescans following the sculptor while the sculpting guidance is on (gui/sculptor_rescans.py)
        self.rescans = SculptorRescans(window, on_rescanned=self.rescanned)
        self.tracking_shown_at = 0.0
        #: the status bar's tracking strip (the window places it, after the recording indicator)
        self.strip = QLabel("")
        self.strip.setObjectName("tracking-strip")
        self.strip.hide()
        #: A tracked frame wakes the poll at once (a 25 ms timer alone added 12 ms on average, up to
        #: 25, between the tracker and the overlays).
        self._wake = _Wake(self.strip)
        if hasattr(window.live, "on_ready"):
            self._wake.ready.connect(self._woken, Qt.ConnectionType.QueuedConnection)
            window.live.on_ready = self._wake.notify
        if window.live is not None:
            cv2.setNumThreads(LIVE_OPENCV_THREADS)

    def _woken(self) -> None:
        timer = getattr(self.window, "timer", None)
        if timer is None or timer.isActive():  # a closed window stopped its timer: nothing to take
            self.poll()

    def poll(self) -> None:
        """Take what the tracking thread produced since the last tick (never waits for it)."""
        w = self.window
        self._wake.taken()
        if w.live is None:
            return
        update = w.live.poll()
        if w.calibration_run is not None:
            w.calibration_run.offer(update)
        self.rescans.poll()
        # while a rescan's patterns are up, the tracker's view of them is no news of the units
        holding = self.rescans.scanning
        if update.frame_bgr is not None:
            w.view.set_frame(update.frame_bgr)
            if w.projector is not None:
                w.projector.set_frame(update.frame_bgr)
            self._sand_frames += 1
            if self.rescans.wanted() or holding:
                self.rescans.offer(update.frame_bgr, self.units_mask(update.frame_bgr.shape[:2]))
            holding = holding or self.rescans.scanning
            if self.sand_watch is not None and not holding and self._sand_frames % SAND_EVERY_FRAMES == 0:
                self.check_sand(update.frame_bgr)
        if update.tracked is not None:
            LIVE_FRAMES.frame_taken()
        if update.tracked is not None and not holding:
            if w.session.apply_poses(update.tracked.poses, t_s=update.tracked.t_s):
                self._still_frames = 0
            else:
                self._still_frames += 1
                if self._still_frames == SETTLED_FRAMES:  # the carry is over: the panels show where it ended now
                    frame_path(w.session).settle()
            frame_path(w.session).frame_shown_if_painted()  # what it moved is painted (a preview: its paint says so)
            if self.height_check is not None:
                self.height_check.add(update.tracked)
            if self.tracking_monitor is not None:
                delay = None if update.ready_at is None else (time.monotonic() - update.ready_at) + (update.tracked_in_s or 0.0)
                self.tracking_monitor.add(update.tracked, delay_s=delay, frame=update.frame_bgr)
        elif update.tracked is not None:  # held back (a rescan's patterns): it moved nothing
            frame_path(w.session).frame_shown_if_painted()
        if update.finished and not update.error and self.tracking_monitor is not None:
            words = str(getattr(w.live, "end_words", "") or "")
            if words:
                self.tracking_monitor.mark_ended(words)
        if self.tracking_monitor is not None:  # a camera lost, its reconnect tries, nodes' bad messages
            self.tracking_monitor.note_feed(lost=getattr(update, "lost_cameras", ()),
                                            reconnect_attempts=getattr(update, "reconnect_attempts", None),
                                            bad_messages=getattr(update, "bad_messages", None))
        self.show_tracking()
        for event in update.events:
            w.session.on_tracker_event(event)
        if update.error:
            w.statusBar().showMessage(update.error, 15000)

    def show_tracking(self) -> None:
        """The status strip, the Tracking panel and the view's marks, at most twice a second."""
        if self.tracking_monitor is None:
            return
        now = time.monotonic()
        if now - self.tracking_shown_at < TRACKING_SHOWN_EVERY_S:
            return
        self.tracking_shown_at = now
        w = self.window
        status = self.tracking_monitor.status()
        heights = self.height_check.notes() if self.height_check is not None else ()
        self.strip.setText(" · ".join(part for part in (status.summary(), heights_summary(heights)) if part))
        self.strip.setStyleSheet(f"QLabel {{ color: {TEXT_COLORS['error'] if status.stalled else TEXT_COLORS['muted']};"
                                 " padding: 0 8px; }")
        self.strip.show()
        if w.tracking_panel is not None:
            w.tracking_panel.show_status(status)
            w.tracking_panel.show_heights(heights)
        w.view.tracking = status
        w.view.update()

    def units_mask(self, shape: tuple[int, ...]) -> np.ndarray | None:
        """True on the camera pixels within 2" of a unit on the table: its moves are the tracker's
        business, not a change of the sand nor a sculptor's hands."""
        calibration = self.window.calibration
        if calibration is None:
            return None
        ignore = np.zeros(shape[:2], np.uint8)
        for u in self.window.session.snapshot().units:
            if u.on_table:
                ring = np.array([[u.x_in + 2.0 * np.cos(a), u.y_in + 2.0 * np.sin(a)] for a in np.linspace(0, 2 * np.pi, 12)])
                px = calibration.camera_from_table(ring, z_in=u.z_in)
                if np.all(np.isfinite(px)):
                    cv2.fillPoly(ignore, [np.rint(px).astype(np.int32)], 1)
        return ignore.astype(bool)

    def rescanned(self, reference_bgr: np.ndarray) -> None:
        """A rescan measured the sand: the sand watch compares with its view from now on."""
        calibration = self.window.calibration
        if self.sand_watch is not None and calibration is not None:
            from calibration.sand_change import SandChangeWatch, sand_mask

            self.sand_watch = SandChangeWatch(reference_bgr, sand=sand_mask(calibration, reference_bgr.shape[:2]))
        self.sand_notice = ""

    def check_sand(self, frame_bgr: Any) -> bool:
        """Compare a camera frame with the scan's view of the sand (units left out); once the sand has
        changed, say so in the status bar until it is rescanned. Returns whether it changed."""
        w = self.window
        calibration = w.calibration
        if self.sand_watch is None or calibration is None:
            return False
        verdict = self.sand_watch.check(frame_bgr, ignore=self.units_mask(frame_bgr.shape[:2]))
        if verdict.changed and not self.sand_notice:
            where = ""
            if verdict.centre_px is not None:
                x, y = calibration.table_from_camera(np.array([verdict.centre_px]), z_in=0.0)[0]
                where = f' around ({x:.0f}", {y:.0f}")' if np.isfinite(x) else ""
            self.sand_notice = (f"The sand has changed since the last scan{where}: heights and line of sight over the "
                                "ground are out of date; rescan (sandtable scan --quick)")
        if self.sand_notice:
            w.statusBar().showMessage(self.sand_notice)
        return verdict.changed
