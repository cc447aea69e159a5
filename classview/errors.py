"""The class view's user errors (the CLI reports them as one line)."""
from __future__ import annotations


class ServeError(ValueError):
    """The class view could not start (a bad --serve value, a port in use): the message says how to fix it."""
