"""A camera on its own small computer: it sends its detections, not its video, to the table's computer.

A Raspberry Pi beside a camera runs ``sandtable camera-node``: it reads the camera, finds the tags
(the same fast detector as on the table's computer) and sends each frame's detections — ids, corners
in pixels, decision margins, corrected bits — over ZeroMQ. A 1080p frame is 6 MB raw; its detections
are a few hundred bytes, so a club's Wi-Fi carries several cameras. The table's computer, which holds
every camera's calibration, fuses them (``tracker.multi_camera``).

Transport: a ZeroMQ PUSH socket on the node (it binds; the table connects to each node), PULL on the
table. ZeroMQ reconnects by itself when either side restarts, frames each message, and queues at most
``SEND_QUEUE`` batches: a live camera drops a batch rather than letting the table fall behind (the next
one is newer anyway); a file or synthetic source waits for the table, so nothing is skipped. Every
frame sends a batch, even an empty one, so that the table knows the node is alive; a file's end is
sent too, so that the table knows when every camera is done.

Messages are JSON (UTF-8): ``{"format": "sandtable-detections", "version": 1, "camera", "frame",
"t_s", "frame_size_px": [w, h], "ids": [...], "corners_px": [[[x, y] x 4], ...], "margins": [...],
"hammings": [...]}``; corners in OpenCV's pixel convention, as ``TagDetections`` holds them.
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from tracker.detections import TagDetections
from tracker.errors import TrackerError

DETECTIONS_FORMAT = "sandtable-detections"
DETECTIONS_VERSION = 1
DEFAULT_PORT = 5556
#: Batches a node keeps queued for a slow or absent table (live cameras drop beyond this).
SEND_QUEUE = 4


def encode_detections(camera: str, dets: TagDetections, *, end: bool = False) -> bytes:
    """One batch as the message a node sends; ``end``: the node's video or folder is over (no batch)."""
    if end:
        return json.dumps({"format": DETECTIONS_FORMAT, "version": DETECTIONS_VERSION, "camera": camera, "end": True}).encode("utf-8")
    return json.dumps(
        {
            "format": DETECTIONS_FORMAT,
            "version": DETECTIONS_VERSION,
            "camera": camera,
            "frame": int(dets.frame_index),
            "t_s": round(float(dets.t_s), 6),
            "frame_size_px": [int(v) for v in dets.frame_size_px],
            "ids": [int(i) for i in dets.tag_ids],
            "corners_px": np.round(dets.corners_px, 3).tolist(),
            "margins": np.round(dets.decision_margins, 2).tolist(),
            "hammings": [int(h) for h in dets.hammings],
        },
        separators=(",", ":"),
    ).encode("utf-8")


def decode_detections(data: bytes) -> tuple[str, TagDetections | None]:
    """(camera name, detections) of a message, detections None for a node's end of stream;
    ``TrackerError`` for anything that is not one."""
    try:
        msg = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise TrackerError("a message that is not sandtable detections arrived; is another program sending to this address?") from None
    if not isinstance(msg, dict) or msg.get("format") != DETECTIONS_FORMAT:
        raise TrackerError("a message that is not sandtable detections arrived; is another program sending to this address?")
    if msg.get("version") != DETECTIONS_VERSION:
        raise TrackerError(
            f"camera node {msg.get('camera', '?')!r} sends detections version {msg.get('version')!r}; "
            f"this program reads version {DETECTIONS_VERSION}: run the same sandtable version on both computers"
        )
    if msg.get("end") is True:
        return str(msg.get("camera", "")), None
    try:
        n = len(msg["ids"])
        corners = np.asarray(msg["corners_px"], dtype=np.float64).reshape(n, 4, 2)
        dets = TagDetections(
            tag_ids=np.asarray(msg["ids"], dtype=np.int64).reshape(n),
            corners_px=corners,
            centers_px=corners.mean(axis=1) if n else np.zeros((0, 2)),
            decision_margins=np.asarray(msg["margins"], dtype=np.float64).reshape(n),
            hammings=np.asarray(msg["hammings"], dtype=np.int64).reshape(n),
            frame_index=int(msg["frame"]),
            t_s=float(msg["t_s"]),
            frame_size_px=(int(msg["frame_size_px"][0]), int(msg["frame_size_px"][1])),
        )
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise TrackerError(f"a damaged detections message from camera {msg.get('camera', '?')!r} ({exc}); it was skipped") from None
    return str(msg.get("camera", "")), dets


