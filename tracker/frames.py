"""A camera frame as a value, and the one interface every frame source offers.

Two ways to read, one for each kind of source:

* ``read()`` hands over the next frame, or None at the end. Files, folders, the synthetic table and
  replays give every frame in order (nothing is skipped); a live camera gives the newest frame it has
  not handed over yet, waiting for it.
* ``latest_frame(timeout_s)`` hands over the newest frame that is newer than the last one handed over,
  waiting at most ``timeout_s``; None if none came (a camera that dropped out). For files it is
  ``read()``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True, eq=False)
class Frame:
    """One image with its position in the stream.

    ``index`` counts frames from 0 in the order the source delivered them; ``t_s`` is seconds since the
    source started (a file: index / fps; a camera: wall-clock time since opening). ``truth`` carries the
    synthetic table's ground truth (``TagTruth`` values) when the frame was rendered, else ``()``.
    """

    image_bgr: np.ndarray
    index: int
    t_s: float
    truth: tuple[Any, ...] = field(default=())

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return (int(self.image_bgr.shape[1]), int(self.image_bgr.shape[0]))


@runtime_checkable
class FrameSource(Protocol):
    """What the tracker reads from. Use as a context manager, or call ``close()``."""

    name: str  # how the user named it (for messages)
    is_live: bool  # True for cameras: frames arrive in real time and old ones are dropped
    fps: float  # frames per second (nominal for cameras)

    @property
    def frame_count(self) -> int | None:
        """Number of frames, when known in advance (files); None for live sources."""

    @property
    def connected(self) -> bool:
        """False while a live source has dropped out (it keeps retrying); always True for files."""

    def read(self) -> Frame | None: ...

    def latest_frame(self, timeout_s: float) -> Frame | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> "FrameSource": ...

    def __exit__(self, *exc: object) -> None: ...
