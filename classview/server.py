"""The class view's web server: the page, its script, and a WebSocket that pushes the newest scene.

It runs on its own thread with its own asyncio event loop (aiohttp), so viewers never hold up the
tracker or the window: :meth:`ClassViewServer.publish` only swaps a reference and wakes the loop.
Every viewer gets the *latest* scene, never a queue: a viewer still receiving an old scene gets the
newest once it is done, the ones in between are skipped; a viewer that stalls longer than
``SEND_TIMEOUT_S`` is dropped; one that disconnects costs nothing.

Safe by default: it listens on loopback unless a host is given. Serving the network, every address
carries an unguessable key (``secrets.token_urlsafe``) as its first path segment -- the page, its
script and its socket -- and anything without it is refused (403).
"""
from __future__ import annotations

import asyncio
import ipaddress
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from classview.errors import ServeError

#: A viewer that has not taken a scene for this long is dropped (its socket closed).
SEND_TIMEOUT_S = 10.0
#: WebSocket pings (seconds): a phone that went to sleep is noticed and let go.
HEARTBEAT_S = 20.0
STATIC_FILES = {"": ("index.html", "text/html"), "index.html": ("index.html", "text/html"),
                "classview.js": ("classview.js", "text/javascript"), "live.js": ("live.js", "text/javascript"),
                "zoom.js": ("zoom.js", "text/javascript"),
                "classview.css": ("classview.css", "text/css")}
#: The page runs only its own scripts and talks only to its own server (the unit chips' colours are
#: inline styles).
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; "
       "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
REFUSED = ("This class view needs its full address, with the key the instructor's screen shows "
           "(scan the QR code or copy the address).")


@dataclass(frozen=True)
class ServeAddress:
    """Where to listen: ``host`` ('127.0.0.1' unless given) and ``port`` (0: any free port)."""

    host: str
    port: int

    @property
    def loopback(self) -> bool:
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return self.host == "localhost"


def parse_serve(value: str) -> ServeAddress:
    """``--serve [HOST:]PORT`` -> where to listen (loopback when no host is given).

    >>> parse_serve("8080"), parse_serve("0.0.0.0:8080").loopback
    (ServeAddress(host='127.0.0.1', port=8080), False)
    """
    text = str(value).strip()
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise ServeError(f"--serve {value!r}: give a port (e.g. --serve 8080) or HOST:PORT "
                         "(--serve 0.0.0.0:8080 serves the whole network)")
    return ServeAddress(host, number)


