"""The class view's web server: the page, its script, and a WebSocket that pushes the newest scene.

It runs on its own thread with its own asyncio event loop (aiohttp), so viewers never hold up the
tracker or the window: :meth:`ClassViewServer.publish` only swaps a reference and wakes the loop.
Every viewer gets the *latest* scene, never a queue: a viewer still receiving an old scene gets the
newest once it is done, the ones in between are skipped; a viewer that stalls longer than
``SEND_TIMEOUT_S`` is dropped; one that disconnects costs nothing.

Safe by default: it listens on loopback unless a host is given. Serving the network, every address
carries an unguessable key (``secrets.token_urlsafe``) as its first path segment -- the page, its
script and its socket -- and anything without it is refused (403). A WebSocket opened by a page of
another origin is refused too (a page elsewhere must not read the game through a visitor's browser).
Connections are bounded in number, per address and in time (:mod:`classview.gate`), so a room's
network cannot starve the class view nor, through shared descriptors, the game. What goes wrong
in the server is one line on the console (at most one per ``CONSOLE_EVERY_S``) and the whole
story, tracebacks included, in a small log file (:func:`log_path`).
"""
from __future__ import annotations

import asyncio
import ipaddress
import logging
import logging.handlers
import os
import secrets
import sys
import socket
import threading
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from classview.errors import ServeError
from classview.gate import ConnectionGate, ServerLimits
from classview.instructor import MAX_BODY_BYTES, REFUSED as NOT_INSTRUCTOR, BookmarkRefused, RateLimit, parse_bookmark

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
#: At most one line on the console per this many seconds about the server's troubles (a flood of
#: bad requests must not flood the terminal; the log file has every one, and is itself bounded).
CONSOLE_EVERY_S = 30.0
#: aiohttp closes a kept-alive connection idle this long (its default, 75 s, is for the open web).
KEEPALIVE_S = 5.0
#: How long a bookmark waits for the session's thread to take it before the instructor is told it was not made.
BOOKMARK_WAIT_S = 5.0
REFUSED = ("This class view needs its full address, with the key the instructor's screen shows "
           "(scan the QR code or copy the address).")


