"""The door of the class view's server: how many connections it holds, from whom, and for how long.

aiohttp itself limits the size of a request line and its headers but not how many connections stay
open nor how long a client may take to send its request (its documentation leaves both to a proxy in
front). The class view runs inside the game's own process, with no proxy, so a room's network could
otherwise starve it -- and the cameras and files that share its descriptors -- with idle or
half-sent requests. :class:`ConnectionGate` stands between the listening socket and aiohttp:

* at most ``max_total`` connections in all, so the server's descriptors stay bounded (the rest of
  the process keeps its own); when full, the oldest connection that has not yet made a request
  is let go for the newcomer, so a flood of idle connections cannot lock the class out;
* at most ``max_per_client`` from one address, so one machine cannot take every place;
* a connection must send a whole request within ``request_timeout_s`` of opening (and of its last
  answer, kept alive): a slow or silent one is closed. A WebSocket, once open, lives by its own
  heartbeat and send timeout instead;
* a WebSocket client's frame that is not masked closes its connection, as RFC 6455 (5.1) requires of
  a server (aiohttp reads such frames as any other): the gate reads the frames' headers only.
"""
from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable


@dataclass(frozen=True)
class ServerLimits:
    """The server's limits (see the module's docstring); the defaults fit a classroom of phones."""

    max_total: int = 256
    max_per_client: int = 32
    request_timeout_s: float = 10.0


class _Connection:
    __slots__ = ("peer", "transport", "deadline", "upgraded", "opened")

    def __init__(self, peer: str, transport: asyncio.BaseTransport, opened: int) -> None:
        self.peer = peer
        self.transport = transport
        self.deadline: asyncio.TimerHandle | None = None
        self.upgraded = False
        self.opened = opened


