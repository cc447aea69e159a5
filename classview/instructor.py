"""The instructor's link of the class view: the same live page with a Bookmark button, behind a key of
its own, so the instructor can mark a moment for the debrief from a phone or a laptop in the room.

The students' address (``http://HOST:PORT/<key>/``) stays read-only. The instructor's is
``http://HOST:PORT/<key>/instructor/<instructor key>/`` (on loopback ``/instructor/<instructor key>/``): a
second ``secrets.token_urlsafe`` key, made at every start, compared in constant time; anything under
``instructor/`` without it, and any bookmark sent from elsewhere, is refused (403). A bookmark is a
small JSON body, ``{"note": ..., "topic": ..., "ago_s": ...}`` (``ago_s``: how long ago the instructor
pressed Bookmark: the note takes a while to type, as Ctrl+B's dialog does), checked here before it
goes anywhere:

* the body at most ``MAX_BODY_BYTES``; the note at most ``MAX_NOTE_CHARS``, the topic ``MAX_TOPIC_CHARS``
  (longer is refused, not cut: the instructor sees what was not kept); control characters become
  spaces, a topic's brackets are dropped (the recording keeps ``[topic] note``);
* at most ``RATE_COUNT`` bookmarks per ``RATE_WINDOW_S`` seconds (429 beyond);
* every refusal is one sentence saying what to change.

The bookmark itself is made on the session's own thread, through the session's
``bookmark(note, topic, at_s=...)`` -- Ctrl+B's path -- by :meth:`classview.live.LiveClassView.run_requests`.
"""
from __future__ import annotations

import json
import re
import time
from collections import deque
from dataclasses import dataclass

MAX_BODY_BYTES = 4096
MAX_NOTE_CHARS = 500
MAX_TOPIC_CHARS = 80
#: How far back a bookmark may be put (seconds): a note typed for longer is for the moment it was begun.
MAX_AGO_S = 600.0
RATE_COUNT = 6
RATE_WINDOW_S = 30.0
REFUSED = "Bookmarks are for the instructor's link only (the address the instructor's screen printed at start)."

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class BookmarkRefused(ValueError):
    """A bookmark request the server refuses: ``status`` (HTTP) and one sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class BookmarkRequest:
    note: str
    topic: str
    ago_s: float


def _clean(value: object, what: str, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BookmarkRefused(400, f"the {what} must be text")
    text = " ".join(_CONTROL.sub(" ", value).split())
    if len(text) > limit:
        raise BookmarkRefused(413, f"the {what} is {len(text)} characters long: keep it to {limit}")
    return text


def parse_bookmark(body: bytes) -> BookmarkRequest:
    """The bookmark a request's body asks for (raises :class:`BookmarkRefused`).

    >>> parse_bookmark(b'{"note": "Alpha  fired\\\\nearly", "topic": "[First contact]", "ago_s": 4}')
    BookmarkRequest(note='Alpha fired early', topic='First contact', ago_s=4.0)
    >>> parse_bookmark(b'{"note": 5}')
    Traceback (most recent call last):
    ...
    classview.instructor.BookmarkRefused: the note must be text
    """
    if len(body) > MAX_BODY_BYTES:
        raise BookmarkRefused(413, f"the bookmark is {len(body)} bytes: at most {MAX_BODY_BYTES} (a note of "
                                   f"{MAX_NOTE_CHARS} characters)")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BookmarkRefused(400, 'send the bookmark as JSON: {"note": "...", "topic": "..."}') from None
    if not isinstance(data, dict):
        raise BookmarkRefused(400, 'send the bookmark as a JSON object: {"note": "...", "topic": "..."}')
    note = _clean(data.get("note"), "note", MAX_NOTE_CHARS)
    topic = _clean(data.get("topic"), "topic", MAX_TOPIC_CHARS).replace("[", "").replace("]", "").strip()
    ago = data.get("ago_s", 0.0)
    if isinstance(ago, bool) or not isinstance(ago, (int, float)) or not ago == ago:  # NaN is not equal to itself
        raise BookmarkRefused(400, "ago_s must be a number of seconds")
    return BookmarkRequest(note, topic, min(max(float(ago), 0.0), MAX_AGO_S))


class RateLimit:
    """At most ``count`` admissions per ``window_s`` seconds (a sliding window)."""

    def __init__(self, count: int = RATE_COUNT, window_s: float = RATE_WINDOW_S) -> None:
        self.count, self.window_s = count, window_s
        self._times: deque[float] = deque()

    def admit(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        while self._times and now - self._times[0] >= self.window_s:
            self._times.popleft()
        if len(self._times) >= self.count:
            return False
        self._times.append(now)
        return True
