"""The window follows the sculptor: while the sculpting guidance is on and the projector lights the
sand, a quick rescan runs each time hands have reshaped the sand and left it still
(:class:`calibration.sculptor_rescan.RescanFollower`), and the guidance then shows the new heights.

The guidance is a set-up mode: someone is building the ground before play, so the rescan's patterns
may take the projector for a second or two. While they are up, the tracker's poses are not applied
(the units hold where they stood: patterns over the tags are no reason for a unit to vanish or
jump), the sand-change watch looks away, and a hand that comes back stops the patterns at once.
Decoding and triangulating take seconds: they run on a worker thread, polled by the window's live
tick, so the window never freezes.

Needs the table calibration with a camera model and the projector's 3-D calibration
(``sandtable scan --calibrate-projector``); without them the status bar says once what is missing.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from calibration.errors import CalibrationError
from calibration.ground_projection import GroundProjection
from calibration.projector_model import ProjectorModel
from calibration.relief_scan import ReliefScan, quick_scan_axis
from calibration.sculptor_rescan import RescanFollower, compute_rescan
from calibration.stillness import StillnessWatch
from calibration.structured_light import ScanPatterns
from gui.window_parts import WindowParts
from rules.terrain_sight import Ground

#: Camera frames of stillness (at the tracking loop's rate) before a rescan starts: about half a second.
STILL_FRAMES = 15


class SculptorRescans:
    """The window's quick rescans (mutable: the follower, the worker's future, the last notice)."""

    def __init__(self, window: WindowParts, *, still_frames: int = STILL_FRAMES, frames_per_pattern: int = 2,
                 on_rescanned: Callable[[np.ndarray], None] | None = None) -> None:
        self.window = window
        #: told the new scan's view of the sand (its black frame), for the sand-change watch
        self.on_rescanned = on_rescanned
        self.still_frames = still_frames
        self.frames_per_pattern = frames_per_pattern
        self.follower: RescanFollower | None = None
        self._model: ProjectorModel | None = None
        self._future: Future[ReliefScan] | None = None
        self._frames: tuple[np.ndarray, ...] = ()
        self._executor: ThreadPoolExecutor | None = None
        self._started_s = 0.0
        self._said_missing = ""
        #: the last rescan's computing time (s) and one line of what happened, for the status bar and tests
        self.last_compute_s: float | None = None
        self.last_words = ""
        self.rescans = 0
        # whatever changes the session changes what the projector throws on the sand: not hands
        self._disconnect = window.session.changed.connect(self._session_changed)

    def _session_changed(self, kind: str) -> None:
        self.hold_off()

    def hold_off(self) -> None:
        """The projector's picture changes by the window's doing (an overlay toggled): not hands."""
        if self.follower is not None:
            self.follower.hold_off()

    @property
    def scanning(self) -> bool:
        """Patterns are on the projector: the camera's frames are not for the tracker."""
        return self.follower is not None and self.follower.scanning

    @property
    def computing(self) -> bool:
        """A captured rescan is being computed on the worker."""
        return self._future is not None

    def wanted(self) -> bool:
        """The sculpting guidance is on (window or projector) and the projector lights the sand."""
        w = self.window
        on = w.settings.overlays.sculpting or w.settings.projector_overlays.sculpting
        return bool(on and w.projector is not None and w.projector.mode == "projector" and w.projector.isVisible())

    def _ready_follower(self) -> RescanFollower | None:
        w = self.window
        model = getattr(w.projector_calibration, "model", None)
        missing = ""
        if w.calibration is None or not getattr(w.calibration, "height_aware", False):
            missing = "a table calibration with a camera model (sandtable calibrate table ... --camera-model)"
        elif not isinstance(model, ProjectorModel):
            missing = "the projector's 3-D calibration (sandtable scan --calibrate-projector, then gui --projector)"
        if missing:
            if self._said_missing != missing:
                self._said_missing = missing
                self._say(f"The sculpting guidance follows the sculptor only with {missing}; until then, rescan by hand "
                          "(sandtable scan --quick)")
            return None
        if self.follower is None or model is not self._model:
            assert isinstance(model, ProjectorModel)
            self._model = model
            patterns = ScanPatterns(model.width_px, model.height_px, axes=(quick_scan_axis(w.calibration, model),))
            self.follower = RescanFollower(patterns, watch=StillnessWatch(still_frames=self.still_frames),
                                           frames_per_pattern=self.frames_per_pattern)
        return self.follower

    def offer(self, frame_bgr: np.ndarray, ignore: np.ndarray | None = None) -> None:
        """One camera frame from the live tick (only when :meth:`wanted`, or to stop a scan in progress)."""
        if not self.wanted():
            if self.scanning:
                self._end_patterns(self.follower.cancel("the guidance was switched off"))  # type: ignore[union-attr]
            return
        follower = self._ready_follower()
        if follower is None:
            return
        step = follower.offer(frame_bgr, ignore)
        if step.kind == "show":
            self.window.projector.show_pattern(step.pattern)
            done, total = follower.progress
            self._say(f"Rescanning the sand: pattern {done + 1} of {total}, keep hands clear")
        elif step.kind == "aborted":
            self._end_patterns(step)
        elif step.kind == "captured":
            self.window.projector.show_pattern(None)
            self._say("Rescan taken; computing the new heights...")
            self._compute(follower, step.frames)

    def _end_patterns(self, step: Any) -> None:
        self.window.projector.show_pattern(None)
        self.last_words = f"Rescan stopped: {step.reason}; it starts again once the sand is still"
        self._say(self.last_words)

    def _compute(self, follower: RescanFollower, frames: tuple[np.ndarray, ...]) -> None:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sand-rescan")
        self._started_s = time.perf_counter()
        self._frames = frames
        self._future = self._executor.submit(compute_rescan, follower.patterns, frames, self.window.calibration, self._model)

    def poll(self) -> None:
        """Take the worker's result when it is ready (never waits for it)."""
        future = self._future
        if future is None or not future.done():
            return
        self._future = None
        assert self.follower is not None
        self.last_compute_s = time.perf_counter() - self._started_s
        try:
            relief = future.result()
        except CalibrationError as exc:
            self.last_words = f"{exc}; the guidance keeps the last scan"
        else:
            self._use(relief)
            self.rescans += 1
            self.last_words = (f"Sand rescanned ({self.last_compute_s:.1f} s): {100 * (1 - relief.unseen_fraction):.0f}% "
                               "of the table seen; the guidance shows the new heights")
        self.follower.done()
        self._say(self.last_words)

    def _use(self, relief: ReliefScan) -> None:
        """The new relief for the guidance, the line of sight and the projector's light on the hillsides."""
        w = self.window
        terrain = relief.terrain()
        w.session.set_ground(Ground(terrain.grid.heights_in, terrain.grid.cell_in))
        if self._model is not None:
            w.projector_calibration = GroundProjection(self._model, terrain)
            if w.projector is not None and w.projector.mode == "projector":
                w.projector.projector_calibration = w.projector_calibration
                w.projector.update()
        if self.on_rescanned is not None:
            self.on_rescanned(self._frames[1])  # the sand under the room's light alone, as `sandtable scan` keeps it

    def _say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 15000)

    def close(self) -> None:
        self._disconnect()
        if self.scanning and self.window.projector is not None:
            self.window.projector.show_pattern(None)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
