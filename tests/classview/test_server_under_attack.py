"""The class view's server as someone on the room's network would attack it: floods of half-sent
requests from one address and from many, slow requests, pages of other sites, odd spellings of the
address and malformed requests -- against the real server, on loopback (Linux answers on all of
127.0.0.0/8, so each "machine" of the room is an address of its own there)."""
from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
import urllib.error
import urllib.request

import aiohttp
import pytest

from classview.gate import ServerLimits
from classview.server import ClassViewServer, ServeAddress, parse_serve, server_logger

KEY = "k" * 24
HALF_A_REQUEST = b"GET /" + KEY.encode() + b"/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@pytest.fixture
def log_file(tmp_path):
    return tmp_path / "classview.log"


def start(log_file, limits: ServerLimits | None = None) -> ClassViewServer:
    # A key as when serving the network, but listening on loopback only.
    s = ClassViewServer(ServeAddress("127.0.0.1", 0), token=KEY, limits=limits,
                        log=server_logger(log_file, console_every_s=3600)).start()
    s.publish(b'{"version": 1}')
    return s


def half_open(port: int, source: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``source`` that each send the start of a request and no more."""
    out = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((source, 0))
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(HALF_A_REQUEST)
        except OSError:
            s.close()
            continue
        out.append(s)
    return out


def page_loads(server: ClassViewServer) -> bool:
    try:
        with urllib.request.urlopen(server.url, timeout=10) as r:
            return r.status == 200 and b"<html" in r.read().lower()
    except (urllib.error.URLError, OSError):
        return False


def settled(condition, limit_s: float = 30.0) -> None:
    """Wait until the server's thread has taken every connection (a bound, not a measured time)."""
    deadline = time.monotonic() + limit_s
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)


def server_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_a_flood_of_half_sent_requests_from_one_address_does_not_lock_the_class_out(log_file) -> None:
    server = start(log_file)
    before = server_fds()
    flood: list[socket.socket] = []
    try:
        flood = half_open(server.port, "127.0.0.2", 300)
        assert all(page_loads(server) for _ in range(5)), "the page did not load during the flood"
        settled(lambda: server.gate.open_connections + server.gate.refused["too many from one address"] >= 300)
        # Every flood socket is ours (one descriptor each); the server holds at most its per-address share.
        held_by_server = server_fds() - before - len(flood)
        assert held_by_server <= server.limits.max_per_client + 5
        assert server.gate.connections_from("127.0.0.2") == server.limits.max_per_client
    finally:
        for s in flood:
            s.close()
        server.stop()


def test_a_flood_from_many_addresses_fills_no_more_than_the_limit_and_the_page_still_loads(log_file) -> None:
    limits = ServerLimits(max_total=48, max_per_client=8, request_timeout_s=60)
    server = start(log_file, limits)
    flood: list[socket.socket] = []
    try:
        for k in range(2, 22):  # 20 machines x 8 = 160 half-sent requests, over three times the limit
            flood += half_open(server.port, f"127.0.0.{k}", 8)
        assert server.gate.open_connections <= limits.max_total
        # The newcomer with the key gets a place: the oldest connection that never sent a request is let go.
        assert all(page_loads(server) for _ in range(5))
        assert server.gate.refused["let go for a newcomer"] > 0
    finally:
        for s in flood:
            s.close()
        server.stop()


def test_a_connection_that_does_not_finish_its_request_in_time_is_closed(log_file) -> None:
    server = start(log_file, ServerLimits(request_timeout_s=0.5))
    try:
        (slow,) = half_open(server.port, "127.0.0.3", 1)
        (idle,) = half_open(server.port, "127.0.0.4", 1)
        for s in (slow, idle):
            s.settimeout(20)
            # A slowloris client keeps trickling header bytes: that does not buy it more time.
            with contextlib.suppress(OSError):
                for _ in range(3):
                    if s is slow:
                        s.sendall(b"a")
                    time.sleep(0.2)
            try:
                got = s.recv(100)
            except ConnectionResetError:
                got = b""
            assert got == b"", "the server answered or kept a request that never finished"
            s.close()
        assert server.gate.open_connections == 0
    finally:
        server.stop()


