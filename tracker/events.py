"""One stream of tracker events (a unit appeared, moved, was hidden, lifted...) and a tiny observer.

The GUI and the recorder subscribe to the same :class:`EventBus`; nothing here knows about Qt. Events
are frozen values carrying their time and, where it matters, the unit's pose in table inches, so a
recording can replay and explain them later.
"""
from __future__ import annotations

import enum
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class EventKind(str, enum.Enum):
    """What happened. The string values are what recordings and JSON output store."""

    APPEARED = "appeared"  # a unit's tag was seen for the first time this session
    MOVED = "moved"  # a still unit started to move (or was found elsewhere after being hidden)
    STOPPED = "stopped"  # a moving unit came to rest; payload has the distance of that move
    HIDDEN = "hidden"  # no longer seen while its area is covered (a hand, an arm): pose kept, stale
    REAPPEARED = "reappeared"  # a hidden unit seen again; payload says whether it had moved
    LOST = "lost"  # hidden for longer than the configured time
    LIFTED = "lifted"  # gone while its neighbourhood is clearly visible: taken off the table
    RETURNED = "returned"  # a lifted or lost unit put back on the table
    CONFLICT = "conflict"  # two tags with the same id in view at once
    UNKNOWN_TAG = "unknown_tag"  # a tag that is neither a unit of the roster nor an anchor (reported once)
    DRIFT = "drift"  # the anchors no longer fit the calibration (camera or table bumped)
    REREGISTERED = "reregistered"  # the table was registered again from the anchors in view
    SOURCE_LOST = "source_lost"  # the camera stopped delivering frames
    SOURCE_BACK = "source_back"  # the camera delivers frames again
    TURN_STARTED = "turn_started"  # movement accounting was reset (a player's turn began)

    @property
    def words(self) -> str:
        """What happened, as a table or a report says it to a player (the values are for files).

        >>> EventKind.TURN_STARTED.words, EventKind.UNKNOWN_TAG.words
        ('turn started (moves counted from here)', 'tag not in the roster')
        """
        return _WORDS[self]


_WORDS = {EventKind.APPEARED: "first seen", EventKind.MOVED: "started moving", EventKind.STOPPED: "stopped",
          EventKind.HIDDEN: "hidden (covered)", EventKind.REAPPEARED: "seen again", EventKind.LOST: "lost (unseen too long)",
          EventKind.LIFTED: "lifted off the table", EventKind.RETURNED: "put back on the table",
          EventKind.CONFLICT: "two tags with one id", EventKind.UNKNOWN_TAG: "tag not in the roster",
          EventKind.DRIFT: "camera or table moved", EventKind.REREGISTERED: "table registered again",
          EventKind.SOURCE_LOST: "camera stopped", EventKind.SOURCE_BACK: "camera back",
          EventKind.TURN_STARTED: "turn started (moves counted from here)"}


@dataclass(frozen=True)
class TrackerEvent:
    """Something that happened at ``t_s`` (seconds since the session started) in frame ``frame_index``.

    ``tag_id`` is None for events that concern no single unit (source lost, drift). Positions in the
    payload are table inches when the tracker is calibrated, else pixels (``*_px`` keys).
    """

    kind: EventKind
    t_s: float
    frame_index: int
    tag_id: int | None = None
    name: str = ""
    payload: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (used by ``sandtable track --jsonl`` and the recorder)."""
        out: dict[str, Any] = {"kind": self.kind.value, "t_s": round(self.t_s, 4), "frame": self.frame_index}
        if self.tag_id is not None:
            out["tag_id"] = self.tag_id
        if self.name:
            out["name"] = self.name
        out.update(self.payload)
        return out


Listener = Callable[[TrackerEvent], None]


class EventBus:
    """Publish tracker events to any number of listeners, in subscription order.

    >>> bus = EventBus(); seen = []
    >>> unsubscribe = bus.subscribe(seen.append)
    >>> bus.publish(TrackerEvent(EventKind.LOST, 1.0, 30, tag_id=12))
    >>> unsubscribe(); bus.publish(TrackerEvent(EventKind.LOST, 2.0, 60, tag_id=13))
    >>> [e.tag_id for e in seen]
    [12]
    """

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Add a listener; returns the function that removes it again (call it when a view closes)."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def publish(self, event: TrackerEvent) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(event)

    def publish_all(self, events: list[TrackerEvent] | tuple[TrackerEvent, ...]) -> None:
        for event in events:
            self.publish(event)
