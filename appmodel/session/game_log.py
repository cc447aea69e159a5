"""The session log: the lines players read in the log panel, export after the game and see again in a replay.

The log words what happened -- the rules' sentences and warnings, what the tracker noticed, notes
and bookmarks -- and keeps the lines in order; writing them into a recording is
:mod:`appmodel.recording.rows`'s job.

>>> log = GameLog()
>>> log.add(LogEntry(75.4, "note", "Smoke on the ridge.", 2))
>>> log.lines_text()
'[1:15] R2 Smoke on the ridge.\\n'
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.events import RulesEvent


@dataclass(frozen=True)
class LogEntry:
    """One line of the session log: ``kind`` is "rules", "tracker", "note", "bookmark" or "warning"."""

    t_s: float
    kind: str
    text: str
    round: int | None = None
    #: Written during the game's set-up (before its first turn): the line says "Set-up", not its round.
    setting_up: bool = False

    @property
    def when(self) -> str:
        """Where in the game the line was written, as the log shows it: "Set-up", "R2", or "".

        >>> LogEntry(1.0, "rules", "Round 1 initiative ...", 1, setting_up=True).when, LogEntry(9.0, "note", "x", 2).when
        ('Set-up', 'R2')
        """
        return "Set-up" if self.setting_up else f"R{self.round}" if self.round else ""

    def payload(self) -> dict[str, Any]:
        """The line as a recording keeps it (``set_up`` only when set: older recordings have none)."""
        data: dict[str, Any] = {"kind": self.kind, "text": self.text, "round": self.round}
        return {**data, "set_up": True} if self.setting_up else data

    @classmethod
    def from_payload(cls, t_s: float, payload: Mapping[str, Any]) -> "LogEntry":
        """A recorded line back (:meth:`payload`)."""
        return cls(t_s, str(payload.get("kind", "rules")), str(payload.get("text", "")), payload.get("round"),
                   bool(payload.get("set_up", False)))


def clock_text(t_s: float) -> str:
    """A session time as m:ss (h:mm:ss past an hour).

    >>> clock_text(75.4), clock_text(3725)
    ('1:15', '1:02:05')
    """
    t = int(max(0.0, t_s))
    h, rest = divmod(t, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def rules_lines(events: Sequence[RulesEvent], sentences: Sequence[str], t_s: float,
                round_: int | None) -> list[LogEntry]:
    """The log lines of a change the rules made: the resolution's ``sentences`` when it wrote some
    (then only the events' warnings besides), else each event's summary (a warning's own kind when
    it warns)."""
    lines: list[LogEntry] = []
    if sentences:
        lines += [LogEntry(t_s, "rules", line, round_) for line in sentences]
        lines += [LogEntry(t_s, "warning", w, round_) for e in events for w in e.warnings]
        return lines
    for e in events:
        lines.append(LogEntry(t_s, "warning" if e.warnings else "rules", e.summary, round_))
        lines += [LogEntry(t_s, "warning", w, round_) for w in e.warnings if w != e.summary]
    return lines


def tracker_event_text(event: Any) -> str | None:
    """What a player should hear about a tracker event (a unit lifted, a camera lost, a duplicate
    tag), or None for events the log does not mention (a unit seen, moved)."""
    kind = getattr(event.kind, "value", str(event.kind))
    name = event.name or (f"tag {event.tag_id}" if event.tag_id is not None else "")
    words = {
        "lifted": f"{name} was lifted off the table.",
        "returned": f"{name} is back on the table.",
        "lost": f"{name} has not been seen for a while (lost).",
        "conflict": f"Two tags with id {event.tag_id} are in view: {event.payload.get('hint', 'remove the copy')}.",
        "unknown_tag": f"Tag {event.tag_id} is not in the scenario's roster.",
        "drift": f"The camera or table moved: {event.payload.get('message', 're-registering')}.",
        "reregistered": f"The table was registered again ({event.payload.get('residual_in', 0):.3f}\" residual).",
        "source_lost": "The camera stopped delivering frames; the game is kept and tracking resumes when it is back.",
        "source_back": "The camera is back.",
    }
    return words.get(kind)


def bookmark_text(note: str, t_s: float) -> str:
    """A bookmark's line: the player's note, or the moment when they gave none."""
    return note.strip() or f"Bookmark at {clock_text(t_s)}"


class GameLog:
    """The log's lines in order (a list the panels read as it grows)."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []

    def add(self, entry: LogEntry) -> None:
        self.entries.append(entry)

    def replace(self, entries: Sequence[LogEntry]) -> None:
        """The log as it was at some moment (replay)."""
        self.entries = list(entries)

    def lines_text(self) -> str:
        """Plain text, one line per entry: ``[m:ss] R<round> text`` (``Set-up`` for a line of the set-up)."""
        return "".join(f"[{clock_text(e.t_s)}]{f' {e.when}' if e.when else ''} {e.text}\n" for e in self.entries)

    def json_lines(self) -> str:
        return "".join(json.dumps({"t_s": round(e.t_s, 3), "kind": e.kind, "round": e.round, "text": e.text,
                                   **({"set_up": True} if e.setting_up else {})}) + "\n" for e in self.entries)

    def export(self, path: str | Path) -> Path:
        """Write the log: JSON Lines for ``.jsonl``/``.json``, else plain text (one line per entry)."""
        path = Path(path)
        path.write_text(self.json_lines() if path.suffix.lower() in (".jsonl", ".json") else self.lines_text(),
                        encoding="utf-8")
        return path
