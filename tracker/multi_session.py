"""Running the several-camera tracker over its sources until they end (or it is stopped).

Each round takes the next frame of every local source (files: in lockstep, none skipped, until all
have ended; live cameras: the newest frame each has) and the newest batch each camera node sent, then
fuses them. A camera that stops delivering (a camera dropping out, a node whose batches stop for
``node_timeout_s``) is reported once (``source_lost`` with its name) while the others keep tracking.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from tracker.multi_camera import MultiCameraTracker, MultiTrackedFrame

#: A camera node not heard from for this long is reported lost.
NODE_TIMEOUT_S = 2.0


def run_multi_tracking(
    sources: Mapping[str, Any],
    tracker: MultiCameraTracker,
    *,
    receiver: Any | None = None,
    recorder: Any | None = None,
    on_frame: Callable[[MultiTrackedFrame], None] | None = None,
    stop: threading.Event | None = None,
    max_frames: int | None = None,
    poll_timeout_s: float = 0.5,
    node_timeout_s: float = NODE_TIMEOUT_S,
) -> int:
    """Track until every file source has ended (or ``stop``/``max_frames``); returns rounds processed.

    ``sources`` maps camera names to frame sources (``tracker.sources``); ``receiver`` is a
    ``tracker.camera_node.DetectionReceiver`` for cameras on other computers (their names are the
    names the nodes send). Files and live cameras are not mixed in one session: a file is read as fast
    as it can be, a camera in real time.
    """
    if recorder is not None:
        recorder.attach(tracker.bus)
    ended: set[str] = set()
    started = time.monotonic()
    processed = 0
    while stop is None or not stop.is_set():
        if max_frames is not None and processed >= max_frames:
            break
        frames = {}
        for name, source in sources.items():
            if name in ended:
                continue
            if source.is_live:
                frame = source.latest_frame(poll_timeout_s / max(1, len(sources)) if not frames else 0.0)
                tracker.camera_status(name, source.connected)
            else:
                frame = source.read()
                if frame is None:
                    ended.add(name)
            if frame is not None:
                frames[name] = frame
        batches = {}
        if receiver is not None:
            for name, dets in receiver.receive(0.0 if frames else poll_timeout_s):
                if name in tracker.camera_names:
                    batches[name] = dets  # the newest of each node's batches wins
            now = time.monotonic()
            for name in tracker.camera_names:
                if name not in sources:
                    heard = receiver.last_heard_s.get(name, started)
                    tracker.camera_status(name, now - heard < node_timeout_s)
        if not frames and not batches:
            remote = [n for n in tracker.camera_names if n not in sources]
            nodes_done = receiver is None or set(remote) <= receiver.ended
            if len(ended) == len(sources) and nodes_done:
                break  # every file and every node's file is over (live cameras never end)
            continue
        result = tracker.process(frames, detections=batches or None) if frames else tracker.process_detections(
            batches, t_s=time.monotonic() - started)
        processed += 1
        if recorder is not None:
            recorder.record_frame(result.frame_index, result.t_s, result.poses, None)
        if on_frame is not None:
            on_frame(result)
    return processed