def _zmq() -> Any:
    try:
        import zmq
    except ImportError:  # pragma: no cover - a dependency of the package
        raise TrackerError("camera nodes need pyzmq: pip install pyzmq") from None
    return zmq


class DetectionSender:
    """The node's end: binds ``address`` (e.g. ``tcp://0.0.0.0:5556``) and sends batches."""

    def __init__(self, address: str) -> None:
        zmq = _zmq()
        self._zmq = zmq
        self._ctx = zmq.Context.instance()
        self._socket = self._ctx.socket(zmq.PUSH)
        self._socket.setsockopt(zmq.SNDHWM, SEND_QUEUE)
        self._socket.setsockopt(zmq.LINGER, 500)
        try:
            self._socket.bind(address)
        except zmq.ZMQError as exc:
            self._socket.close(0)
            raise TrackerError(f"camera node cannot listen on {address}: {exc}; give a free port, e.g. tcp://0.0.0.0:{DEFAULT_PORT + 1}") from None
        self.address = address
        self.dropped = 0

    def send_end(self, camera: str) -> None:
        """Tell the table this node's file is over (a live camera never ends); given up after 5 s
        when no table is listening any more."""
        if self._socket.poll(5000, self._zmq.POLLOUT):
            try:
                self._socket.send(encode_detections(camera, TagDetections.empty(), end=True), flags=self._zmq.NOBLOCK)
            except self._zmq.Again:
                pass

    def send(self, camera: str, dets: TagDetections, *, wait: bool) -> bool:
        """Send one batch; with ``wait=False`` (live cameras) a full queue drops it (returns False)."""
        data = encode_detections(camera, dets)
        if wait:
            self._socket.send(data)
            return True
        try:
            self._socket.send(data, flags=self._zmq.NOBLOCK)
            return True
        except self._zmq.Again:
            self.dropped += 1
            return False

    def close(self) -> None:
        self._socket.close()


class DetectionReceiver:
    """The table's end: connects to every node's address and hands over what arrived."""

    def __init__(self, addresses: Sequence[str]) -> None:
        zmq = _zmq()
        self._zmq = zmq
        self._ctx = zmq.Context.instance()
        self._socket = self._ctx.socket(zmq.PULL)
        self._socket.setsockopt(zmq.LINGER, 0)
        for address in addresses:
            try:
                self._socket.connect(address)
            except zmq.ZMQError as exc:
                self._socket.close(0)
                raise TrackerError(f"camera node address {address!r}: {exc}; write it as tcp://HOST:PORT") from None
        self.last_heard_s: dict[str, float] = {}
        self.ended: set[str] = set()  # nodes whose file is over
        self.skipped: list[str] = []

    def receive(self, timeout_s: float) -> list[tuple[str, TagDetections]]:
        """Every batch waiting now (waiting up to ``timeout_s`` for the first), oldest first."""
        out: list[tuple[str, TagDetections]] = []
        if not self._socket.poll(int(timeout_s * 1000)):
            return out
        while True:
            try:
                data = self._socket.recv(flags=self._zmq.NOBLOCK)
            except self._zmq.Again:
                return out
            try:
                name, dets = decode_detections(data)
            except TrackerError as exc:
                self.skipped.append(str(exc))
                continue
            self.last_heard_s[name] = time.monotonic()
            if dets is None:
                self.ended.add(name)
            else:
                out.append((name, dets))

    def close(self) -> None:
        self._socket.close()

    def __enter__(self) -> "DetectionReceiver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_camera_node(
    source: Any,
    sender: DetectionSender,
    *,
    camera: str,
    stop: threading.Event | None = None,
    max_frames: int | None = None,
    detector_settings: Any | None = None,
    on_batch: Any | None = None,
) -> int:
    """Detect tags in every frame of ``source`` and send them; returns the number of frames sent."""
    from tracker.fast_detection import FastTagDetector

    sent = 0
    with FastTagDetector(settings=detector_settings) as detector:
        while stop is None or not stop.is_set():
            if max_frames is not None and sent >= max_frames:
                break
            frame = source.latest_frame(0.5) if source.is_live else source.read()
            if frame is None:
                if source.is_live:
                    continue
                sender.send_end(camera)
                break
            dets = detector.detect(frame.image_bgr, frame_index=frame.index, t_s=frame.t_s)
            sender.send(camera, dets, wait=not source.is_live)
            sent += 1
            if on_batch is not None:
                on_batch(dets)
    return sent
