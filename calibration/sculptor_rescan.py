"""Follow the sculptor: a quick rescan of the sand each time someone has shaped it and taken their
hands away (issue 31's sculpting guidance).

:class:`RescanFollower` watches the camera's frames (:class:`calibration.stillness.StillnessWatch`).
Once hands have moved over the sand and the picture has then been still for a moment, it asks the
projector to show a quick rescan's patterns (white, black, one projector axis: 20 or so) one after
the other, takes the camera frame of each, and hands the frames over to be computed elsewhere (a
worker: decoding and triangulating take seconds). It never flashes patterns at someone's hands:

- a scan starts only once the picture is still, and only if the sand may have changed since the
  last one (hands were seen moving, or no scan was made yet), so a still table is not scanned over
  and over;
- while the patterns run, every Gray-code bit is shown with its inverse, and the two frames add up
  to the white frame plus the black one wherever nothing moved (``ScanPatterns.sequence_problems``
  uses the same sum): a hand that comes back breaks the sum, and the scan stops at once, the
  projector returns to the overlays, and the follower waits for stillness again;
- after the last pattern the white one is shown once more and compared with the first (a hand that
  came and went during the last few patterns).

The tracker is not fed the pattern frames (the caller holds the units' poses while :attr:`scanning`):
a rescan belongs to setting the table up, with the guidance on, not to play.

>>> from calibration.structured_light import ScanPatterns
>>> f = RescanFollower(ScanPatterns(128, 64, axes=("columns",)), watch=StillnessWatch(still_frames=2))
>>> sand = np.full((60, 80, 3), 120, np.uint8)
>>> [f.offer(sand).kind for _ in range(3)]          # never scanned: a scan once the picture is still
['watching', 'watching', 'show']
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.projector_model import ProjectorModel
from calibration.relief_scan import ReliefScan, scan_relief
from calibration.stillness import StillnessWatch
from calibration.structured_light import ScanPatterns
from calibration.table_calibration import TableCalibration

#: A frame counts as "hands moving" (the sand may have been reshaped) above this share of moving pixels.
SCULPTING_SHARE = 0.01
#: A pattern pair (or the closing white frame) whose pixels disagree with the opening frames over more
#: than this share means something came over the sand during the scan.
ABORT_SHARE = 0.01


@dataclass(frozen=True)
class RescanStep:
    """What the follower asks for after a frame. ``kind``: "watching" (show the overlays), "show"
    (the projector must show ``pattern``: grey, projector-sized), "captured" (``frames`` are a whole
    quick scan, to compute), "aborted" (``reason``: the overlays come back), "computing" (a captured
    scan is being computed: nothing to do)."""

    kind: str
    pattern: np.ndarray | None = None
    frames: tuple[np.ndarray, ...] = ()
    reason: str = ""


class RescanFollower:
    """The rescan's state (mutable: watching -> showing patterns -> computing -> watching).

    ``frames_per_pattern``: camera frames per pattern, the last of which is read (the earlier ones
    may still show the previous pattern while the projector and the camera catch up)."""

    def __init__(self, patterns: ScanPatterns, *, watch: StillnessWatch | None = None, frames_per_pattern: int = 2,
                 scale: float = 0.25, grace_frames: int = 10) -> None:
        if frames_per_pattern < 1:
            raise CalibrationError(f"frames_per_pattern={frames_per_pattern}: give 1 or more camera frames per pattern")
        self.patterns = patterns
        self.images = patterns.images()
        self.names = patterns.pattern_names()
        self.watch = watch if watch is not None else StillnessWatch(still_frames=15)
        self.frames_per_pattern = int(frames_per_pattern)
        self.scale = float(scale)
        #: the sand may have changed since the last scan (hands seen moving, or never scanned)
        self.wanted = True
        self.state = "watching"
        self._index = 0
        self._skip = 0
        self._frames: list[np.ndarray] = []
        self._small: list[np.ndarray] = []
        self.last_abort = ""
        #: frames after a scan (or a stop) whose changes are the projector's new picture, not hands
        self.grace_frames = int(grace_frames)
        self._grace = 0

    @property
    def scanning(self) -> bool:
        """Patterns are on the projector: the camera's frames are not for the tracker."""
        return self.state == "showing"

    @property
    def pattern_count(self) -> int:
        return len(self.images) + 1  # and the closing white frame

    @property
    def progress(self) -> tuple[int, int]:
        """Patterns taken so far, and of how many."""
        return (self._index, self.pattern_count)

    def offer(self, frame_bgr: np.ndarray, ignore: np.ndarray | None = None) -> RescanStep:
        """The next camera frame; ``ignore``: True where the caller's own changes show (tracked units)."""
        if self.state == "computing":
            return RescanStep("computing")
        if self.state == "watching":
            verdict = self.watch.update(frame_bgr, ignore)
            if self._grace > 0:
                self._grace -= 1
            elif verdict.moving_share > SCULPTING_SHARE:
                self.wanted = True
            if verdict.still and self.wanted:
                return self._begin()
            return RescanStep("watching")
        return self._take(frame_bgr)

    def done(self) -> None:
        """The captured scan was computed (or failed): watch again, from a fresh count (the new
        guidance on the sand is the projector's change, not a sculptor's)."""
        self.state = "watching"
        self.watch.reset()
        self._grace = self.grace_frames

    def hold_off(self) -> None:
        """The projector's picture is about to change by the caller's doing (a unit selected, an
        overlay turned on): the next few frames' changes are not hands."""
        self._grace = max(self._grace, self.grace_frames)

    def cancel(self, reason: str = "") -> RescanStep:
        """Stop a scan in progress (the guidance was switched off, the window closes)."""
        self.last_abort = reason
        self.state = "watching"
        self._frames, self._small = [], []
        self.watch.reset()
        self._grace = self.grace_frames
        return RescanStep("aborted", reason=reason)

    def _begin(self) -> RescanStep:
        self.state = "showing"
        self._index = 0
        self._frames, self._small = [], []
        self._skip = self.frames_per_pattern - 1
        return RescanStep("show", pattern=self.images[0])

    def _current_image(self) -> np.ndarray:
        return self.images[self._index] if self._index < len(self.images) else self.images[0]

    def _take(self, frame_bgr: np.ndarray) -> RescanStep:
        if self._skip > 0:
            self._skip -= 1
            return RescanStep("show", pattern=self._current_image())
        small = self._prepare(frame_bgr)
        if self._index == len(self.images):  # the closing white frame
            if self._changed(small, self._small[0]):
                return self.cancel("hands over the sand at the end of the rescan")
            frames = tuple(self._frames)
            self._frames, self._small = [], []
            self.state = "computing"
            self.wanted = False
            return RescanStep("captured", frames=frames)
        self._frames.append(np.asarray(frame_bgr))
        self._small.append(small)
        name = self.names[self._index]
        if name.endswith("-inverse"):
            pair = self._small[-2] + self._small[-1]
            if self._changed(pair, self._small[0] + self._small[1], lit_only=True):
                return self.cancel("hands over the sand during the rescan")
        self._index += 1
        self._skip = self.frames_per_pattern - 1
        return RescanStep("show", pattern=self._current_image())

    def _prepare(self, frame: np.ndarray) -> np.ndarray:
        g = np.asarray(frame)
        if g.ndim == 3:
            g = cv2.cvtColor(g, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(g, None, fx=self.scale, fy=self.scale, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small.astype(np.float32), (0, 0), 1.5)

    def _changed(self, measured: np.ndarray, expected: np.ndarray, *, lit_only: bool = False) -> bool:
        # a share of pixels off by more than a tenth of the projector's contrast (at least 12 levels)
        contrast = self._small[0] - self._small[1] if len(self._small) > 1 else np.full_like(expected, 255.0)
        lit = contrast >= 12.0
        if lit_only and not lit.any():
            return False
        off = np.abs(measured - expected) > np.maximum(12.0, 0.1 * np.abs(contrast))
        return float(off[lit].mean() if lit.any() else off.mean()) > ABORT_SHARE


def compute_rescan(patterns: ScanPatterns, frames: tuple[np.ndarray, ...], table: TableCalibration,
                   projector: ProjectorModel, *, cell_in: float = 0.25) -> ReliefScan:
    """The relief from a captured quick rescan (the worker's job: seconds). Raises
    :class:`CalibrationError` with one line when the frames cannot make a relief."""
    problems = patterns.sequence_problems(list(frames))
    if problems:
        raise CalibrationError(f"the rescan was not used: {problems[0]}")
    relief = scan_relief(patterns.decode(list(frames)), table, projector, cell_in=cell_in)
    problem = relief.problem()
    if problem is not None:
        raise CalibrationError(f"the rescan was not used: {problem}")
    return relief
