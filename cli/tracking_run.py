"""What `sandtable track` does around its tracking loop, with one camera or several: run it until the
footage ends, Ctrl+C or a lost camera given up on, say what happens to a lost camera as it happens, and
close its outputs saying what became of them."""
from __future__ import annotations

import json
import sys
import threading
from typing import Any


def run_until_stopped(loop: Any, stop: threading.Event, max_frames: int | None,
                      give_up_after_s: float | None = None) -> int:
    """Rounds ``loop`` tracked in this call; Ctrl+C stops it cleanly (one line says so) and what was
    tracked so far still counts. ``give_up_after_s``: end when nothing came for that long, a camera
    lost (``loop.gave_up`` then says so)."""
    before = loop.frames_processed
    try:
        return loop.run(stop=stop, max_frames=max_frames, give_up_after_s=give_up_after_s)
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


#: With ``--max-frames`` (a bounded run: a script waits for it) a stream gone for this long ends the run
#: unless ``--give-up-after`` says otherwise; without either, a lost camera is retried until Ctrl+C
#: (at a game table it is usually plugged back in).
GIVE_UP_WITH_MAX_FRAMES_S = 10.0
#: ``sandtable track``'s exit status when it gave up on a lost camera (what it tracked is kept).
GAVE_UP_EXIT = 3


def give_up_after(give_up_after_s: float | None, max_frames: int | None) -> float | None:
    """The seconds without any frame, a camera lost, after which ``track`` ends (None: never)."""
    if give_up_after_s is not None:
        return give_up_after_s
    return GIVE_UP_WITH_MAX_FRAMES_S if max_frames is not None else None


def jsonl_event(event: Any, camera: str) -> dict[str, Any]:
    """A ``--jsonl`` line of its own for an event that happens between frames (a camera lost or back):
    ``{"type": "source_lost", "t_s", "frame", "camera"}``, ``source_back`` adding ``outage_s``."""
    line = {"type": event.kind.value, **{k: v for k, v in event.to_json().items() if k != "kind"}}
    line.setdefault("camera", camera)
    return line


class StreamNotices:
    """What ``track`` says while a live camera is lost, at once: each try to reopen it on stderr (a
    count), and with ``--jsonl`` a line for each of source_lost, source_retry and source_back (the
    frame lines say nothing while no frame comes). ``labels``: what the user calls each camera."""

    LINE_EVENTS = ("source_lost", "source_back")

    def __init__(self, *, jsonl: bool, labels: dict[str, str]) -> None:
        self.jsonl = jsonl
        self.labels = labels

    def subscriber(self) -> Any:
        from tracker.tracking_loop import Listener

        return Listener(on_event=self.on_event, on_retry=self.on_retry)

    def on_event(self, event: Any) -> None:
        if self.jsonl and event.kind.value in self.LINE_EVENTS:
            camera = str(event.payload.get("camera", next(iter(self.labels), "camera")))
            line = jsonl_event(event, camera)
            line["camera"] = self.labels.get(camera, camera)
            print(json.dumps(line), flush=True)

    def on_retry(self, retry: Any) -> None:
        label = self.labels.get(retry.camera, retry.camera)
        print(f"{label}: no frame for {retry.outage_s:.1f} s, reconnecting (attempt {retry.attempt})",
              file=sys.stderr, flush=True)
        if self.jsonl:
            print(json.dumps({**retry.to_json(), "camera": label}), flush=True)

    def gave_up(self, gave_up: Any, tracked: int) -> None:
        """The one line ``track`` ends with when it gave up (and its ``--jsonl`` line)."""
        from dataclasses import replace

        said = replace(gave_up, cameras=tuple(self.labels.get(c, c) for c in gave_up.cameras))
        if self.jsonl:
            print(json.dumps(said.to_json()), flush=True)
        message = said.message()
        print(f"sandtable track: {message}; {tracked} frames tracked", file=sys.stderr, flush=True)