def lan_address() -> str:
    """This machine's address on the local network (what a phone in the room can reach); loopback
    when there is no network. No packet is sent: connecting a UDP socket only picks the route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def _static(name: str) -> bytes:
    return resources.files("classview").joinpath("static", name).read_bytes()


class ClassViewServer:
    """The web server of one session (``start()``, ``publish(scene_json)``, ``stop()``)."""

    def __init__(self, address: ServeAddress, *, token: str | None = None) -> None:
        self.address = address
        #: The key every address carries (None on loopback: nobody else can reach it).
        self.token = token if token is not None else (None if address.loopback else secrets.token_urlsafe(18))
        self.port = address.port
        self._latest: bytes = b""
        self._latest_text = ""
        self._version = 0
        self._viewers: set["_Viewer"] = set()
        self._viewer_count = 0
        #: Processor time of the server's thread, seconds (set when it stops: the bench's figure).
        self.cpu_s = 0.0
        #: Called (on the server's thread) when a viewer connects: the feed builds a scene if its last is old.
        self.on_viewer: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._assets = {k: (_static(f), ctype) for k, (f, ctype) in STATIC_FILES.items()}

    # -- the outside world (any thread) -----------------------------------------------------------
    @property
    def url(self) -> str:
        """The address to open: the LAN address when serving the network, with the key."""
        host = self.address.host
        if host in ("0.0.0.0", "::", ""):
            host = lan_address()
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/" + (f"{self.token}/" if self.token else "")

    @property
    def viewers(self) -> int:
        """How many pages are connected now."""
        return self._viewer_count

    def start(self, timeout_s: float = 10.0) -> "ClassViewServer":
        """Start listening (returns once it listens, or raises :class:`ServeError`)."""
        self._thread = threading.Thread(target=self._run, name="class view server", daemon=True)
        self._thread.start()
        self._ready.wait(timeout_s)
        if self._error is not None:
            raise ServeError(f"--serve {self.address.host}:{self.address.port}: could not listen ({self._error}); "
                             "choose another port or host") from None
        if not self._ready.is_set():
            raise ServeError("the class view server did not start in time")
        return self

    def publish(self, scene_json: bytes) -> None:
        """Make ``scene_json`` the scene every viewer gets next (cheap; never blocks)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            self._set_latest(scene_json)
            return
        try:
            loop.call_soon_threadsafe(self._set_latest, scene_json)
        except RuntimeError:  # the loop is closing
            pass

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if not loop.is_closed():
            try:
                asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(timeout=5)
            except Exception:  # stopping anyway
                pass
            try:
                loop.call_soon_threadsafe(loop.stop)
            except RuntimeError:
                pass
        thread.join(timeout=5)
        self._thread = None

    # -- the server's own thread ------------------------------------------------------------------
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._open())
        except BaseException as exc:  # reported by start()
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self._loop = loop
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self.cpu_s = time.thread_time()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _open(self) -> None:
        app = web.Application(middlewares=[self._key_check])
        base = "/{token}/" if self.token is not None else "/"
        app.router.add_get(base + "ws", self._socket)
        app.router.add_get(base + "scene.json", self._scene)
        app.router.add_get(base, self._asset)
        app.router.add_get(base + "{name}", self._asset)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.address.host, self.address.port, reuse_address=True)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or ()  # the port the system chose for port 0
        if sockets:
            self.port = int(sockets[0].getsockname()[1])

    async def _shutdown(self) -> None:
        for viewer in list(self._viewers):
            await viewer.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _key_check(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """With a key, the first path segment must be it (compared in constant time); without one,
        no path may carry a segment that is not a known page."""
        parts = [p for p in request.path.split("/") if p]
        if self.token is not None:
            if not parts or not secrets.compare_digest(parts[0].encode(), self.token.encode()):
                return web.Response(status=403, text=REFUSED + "\n")
            if len(parts) == 1 and not request.path.endswith("/"):
                raise web.HTTPFound(request.path + "/")
        elif parts and parts[0] not in STATIC_FILES and parts[0] not in ("ws", "scene.json"):
            return web.Response(status=404, text="No such page: open the address without anything after the port.\n")
        return await handler(request)

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("name", "")
        found = self._assets.get(name)
        if found is None:
            return web.Response(status=404, text="No such page.\n")
        body, ctype = found
        return web.Response(body=body, content_type=ctype, charset="utf-8",
                            headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
                                     "Referrer-Policy": "no-referrer", "Content-Security-Policy": CSP})

    async def _scene(self, request: web.Request) -> web.StreamResponse:
        return web.Response(body=self._latest or b"{}", content_type="application/json",
                            headers={"Cache-Control": "no-store"})

    def _set_latest(self, data: bytes) -> None:
        self._latest = data
        self._latest_text = data.decode("utf-8")  # once, not once per viewer
        self._version += 1
        for viewer in self._viewers:
            viewer.wake.set()

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT_S, max_msg_size=4096)
        await ws.prepare(request)
        viewer = _Viewer(ws)
        self._viewers.add(viewer)
        self._viewer_count = len(self._viewers)
        if self.on_viewer is not None:
            self.on_viewer()
        sender = asyncio.ensure_future(self._send_latest(viewer))
        try:
            async for msg in ws:  # read-only: whatever a page sends is ignored
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            sender.cancel()
            self._viewers.discard(viewer)
            self._viewer_count = len(self._viewers)
        return ws

    async def _send_latest(self, viewer: "_Viewer") -> None:
        """Send the newest scene whenever there is one the viewer has not had."""
        sent = -1
        try:
            while not viewer.ws.closed:
                if self._version == sent or not self._latest:
                    viewer.wake.clear()
                    await viewer.wake.wait()
                    continue
                sent, text = self._version, self._latest_text
                await asyncio.wait_for(viewer.ws.send_str(text), SEND_TIMEOUT_S)
        except (TimeoutError, ConnectionError, RuntimeError):
            await viewer.ws.close()
        except asyncio.CancelledError:
            pass


class _Viewer:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.wake = asyncio.Event()
