"""The live class view of a session: the web server and the feed that keeps it up to date.

    view = LiveClassView.start(session, parse_serve("0.0.0.0:8080"), toggles=settings.projector_overlays)
    print(view.url)          # http://192.168.1.20:8080/3xQ.../ (with its key: serving the network)
    view.set_toggles(...)    # the instructor changed what the players see
    view.close()
"""
from __future__ import annotations

from typing import Any

from classview.feed import ClassViewFeed
from classview.server import ClassViewServer, ServeAddress


class LiveClassView:
    def __init__(self, server: ClassViewServer, feed: ClassViewFeed) -> None:
        self.server = server
        self.feed = feed

    @classmethod
    def start(cls, session: Any, address: ServeAddress, *, toggles: Any = None,
              token: str | None = None) -> "LiveClassView":
        """Listen at ``address`` and follow ``session`` (call on the session's thread)."""
        server = ClassViewServer(address, token=token).start()
        feed = ClassViewFeed(session, server.publish, toggles=toggles, wanted=lambda: server.viewers > 0)
        server.on_viewer = feed.wake
        return cls(server, feed)

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
        """The line printed at start."""
        who = "this computer only" if self.server.token is None else "anyone on the network with this address"
        return f"Class view: {self.url} ({who})"

    def close(self) -> None:
        self.feed.close()
        self.server.stop()


SERVE_HELP = ("serve the class view: the table, the last roll and the log in a browser, live and read-only. PORT "
              "alone: this computer only; HOST:PORT (e.g. 0.0.0.0:8080): the network, with a key in the address")


def add_serve_argument(parser: Any) -> None:
    """``--serve [HOST:]PORT``, the same on every command that plays or replays a session."""
    parser.add_argument("--serve", metavar="[HOST:]PORT", default=None, help=SERVE_HELP)


def check_serve(value: str | None) -> None:
    """Refuse a bad ``--serve`` before anything is opened (raises :class:`ServeError`)."""
    if value is not None:
        from classview.server import parse_serve

        parse_serve(value)


def serve_session(session: Any, value: str | None, *, toggles: Any = None, window: Any = None,
                  say: Any = print) -> LiveClassView | None:
    """Start the class view of ``session`` when ``value`` (``--serve``'s) is given and print its address;
    a ``window`` (the companion's main window) shows it with its QR code (``attach_class_view``)."""
    if value is None:
        return None
    from classview.server import parse_serve

    view = LiveClassView.start(session, parse_serve(value), toggles=toggles)
    say(view.announce())
    if window is not None:
        window.attach_class_view(view)
    return view
