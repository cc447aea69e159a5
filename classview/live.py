"""The live class view of a session: the web server and the feed that keeps it up to date.

    view = LiveClassView.start(session, parse_serve("0.0.0.0:8080"), toggles=settings.projector_overlays)
    print(view.url)          # http://192.168.1.20:8080/3xQ.../ (with its key: serving the network)
    view.set_toggles(...)    # the instructor changed what the players see
    view.run_requests()      # on the session's thread, often: the instructor's bookmarks (bookmarks=True)
    view.close()
"""
from __future__ import annotations

import queue
import time
from concurrent.futures import Future
from typing import Any

from classview.feed import ClassViewFeed
from classview.server import ClassViewServer, ServeAddress


class LiveClassView:
    def __init__(self, server: ClassViewServer, feed: ClassViewFeed, session: Any = None) -> None:
        self.server = server
        self.feed = feed
        self.session = session
        #: The instructor's bookmarks waiting for the session's thread: (future, request, arrived).
        self._requests: queue.SimpleQueue[tuple[Future[float], Any, float]] = queue.SimpleQueue()

    @classmethod
    def start(cls, session: Any, address: ServeAddress, *, toggles: Any = None,
              token: str | None = None, bookmarks: bool = False) -> "LiveClassView":
        """Listen at ``address`` and follow ``session`` (call on the session's thread). ``bookmarks``:
        serve the instructor's link, whose page adds bookmarks; the front end then calls
        :meth:`run_requests` on the session's thread, often (the window: every 100 ms)."""
        server = ClassViewServer(address, token=token).start()
        feed = ClassViewFeed(session, server.publish, toggles=toggles, wanted=lambda: server.viewers > 0)
        server.on_viewer = feed.wake
        view = cls(server, feed, session)
        if bookmarks:
            server.topics = tuple(t.name for t in getattr(session, "review_topics", ()))
            server.on_bookmark = view._ask
        return view

    @property
    def takes_bookmarks(self) -> bool:
        """Whether the instructor's link adds bookmarks (and :meth:`run_requests` must be called)."""
        return self.server.on_bookmark is not None

    @property
    def instructor_url(self) -> str:
        return self.server.instructor_url

    def _ask(self, request: Any) -> "Future[float]":
        """(The server's thread.) Queue a bookmark for the session's thread; its future is the bookmark's time."""
        future: Future[float] = Future()
        self._requests.put((future, request, time.monotonic()))
        return future

    def run_requests(self) -> int:
        """(The session's thread.) Make the bookmarks the instructor's page asked for, through the
        session's own ``bookmark`` (Ctrl+B's path), each at the moment its button was pressed; returns
        how many were made. One the server already gave up on (it waited too long) is not made."""
        made = 0
        while True:
            try:
                future, request, arrived = self._requests.get_nowait()
            except queue.Empty:
                return made
            if not future.set_running_or_notify_cancel():
                continue
            try:
                waited = time.monotonic() - arrived
                at_s = max(0.0, float(self.session.now_s()) - waited - request.ago_s)
                entry = self.session.bookmark(request.note, request.topic, at_s=at_s)
                future.set_result(float(entry.t_s))
                made += 1
            except Exception as exc:  # told to the page in one line; the game goes on
                future.set_exception(exc)

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def viewers(self) -> int:
        return self.server.viewers

    def set_toggles(self, projector_toggles: Any) -> None:
        self.feed.set_toggles(projector_toggles)

    def follow(self, session: Any, *, toggles: Any = None) -> None:
        """Show another session from now on, at the same address (the window opened another scenario:
        the class keeps its page and its key)."""
        self.feed.close()
        self.feed = ClassViewFeed(session, self.server.publish, toggles=toggles, wanted=lambda: self.server.viewers > 0)
        self.server.on_viewer = self.feed.wake

    def announce(self) -> str:
        """The line printed at start (and the instructor's link, when it adds bookmarks)."""
        who = "this computer only" if self.server.token is None else "anyone on the network with this address"
        line = f"Class view: {self.url} ({who})"
        if self.takes_bookmarks:
            line += f"\nInstructor's link (adds bookmarks; keep it to yourself): {self.instructor_url}"
        return line

    def close(self) -> None:
        self.feed.close()
        self.server.stop()
        self.server.on_bookmark = None
        while True:  # nothing asked is left waiting
            try:
                future, _, _ = self._requests.get_nowait()
            except queue.Empty:
                break
            future.cancel()


def serve_session(session: Any, value: str | None, *, toggles: Any = None, window: Any = None,
                  say: Any = print, bookmarks: bool = False) -> LiveClassView | None:
    """Start the class view of ``session`` when ``value`` (``--serve``'s) is given and print its address;
    a ``window`` (the companion's main window) shows it with its QR code (``attach_class_view``) and,
    with ``bookmarks``, makes the instructor's bookmarks on its thread."""
    if value is None:
        return None
    from classview.server import parse_serve

    view = LiveClassView.start(session, parse_serve(value), toggles=toggles, bookmarks=bookmarks and window is not None)
    say(view.announce())
    if window is not None:
        window.attach_class_view(view)
    return view
