"""TUIO 1.1 output: the tracked units as ``/tuio/2Dobj`` bundles over OSC/UDP, for other tabletop software.

reacTIVision clients (TuioDemo, TuioDump, the TUIO client libraries) and virtual-tabletop bridges
follow the physical table through these messages. Each tracked frame becomes one OSC bundle (more
when it would not fit one UDP datagram), exactly as the TUIO 1.1 specification and reacTIVision's
``TuioServer`` send them::

    /tuio/2Dobj source sandtable-companion@127.0.0.1
    /tuio/2Dobj alive s1 s2 ...                      every unit on the table (session ids)
    /tuio/2Dobj set s i x y a X Y A m r              one per unit that changed (all, once a second)
    /tuio/2Dobj fseq f                               frame sequence number

* ``s`` session id: new each time a unit comes onto the table (first seen, or put back after being
  lifted or lost), kept while it stays (also while a hand hides it); ``i`` class id = the tag id.
* ``x``, ``y`` in 0..1 with TUIO's origin top-left and y pointing down: calibrated,
  ``x = x_in / width_in`` and ``y = 1 - y_in / depth_in`` (the table seen like a map, anchor 3's
  corner top-left); uncalibrated, the camera image (``center_px / frame size``). Units standing past
  an edge are clamped to 0..1.
* ``a`` angle in radians, 0..2pi, measured from +x toward +y in TUIO's y-down frame, i.e. clockwise on
  screen (what TUIO clients draw with): ``a = -heading`` since our headings are counter-clockwise in a
  y-up frame.
* ``X``, ``Y`` velocity in axis lengths per second, ``A`` rotation speed in turns per second, ``m``
  and ``r`` their accelerations (per second), as the TUIO reference implementation computes them.

Alive means seen or hidden (``seen``, ``stale``); a ``lost`` or ``lifted`` unit leaves the alive
list, and comes back with a new session id. Closing the sender sends an empty alive list, so clients
remove every object.
"""
from __future__ import annotations

import ipaddress
import math
import socket
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tracker.errors import TrackerError
from tracker.unit_pose import UnitPose, UnitState

PROFILE = "/tuio/2Dobj"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 3333
SOURCE_NAME = "sandtable-companion"
#: What reacTIVision's UDP sender puts in one datagram: 4 KiB on this machine, an Ethernet
#: frame's payload (1500 - 28 bytes of IP and UDP headers) to another host.
LOOPBACK_DATAGRAM_BYTES = 4096
NETWORK_DATAGRAM_BYTES = 1472
ALIVE_STATES = (UnitState.SEEN, UnitState.STALE)


class TuioError(TrackerError):
    """A TUIO address the user can correct."""


