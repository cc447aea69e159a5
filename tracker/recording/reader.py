"""Reading a recording back: poses at any time, one unit's track, events between two times, rule
resolutions, bookmarks; and opening a damaged file the way every command does (``open_recording``).

Opening collects every problem it finds (a session that was killed mid-write, a missing video, a table
cut short, rows a damaged page garbled) in ``problems`` instead of stopping at the first; only a file
that is not a recording at all, or of a version this program cannot read, is refused - with a hint.

Memory stays bounded for a three-hour game: nothing loads every pose. ``poses_at`` asks the
``poses_by_tag_time`` index for each unit's last pose before t (a few milliseconds whatever the
length), ``track_of`` streams one unit's rows and can thin them to a time step, and events and rule
records are read between two times.
"""
from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tracker.errors import RecordingError
from tracker.events import EventKind, TrackerEvent
from tracker.recording.schema import MAX_SESSION_S, POSE_COLUMNS, RECORDING_FORMAT, RECORDING_VERSION, STATE_KIND_PREFIX, TABLES
from tracker.unit_pose import UnitPose, UnitState

_VALID_T = f"t_s >= 0 AND t_s <= {MAX_SESSION_S!r}"  # a NaN, negative or absurd time is a damaged row
#: The thinned tracks are looked up this many seconds of the game at a time (the progress shown after each).
TRACK_CHUNK_S = 600.0


@dataclass(frozen=True)
class RulesRecord:
    """One rule resolution as the rules engine handed it to the recorder."""

    t_s: float
    kind: str
    payload: dict[str, Any]
    #: The row's id in ``rules_events`` (:meth:`RecordingReader.rules_payload` reads its payload later).
    row_id: int = -1
    #: False when the payload was left unread (``iter_rules_events(later=...)``): ``payload`` is then {}.
    read: bool = True


@dataclass(frozen=True)
class Bookmark:
    t_s: float
    note: str


def _text(value: Any) -> str:
    """A meta or name cell as text: a damaged file may hold bytes or numbers where text belongs."""
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return "" if value is None else str(value)


