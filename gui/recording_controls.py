"""Recording from the window: start and stop (Ctrl+R), whether the camera's picture is kept, and the
red "REC m:ss" in the status bar and the title while it runs (nothing showed it did).

Without a tracked camera (the synthetic table) the units' places come from the game state: the
controls record them as the recording's frames four times a second, or the file would hold no units
and no poses. With a tracked camera the loop's recorder feed records the frames.
"""
from __future__ import annotations

import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QLabel

from appmodel.errors import UsageError
from appmodel.tracking.units_as_poses import poses_from_units
from gui.settings import save_settings
from rules.errors import RulesError
from gui.window_parts import WindowParts


#: How often a session without a tracked camera records its units' places (4 a second: moves by hand
#: or by the rules replay smoothly; unchanged poses cost the recorder nothing).
RULES_FRAME_MS = 250


class RecordingControls:
    """The window's recording workflow (mutable: the tick's clock and frame count)."""

    def __init__(self, window: WindowParts) -> None:
        self.window = window
        self.label = QLabel("")
        self.label.setObjectName("rec-indicator")
        self.label.setStyleSheet("QLabel { background: #b3261e; color: #ffffff; font-weight: bold; "
                                 "padding: 2px 10px; border-radius: 4px; }")
        self.label.setToolTip("Recording: Ctrl+R stops it")
        self.label.hide()
        window.statusBar().addPermanentWidget(self.label)
        self._timer = QTimer(window)
        self._timer.setInterval(RULES_FRAME_MS)
        self._timer.timeout.connect(self.tick)
        self._started = 0.0
        self._frame = 0
        self._base_title = window.windowTitle()

    def toggle(self) -> None:
        """Start recording to a file the user picks (a dated one in the last folder without a settings
        store), or stop the recording under way."""
        w = self.window
        live = w.tracked_live
        try:
            if w.session.recorder is not None:
                if live is not None:
                    live.set_recorder(None)
                w.session.stop_recording()
                return
            folder = Path(w.settings.recordings_dir or Path.home())
            default = folder / f"game-{datetime.now():%Y%m%d-%H%M%S}.sqlite"
            path = default if w.store is None else Path(QFileDialog.getSaveFileName(
                w, "Record the session to", str(default), "Recordings (*.sqlite)")[0] or "")
            if not str(path) or str(path) == ".":
                return
            video = bool(getattr(w.live, "records_video", False)) and w.settings.record_video
            recorder = w.session.start_recording(path, video=video, calibration_path=w.settings.calibration_path or None)
            if live is not None:
                live.set_recorder(recorder, video=video)
            w.settings = replace(w.settings, recordings_dir=str(Path(path).parent))
        except (UsageError, RulesError, ValueError, OSError) as exc:
            w.statusBar().showMessage(str(exc), 10000)

    def set_record_video(self, on: bool) -> None:
        """Whether the next recording keeps the camera's picture (a recording under way keeps its choice)."""
        w = self.window
        w.settings = replace(w.settings, record_video=bool(on))
        if w.store is not None:
            save_settings(w.settings, w.store)

    def changed(self) -> None:
        """The session started or stopped a recording: the menu entry, the indicator and the tick follow."""
        w = self.window
        w.actions_by_name["record"].setText("Stop recording" if w.session.recorder else "Start recording")
        if w.session.recorder is not None:
            self._started, self._frame = time.monotonic(), 0
            self._timer.start()
            self.tick()
        else:
            self._timer.stop()
            self.label.hide()
            w.setWindowTitle(self._base_title)

    def tick(self) -> None:
        w = self.window
        recorder = w.session.recorder
        if recorder is None:
            return
        seconds = int(time.monotonic() - self._started)
        self.label.setText(f"\u25cf REC {seconds // 60}:{seconds % 60:02d}")
        self.label.show()
        w.setWindowTitle(f"\u25cf REC — {self._base_title}")
        if w.tracked_live is None:
            recorder.record_frame(self._frame, w.session.now_s(), poses_from_units(w.session.units(), w.session.now_s()))
            self._frame += 1