def test_the_live_feed_is_refused_to_pages_of_other_sites(log_file) -> None:
    server = start(log_file)

    async def connect(origin: str | None) -> int:
        headers = {"Origin": origin} if origin else {}
        async with aiohttp.ClientSession() as http:
            try:
                ws = await http.ws_connect(server.url + "ws", headers=headers)
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status
            msg = await asyncio.wait_for(ws.receive(), 10)
            await ws.close()
            return 101 if msg.type == aiohttp.WSMsgType.TEXT else -1

    try:
        own = f"http://127.0.0.1:{server.port}"
        assert asyncio.run(connect(own)) == 101
        assert asyncio.run(connect(None)) == 101
        assert asyncio.run(connect("http://evil.example")) == 403
        assert asyncio.run(connect(f"http://127.0.0.1:{server.port + 1}")) == 403
        assert asyncio.run(connect("null")) == 403
    finally:
        server.stop()


def test_this_computer_only_answers_only_to_this_computers_names(tmp_path) -> None:
    """A site whose name was pointed at 127.0.0.1 (DNS rebinding) is the same origin as itself: the
    Host it sends gives it away."""
    server = ClassViewServer(ServeAddress("127.0.0.1", 0), log=server_logger(tmp_path / "l.log")).start()
    try:
        def status(host: str) -> int:
            req = urllib.request.Request(server.url + "scene.json", headers={"Host": host})
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    return r.status
            except urllib.error.HTTPError as exc:
                return exc.code

        assert status(f"127.0.0.1:{server.port}") == 200
        assert status(f"localhost:{server.port}") == 200
        assert status(f"evil.example:{server.port}") == 403
    finally:
        server.stop()


@pytest.mark.parametrize("spelling", ["127.1", "127.0.0.1", "0x7f000001", "2130706433", "[::1]",
                                      "[::ffff:127.0.0.1]", "localhost", "127.255.255.254"])
def test_loopback_is_recognised_in_every_spelling(spelling: str) -> None:
    assert parse_serve(f"{spelling}:8080").loopback


@pytest.mark.parametrize("spelling", ["0.0.0.0", "[::]", "10.1.2.3", "192.168.1.20"])
def test_the_network_is_never_taken_for_loopback(spelling: str) -> None:
    assert not parse_serve(f"{spelling}:8080").loopback


def test_a_doubled_slash_before_the_key_is_refused_not_redirected_to_a_host_named_by_the_key(log_file) -> None:
    server = start(log_file)
    try:
        def raw(path: str) -> bytes:
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
                data = b""
                while chunk := s.recv(4096):
                    data += chunk
                return data

        assert raw(f"//{KEY}").startswith(b"HTTP/1.1 403")
        answer = raw(f"/{KEY}")
        assert answer.startswith(b"HTTP/1.1 302")
        assert f"Location: /{KEY}/\r\n".encode() in answer
    finally:
        server.stop()


def test_malformed_requests_are_one_line_on_the_console_and_a_traceback_in_the_log(tmp_path, capfd) -> None:
    log = tmp_path / "classview.log"
    server = ClassViewServer(ServeAddress("127.0.0.1", 0), token=KEY,
                             log=server_logger(log, console_every_s=3600)).start()
    try:
        for junk in (b"GET /\x00 HTTP/1.1\r\n\r\n", b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
                     b"GET / HTTP/1.1\r\nBad Header\r\n\r\n") * 4:
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
                s.sendall(junk)
                s.recv(4096)
                assert True
    finally:
        server.stop()
    err = capfd.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) <= 1 and "Traceback" not in err, err
    if lines:
        assert str(log) in lines[0]
        assert "Traceback" in log.read_text()