class RecordingReader:
    """A recording opened for reading (``close()`` it, or use it as a context manager)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise RecordingError(f"no recording at '{self.path}'; check the path")
        with open(self.path, "rb") as fh:
            magic = fh.read(16)
        if magic != b"SQLite format 3\x00":
            raise RecordingError(f"'{self.path}' is not a recording (not an SQLite file); record one with sandtable track --record")
        self.problems: list[str] = []
        try:
            self._db = sqlite3.connect(str(self.path), check_same_thread=False)
            tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "meta" not in tables:
                self._db.close()
                raise RecordingError(f"'{self.path}' is an SQLite file but not a Sandtable recording (no meta table)")
            self.meta: dict[str, str] = {_text(k): _text(v) for k, v in self._db.execute("SELECT key, value FROM meta")}
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"'{self.path}' is damaged beyond reading ({exc})") from None
        if self.meta.get("format") != RECORDING_FORMAT:
            self._db.close()
            raise RecordingError(f"'{self.path}' is not a Sandtable recording (format {self.meta.get('format')!r})")
        try:
            self.version = int(self.meta.get("version", ""))
        except ValueError:
            self._db.close()
            raise RecordingError(f"'{self.path}': recording version {self.meta.get('version')!r} is not a number; the file is damaged") from None
        if self.version > RECORDING_VERSION:
            self._db.close()
            raise RecordingError(
                f"'{self.path}' is recording version {self.version}, newer than this program reads ({RECORDING_VERSION}); "
                "update sandtable-companion to open it"
            )
        if self.version < 1:
            self._db.close()
            raise RecordingError(f"'{self.path}': recording version {self.version} does not exist; the file is damaged")
        self._tables = tables
        missing = [t for t in TABLES if t not in tables]
        if missing:
            self.problems.append(f"tables missing: {', '.join(missing)} (the file was cut short); what remains is shown")
        try:
            duration = self.duration_s
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise RecordingError(f"'{self.path}' is damaged beyond reading ({exc})") from None
        if "ended_utc" not in self.meta:
            self.problems.append(
                f"the session was not closed cleanly (the program stopped while recording); it ends at t={duration:.1f} s"
            )
        name = self.meta.get("video_file", "")
        if name and Path(name).name != name:
            self.problems.append(f"the video {name!r} is named outside the recording's folder; it is ignored")
        elif name and not (self.path.parent / name).is_file():
            self.problems.append(f"the video '{name}' is missing; poses and events are complete without it")
        self._unit_ids: tuple[int, ...] | None = None

    # -- facts ---------------------------------------------------------------------------------
    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self._stream(sql, args))

    def _stream(self, sql: str, args: tuple[Any, ...] | dict[str, Any] = ()) -> Iterator[tuple[Any, ...]]:
        """Rows of ``sql``; a damaged page ends the stream with a note (what came before is kept)."""
        table = re.findall(r"\bFROM\s+([a-z_]+)", sql)[0]
        if table not in self._tables:
            return
        try:
            yield from self._db.execute(sql, args)
        except sqlite3.DatabaseError as exc:
            self._note(f"part of the {table} table is damaged ({exc}); what comes before the damage is shown")

    @property
    def duration_s(self) -> float:
        ends = [
            r[0]
            for table in ("frames", "events", "rules_events")
            for r in self._rows(f"SELECT MAX(t_s) FROM {table} WHERE {_VALID_T}")  # SQL built from fixed table and column names only
            if isinstance(r[0], (int, float))
        ]
        return float(max(ends)) if ends else 0.0

    @property
    def frame_count(self) -> int:
        rows = self._rows("SELECT COUNT(*) FROM frames")
        return int(rows[0][0]) if rows else 0

    @property
    def video_path(self) -> Path | None:
        """The camera video: only a file in the recording's own folder is ever opened."""
        name = self.meta.get("video_file", "")
        if not name or Path(name).name != name:
            return None
        return self.path.parent / name

    @property
    def units(self) -> dict[int, dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        for tag_id, name, side, spec in self._rows("SELECT tag_id, name, side, spec_json FROM units ORDER BY tag_id"):
            try:
                extra = json.loads(spec)
                out[int(tag_id)] = {**(extra if isinstance(extra, dict) else {}), "tag_id": int(tag_id),
                                    "name": _text(name), "side": _text(side)}
            except (TypeError, ValueError, RecursionError):
                self._note("a unit row is damaged and was skipped")
        return out

    @property
    def unit_ids(self) -> tuple[int, ...]:
        """Every tag that has a pose or a roster entry (read once, from the index)."""
        if self._unit_ids is None:
            ids = {int(r[0]) for r in self._rows("SELECT tag_id FROM units") if isinstance(r[0], int)}
            if "poses" in self._tables:
                # Walk the (tag_id, t_s) index one tag at a time: 40 look-ups, not a scan of millions.
                tag = -1
                while True:
                    # Only whole numbers are tags: a garbled cell (text, 12.5) is skipped, never a crash,
                    # and never a walk that stays on one value (int(12.5) > 12.5 is false).
                    row = next(self._stream("SELECT tag_id FROM poses WHERE tag_id > ? AND typeof(tag_id) = 'integer' "
                                            "ORDER BY tag_id LIMIT 1", (tag,)), None)
                    if row is None or row[0] is None:
                        break
                    tag = int(row[0])
                    ids.add(tag)
            self._unit_ids = tuple(sorted(ids))
        return self._unit_ids

    def frame_times(self) -> np.ndarray:
        """(N, 3) rows of frame index, t_s, video frame (-1 when no video frame)."""
        rows = self._rows(f"SELECT frame_index, t_s, COALESCE(video_frame, -1) FROM frames WHERE {_VALID_T} ORDER BY frame_index")  # SQL built from fixed table and column names only
        try:
            return np.array(rows, dtype=np.float64).reshape(-1, 3)
        except (TypeError, ValueError):
            self._note("some frame rows are damaged and were skipped")
            good = [r for r in rows if all(isinstance(v, (int, float)) for v in r)]
            return np.array(good, dtype=np.float64).reshape(-1, 3)

    # -- poses ---------------------------------------------------------------------------------
    def poses_at(self, t_s: float) -> tuple[UnitPose, ...]:
        """Every unit's pose as it was at ``t_s`` (units not yet seen then are left out)."""
        if "poses" not in self._tables or not math.isfinite(t_s):
            return ()
        columns = ", ".join(POSE_COLUMNS)
        ids = self.unit_ids
        # One statement for every unit (each its own look-up in the index): a replay or a debrief samples
        # thousands of moments, and 40 statements a moment cost more than the look-ups themselves.
        newest = (f"SELECT {columns} FROM poses WHERE id IN (SELECT (SELECT id FROM poses WHERE tag_id = tags.value AND t_s <= ? "  # SQL built from fixed table and column names only
                  f"AND {_VALID_T} ORDER BY t_s DESC, id DESC LIMIT 1) FROM json_each(?) AS tags) ORDER BY tag_id")
        fast: dict[int, UnitPose] = {}
        damaged = False
        for row in self._stream(newest, (float(t_s), json.dumps(list(ids)))):
            pose = _quiet_pose(row, t_s)
            if pose is None:
                damaged = True
            else:
                fast[pose.tag_id] = pose
        if not damaged:  # a unit left out was not seen yet
            return tuple(fast[tag_id] for tag_id in ids if tag_id in fast)
        out = []
        for tag_id in ids:
            if tag_id in fast:
                out.append(fast[tag_id])
                continue
            # Newest valid row at or before t: the index answers it in a few page reads; a damaged row
            # is skipped and the one before it taken.
            for row in self._stream(
                f"SELECT {columns} FROM poses WHERE tag_id = ? AND t_s <= ? AND {_VALID_T} ORDER BY t_s DESC, id DESC LIMIT 4",  # SQL built from fixed table and column names only
                (tag_id, float(t_s)),
            ):
                pose = self._pose(row, t_s)
                if pose is not None:
                    out.append(pose)
                    break
        return tuple(out)

    def _pose(self, row: tuple[Any, ...], t_s: float) -> UnitPose | None:
        try:
            return _pose_from_row(row, t_s)
        except (TypeError, ValueError) as exc:
            self._note(f"a pose row is damaged and was skipped ({exc})")
            return None

    def track_of(self, tag_id: int, *, step_s: float = 0.0) -> np.ndarray:
        """(N, 4) rows of t_s, x_in, y_in, heading_deg: one unit's recorded poses, streamed from the
        index; ``step_s`` > 0 thins them as :meth:`tracks` does."""
        if step_s > 0:
            return self.tracks(step_s=step_s, tag_ids=(int(tag_id),)).get(int(tag_id), np.zeros((0, 4)))
        rows = self._stream(f"SELECT t_s, x_in, y_in, heading_deg FROM poses WHERE tag_id = ? AND {_VALID_T} ORDER BY t_s, id",  # SQL built from fixed table and column names only
                            (int(tag_id),))
        return self._track_rows(int(tag_id), rows)

    def tracks(self, *, step_s: float, tag_ids: Iterable[int] | None = None, chunk_s: float = TRACK_CHUNK_S,
               progress: Callable[[float, float], None] | None = None) -> dict[int, np.ndarray]:
        """Every unit's track thinned to ``step_s``: (N, 4) rows of t_s, x_in, y_in, heading_deg per tag.

        Kept: at every step, each unit's newest pose at or before it; at each of the unit's tracker
        events (it moved, stopped, was lifted, came back), its newest pose at or before the event and
        its first one after; its first and last pose. So a stop keeps the moment the unit stopped and the
        moment it moved on, a lift both ends of the jump, and between them a pose per step. They are
        looked up in the ``poses_by_tag_time`` index, a stretch of ``chunk_s`` at a time for every unit
        at once (``progress(done_s, total_s)`` after each): a unit moving every frame for three hours is
        21,600 look-ups, not 324,000 rows read, and no pose is read twice from the disk."""
        if "poses" not in self._tables:
            return {}
        ids = [int(t) for t in (self.unit_ids if tag_ids is None else tag_ids)]
        duration = self.duration_s
        events: list[tuple[int, float]] = []
        for t, tag in self._stream(f"SELECT t_s, tag_id FROM events WHERE tag_id IS NOT NULL AND {_VALID_T} ORDER BY t_s"):  # SQL built from fixed table and column names only
            if isinstance(tag, int) and isinstance(t, (int, float)) and tag in ids:
                events.append((tag, float(t)))
        # The grid, the events and the two ends of the game (its first pose: "the first after -1 s").
        steps = [-1.0, *(k * float(step_s) for k in range(int(duration / step_s) + 1)), duration, MAX_SESSION_S]
        parts: list[np.ndarray] = []
        chunk = max(float(chunk_s), float(step_s))
        starts = np.arange(-1.0, duration + chunk, chunk) if duration > 0 else np.array([-1.0])
        for k, t0 in enumerate(starts):
            t1 = MAX_SESSION_S + 1 if k == len(starts) - 1 else float(t0) + chunk
            grid = [g for g in steps if t0 <= g < t1]
            marks = [[tag, t] for tag, t in events if t0 <= t < t1]
            if grid or marks:
                rows = list(self._stream(_THINNED_TRACKS, {"grid": json.dumps(grid), "tags": json.dumps(ids), "marks": json.dumps(marks)}))
                try:  # the usual case, at numpy's speed: every cell a number (a pose without a place: NaN)
                    parts.append(np.array([[np.nan if v is None else v for v in r] for r in rows] if _has_none(rows) else rows,
                                          dtype=np.float64).reshape(-1, 5))
                except (TypeError, ValueError):
                    good = []
                    for tag, t, x, y, heading in rows:
                        row = _track_row(t, x, y, heading)
                        if row is None or not isinstance(tag, int):
                            self._note(f"a pose row of unit {tag} is damaged and was skipped")
                        else:
                            good.append((tag, *row))
                    parts.append(np.array(good, dtype=np.float64).reshape(-1, 5))
            if progress is not None:
                progress(min(duration, float(t0) + chunk), duration)
        every = np.concatenate(parts) if parts else np.zeros((0, 5))
        # By unit, then time; one pose per time: a pose kept by two chunks or two look-ups is the same row.
        every = every[np.lexsort((every[:, 1], every[:, 0]))]
        keep = np.ones(len(every), dtype=bool)
        keep[1:] = np.any((every[1:] != every[:-1]) & ~(np.isnan(every[1:]) & np.isnan(every[:-1])), axis=1)
        every = every[keep]
        out = {}
        for tag in ids:
            rows_of = every[every[:, 0] == tag, 1:]
            if len(rows_of):
                out[tag] = np.ascontiguousarray(rows_of)
        return out

    def _track_rows(self, tag_id: int, rows: Iterable[tuple[Any, ...]]) -> np.ndarray:
        out: list[tuple[float, float, float, float]] = []
        for t, x, y, heading in rows:
            row = _track_row(t, x, y, heading)
            if row is None:
                self._note(f"a pose row of unit {tag_id} is damaged and was skipped")
                continue
            out.append(row)
        return np.array(out, dtype=np.float64).reshape(-1, 4)

    # -- events --------------------------------------------------------------------------------
    def events_between(self, t0_s: float = float("-inf"), t1_s: float = float("inf")) -> list[TrackerEvent]:
        """Tracker events with t0_s <= t_s < t1_s, in order."""
        out = []
        for t, frame, kind, tag_id, name, payload in self._stream(
            f"SELECT t_s, frame_index, kind, tag_id, name, payload_json FROM events WHERE t_s >= ? AND t_s < ? AND {_VALID_T} "  # SQL built from fixed table and column names only
            "ORDER BY t_s, id",
            (t0_s, t1_s),
        ):
            try:
                event_kind = EventKind(kind)
            except ValueError:
                self._note(f"unknown event kind {_text(kind)[:40]!r} skipped (recorded by a newer program?)")
                continue
            try:
                data = json.loads(payload)
                out.append(TrackerEvent(event_kind, float(t), int(frame), tag_id=tag_id if isinstance(tag_id, int) else None,
                                        name=_text(name), payload=data if isinstance(data, dict) else {}))
            except (TypeError, ValueError, RecursionError):
                self._note("a tracker event row is damaged and was skipped")
        return out

    def rules_events(self, t0_s: float = float("-inf"), t1_s: float = float("inf")) -> list[RulesRecord]:
        return list(self.iter_rules_events(t0_s, t1_s))

    def iter_rules_events(self, t0_s: float = float("-inf"), t1_s: float = float("inf"), *,
                          states_later: bool = False) -> Iterator[RulesRecord]:
        """Rule records with t0_s <= t_s < t1_s, in order, one at a time. ``states_later``: the session's
        full game states (``state:...`` rows, in a long game most of the file: each holds the game's
        events so far) come without their payload (``read`` False), for :meth:`rules_payload` to read
        when one is needed."""
        payload_column = f"CASE WHEN kind LIKE '{STATE_KIND_PREFIX}%' THEN NULL ELSE payload_json END" if states_later else "payload_json"
        for row_id, t, kind, payload in self._stream(
            f"SELECT id, t_s, kind, {payload_column} FROM rules_events WHERE t_s >= ? AND t_s < ? AND {_VALID_T} ORDER BY t_s, id",  # SQL built from fixed table and column names only
            (t0_s, t1_s),
        ):
            kind = _text(kind)
            if states_later and kind.startswith(STATE_KIND_PREFIX):
                yield RulesRecord(float(t), kind, {}, int(row_id), read=False)
                continue
            data = self._parsed(payload)
            if data is not None:
                yield RulesRecord(float(t), kind, data, int(row_id))

    def rules_payload(self, row_id: int) -> dict[str, Any]:
        """The payload of ``rules_events`` row ``row_id`` ({} when it is damaged or gone)."""
        return self._parsed(self._payload_json(row_id)) or {}

    def rules_payload_text(self, row_id: int) -> str | None:
        """The JSON text of ``rules_events`` row ``row_id`` as written (None when it is gone or not text):
        for a reader that parses only part of it (``appmodel.recording.state_rows``)."""
        text = self._payload_json(row_id)
        return text if isinstance(text, str) else None

    def _payload_json(self, row_id: int) -> Any:
        row = next(self._stream("SELECT payload_json FROM rules_events WHERE id = ?", (int(row_id),)), None)
        return None if row is None else row[0]

    def _parsed(self, payload: Any) -> dict[str, Any] | None:
        try:
            data = json.loads(payload)
        except (TypeError, ValueError, RecursionError):
            self._note("a rules record is damaged and was skipped")
            return None
        return data if isinstance(data, dict) else {"value": data}

    def bookmarks(self) -> list[Bookmark]:
        return [Bookmark(float(t), _text(note))
                for t, note in self._rows(f"SELECT t_s, note FROM bookmarks WHERE {_VALID_T} ORDER BY t_s, id")]  # SQL built from fixed table and column names only

    def _note(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "RecordingReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: The thinned tracks' look-ups (:meth:`RecordingReader.tracks`): per unit (``tags``), its newest pose
#: at or before each time of ``grid``; per ``marks`` entry [tag, t], the tag's newest pose at or before t
#: and its first after. Each look-up reads the covering index only; the rows are then read in id order.
_NEWEST = f"SELECT id FROM poses WHERE tag_id = {{tag}} AND t_s <= {{t}} AND {_VALID_T} ORDER BY t_s DESC, id DESC LIMIT 1"
_FIRST_AFTER = f"SELECT id FROM poses WHERE tag_id = {{tag}} AND t_s > {{t}} AND {_VALID_T} ORDER BY t_s, id LIMIT 1"
_MARK_TAG, _MARK_T = "json_extract(m.value, '$[0]')", "json_extract(m.value, '$[1]')"
_THINNED_TRACKS = (
    "SELECT tag_id, t_s, x_in, y_in, heading_deg FROM poses WHERE id IN ("
    f"SELECT ({_NEWEST.format(tag='u.value', t='g.value')}) FROM json_each(:grid) AS g, json_each(:tags) AS u"
    " UNION SELECT (" + _NEWEST.format(tag=_MARK_TAG, t=_MARK_T) + ") FROM json_each(:marks) AS m"
    " UNION SELECT (" + _FIRST_AFTER.format(tag=_MARK_TAG, t=_MARK_T) + ") FROM json_each(:marks) AS m)"
)


def _has_none(rows: list[tuple[Any, ...]]) -> bool:
    return any(v is None for r in rows for v in r)


def _track_row(t: Any, x: Any, y: Any, heading: Any) -> tuple[float, float, float, float] | None:
    """One track row (t_s, x_in, y_in, heading_deg; a pose without a place as NaN), None when damaged."""
    if not all(v is None or isinstance(v, (int, float)) for v in (x, y)) or not isinstance(heading, (int, float)) \
            or not isinstance(t, (int, float)):
        return None
    return float(t), math.nan if x is None else float(x), math.nan if y is None else float(y), float(heading)


def _quiet_pose(row: tuple[Any, ...], t_s: float) -> UnitPose | None:
    """A pose row read, or None for a damaged one (which the careful path then reads, and notes)."""
    try:
        return _pose_from_row(row, t_s)
    except (TypeError, ValueError):
        return None


def _pose_from_row(row: tuple[Any, ...], t_s: float) -> UnitPose:
    (_, _, tag_id, name, side, state, x, y, z, heading, cx, cy, moved, turned, moving, conflict, last_seen) = row
    for value in (x, y, z, moved):
        if value is not None and not isinstance(value, (int, float)):
            raise ValueError(f"{value!r} where a number belongs")
    return UnitPose(
        tag_id=int(tag_id),
        name=_text(name),
        side=_text(side),
        x_in=x,
        y_in=y,
        z_in=z,
        heading_deg=float(heading),
        state=UnitState(state),
        t_s=float(t_s),
        moved_this_turn_in=moved,
        turned_this_turn_deg=float(turned),
        last_seen_t_s=float(last_seen),
        moving=bool(moving),
        conflict=bool(conflict),
        center_px=(float(cx or 0.0), float(cy or 0.0)),
    )


@contextmanager
def open_recording(path: str | Path) -> Iterator[RecordingReader]:
    """A recording opened for reading, as every command opens one: a file SQLite cannot open (cut
    short by a copy, a failed disk) is rescued into a temporary copy and read from there, with a note
    in ``problems`` saying what was lost; the damaged file itself is never changed."""
    from tracker.recording.salvage import copy_of, remove_copy, salvage_recording

    try:
        reader = RecordingReader(path)
    except RecordingError as refused:
        if "damaged" not in str(refused):
            raise
        copy = copy_of(path)
        try:
            try:
                rescued = salvage_recording(path, copy)
                reader = RecordingReader(copy)
            except RecordingError:
                raise refused from None
            lost = rescued.notes() or ("the end of the file",)
            reader.problems = [f"the file is damaged ({refused}); what could be rescued is shown: {'; '.join(lost)}",
                               *(p for p in reader.problems if "not closed cleanly" not in p)]
            reader.path = Path(path)
            with reader:
                yield reader
        finally:
            remove_copy(copy)
        return
    with reader:
        yield reader
