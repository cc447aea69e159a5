"""Videos people can share: H.264 in MP4 (yuv420p, the index at the front), which every browser plays,
written with PyAV, whose wheels ship FFmpeg and libx264. OpenCV's writer offered MPEG-4 Part 2 ("mp4v"),
which Chromium refuses.

``crash_safe``: a fragmented MP4 instead (an empty index up front, then a self-describing fragment per
second, each handed to the operating system as it is cut), so a process killed mid-recording leaves a
video that plays up to its last whole fragment. A plain MP4 writes its index at the end: killed, it is
unreadable.

>>> even_size((1281, 721))
(1280, 720)
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

#: Constant rate factor: 18 is close to visually lossless (the demo's small overlay text stays sharp).
DEFAULT_CRF = 18
#: x264's speed/size trade-off; "veryfast" keeps 1080p well inside a frame's time on one core.
DEFAULT_PRESET = "veryfast"
#: In a crash-safe video a fragment is cut at every key frame: one a second bounds what a kill loses.
CRASH_SAFE_KEYFRAME_S = 1.0


def even_size(size_px: tuple[int, int]) -> tuple[int, int]:
    """H.264 in yuv420p needs even width and height: the last odd row or column is dropped."""
    return size_px[0] - size_px[0] % 2, size_px[1] - size_px[1] % 2


class H264Writer:
    """Write BGR (or grey) frames (numpy, ``size_px`` = (width, height)) to an MP4 at ``fps`` (``close()`` it, or
    use it as a context manager). ``crash_safe``: fragmented, readable after a kill (see the module)."""

    def __init__(self, path: str | Path, fps: float, size_px: tuple[int, int], *, crf: int = DEFAULT_CRF,
                 preset: str = DEFAULT_PRESET, crash_safe: bool = False) -> None:
        import av

        self.path = Path(path)
        self.size_px = (int(size_px[0]), int(size_px[1]))
        self._even = even_size(self.size_px)
        if min(self._even) < 2:
            raise ValueError(f"a video needs at least 2x2 pixels, not {size_px[0]}x{size_px[1]}")
        if crash_safe:
            # empty_moov + a fragment per key frame, flushed to the file as soon as it is cut.
            options = {"movflags": "+frag_keyframe+empty_moov+default_base_moof", "flush_packets": "1"}
        else:
            # faststart: the index before the data, so a browser starts playing before the whole file arrives.
            options = {"movflags": "+faststart"}
        self._container: Any = av.open(str(self.path), mode="w", format="mp4", options=options)
        rate = Fraction(float(fps)).limit_denominator(1001)
        self._stream: Any = self._container.add_stream("libx264", rate=rate)
        self._stream.width, self._stream.height = self._even
        self._stream.pix_fmt = "yuv420p"
        if crash_safe:
            self._stream.codec_context.gop_size = max(1, round(float(fps) * CRASH_SAFE_KEYFRAME_S))
        self._stream.options = {"crf": str(int(crf)), "preset": preset, "profile": "high"}
        self.frames = 0
        self._closed = False

    def write(self, image_bgr: np.ndarray) -> None:
        import av

        h, w = image_bgr.shape[:2]
        if (w, h) != self.size_px:
            raise ValueError(f"frame of {w}x{h} pixels in a {self.size_px[0]}x{self.size_px[1]} video")
        ew, eh = self._even
        # A grey camera frame (2-D) is written as it is: the encoder turns either into yuv420p.
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(image_bgr[:eh, :ew]),
                                           format="gray" if image_bgr.ndim == 2 else "bgr24")
        for packet in self._stream.encode(frame):
            self._container.mux(packet)
        self.frames += 1

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            for packet in self._stream.encode(None):  # flush the encoder's delayed frames
                self._container.mux(packet)
        finally:
            self._container.close()

    #: OpenCV's VideoWriter calls it so; code that writes either kind of video closes both alike.
    release = close

    def __enter__(self) -> "H264Writer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["CRASH_SAFE_KEYFRAME_S", "DEFAULT_CRF", "DEFAULT_PRESET", "H264Writer", "even_size"]