@dataclass(frozen=True)
class TuioAddress:
    """Where TUIO bundles go (a UDP host and port)."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT

    @classmethod
    def parse(cls, text: str | None) -> "TuioAddress":
        """``HOST:PORT``, ``HOST``, ``:PORT`` or ``PORT`` (``[::1]:3333`` for IPv6); None: the default.

        >>> TuioAddress.parse("192.168.1.20:3334"), TuioAddress.parse(":4000"), TuioAddress.parse(None)
        (TuioAddress(host='192.168.1.20', port=3334), TuioAddress(host='127.0.0.1', port=4000), TuioAddress(host='127.0.0.1', port=3333))
        """
        if text is None:
            return cls()
        raw = str(text).strip()
        hint = "give HOST:PORT such as 127.0.0.1:3333 (TUIO's usual port), or just a port"
        if not raw:
            raise TuioError(f"--tuio {text!r}: empty address; {hint}")
        if any(c.isspace() or c in "/@" for c in raw):
            raise TuioError(f"--tuio {text!r}: not a host name or address (no scheme or path); {hint}")
        host, port_text = DEFAULT_HOST, str(DEFAULT_PORT)
        if raw.startswith("["):  # [IPv6]:port
            end = raw.find("]")
            if end < 0:
                raise TuioError(f"--tuio {text!r}: missing ']' after the IPv6 address; {hint}")
            host, rest = raw[1:end], raw[end + 1 :]
            if rest:
                if not rest.startswith(":"):
                    raise TuioError(f"--tuio {text!r}: expected ':PORT' after ']'; {hint}")
                port_text = rest[1:]
        elif raw.isdigit():
            port_text = raw
        elif raw.count(":") == 1:
            host, port_text = raw.split(":")
            host = host or DEFAULT_HOST
        elif raw.count(":") > 1:
            raise TuioError(f"--tuio {text!r}: write an IPv6 address in brackets, e.g. [::1]:3333")
        else:
            host = raw
        if not port_text.isdigit():
            raise TuioError(f"--tuio {text!r}: port {port_text!r} is not a number; {hint}")
        port = int(port_text)
        if not 1 <= port <= 65535:
            raise TuioError(f"--tuio {text!r}: port {port} is outside 1-65535; {hint} (put --tuio after SOURCE)")
        if not host:
            raise TuioError(f"--tuio {text!r}: {host!r} is not a host name or address; {hint}")
        return cls(host, port)

    @property
    def is_loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


@dataclass(frozen=True)
class TuioObject:
    """The values of one ``set`` message (TUIO 1.1 2Dobj), already normalised."""

    session_id: int
    class_id: int
    x: float
    y: float
    angle_rad: float
    x_speed: float = 0.0
    y_speed: float = 0.0
    rotation_speed: float = 0.0
    motion_accel: float = 0.0
    rotation_accel: float = 0.0

    def set_args(self) -> tuple[Any, ...]:
        return ("set", self.session_id, self.class_id, self.x, self.y, self.angle_rad,
                self.x_speed, self.y_speed, self.rotation_speed, self.motion_accel, self.rotation_accel)


@dataclass(frozen=True)
class TuioFrame:
    """One TUIO frame: the alive session ids, the objects whose ``set`` is sent, the sequence number."""

    fseq: int
    alive: tuple[int, ...]
    updated: tuple[TuioObject, ...]
    objects: tuple[TuioObject, ...]  # every alive object, updated or not


def tuio_position(
    pose: UnitPose, *, table_size_in: tuple[float, float] | None = None, frame_size_px: tuple[int, int] | None = None
) -> tuple[float, float, float]:
    """(x, y, angle_rad) of a unit in TUIO's normalised, y-down frame.

    Calibrated poses are normalised to the table, uncalibrated ones to the camera frame.

    >>> p = UnitPose(12, "Haas", "Blue", 18.0, 12.0, 1.0, 90.0, UnitState.SEEN, 0.0, 0.0)
    >>> x, y, a = tuio_position(p, table_size_in=(72.0, 48.0))
    >>> round(x, 3), round(y, 3), round(math.degrees(a), 1)
    (0.25, 0.75, 270.0)
    """
    if pose.x_in is not None and pose.y_in is not None:
        if table_size_in is None:
            raise TuioError("TUIO needs the table size to normalise calibrated positions; give table_size_in")
        width, depth = table_size_in
        x, y = pose.x_in / width, 1.0 - pose.y_in / depth
    else:
        if frame_size_px is None or frame_size_px[0] <= 0 or frame_size_px[1] <= 0:
            raise TuioError("TUIO needs the camera frame size to normalise uncalibrated positions; give frame_size_px")
        x, y = pose.center_px[0] / frame_size_px[0], pose.center_px[1] / frame_size_px[1]
    angle = math.radians(-pose.heading_deg) % (2.0 * math.pi)
    return min(1.0, max(0.0, x)), min(1.0, max(0.0, y)), angle


class TuioObjects:
    """Turns successive tracker poses into TUIO frames: session ids, velocities, what changed (mutable).

    ``full_update_s``: every object's ``set`` is sent again at least this often (a client that joined
    late or lost a datagram catches up), as reacTIVision's periodic full update does.
    """

    def __init__(
        self,
        *,
        table_size_in: tuple[float, float] | None = None,
        frame_size_px: tuple[int, int] | None = None,
        full_update_s: float = 1.0,
    ) -> None:
        self.table_size_in = table_size_in
        self.frame_size_px = frame_size_px
        self.full_update_s = float(full_update_s)
        self._next_session = 1
        self._fseq = 0
        self._objects: dict[int, TuioObject] = {}  # by tag id, the last values of alive units
        self._times: dict[int, float] = {}
        self._sent: dict[int, TuioObject] = {}
        self._last_full_t: float | None = None

    def update(self, poses: Iterable[UnitPose], *, t_s: float, frame_size_px: tuple[int, int] | None = None) -> TuioFrame:
        """The frame for the units' poses at ``t_s`` (seconds)."""
        if frame_size_px is not None and frame_size_px[0] > 0:
            self.frame_size_px = frame_size_px
        objects: dict[int, TuioObject] = {}
        for pose in poses:
            if pose.state not in ALIVE_STATES:
                continue
            x, y, a = tuio_position(pose, table_size_in=self.table_size_in, frame_size_px=self.frame_size_px)
            last = self._objects.get(pose.tag_id)
            if last is None:
                session = self._next_session
                self._next_session = self._next_session % 0x7FFFFFFF + 1
                objects[pose.tag_id] = TuioObject(session, pose.tag_id, x, y, a)
            elif not pose.measured:
                # Held at its last measured place (stale, or a miss bridged as seen): no motion to report.
                objects[pose.tag_id] = replace(last, x_speed=0.0, y_speed=0.0, rotation_speed=0.0, motion_accel=0.0, rotation_accel=0.0)
            else:
                objects[pose.tag_id] = _moved(last, x, y, a, t_s - self._times.get(pose.tag_id, t_s))
            self._times[pose.tag_id] = t_s
        self._objects = objects
        self._times = {tag: t for tag, t in self._times.items() if tag in objects}
        full = self._last_full_t is None or t_s - self._last_full_t >= self.full_update_s or t_s < self._last_full_t
        if full:
            self._last_full_t = t_s
        updated = tuple(o for tag, o in sorted(objects.items()) if full or self._sent.get(tag) != o)
        self._sent = dict(objects)
        self._fseq = self._fseq % 0x7FFFFFFF + 1
        ordered = tuple(o for _, o in sorted(objects.items()))
        return TuioFrame(self._fseq, tuple(o.session_id for o in ordered), updated, ordered)

    def clear(self) -> TuioFrame:
        """A frame with nothing alive (sent when tracking ends, so clients remove every object)."""
        self._objects, self._times, self._sent = {}, {}, {}
        self._fseq = self._fseq % 0x7FFFFFFF + 1
        return TuioFrame(self._fseq, (), (), ())


