"""``--serve [HOST:]PORT``, the option every command that plays or replays a session shares, and its
check. Apart from :mod:`classview.live` so that building the command line (every command's parser, even
for ``sandtable --version``) loads no web server: aiohttp alone took about 0.1 s of every command's start."""
from __future__ import annotations

from typing import Any

SERVE_HELP = ("serve the class view: the table, the last roll and the log in a browser, live and read-only. PORT "
              "alone: this computer only; HOST:PORT (e.g. 0.0.0.0:8080): the network, with a key in the address")


def add_serve_argument(parser: Any) -> None:
    """``--serve [HOST:]PORT``, the same on every command that plays or replays a session."""
    parser.add_argument("--serve", metavar="[HOST:]PORT", default=None, help=SERVE_HELP)


def check_serve(value: str | None) -> None:
    """Refuse a bad ``--serve`` before anything is opened (raises :class:`classview.server.ServeError`)."""
    if value is not None:
        from classview.server import parse_serve

        parse_serve(value)
