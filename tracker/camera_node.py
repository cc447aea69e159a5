"""A camera on its own small computer: it sends its detections, not its video, to the table's computer.

A Raspberry Pi beside a camera runs ``sandtable camera-node``: it reads the camera, finds the tags
(the same fast detector as on the table's computer) and sends each frame's detections — ids, corners
in pixels, decision margins, corrected bits — over ZeroMQ. A 1080p frame is 6 MB raw; its detections
are a few hundred bytes, so a club's Wi-Fi carries several cameras. The table's computer, which holds
every camera's calibration, fuses them (``tracker.multi_camera``).

Transport: a ZeroMQ PUSH socket on the node (it binds; the table connects to each node), one PULL
socket per node on the table, secured with ZeroMQ's CURVE (:mod:`tracker.node_keys`): a node sends to
paired tables only -- an unknown consumer is refused during the handshake, so it cannot take a share
of the batches -- and the table hears a node only if it holds that node's secret key. Everything is
encrypted. ZeroMQ reconnects by itself when either side restarts, frames each message, and queues at most
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
import math
import sys
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


#: The largest message read: a batch of every tag of the family with room to spare is ~150 kB.
MAX_MESSAGE_BYTES = 1_000_000
#: The most tags one batch may hold (the tag36h11 family has 587).
MAX_TAGS = 1024
_MAX_ID = 1 << 16
_MAX_FRAME = 1 << 53
_MAX_SIDE_PX = 100_000
_MAX_ABS_S = 1e9


def _whole(value: Any, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < high:
        raise ValueError(f"{what} {str(value)[:40]} is not a whole number from {low} to {high - 1}")
    return value


def _finite(value: Any, bound: float, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or abs(value) > bound:
        raise ValueError(f"{what} {str(value)[:40]} is not a number within +-{bound:g}")
    return float(value)


def _list(value: Any, n: int | None, what: str) -> list[Any]:
    if not isinstance(value, list) or (n is not None and len(value) != n):
        raise ValueError(f"{what} is not a list" + (f" of {n}" if n is not None else ""))
    return value


def decode_detections(data: bytes) -> tuple[str, TagDetections | None]:
    """(camera name, detections) of a message, detections None for a node's end of stream;
    ``TrackerError`` for anything that is not one. Every field is checked for its type and range
    before use: a message from the network never raises anything else, whatever it holds."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise TrackerError(f"a message of {len(data)} bytes arrived (at most {MAX_MESSAGE_BYTES}); it was skipped")
    try:
        msg = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise TrackerError("a message that is not sandtable detections arrived; is another program sending to this address?") from None
    if not isinstance(msg, dict) or msg.get("format") != DETECTIONS_FORMAT:
        raise TrackerError("a message that is not sandtable detections arrived; is another program sending to this address?")
    camera = msg.get("camera", "")
    if not isinstance(camera, str) or len(camera) > 64:
        raise TrackerError("a detections message with no proper camera name arrived; it was skipped")
    if msg.get("version") != DETECTIONS_VERSION:
        raise TrackerError(
            f"camera node {camera!r} sends detections version {str(msg.get('version'))[:20]!r}; "
            f"this program reads version {DETECTIONS_VERSION}: run the same sandtable version on both computers"
        )
    if msg.get("end") is True:
        return camera, None
    try:
        ids = [_whole(v, 0, _MAX_ID, "tag id") for v in _list(msg["ids"], None, "ids")]
        n = len(ids)
        if n > MAX_TAGS:
            raise ValueError(f"{n} tags in one frame (at most {MAX_TAGS})")
        size = _list(msg["frame_size_px"], 2, "frame_size_px")
        width, height = (_whole(v, 0, _MAX_SIDE_PX, "frame side") for v in size)
        reach = 4.0 * max(width, height, 1)  # corners a little outside the picture happen; far outside do not
        corners = [[[_finite(c, reach, "corner") for c in _list(pt, 2, "a corner")] for pt in _list(quad, 4, "a tag's corners")]
                   for quad in _list(msg["corners_px"], n, "corners_px")]
        margins = [_finite(v, 1e6, "decision margin") for v in _list(msg["margins"], n, "margins")]
        hammings = [_whole(v, 0, 64, "corrected bits") for v in _list(msg["hammings"], n, "hammings")]
        corners_px = np.asarray(corners, dtype=np.float64).reshape(n, 4, 2)
        dets = TagDetections(
            tag_ids=np.asarray(ids, dtype=np.int64).reshape(n),
            corners_px=corners_px,
            centers_px=corners_px.mean(axis=1) if n else np.zeros((0, 2)),
            decision_margins=np.asarray(margins, dtype=np.float64).reshape(n),
            hammings=np.asarray(hammings, dtype=np.int64).reshape(n),
            frame_index=_whole(msg["frame"], 0, _MAX_FRAME, "frame"),
            t_s=_finite(msg["t_s"], _MAX_ABS_S, "t_s"),
            frame_size_px=(width, height),
        )
    except (KeyError, ValueError, TypeError, IndexError, OverflowError) as exc:
        what = f"no {exc}" if isinstance(exc, KeyError) else str(exc)
        raise TrackerError(f"a damaged detections message from camera {camera!r} ({what[:120]}); it was skipped") from None
    return camera, dets


def _zmq() -> Any:
    try:
        import zmq
    except ImportError:  # pragma: no cover - a dependency of the package
        raise TrackerError("camera nodes need pyzmq: pip install pyzmq") from None
    return zmq