class ConnectionGate:
    """Admits, times and counts the server's connections (all on the server's event loop)."""

    def __init__(self, limits: ServerLimits, loop: asyncio.AbstractEventLoop) -> None:
        self.limits = limits
        self._loop = loop
        self._open: dict[asyncio.BaseTransport, _Connection] = {}
        self._per_peer: Counter[str] = Counter()
        self._serial = 0
        #: Connections turned away or closed, by reason (for the log and the tests).
        self.refused: Counter[str] = Counter()

    @property
    def open_connections(self) -> int:
        return len(self._open)

    def connections_from(self, address: str) -> int:
        return self._per_peer.get(address, 0)

    def protocol_factory(self, inner_factory: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        return lambda: _GatedProtocol(self, inner_factory())

    # -- called by the protocol -----------------------------------------------------------------
    def admit(self, transport: asyncio.BaseTransport) -> bool:
        peer = _peer_of(transport)
        if self._per_peer[peer] >= self.limits.max_per_client:
            self.refused["too many from one address"] += 1
            return False
        if len(self._open) >= self.limits.max_total:
            waiting = [c for c in self._open.values() if not c.upgraded and c.deadline is not None]
            if not waiting:
                self.refused["server full"] += 1
                return False
            oldest = min(waiting, key=lambda c: c.opened)
            self.refused["let go for a newcomer"] += 1
            self._drop(oldest)
        self._serial += 1
        conn = _Connection(peer, transport, self._serial)
        self._open[transport] = conn
        self._per_peer[peer] += 1
        self._arm(conn)
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        conn = self._open.pop(transport, None)
        if conn is None:
            return
        if conn.deadline is not None:
            conn.deadline.cancel()
        self._per_peer[conn.peer] -= 1
        if self._per_peer[conn.peer] <= 0:
            del self._per_peer[conn.peer]

    # -- called by the application ----------------------------------------------------------------
    def request_started(self, transport: Any) -> None:
        """A whole request arrived: no deadline while it is answered."""
        conn = self._open.get(transport)
        if conn is not None and conn.deadline is not None:
            conn.deadline.cancel()
            conn.deadline = None

    def request_answered(self, transport: Any) -> None:
        """Answered and kept alive: the next request must come in time too."""
        conn = self._open.get(transport)
        if conn is not None and not conn.upgraded:
            self._arm(conn)

    def is_upgraded(self, transport: Any) -> bool:
        conn = self._open.get(transport)
        return conn is not None and conn.upgraded

    def refuse_unmasked(self, transport: Any) -> None:
        """A WebSocket client sent an unmasked frame: its connection is closed (RFC 6455, 5.1)."""
        conn = self._open.get(transport)
        self.refused["unmasked WebSocket frame"] += 1
        if conn is not None:
            self._drop(conn)
        else:
            transport.abort()

    def upgraded(self, transport: Any) -> None:
        """The connection became a WebSocket: its heartbeat and send timeout watch it from now on."""
        conn = self._open.get(transport)
        if conn is not None:
            conn.upgraded = True
            if conn.deadline is not None:
                conn.deadline.cancel()
                conn.deadline = None

    # -- inside -----------------------------------------------------------------------------------
    def _arm(self, conn: _Connection) -> None:
        if conn.deadline is not None:
            conn.deadline.cancel()
        conn.deadline = self._loop.call_later(self.limits.request_timeout_s, self._expire, conn)

    def _expire(self, conn: _Connection) -> None:
        if self._open.get(conn.transport) is conn and not conn.upgraded:
            self.refused["too slow to send a request"] += 1
            self._drop(conn)

    def _drop(self, conn: _Connection) -> None:
        self.release(conn.transport)
        conn.transport.abort()  # type: ignore[attr-defined]


def _peer_of(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, (tuple, list)) and peer:
        return str(peer[0])
    return str(peer)


class _FrameWatch:
    """Follows the frames a WebSocket client sends, reading their headers only (the payload is
    skipped by its length, never kept), to find a frame without a mask.

    >>> watch = _FrameWatch()
    >>> watch.feed(bytes([0x81, 0x85]) + b"mask" + b"hello")  # masked "hello"
    True
    >>> watch.feed(bytes([0x81, 0x05]) + b"hello")  # unmasked
    False
    """

    def __init__(self) -> None:
        self._head = b""  # the start of a frame whose header is not whole yet
        self._skip = 0  # payload bytes of the current frame still to come

    def feed(self, data: bytes) -> bool:
        """False once a frame without a mask begins."""
        view = memoryview(data)
        while len(view):
            if self._skip:
                n = min(self._skip, len(view))
                self._skip -= n
                view = view[n:]
                continue
            head = self._head + bytes(view[:14 - len(self._head)])
            if len(head) < 2:
                self._head, view = head, view[len(view):]
                continue
            if not head[1] & 0x80:
                return False
            size = head[1] & 0x7F
            header = 2 + (2 if size == 126 else 8 if size == 127 else 0) + 4
            if len(head) < header:
                self._head, view = head, view[len(view):]
                continue
            if size == 126:
                size = int.from_bytes(head[2:4], "big")
            elif size == 127:
                size = int.from_bytes(head[2:10], "big")
            view = view[header - len(self._head):]
            self._head, self._skip = b"", size
        return True


class _GatedProtocol(asyncio.Protocol):
    """aiohttp's protocol behind the gate: a connection the gate refuses is closed before aiohttp
    sees it (no task, no parser); the others are passed through untouched."""

    def __init__(self, gate: ConnectionGate, inner: asyncio.Protocol) -> None:
        self._gate = gate
        self._inner: asyncio.Protocol | None = inner
        self._transport: asyncio.BaseTransport | None = None
        self._watch: _FrameWatch | None = None  # from the first data after the WebSocket opened

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self._gate.admit(transport):
            self._inner = None
            transport.abort()  # type: ignore[attr-defined]
            return
        self._transport = transport
        assert self._inner is not None
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._inner is None:
            return
        if self._watch is None and self._transport is not None and self._gate.is_upgraded(self._transport):
            self._watch = _FrameWatch()
        if self._watch is not None and not self._watch.feed(data):
            self._gate.refuse_unmasked(self._transport)
            return
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._transport is not None:
            self._gate.release(self._transport)
        if self._inner is not None:
            self._inner.connection_lost(exc)
