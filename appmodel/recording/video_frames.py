"""The recording's own camera video, frame by frame at a replay time (Qt-free; PyAV, which the
recorder writes it with).

The frame shown at replay time t is the last frame recorded at or before t (as a unit's pose at t is
its last pose), found in the ``frames`` table (its ``video_frame`` column, docs/recording-format.md),
then decoded: forward from the frame decoded last when it is close ahead (playback), else from the key
frame before it (a jump; the recorder puts one every second). Only the frame table's times and one
decoder are held, whatever the length of the game. Not thread-safe: one owner (the window's video
worker) calls :meth:`RecordedVideo.image_at`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

#: Decoding forward past this many frames costs more than seeking to the key frame before the target.
FORWARD_LIMIT_FRAMES = 45


class RecordedVideo:
    """``frame_times``: the reader's (N, 3) rows of frame index, t_s, video frame (-1: none)."""

    def __init__(self, video_path: str | Path, frame_times: np.ndarray) -> None:
        import av

        self.path = Path(video_path)
        recorded = frame_times[frame_times[:, 2] >= 0]
        self._times = np.ascontiguousarray(recorded[:, 1])
        self._numbers = recorded[:, 2].astype(np.int64)
        try:
            self._container: Any = av.open(str(self.path))
            self._stream: Any = self._container.streams.video[0]
        except (OSError, IndexError, av.error.FFmpegError) as exc:
            raise ValueError(f"cannot open the recording's video {str(self.path)!r} ({exc})") from exc
        self._stream.thread_type = "AUTO"
        rate = self._stream.average_rate or self._stream.guessed_rate or 30
        self._frame_s = 1.0 / float(rate)
        self._start = int(self._stream.start_time or 0)
        self._decoded: Any = None  # the decoder's frame iterator, positioned after ``_last``
        self._last = -1
        self._image: np.ndarray | None = None

    @property
    def frame_count(self) -> int:
        return len(self._numbers)

    def number_at(self, t_s: float) -> int | None:
        """The video frame number shown at replay time ``t_s`` (None before the first recorded frame)."""
        i = int(np.searchsorted(self._times, t_s + 1e-9, side="right")) - 1
        return int(self._numbers[i]) if i >= 0 else None

    def image_at(self, t_s: float) -> tuple[int, np.ndarray] | None:
        """(frame number, BGR image) shown at ``t_s``; None before the first frame or past the video's end
        (a video cut short by a killed session keeps the frames it has: the last one is shown)."""
        n = self.number_at(t_s)
        if n is None:
            return None
        image = self.decode(n)
        return None if image is None else (self._last, image)

    def decode(self, n: int) -> np.ndarray | None:
        if n == self._last and self._image is not None:
            return self._image
        if self._decoded is None or not (self._last < n <= self._last + FORWARD_LIMIT_FRAMES):
            pts = self._start + int(round(n * self._frame_s / float(self._stream.time_base)))
            self._container.seek(pts, stream=self._stream, backward=True, any_frame=False)
            self._decoded = self._container.decode(self._stream)
            self._last = -1
        import av

        try:
            for frame in self._decoded:
                number = int(round((int(frame.pts) - self._start) * float(self._stream.time_base) / self._frame_s))
                if number < n:
                    continue
                self._last, self._image = number, frame.to_ndarray(format="bgr24")
                return self._image
        except av.error.FFmpegError:
            pass
        self._decoded = None  # the video ended before frame n: show the last frame it has
        return self._image

    def close(self) -> None:
        self._container.close()


__all__ = ["FORWARD_LIMIT_FRAMES", "RecordedVideo"]