def _moved(last: TuioObject, x: float, y: float, a: float, dt: float) -> TuioObject:
    if dt <= 0:
        return replace(last, x=x, y=y, angle_rad=a)
    vx, vy = (x - last.x) / dt, (y - last.y) / dt
    turn = (a - last.angle_rad) / (2.0 * math.pi)
    turn -= round(turn)  # the short way round, in turns
    va = turn / dt
    m = (math.hypot(vx, vy) - math.hypot(last.x_speed, last.y_speed)) / dt
    r = (va - last.rotation_speed) / dt
    return TuioObject(last.session_id, last.class_id, x, y, a, vx, vy, va, m, r)


def encode_frame(frame: TuioFrame, *, source: str | None, max_bytes: int = LOOPBACK_DATAGRAM_BYTES) -> list[bytes]:
    """The OSC bundle(s) of one TUIO frame, each at most ``max_bytes`` (python-osc does the encoding).

    A frame too large for one datagram is split like reacTIVision does: every bundle carries the
    source and the full alive list, a share of the ``set`` messages, and the same ``fseq``.
    """
    from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder

    head = []
    if source:
        head.append(_message("source", source))
    head.append(_message("alive", *frame.alive))
    tail = _message("fseq", frame.fseq)
    sets = [_message(*o.set_args()) for o in frame.updated]
    fixed = 16 + sum(4 + m.size for m in head) + 4 + tail.size  # "#bundle\0" + time tag = 16 bytes
    bundles: list[list[Any]] = [[]]
    size = fixed
    for message in sets:
        if bundles[-1] and size + 4 + message.size > max_bytes:
            bundles.append([])
            size = fixed
        bundles[-1].append(message)
        size += 4 + message.size
    out = []
    for chunk in bundles:
        builder = OscBundleBuilder(IMMEDIATELY)
        for message in (*head, *chunk, tail):
            builder.add_content(message)
        out.append(builder.build().dgram)
    return out


