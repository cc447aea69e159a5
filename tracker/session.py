"""Running the tracker over a frame source until it ends (or is stopped), recording as it goes.

The loop a front end runs: files are processed frame by frame (every frame, as fast as possible);
live cameras are polled with ``latest_frame`` so that a camera dropping out is noticed (source_lost),
the game state is kept, and tracking resumes when it is back (source_back).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from tracker.pipeline import TrackedFrame, Tracker


def run_tracking(
    source: Any,
    tracker: Tracker,
    *,
    recorder: Any | None = None,
    record_video: bool = False,
    on_frame: Callable[[TrackedFrame], None] | None = None,
    stop: threading.Event | None = None,
    max_frames: int | None = None,
    poll_timeout_s: float = 0.5,
) -> int:
    """Track every frame of ``source`` (a ``FrameSource``); returns the number of frames processed.

    ``recorder`` (a ``tracker.recording.Recorder``) gets every event (it is attached to the tracker's
    bus here) and each frame's changed poses; with ``record_video`` also the image. ``on_frame`` is
    called with each result (progress bars, JSON output, the GUI). ``stop`` ends a live session.
    """
    if recorder is not None:
        recorder.attach(tracker.bus)
    processed = 0
    while stop is None or not stop.is_set():
        if max_frames is not None and processed >= max_frames:
            break
        if source.is_live:
            frame = source.latest_frame(poll_timeout_s)
            tracker.source_status(source.connected)  # emits source_lost / source_back on a change only
            if frame is None:
                continue
        else:
            frame = source.read()
            if frame is None:
                break
        result = tracker.process(frame)
        processed += 1
        if recorder is not None:
            recorder.record_frame(result.frame_index, result.t_s, result.poses, frame.image_bgr if record_video else None)
        if on_frame is not None:
            on_frame(result)
    return processed
