"""Reading a recording back: poses at any time, events between two times, rule resolutions, bookmarks,
and the camera video as a frame source (the replay the GUI scrubs through, the debrief's data).

Opening collects every problem it finds (a session that was killed mid-write, a missing video, a
table cut short) in ``problems`` instead of stopping at the first; only a file that is not a recording
at all, or of a version this program cannot read, is refused - with a hint.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tracker.errors import RecordingError, SourceError
from tracker.events import EventKind, TrackerEvent
from tracker.frames import Frame
from tracker.recording import RECORDING_FORMAT, RECORDING_VERSION
from tracker.unit_pose import UnitPose, UnitState

_TABLES = ("meta", "units", "frames", "poses", "events", "rules_events", "bookmarks")


@dataclass(frozen=True)
class RulesRecord:
    """One rule resolution as the rules engine handed it to the recorder."""

    t_s: float
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class Bookmark:
    t_s: float
    note: str


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
        try:
            self._db = sqlite3.connect(str(self.path), check_same_thread=False)
            tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as exc:
            raise RecordingError(f"'{self.path}' is damaged beyond reading ({exc})") from None
        self.problems: list[str] = []
        if "meta" not in tables:
            self._db.close()
            raise RecordingError(f"'{self.path}' is an SQLite file but not a Sandtable recording (no meta table)")
        self.meta: dict[str, str] = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
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
        missing = [t for t in _TABLES if t not in tables]
        if missing:
            self.problems.append(f"tables missing: {', '.join(missing)} (the file was cut short); what remains is shown")
        if "ended_utc" not in self.meta:
            self.problems.append(
                f"the session was not closed cleanly (the program stopped while recording); it ends at t={self.duration_s:.1f} s"
            )
        video = self.video_path
        if self.meta.get("video_file") and (video is None or not video.is_file()):
            self.problems.append(f"the video '{self.meta['video_file']}' is missing; poses and events are complete without it")
        self._pose_cache: dict[int, list[tuple[Any, ...]]] | None = None

    # -- facts ---------------------------------------------------------------------------------
    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        table = sql.split(" FROM ")[1].split()[0]
        if table not in self._tables:
            return []
        return self._db.execute(sql, args).fetchall()

    @property
    def duration_s(self) -> float:
        ends = [
            r[0]
            for r in (
                *self._rows("SELECT MAX(t_s) FROM frames"),
                *self._rows("SELECT MAX(t_s) FROM events"),
                *self._rows("SELECT MAX(t_s) FROM rules_events"),
            )
            if r[0] is not None
        ]
        return float(max(ends)) if ends else 0.0

    @property
    def frame_count(self) -> int:
        rows = self._rows("SELECT COUNT(*) FROM frames")
        return int(rows[0][0]) if rows else 0

    @property
    def video_path(self) -> Path | None:
        name = self.meta.get("video_file", "")
        return self.path.parent / name if name else None

    @property
    def units(self) -> dict[int, dict[str, Any]]:
        return {
            int(tag_id): {"tag_id": int(tag_id), "name": name, "side": side, **json.loads(spec)}
            for tag_id, name, side, spec in self._rows("SELECT tag_id, name, side, spec_json FROM units ORDER BY tag_id")
        }

    def frame_times(self) -> np.ndarray:
        """(N, 3) rows of frame index, t_s, video frame (-1 when no video frame)."""
        rows = self._rows("SELECT frame_index, t_s, COALESCE(video_frame, -1) FROM frames ORDER BY frame_index")
        return np.array(rows, dtype=np.float64).reshape(-1, 3)

    # -- poses ---------------------------------------------------------------------------------
    def _poses_by_tag(self) -> dict[int, list[tuple[Any, ...]]]:
        if self._pose_cache is None:
            cache: dict[int, list[tuple[Any, ...]]] = {}
            for row in self._rows(
                "SELECT t_s, tag_id, name, side, state, x_in, y_in, z_in, heading_deg, center_x_px, center_y_px, "
                "moved_this_turn_in, turned_this_turn_deg, moving, conflict, last_seen_t_s FROM poses ORDER BY t_s, id"
            ):
                cache.setdefault(int(row[1]), []).append(row)
            self._pose_cache = cache
        return self._pose_cache

    def poses_at(self, t_s: float) -> tuple[UnitPose, ...]:
        """Every unit's pose as it was at ``t_s`` (units not yet seen then are left out)."""
        out = []
        for tag_id, rows in sorted(self._poses_by_tag().items()):
            times = [r[0] for r in rows]
            i = int(np.searchsorted(times, t_s, side="right")) - 1
            if i >= 0:
                out.append(_pose_from_row(rows[i], t_s))
        return tuple(out)

    def track_of(self, tag_id: int) -> np.ndarray:
        """(N, 4) rows of t_s, x_in, y_in, heading_deg: one unit's recorded poses (for movement trails)."""
        rows = self._poses_by_tag().get(int(tag_id), [])
        return np.array([(r[0], np.nan if r[5] is None else r[5], np.nan if r[6] is None else r[6], r[8]) for r in rows], dtype=np.float64).reshape(-1, 4)

    # -- events --------------------------------------------------------------------------------
    def events_between(self, t0_s: float = float("-inf"), t1_s: float = float("inf")) -> list[TrackerEvent]:
        """Tracker events with t0_s <= t_s < t1_s, in order."""
        out = []
        for t, frame, kind, tag_id, name, payload in self._rows(
            "SELECT t_s, frame_index, kind, tag_id, name, payload_json FROM events WHERE t_s >= ? AND t_s < ? ORDER BY t_s, id",
            (t0_s, t1_s),
        ):
            try:
                event_kind = EventKind(kind)
            except ValueError:
                self._note(f"unknown event kind {kind!r} skipped (recorded by a newer program?)")
                continue
            out.append(TrackerEvent(event_kind, float(t), int(frame), tag_id=tag_id, name=name, payload=json.loads(payload)))
        return out

    def rules_events(self, t0_s: float = float("-inf"), t1_s: float = float("inf")) -> list[RulesRecord]:
        return [
            RulesRecord(float(t), kind, json.loads(payload))
            for t, kind, payload in self._rows(
                "SELECT t_s, kind, payload_json FROM rules_events WHERE t_s >= ? AND t_s < ? ORDER BY t_s, id", (t0_s, t1_s)
            )
        ]

    def bookmarks(self) -> list[Bookmark]:
        return [Bookmark(float(t), note) for t, note in self._rows("SELECT t_s, note FROM bookmarks ORDER BY t_s, id")]

    def _note(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "RecordingReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pose_from_row(row: tuple[Any, ...], t_s: float) -> UnitPose:
    (_, tag_id, name, side, state, x, y, z, heading, cx, cy, moved, turned, moving, conflict, last_seen) = row
    return UnitPose(
        tag_id=int(tag_id),
        name=name,
        side=side,
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


class ReplaySource:
    """The camera video of a recording as a frame source, with the recorded times (``seek`` to scrub)."""

    is_live = False

    def __init__(self, path: str | Path) -> None:
        import cv2

        self.reader = RecordingReader(path)
        self.name = str(path)
        video = self.reader.video_path
        if video is None or not video.is_file():
            self.reader.close()
            raise SourceError(
                f"recording '{path}' has no camera video to replay; record with --video, or open it in the replay "
                "view for poses and events"
            )
        times = self.reader.frame_times()
        self._times = times[times[:, 2] >= 0]
        self._capture = cv2.VideoCapture(str(video))
        if not self._capture.isOpened():
            self.reader.close()
            raise SourceError(f"cannot open the video '{video}' of recording '{path}'")
        self.fps = float(self.reader.meta.get("video_fps", "30") or 30)
        self._next = 0

    @property
    def frame_count(self) -> int | None:
        return len(self._times)

    @property
    def connected(self) -> bool:
        return True

    def seek(self, t_s: float) -> None:
        """Continue from the first recorded frame at or after ``t_s``."""
        import cv2

        i = int(np.searchsorted(self._times[:, 1], t_s, side="left"))
        self._next = i
        if i < len(self._times):
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, int(self._times[i, 2]))

    def read(self) -> Frame | None:
        if self._next >= len(self._times):
            return None
        ok, image = self._capture.read()
        if not ok or image is None:
            return None  # the video ends early (a killed session): the frames that exist are replayed
        index, t_s, _ = self._times[self._next]
        self._next += 1
        return Frame(image_bgr=image, index=int(index), t_s=float(t_s))

    def latest_frame(self, timeout_s: float) -> Frame | None:
        return self.read()

    def close(self) -> None:
        self._capture.release()
        self.reader.close()

    def __enter__(self) -> "ReplaySource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