def _message(*args: Any) -> Any:
    from pythonosc.osc_message_builder import OscMessageBuilder

    builder = OscMessageBuilder(address=PROFILE)
    for value in args:
        if isinstance(value, str):
            builder.add_arg(value, OscMessageBuilder.ARG_TYPE_STRING)
        elif isinstance(value, int):
            builder.add_arg(value, OscMessageBuilder.ARG_TYPE_INT)
        else:
            builder.add_arg(float(value), OscMessageBuilder.ARG_TYPE_FLOAT)
    return builder.build()


class TuioSender:
    """Sends the tracked units as TUIO 1.1 to ``address`` over UDP (mutable; ``close()`` it).

    ``table_size_in`` (width, depth) normalises calibrated poses; ``frame_size_px`` (or the size given
    to :meth:`send`) uncalibrated ones. A network error never stops tracking: it is counted in
    ``send_errors`` and the first one kept in ``last_error``.

        with TuioSender(TuioAddress.parse("127.0.0.1:3333"), table_size_in=(72, 48)) as tuio:
            tuio.send(result.poses, t_s=result.t_s)
    """

    def __init__(
        self,
        address: TuioAddress | None = None,
        *,
        table_size_in: tuple[float, float] | None = None,
        frame_size_px: tuple[int, int] | None = None,
        full_update_s: float = 1.0,
        max_datagram_bytes: int | None = None,
    ) -> None:
        self.address = address or TuioAddress()
        try:
            infos = socket.getaddrinfo(self.address.host, self.address.port, type=socket.SOCK_DGRAM)
        except (socket.gaierror, UnicodeError) as exc:
            raise TuioError(f"--tuio {self.address}: cannot find host {self.address.host!r} ({exc}); check the name or give its IP address") from None
        family, _, _, _, sockaddr = infos[0]
        self._sockaddr = sockaddr
        self._sock = socket.socket(family, socket.SOCK_DGRAM)
        self.max_datagram_bytes = max_datagram_bytes or (
            LOOPBACK_DATAGRAM_BYTES if self.address.is_loopback else NETWORK_DATAGRAM_BYTES
        )
        self.source = f"{SOURCE_NAME}@{_local_address(family, sockaddr)}"
        self.objects = TuioObjects(table_size_in=table_size_in, frame_size_px=frame_size_px, full_update_s=full_update_s)
        self.bundles_sent = 0
        self.send_errors = 0
        self.last_error: str | None = None
        self._closed = False

    def send(self, poses: Sequence[UnitPose] | Iterable[UnitPose], *, t_s: float, frame_size_px: tuple[int, int] | None = None) -> TuioFrame:
        """Send one frame of poses; returns what was sent."""
        frame = self.objects.update(poses, t_s=t_s, frame_size_px=frame_size_px)
        self._deliver(frame)
        return frame

    def close(self) -> None:
        """Tell clients every object is gone, and close the socket."""
        if self._closed:
            return
        self._closed = True
        self._deliver(self.objects.clear())
        self._sock.close()

    def __enter__(self) -> "TuioSender":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _deliver(self, frame: TuioFrame) -> None:
        for datagram in encode_frame(frame, source=self.source, max_bytes=self.max_datagram_bytes):
            try:
                self._sock.sendto(datagram, self._sockaddr)
                self.bundles_sent += 1
            except OSError as exc:  # no route, buffer full: TUIO is best effort, tracking goes on
                self.send_errors += 1
                if self.last_error is None:
                    self.last_error = f"{exc.__class__.__name__}: {exc}"


def _local_address(family: int, sockaddr: Any) -> str:
    """The address this machine sends from to ``sockaddr`` (no packet is sent: UDP connect only routes)."""
    probe = socket.socket(family, socket.SOCK_DGRAM)
    try:
        probe.connect(sockaddr)
        return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()
