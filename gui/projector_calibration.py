"""Projector calibration from the window's menu: show the pattern full screen on the projector's screen,
let it settle, take the next camera frame's tag detections, fit the mapping (never blocks the UI).

:class:`ProjectorCalibrationRun` is one such run, from the pattern going up to a fitted
``ProjectorCalibration`` or one line saying what went wrong. It takes the tracking loop's own
detections of the frame (``LiveUpdate.tracked.detections``): the loop has already searched that
frame on its own thread, so the UI thread does not search it again. Only a feed that tracks nothing
(the synthetic table) or tracks several cameras (detections per camera, the window shows one) hands
over a bare frame, which is then searched here once.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QStandardPaths, QTimer
from PySide6.QtGui import QGuiApplication

from appmodel.game_session import GameSession
from appmodel.tracking.live_tracking import LiveUpdate
from calibration.errors import CalibrationError
from calibration.projector import ProjectorCalibration, ProjectorPattern, calibrate_projector
from calibration.table_calibration import TableCalibration
from gui.projector_window import ProjectorWindow
from tracker.detections import TagDetections, detect_tags, detector_for_this_thread

#: How long the projector shows the calibration pattern before the camera frame is taken (ms).
PATTERN_SETTLE_MS = 1500
#: How long to wait after that for a camera frame before giving up (ms).
FRAME_WAIT_MS = 5000


def default_projector_path() -> str:
    """Where a projector calibration made from the GUI is kept when no file was given: the
    application's data folder (``~/.local/share/Sandtable/Sandtable Companion`` on Linux)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation) or str(Path.home())
    return str(Path(folder) / "projector.json")


def frame_detections(update: LiveUpdate) -> TagDetections:
    """The tags in the update's frame: the tracking loop's own detections when it tracked this very
    frame with one camera, else a search of the frame."""
    detections = getattr(update.tracked, "detections", None)
    if isinstance(detections, TagDetections):
        return detections
    import cv2

    return detect_tags(detector_for_this_thread(), cv2.cvtColor(update.frame_bgr, cv2.COLOR_BGR2GRAY))


class ProjectorCalibrationRun:
    """One calibration (mutable: pattern shown -> settled -> fitted or failed). ``on_result`` gets the
    fitted mapping, ``on_failure`` one line for the user; exactly one of them is called, once."""

    def __init__(self, session: GameSession, table: TableCalibration, *, screen_index: int, settle_ms: int,
                 on_result: Callable[[ProjectorCalibration], None], on_failure: Callable[[str], None]) -> None:
        screens = QGuiApplication.screens()
        self.screen_index = min(max(0, screen_index), len(screens) - 1)
        size = screens[self.screen_index].geometry().size()
        self.pattern = ProjectorPattern(size.width(), size.height())
        self.table = table
        self.on_result = on_result
        self.on_failure = on_failure
        #: From settled on, the next camera frame shows the pattern (an older one may not).
        self.settled = False
        self.finished = False
        self.window = ProjectorWindow(session, mode="presenter")
        self.window.show_on_screen(self.screen_index)
        self.window.show_pattern(self.pattern.image())
        QTimer.singleShot(settle_ms, self._settle)

    def offer(self, update: LiveUpdate) -> bool:
        """Take this poll's frame if it is the one the run waits for; whether it was taken."""
        if self.finished or not self.settled or update.frame_bgr is None:
            return False
        self._end()
        try:
            result = calibrate_projector(self.pattern, *self._seen(update), self.table)
        except CalibrationError as exc:
            self.on_failure(str(exc))
        else:
            self.on_result(result)
        return True

    def _seen(self, update: LiveUpdate) -> tuple[Any, Any]:
        detections = frame_detections(update)
        return detections.tag_ids, detections.corners_px

    def _settle(self) -> None:
        if self.finished:
            return
        self.settled = True
        QTimer.singleShot(FRAME_WAIT_MS, self._no_frame)

    def _no_frame(self) -> None:
        if self.finished:
            return
        self._end()
        self.on_failure("no camera frame arrived while the pattern was shown; check that the camera is running")

    def _end(self) -> None:
        self.finished = True
        self.window.close()
