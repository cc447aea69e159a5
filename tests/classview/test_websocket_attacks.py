"""The class view's live feed (its WebSocket) as a client on the room's network could abuse it, against
the real server on loopback: an unmasked frame (RFC 6455 5.1: a server must close the connection), a
frame announcing a terabyte, and one address opening many WebSockets. Each ends that client's
connection(s) only: the page loads and an honest viewer keeps getting scenes."""
from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct
import sys
from pathlib import Path

import aiohttp

from classview.gate import ServerLimits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_server_under_attack import page_loads, settled, start  # noqa: E402


def upgraded(server, source: str = "127.0.0.1") -> socket.socket:
    """A WebSocket opened by hand from ``source`` (the handshake as a browser sends it), the 101 read."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.settimeout(10)
    s.connect(("127.0.0.1", server.port))
    path = server.url.split(str(server.port), 1)[1] + "ws"
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Origin: http://127.0.0.1:{server.port}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            break
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head[:80]
    return s


def closed_by_server(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (the test fails after 10 s)."""
    out = b""
    while True:
        chunk = s.recv(65536)  # socket.timeout (10 s) fails the test: the server kept it open
        if not chunk:
            return out
        out += chunk


async def honest_viewer_gets_scenes(server) -> bool:
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(server.url + "ws")
        for _ in range(3):
            await ws.send_str("hello")  # masked, as every client must: never refused
        msg = await asyncio.wait_for(ws.receive(), 10)
        server.publish(b'{"version": 1, "turn": 2}')
        again = await asyncio.wait_for(ws.receive(), 10)
        await ws.close()
        return msg.type == again.type == aiohttp.WSMsgType.TEXT and '"turn": 2' in again.data


def test_an_unmasked_frame_closes_that_connection_and_only_that_one(tmp_path) -> None:
    server = start(tmp_path / "classview.log")
    try:
        attacker = upgraded(server)
        attacker.sendall(b"\x81\x05hello")  # a text frame without the mask bit
        closed_by_server(attacker)
        attacker.close()
        assert server.gate.refused["unmasked WebSocket frame"] == 1
        assert asyncio.run(honest_viewer_gets_scenes(server))
        assert server.gate.refused["unmasked WebSocket frame"] == 1
        assert page_loads(server)
    finally:
        server.stop()


def test_a_frame_announcing_a_terabyte_is_closed_at_once_without_waiting_for_it(tmp_path) -> None:
    server = start(tmp_path / "classview.log")
    try:
        attacker = upgraded(server)
        attacker.sendall(b"\x82\xff" + struct.pack(">Q", 2 ** 40) + b"mask" + b"x" * 1000)
        received = closed_by_server(attacker)
        attacker.close()
        assert b"\x88\x02\x03\xf1" in received  # close, 1009: message too big
        assert asyncio.run(honest_viewer_gets_scenes(server))
    finally:
        server.stop()


def test_many_websockets_from_one_address_take_no_more_than_its_share(tmp_path) -> None:
    limits = ServerLimits(max_per_client=8)
    server = start(tmp_path / "classview.log", limits)
    sockets: list[socket.socket] = []
    try:
        for _ in range(20):  # bounded: twenty tries from one machine of the room
            try:
                sockets.append(upgraded(server, "127.0.0.9"))
            except (AssertionError, OSError):
                pass  # refused: the server closed it before or instead of the 101
        assert len(sockets) == 8
        settled(lambda: server.gate.refused["too many from one address"] >= 12)
        assert server.gate.refused["too many from one address"] == 12
        assert page_loads(server) and asyncio.run(honest_viewer_gets_scenes(server))
    finally:
        for s in sockets:
            s.close()
        server.stop()
