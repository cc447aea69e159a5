"""The class view's server as its viewers meet it: loopback unless told, a key on the network, the
newest scene to every viewer, and viewers that stall or vanish costing the others nothing."""
from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request

import aiohttp
import pytest

from classview.server import ClassViewServer, ServeAddress, ServeError, parse_serve


def scene(n: int, pad: int = 0) -> bytes:
    return json.dumps({"version": n, "pad": "x" * pad}).encode()


@pytest.fixture
def server():
    s = ClassViewServer(ServeAddress("127.0.0.1", 0)).start()
    yield s
    s.stop()


def test_serve_takes_a_port_or_host_and_port_and_stays_on_this_computer_without_a_host() -> None:
    assert parse_serve("8080") == ServeAddress("127.0.0.1", 8080)
    assert parse_serve("8080").loopback
    assert parse_serve("0.0.0.0:9000") == ServeAddress("0.0.0.0", 9000)
    assert not parse_serve("0.0.0.0:9000").loopback
    assert parse_serve("[::1]:8080") == ServeAddress("::1", 8080)
    for bad in ("", "http", "8080x", "70000", "host:"):
        with pytest.raises(ServeError, match="--serve"):
            parse_serve(bad)


def test_loopback_needs_no_key_and_the_network_always_gets_a_fresh_unguessable_one(server) -> None:
    assert server.token is None and server.url == f"http://127.0.0.1:{server.port}/"
    with urllib.request.urlopen(server.url, timeout=5) as page:
        assert b"class view" in page.read()
    a = ClassViewServer(ServeAddress("0.0.0.0", 0))
    b = ClassViewServer(ServeAddress("0.0.0.0", 0))
    assert a.token and b.token and a.token != b.token and len(a.token) >= 22


def test_a_port_in_use_is_one_line_saying_what_to_do(server) -> None:
    with pytest.raises(ServeError, match="choose another port"):
        ClassViewServer(ServeAddress("127.0.0.1", server.port)).start()


async def _receive_all(url: str, n: int, *, timeout_s: float = 10.0) -> list[dict]:
    got: list[dict] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        while len(got) < n:
            msg = await asyncio.wait_for(ws.receive(), timeout_s)
            got.append(json.loads(msg.data))
    return got


def test_a_new_viewer_gets_the_newest_scene_at_once(server) -> None:
    for n in range(5):
        server.publish(scene(n))
    got = asyncio.run(_receive_all(server.url + "ws", 1))
    assert got[0]["version"] == 4


def test_a_slow_viewer_gets_the_newest_scene_not_a_queue_and_a_stalled_one_does_not_hold_up_others(server) -> None:
    """One viewer reads nothing for a while (a phone in a pocket) while 200 big scenes go out; a
    second viewer keeps receiving. The second sees the last scene promptly; the first, when it
    reads again, skips to the newest."""

    async def run() -> tuple[list[int], list[int], float]:
        async with aiohttp.ClientSession() as http:
            stalled = await http.ws_connect(server.url + "ws", max_msg_size=0)
            lively = await http.ws_connect(server.url + "ws", max_msg_size=0)
            await asyncio.sleep(0.2)
            seen: list[int] = []
            last = 199
            start = time.monotonic()
            for n in range(200):
                server.publish(scene(n, pad=200_000))  # 200 kB each: the stalled socket's buffers fill
                await asyncio.sleep(0.002)
            while not seen or seen[-1] != last:
                msg = await asyncio.wait_for(lively.receive(), 10)
                seen.append(json.loads(msg.data)["version"])
            lively_done = time.monotonic() - start
            later: list[int] = []
            while not later or later[-1] != last:
                msg = await asyncio.wait_for(stalled.receive(), 10)
                later.append(json.loads(msg.data)["version"])
            await stalled.close()
            await lively.close()
            return seen, later, lively_done

    seen, later, lively_done = asyncio.run(run())
    assert seen[-1] == 199 and seen == sorted(seen)
    # What the stalled viewer gets: the scenes its own socket buffers had taken before it stopped
    # reading (a few megabytes), then straight the newest; nothing queued for it on the server.
    assert later[-1] == 199 and len(later) < 100, f"the stalled viewer was sent {len(later)} scenes"
    assert later[-2] < 150, f"the stalled viewer was sent the scenes in between: {later[-5:]}"
    assert lively_done < 8.0


def test_viewers_come_and_go_and_are_counted(server) -> None:
    server.publish(scene(1))

    async def run() -> list[int]:
        counts = []
        async with aiohttp.ClientSession() as http:
            sockets = [await http.ws_connect(server.url + "ws") for _ in range(30)]
            for ws in sockets:
                await asyncio.wait_for(ws.receive(), 5)
            counts.append(server.viewers)
            for ws in sockets[:20]:
                await ws.close()
            for _ in range(100):
                if server.viewers == 10:
                    break
                await asyncio.sleep(0.02)
            counts.append(server.viewers)
            server.publish(scene(2))
            for ws in sockets[20:]:
                assert json.loads((await asyncio.wait_for(ws.receive(), 5)).data)["version"] == 2
            for ws in sockets[20:]:
                await ws.close()
        return counts

    assert asyncio.run(run()) == [30, 10]


def test_nothing_a_page_sends_reaches_the_game(server) -> None:
    server.publish(scene(7))

    async def run() -> int:
        async with aiohttp.ClientSession() as http, http.ws_connect(server.url + "ws") as ws:
            await asyncio.wait_for(ws.receive(), 5)
            await ws.send_str('{"move": 13}')
            server.publish(scene(8))
            return json.loads((await asyncio.wait_for(ws.receive(), 5)).data)["version"]

    assert asyncio.run(run()) == 8
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(urllib.request.Request(server.url + "scene.json", data=b"{}", method="POST"), timeout=5)
    assert err.value.code == 405
    err.value.close()
