"""What `sandtable track` does around its tracking loop, with one camera or several: run it until the
footage ends or Ctrl+C, and close its outputs saying what became of them."""
from __future__ import annotations

import sys
import threading
from typing import Any


def run_until_stopped(loop: Any, stop: threading.Event, max_frames: int | None) -> int:
    """Rounds ``loop`` tracked in this call; Ctrl+C stops it cleanly (one line says so) and what was
    tracked so far still counts."""
    before = loop.frames_processed
    try:
        return loop.run(stop=stop, max_frames=max_frames)
    except KeyboardInterrupt:
        stop.set()
        print("sandtable track: stopped (Ctrl+C)", file=sys.stderr)
        return loop.frames_processed - before


def close_outputs(tuio: Any | None, recorder: Any | None, record_path: str | None) -> None:
    """Close the TUIO sender (saying how many bundles were lost) and the recorder (saying where it went)."""
    if tuio is not None:
        tuio.close()
        if tuio.send_errors:
            print(f"TUIO: {tuio.send_errors} bundles could not be sent ({tuio.last_error})", file=sys.stderr)
    if recorder is not None:
        recorder.close()
        print(f"recorded to {record_path}", file=sys.stderr)
        if getattr(recorder, "records_video", False):
            from tracker.recording import video_path_for

            dropped = recorder.video_frames_dropped
            lost = (f"; {dropped} of {recorder.video_frame_count + dropped} frames left out of it (the encoder fell behind "
                    "the camera; the poses of every frame are recorded)") if dropped else ""
            print(f"its video: {video_path_for(record_path)} ({recorder.video_frames_encoded} frames){lost}", file=sys.stderr)