class DetectionSender:
    """The node's end: binds ``address`` (e.g. ``tcp://0.0.0.0:5556``) and sends batches to paired tables only.

    ``keys``: this node's :class:`~tracker.node_keys.KeyPair`; ``tables``: the public keys of the
    tables it may send to. Anyone else is refused during ZeroMQ's CURVE handshake, before a batch
    could reach them, and counted (:attr:`refused`)."""

    def __init__(self, address: str, *, keys: Any, tables: Sequence[bytes]) -> None:
        from zmq.auth.thread import ThreadAuthenticator

        from tracker.node_keys import Gatekeeper

        zmq = _zmq()
        if not tables:
            raise TrackerError("no table is paired with this camera node, so it would send to no one: copy the table's "
                               "table.key into this node's keys folder, under tables/ (docs/tracker.md, 'Pairing a camera node')")
        self._zmq = zmq
        # A context of its own: ZeroMQ's authenticator answers for every socket of its context.
        self._ctx = zmq.Context()
        self.gatekeeper = Gatekeeper(list(tables))
        self._auth = ThreadAuthenticator(self._ctx)
        self._auth.start()
        self._auth.configure_curve_callback("*", credentials_provider=self.gatekeeper)
        self._socket = self._ctx.socket(zmq.PUSH)
        self._socket.curve_server = True
        self._socket.curve_publickey = keys.public_z85
        self._socket.curve_secretkey = keys.secret_z85
        self._socket.setsockopt(zmq.SNDHWM, SEND_QUEUE)
        self._socket.setsockopt(zmq.LINGER, 500)
        # What a table might send back (nothing, in this pattern) is capped too.
        self._socket.setsockopt(zmq.MAXMSGSIZE, 4096)
        try:
            self._socket.bind(address)
        except zmq.ZMQError as exc:
            self.close(0)
            raise TrackerError(f"camera node cannot listen on {address}: {exc}; give a free port, e.g. tcp://0.0.0.0:{DEFAULT_PORT + 1}") from None
        self.address = address
        self.dropped = 0

    @property
    def refused(self) -> int:
        """Connections refused because their key is not a paired table's."""
        return self.gatekeeper.refused

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

    def close(self, linger_ms: int | None = None) -> None:
        self._socket.close(linger_ms)
        self._auth.stop()
        self._ctx.term()


class DetectionReceiver:
    """The table's end: one socket per paired node, so that what arrives is known to come from it.

    ``nodes``: (name, address, the node's public key); ``keys``: the table's own key pair. A node
    whose key does not match cannot complete the handshake; a message whose camera is not the
    node's own, or that is damaged, is skipped and counted (:attr:`bad_messages`, by node)."""

    def __init__(self, nodes: Sequence[tuple[str, str, bytes]], *, keys: Any) -> None:
        zmq = _zmq()
        self._zmq = zmq
        self._ctx = zmq.Context.instance()
        self._sockets: dict[Any, str] = {}
        self._poller = zmq.Poller()
        try:
            for name, address, node_key in nodes:
                sock = self._ctx.socket(zmq.PULL)
                self._sockets[sock] = name
                sock.setsockopt(zmq.LINGER, 0)
                sock.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)  # bigger: the connection is dropped, not read
                sock.setsockopt(zmq.RCVHWM, 64)
                sock.curve_serverkey = node_key
                sock.curve_publickey = keys.public_z85
                sock.curve_secretkey = keys.secret_z85
                try:
                    sock.connect(address)
                except zmq.ZMQError as exc:
                    raise TrackerError(f"camera node address {address!r}: {exc}; write it as tcp://HOST:PORT") from None
                self._poller.register(sock, zmq.POLLIN)
        except BaseException:
            self.close()
            raise
        self.last_heard_s: dict[str, float] = {}
        self.ended: set[str] = set()  # nodes whose file is over
        #: Messages skipped, by node, and the last reason (what the Tracking panel and --jsonl show).
        self.bad_messages: dict[str, int] = {name: 0 for name in self._sockets.values()}
        self.skipped: list[str] = []
        self._told = 0.0

    def receive(self, timeout_s: float) -> list[tuple[str, TagDetections]]:
        """Every batch waiting now (waiting up to ``timeout_s`` for the first), oldest first per node."""
        out: list[tuple[str, TagDetections]] = []
        ready = dict(self._poller.poll(int(timeout_s * 1000)))
        for sock, name in self._sockets.items():
            if sock not in ready:
                continue
            for _ in range(256):  # bounded: one fast node cannot hold up the others
                try:
                    data = sock.recv(flags=self._zmq.NOBLOCK)
                except self._zmq.Again:
                    break
                try:
                    camera, dets = decode_detections(data)
                    if camera != name:
                        raise TrackerError(f"a message naming camera {camera!r} came from node {name!r}; it was skipped")
                except TrackerError as exc:
                    self._bad(name, str(exc))
                    continue
                self.last_heard_s[name] = time.monotonic()
                if dets is None:
                    self.ended.add(name)
                else:
                    out.append((name, dets))
        return out

    def _bad(self, name: str, reason: str) -> None:
        self.bad_messages[name] = self.bad_messages.get(name, 0) + 1
        self.skipped = (self.skipped + [reason])[-20:]
        now = time.monotonic()
        if now - self._told >= 5.0:  # a notice, not a flood
            self._told = now
            print(f"camera node {name!r}: {reason} ({self.bad_messages[name]} skipped so far)", file=sys.stderr)

    def close(self) -> None:
        for sock in self._sockets:
            sock.close(0)

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
