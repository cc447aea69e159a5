"""A long game's recorded game states read one after another, each reading only what the one before lacked.

The session records the whole game state after every rules change (``state:<why>`` rows): the units
and the game's events so far. In a three-hour game of 40 units the events are 95% of each row (700
states, 300 MB of JSON), and the replay and the debrief read the states in time order. So the row's
text is scanned, not parsed whole: when its events begin with the text of the events of the state read
before (JSON values are self-delimiting: the same text is the same events), that text is skipped
unparsed and only the new events are parsed and rebuilt as typed values; the rest of the state (the
units, the turn) is read as usual. A state whose events do not begin so (an undo rewrote them, a jump
back) is read whole.

    rows = StateRows()
    state = rows.load(ruleset, reader.rules_payload_text(row_id))   # None: a damaged row
"""
from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


@dataclasses.dataclass(frozen=True)
class StateText:
    """A state row's payload with the events its text shares with the state before left out.

    ``payload``: the row's JSON with ``payload["state"]["events"]`` holding only the events after the
    first ``skipped``; ``events_text``: the text of the state's whole events list from its ``[`` to the
    end of its last event (what the next row's text is compared with)."""

    payload: dict[str, Any]
    skipped: int
    events_text: str
    count: int


def read_state_text(text: str, known_text: str = "", known_count: int = 0) -> StateText:
    """The payload of a state row (``{"state": {..., "events": [...]}, ...}``) whose events list, when it
    begins with ``known_text`` (``known_count`` events), has those left out unparsed.

    >>> first = read_state_text('{"state": {"events": [{"n": 0}, {"n": 1}], "round": 1}}')
    >>> first.skipped, first.payload["state"]["events"], first.count
    (0, [{'n': 0}, {'n': 1}], 2)
    >>> later = read_state_text('{"state": {"events": [{"n": 0}, {"n": 1}, {"n": 2}], "round": 2}}', first.events_text, first.count)
    >>> later.skipped, later.payload["state"], later.count
    (2, {'events': [{'n': 2}], 'round': 2}, 3)

    Raises ``ValueError`` for text that is not such a payload."""
    found: dict[str, Any] = {}

    def state_value(i: int) -> tuple[Any, int]:
        return _object(text, i, lambda key, j: events_value(j) if key == "events" and text.startswith("[", j) else None)

    def events_value(i: int) -> tuple[Any, int]:
        skipped = known_count if known_count and text.startswith(known_text, i) else 0
        j = i + len(known_text) if skipped else i + 1
        items: list[Any] = []
        last = j
        while True:
            j = _SPACE.match(text, j).end()  # type: ignore[union-attr]  # the pattern matches the empty text
            if text.startswith("]", j):
                break
            if skipped or items:
                if not text.startswith(",", j):
                    raise ValueError(f"expected ',' at {j}")
                j = _SPACE.match(text, j + 1).end()  # type: ignore[union-attr]
            value, j = _DECODER.raw_decode(text, j)
            items.append(value)
            last = j
        found.update(skipped=skipped, events_text=text[i:last] if skipped or items else "", count=skipped + len(items))
        return items, j + 1

    payload, end = _object(text, 0, lambda key, j: state_value(j) if key == "state" and text.startswith("{", j) else None)
    if _SPACE.match(text, end).end() != len(text):  # type: ignore[union-attr]
        raise ValueError(f"extra text at {end}")
    if not isinstance(payload.get("state"), dict) or "count" not in found:
        raise ValueError("no state with a list of events")
    return StateText(payload, found["skipped"], found["events_text"], found["count"])


def _object(text: str, i: int, special: Any) -> tuple[dict[str, Any], int]:
    """The JSON object at ``text[i:]`` and the index after it; ``special(key, index)`` reads a value
    itself (returns ``(value, end)``) or returns None to have it parsed whole."""
    i = _SPACE.match(text, i).end()  # type: ignore[union-attr]
    if not text.startswith("{", i):
        raise ValueError(f"expected an object at {i}")
    out: dict[str, Any] = {}
    i = _SPACE.match(text, i + 1).end()  # type: ignore[union-attr]
    if text.startswith("}", i):
        return out, i + 1
    while True:
        key, i = _DECODER.raw_decode(text, i)
        if not isinstance(key, str):
            raise ValueError(f"expected a key at {i}")
        i = _SPACE.match(text, i).end()  # type: ignore[union-attr]
        if not text.startswith(":", i):
            raise ValueError(f"expected ':' at {i}")
        i = _SPACE.match(text, i + 1).end()  # type: ignore[union-attr]
        read = special(key, i)
        out[key], i = read if read is not None else _DECODER.raw_decode(text, i)
        i = _SPACE.match(text, i).end()  # type: ignore[union-attr]
        if text.startswith("}", i):
            return out, i + 1
        if not text.startswith(",", i):
            raise ValueError(f"expected ',' or '}}' at {i}")
        i = _SPACE.match(text, i + 1).end()  # type: ignore[union-attr]


class StateRows:
    """Loads recorded game states as typed values, each after the first reading only the events the
    state loaded before did not have (they are the same objects)."""

    def __init__(self) -> None:
        self._text = ""
        self._count = 0
        self._events: tuple[Any, ...] = ()

    def payload(self, text: Any) -> StateText | None:
        """The row's payload as :func:`read_state_text` reads it after the state loaded last (None: not a
        state row's JSON, or damaged)."""
        if not isinstance(text, str):
            return None
        try:
            return read_state_text(text, self._text, self._count)
        except (ValueError, RecursionError):
            try:
                data = json.loads(text)
            except (ValueError, RecursionError):
                return None
            if not isinstance(data, dict):
                return None
            events = data.get("state", {}).get("events") if isinstance(data.get("state"), dict) else None
            return StateText(data, 0, "", len(events) if isinstance(events, list) else 0)

    def load(self, ruleset: Any, text: Any) -> Any:
        """The game state the row's text holds (None when it holds none); raises what ``ruleset.load_state``
        raises for a state it cannot read."""
        read = self.payload(text)
        data = read.payload.get("state") if read is not None else None
        if read is None or data is None:
            return None
        if read.skipped:
            # Only the new events are rebuilt as typed values.
            added = ruleset.load_state(data)
            state = dataclasses.replace(added, events=self._events + tuple(added.events))
        else:
            state = ruleset.load_state(data)
        if read.events_text:
            self._text, self._count, self._events = read.events_text, read.count, tuple(state.events)
        return state


__all__ = ["StateRows", "StateText", "read_state_text"]
