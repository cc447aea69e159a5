"""The camera video of a recording as a frame source (``sandtable track game.sqlite`` re-tracks it);
reading the recording itself is ``tracker.recording``."""
from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import numpy as np

from tracker.errors import SourceError
from tracker.frames import Frame
from tracker.recording import open_recording


class ReplaySource:
    """The camera video of a recording as a frame source, with the recorded times (``seek`` to scrub)."""

    is_live = False

    def __init__(self, path: str | Path) -> None:
        import cv2

        self._opened = ExitStack()
        self.reader = self._opened.enter_context(open_recording(path))  # a damaged file is rescued, as debrief does
        self.name = str(path)
        self.problems = tuple(self.reader.problems)
        video = self.reader.video_path
        if video is None or not video.is_file():
            self._opened.close()
            raise SourceError(
                f"recording '{path}' has no camera video to replay; record with --video, or open it in the replay "
                "view for poses and events"
            )
        times = self.reader.frame_times()
        self._times = times[times[:, 2] >= 0]
        self._capture = cv2.VideoCapture(str(video))
        if not self._capture.isOpened():
            self._opened.close()
            raise SourceError(f"cannot open the video '{video}' of recording '{path}'")
        self.fps = float(self.reader.meta.get("video_fps", "30") or 30)
        self._next = 0

    @property
    def frame_count(self) -> int | None:
        return len(self._times)

    @property
    def connected(self) -> bool:
        return True

    def seek(self, t_s: float) -> None:
        """Continue from the first recorded frame at or after ``t_s``."""
        import cv2

        i = int(np.searchsorted(self._times[:, 1], t_s, side="left"))
        self._next = i
        if i < len(self._times):
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, int(self._times[i, 2]))

    def read(self) -> Frame | None:
        if self._next >= len(self._times):
            return None
        ok, image = self._capture.read()
        if not ok or image is None:
            return None  # the video ends early (a killed session): the frames that exist are replayed
        index, t_s, _ = self._times[self._next]
        self._next += 1
        return Frame(image_bgr=image, index=int(index), t_s=float(t_s))

    def latest_frame(self, timeout_s: float) -> Frame | None:
        return self.read()

    def close(self) -> None:
        self._capture.release()
        self._opened.close()

    def __enter__(self) -> "ReplaySource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
