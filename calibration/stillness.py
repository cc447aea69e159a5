"""Is the picture still? When to rescan the sand while someone sculpts it.

A quick rescan is worth doing only when nobody's hands are over the sand and the sand has stopped
moving: the scan's patterns would otherwise read a hand as a hill, and flashing patterns in a
sculptor's face is the last thing they need. The camera tells: consecutive frames (shrunk and
blurred, so sensor noise and the sand's grain do not count) differ where something moves. The
picture is **still** once the share of moving pixels has stayed under ``max_moving_share`` for
``still_frames`` frames in a row; any moving frame starts the count again.

The caller leaves out what it changes itself (``ignore``: the projector's own overlay changing, the
tracked units' tags) — only the sculptor's hands should count.

>>> w = StillnessWatch(still_frames=3)
>>> flat = np.full((120, 160), 128, np.uint8)
>>> hand = flat.copy(); hand[30:90, 40:110] = 40                     # a dark hand over the sand
>>> [w.update(f).still for f in (flat, flat, hand, flat, flat, flat, flat)]
[False, False, False, False, False, False, True]
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.errors import CalibrationError


@dataclass(frozen=True)
class Stillness:
    """One frame's verdict: ``still`` once the picture has not moved for long enough; the share of
    pixels that moved since the last frame, and for how many frames in a row it has been quiet."""

    still: bool
    moving_share: float
    quiet_frames: int


class StillnessWatch:
    """Watch consecutive camera frames for movement (see the module's docstring). Mutable: it keeps
    the last frame and the count."""

    def __init__(self, *, still_frames: int = 10, max_moving_share: float = 0.002, threshold: float = 12.0,
                 scale: float = 0.25, blur_px: float = 1.5) -> None:
        if still_frames < 1:
            raise CalibrationError(f"still_frames={still_frames}: give how many quiet frames in a row make the picture still (1 or more)")
        if not 0 <= max_moving_share < 1:
            raise CalibrationError(f"max_moving_share={max_moving_share}: give a share between 0 and 1 (e.g. 0.002)")
        self.still_frames = int(still_frames)
        self.max_moving_share = float(max_moving_share)
        self.threshold = float(threshold)
        self.scale = float(scale)
        self.blur_px = float(blur_px)
        self._last: np.ndarray | None = None
        self._quiet = 0

    def _prepare(self, frame: np.ndarray) -> np.ndarray:
        g = np.asarray(frame)
        if g.ndim == 3:
            g = cv2.cvtColor(g, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(g, None, fx=self.scale, fy=self.scale, interpolation=cv2.INTER_AREA) if self.scale != 1 else g
        return cv2.GaussianBlur(small.astype(np.float32), (0, 0), self.blur_px)

    def reset(self) -> None:
        """Forget the count (after a rescan: its own patterns were not the sculptor moving)."""
        self._last = None
        self._quiet = 0

    def update(self, frame: np.ndarray, ignore: np.ndarray | None = None) -> Stillness:
        """Compare a frame (BGR or grey) with the previous one; ``ignore``: True on pixels to leave out."""
        cur = self._prepare(frame)
        if self._last is None or self._last.shape != cur.shape:
            self._last = cur
            self._quiet = 0
            return Stillness(False, 0.0, 0)
        moving = np.abs(cur - self._last) > self.threshold
        if ignore is not None:
            small = cv2.resize(np.asarray(ignore, np.uint8), (cur.shape[1], cur.shape[0]), interpolation=cv2.INTER_NEAREST)
            # the blur carries a change a few pixels past the ignored area's edge: ignore those too
            r = int(np.ceil(3 * self.blur_px)) + 1
            keep = cv2.dilate(small, np.ones((2 * r + 1, 2 * r + 1), np.uint8)) == 0
            share = float(moving[keep].mean()) if keep.any() else 0.0
        else:
            share = float(moving.mean())
        self._last = cur
        self._quiet = self._quiet + 1 if share <= self.max_moving_share else 0
        return Stillness(self._quiet >= self.still_frames, share, self._quiet)
