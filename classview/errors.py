"""The class view's user errors: a :class:`UsageError`, so the command line reports them as one line."""
from __future__ import annotations

from appmodel.errors import UsageError


class ServeError(UsageError):
    """The class view could not start (a bad --serve value, a port in use): the message says how to fix it."""