@dataclass(frozen=True)
class ServeAddress:
    """Where to listen: ``host`` ('127.0.0.1' unless given) and ``port`` (0: any free port)."""

    host: str
    port: int

    @property
    def loopback(self) -> bool:
        """Whether only this computer can reach it: every address the host names is a loopback one,
        however it is spelled (127.0.0.1, 127.1, 0x7f000001, ::1, ::ffff:127.0.0.1, localhost)."""
        return is_loopback_host(self.host)


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` names only loopback addresses (no name lookup for a numeric host)."""
    text = host.strip().strip("[]")
    if not text:
        return False  # every interface
    try:
        infos = socket.getaddrinfo(text, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    addresses = {info[4][0] for info in infos}
    return bool(addresses) and all(_loopback_address(a) for a in addresses)


def _loopback_address(text: str) -> bool:
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


def _names_loopback(host_header: str) -> bool:
    """Whether a request's Host names this computer by a loopback address or "localhost" (no lookup)."""
    host = urlsplit(f"//{host_header}").hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        infos = socket.getaddrinfo(host, None, flags=socket.AI_NUMERICHOST, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError, ValueError):
        return False
    return all(_loopback_address(info[4][0]) for info in infos)


def log_path() -> Path:
    """Where the server writes what went wrong in full ($SANDTABLE_LOG_DIR, else the user's state folder)."""
    base = os.environ.get("SANDTABLE_LOG_DIR") or os.path.join(
        os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state"), "sandtable")
    return Path(base) / "classview.log"


class _OneLine(logging.Handler):
    """The console's share of the server's log: one line, at most one per ``every_s`` seconds."""

    def __init__(self, every_s: float, where: str) -> None:
        super().__init__(logging.WARNING)
        self.every_s = every_s
        self.where = where
        self._last = -1e9
        self._held = 0

    def emit(self, record: logging.LogRecord) -> None:
        now = time.monotonic()
        if now - self._last < self.every_s:
            self._held += 1
            return
        more = f" (+{self._held} more)" if self._held else ""
        self._last, self._held = now, 0
        exc = record.exc_info[1] if record.exc_info else None
        what = f": {type(exc).__name__}: {exc}" if exc is not None else ""
        line = " ".join(f"class view: {record.getMessage()}{what}".split())[:300]  # one line, however told
        try:
            print(f"{line}{more}; details in {self.where}", file=sys.stderr)
        except (OSError, ValueError):
            pass


def server_logger(path: Path | None = None, *, console_every_s: float = CONSOLE_EVERY_S) -> logging.Logger:
    """A logger of its own (nothing propagates to the root: the game's console stays readable)."""
    path = path or log_path()
    logger = logging.getLogger(f"sandtable.classview.{id(path)}.{time.monotonic_ns()}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        to_file: logging.Handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=1_000_000, backupCount=1, encoding="utf-8", delay=True)
        to_file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(to_file)
        where = str(path)
    except OSError:
        where = "no log file (its folder cannot be written)"
    logger.addHandler(_OneLine(console_every_s, where))
    return logger


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

    def __init__(self, address: ServeAddress, *, token: str | None = None, limits: ServerLimits | None = None,
                 log: logging.Logger | None = None) -> None:
        self.address = address
        self.limits = limits or ServerLimits()
        self._log_given = log
        self.log: logging.Logger | None = log
        self.gate: ConnectionGate | None = None
        self._server: asyncio.AbstractServer | None = None
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
        #: The instructor's own key (classview/instructor.py): always made, on loopback too (a student
        #: on this computer is still a student); its page can add bookmarks once ``on_bookmark`` is set.
        self.instructor_token = secrets.token_urlsafe(18)
        #: ``on_bookmark(BookmarkRequest) -> concurrent.futures.Future`` of the bookmark's session time
        #: (the live view hands it to the session's thread); None: no instructor's link.
        self.on_bookmark: Any = None
        #: The review topics the instructor's page offers for a bookmark (the scenario's).
        self.topics: tuple[str, ...] = ()
        self._rate = RateLimit()
        page = self._assets["index.html"][0].replace(b"</body>", b'<script src="instructor.js"></script>\n</body>')
        self._instructor_assets = {**self._assets, "": (page, "text/html"), "index.html": (page, "text/html"),
                                   "instructor.js": (_static("instructor.js"), "text/javascript")}

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
    def instructor_url(self) -> str:
        """The instructor's address: the class's with ``instructor/<instructor key>/`` (bookmarks)."""
        return f"{self.url}instructor/{self.instructor_token}/"

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
        loop.set_exception_handler(self._loop_error)
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self.cpu_s = time.thread_time()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _open(self) -> None:
        if self.log is None:
            self.log = server_logger()
        app = web.Application(middlewares=[self._key_check], logger=self.log, client_max_size=2 * MAX_BODY_BYTES)
        base = "/{token}/" if self.token is not None else "/"
        teacher = base + "instructor/{ikey}/"
        app.router.add_get(teacher + "ws", self._instructor(self._socket))
        app.router.add_get(teacher + "scene.json", self._instructor(self._scene))
        app.router.add_get(teacher + "topics.json", self._instructor(self._topics))
        app.router.add_post(teacher + "bookmark", self._instructor(self._bookmark))
        app.router.add_get(teacher, self._instructor(self._asset))
        app.router.add_get(teacher + "{name}", self._instructor(self._asset))
        app.router.add_post(base + "bookmark", self._not_instructor)
        app.router.add_get(base + "ws", self._socket)
        app.router.add_get(base + "scene.json", self._scene)
        app.router.add_get(base, self._asset)
        app.router.add_get(base + "{name}", self._asset)
        # aiohttp's own limits on a request's size stay (8 KiB lines and headers: 400 at once).
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, logger=self.log,
                                     keepalive_timeout=KEEPALIVE_S)
        await self._runner.setup()
        loop = asyncio.get_running_loop()
        self.gate = ConnectionGate(self.limits, loop)
        # Our own listening socket rather than aiohttp's TCPSite: every connection passes the gate.
        self._server = await loop.create_server(self.gate.protocol_factory(self._runner.server), self.address.host,
                                                self.address.port, reuse_address=True, backlog=128)
        sockets = self._server.sockets or ()
        if sockets:
            self.port = int(sockets[0].getsockname()[1])

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        for viewer in list(self._viewers):
            await viewer.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's own complaints (e.g. "out of system resource" on accept) go to the log, not stderr."""
        if self.log is not None:
            exc = context.get("exception")
            self.log.warning(str(context.get("message", "error")), exc_info=exc if isinstance(exc, BaseException) else None)

    @web.middleware
    async def _key_check(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """With a key, the first path segment must be it (compared in constant time); without one,
        no path may carry a segment that is not a known page."""
        gate, transport = self.gate, request.transport
        if gate is not None:
            gate.request_started(transport)
        try:
            return await self._checked(request, handler)
        finally:
            if gate is not None:
                gate.request_answered(transport)

    async def _checked(self, request: web.Request, handler: Any) -> web.StreamResponse:
        segments = request.path.split("/")  # "/KEY/x" -> ["", "KEY", "x"]; "//KEY" -> ["", "", "KEY"]
        if self.token is not None:
            first = segments[1] if len(segments) > 1 else ""
            if not secrets.compare_digest(first.encode(), self.token.encode()):
                return web.Response(status=403, text=REFUSED + "\n")
            if len(segments) == 2:
                # Built from the key, never from what the client sent (no redirect elsewhere).
                raise web.HTTPFound(f"/{self.token}/")
        else:
            if not _names_loopback(request.host):
                # A page of another site whose name was pointed at 127.0.0.1 (DNS rebinding) sends
                # its own name here: "this computer only" answers only to this computer's names.
                return web.Response(status=403, text="This class view answers to this computer's own address only.\n")
            parts = [p for p in segments if p]
            if parts and parts[0] not in STATIC_FILES and parts[0] not in ("ws", "scene.json", "instructor", "bookmark"):
                return web.Response(status=404, text="No such page: open the address without anything after the port.\n")
        return await handler(request)

    def _same_origin(self, request: web.Request) -> bool:
        """A browser names the page that opens a WebSocket (Origin); only this server's own pages may.
        A client without Origin is no browser page (a script on a computer that could read anyway)."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc.lower() == request.host.lower()

    def _instructor(self, handler: Any) -> Any:
        """``handler`` behind the instructor's key (constant time) and only while bookmarks are taken."""
        async def checked(request: web.Request) -> web.StreamResponse:
            key = request.match_info.get("ikey", "")
            if not secrets.compare_digest(key.encode(), self.instructor_token.encode()):
                return web.Response(status=403, text=NOT_INSTRUCTOR + "\n")
            if self.on_bookmark is None:
                return web.Response(status=404, text="This class view has no instructor's page (the window makes one "
                                    "when it serves a live game).\n")
            return await handler(request)
        return checked

    async def _not_instructor(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=403, text=NOT_INSTRUCTOR + "\n")

    async def _topics(self, request: web.Request) -> web.StreamResponse:
        from classview.instructor import MAX_NOTE_CHARS, MAX_TOPIC_CHARS

        return web.json_response({"topics": list(self.topics), "max_note": MAX_NOTE_CHARS, "max_topic": MAX_TOPIC_CHARS},
                                 headers={"Cache-Control": "no-store"})

    async def _bookmark(self, request: web.Request) -> web.StreamResponse:
        """A bookmark from the instructor's page, made on the session's thread (Ctrl+B's path)."""
        def refuse(status: int, text: str) -> web.Response:
            return web.Response(status=status, text=text + "\n", headers={"Cache-Control": "no-store"})

        if not self._same_origin(request):
            return refuse(403, "Bookmarks come from the instructor's own page only.")
        body = await request.content.read(MAX_BODY_BYTES + 1)  # never more than that is read
        try:
            wanted = parse_bookmark(body)
        except BookmarkRefused as exc:
            return refuse(exc.status, f"Bookmark not made: {exc}.")
        if not self._rate.admit():
            return refuse(429, f"Bookmark not made: at most {self._rate.count} bookmarks in {self._rate.window_s:g} s; "
                               "wait a moment and try again.")
        future = self.on_bookmark(wanted)
        try:
            t_s = await asyncio.wait_for(asyncio.wrap_future(future), BOOKMARK_WAIT_S)
        except TimeoutError:
            future.cancel()  # never made later: the instructor was told it was not
            return refuse(503, f"Bookmark not made: the game did not take it within {BOOKMARK_WAIT_S:g} s; try again.")
        except Exception as exc:  # the session refused it: one line to the page, the whole story in the log
            if self.log is not None:
                self.log.warning("a bookmark could not be made", exc_info=exc)
            return refuse(500, f"Bookmark not made: {exc}.")
        return web.json_response({"t_s": t_s, "note": wanted.note, "topic": wanted.topic},
                                 headers={"Cache-Control": "no-store"})

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("name", "")
        found = (self._instructor_assets if "ikey" in request.match_info else self._assets).get(name)
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
        if not self._same_origin(request):
            return web.Response(status=403, text="The class view's live feed is for its own page only.\n")
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT_S, max_msg_size=4096)
        await ws.prepare(request)
        if self.gate is not None:
            self.gate.upgraded(request.transport)
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
