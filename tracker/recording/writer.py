"""Recording a session to SQLite for the debrief: poses over time, events, rule resolutions, bookmarks.

The format (version 1) is ``tracker/recording/schema.py``, documented field by field in
docs/recording-format.md; reading is ``tracker/recording/reader.py``.

Creation is atomic: the file is created with O_EXCL, so of two recorders started at once with the same
new name one is refused; a start that fails (a full disk, a read-only folder) removes every file it
made, so the name stays free. A recording never overwrites a file it did not make: its video's name
(``<name>.mp4``, shared by ``game.sqlite`` and ``game.db``) already taken is refused at the start.

Crash safety: the file is in WAL mode and a writer thread commits at least every
``commit_interval_s`` (0.5 s), so killing the process mid-game leaves a readable file that misses at
most the last commit interval; every ``checkpoint_interval_s`` (2 s), on ``close()`` and on
SIGTERM/SIGINT (the command line turns them into a normal stop) the WAL is copied into the ``.sqlite``
file, so the ``.sqlite`` alone - copied without its ``-wal`` - holds all but the last seconds.

A full disk: room for the closing note is reserved up front (``<name>.sqlite-reserve``, removed on a
clean close); when a write fails the reserve is released, the reason is written to ``meta.stop_reason``
and the file checkpointed, so every frame committed before the failure and the reason are kept; the
video stops with it (``meta.video_stop_reason`` in the same note) and is cut back to its last whole
fragment, so it plays to there. A folder made read-only or removed is said so in one line. The tracking thread never waits on the disk: it hands rows to the
writer through a bounded queue (it blocks only if the disk falls seconds behind; nothing is ever
dropped), and ``close()`` sends a sentinel, waits for the writer to drain the queue and marks the
session as ended.

Optionally the camera frames go to an H.264 MP4 next to the database (``<name>.mp4``, which browsers
play), fragmented so that a killed recording leaves a video that plays up to its last second or so
(``tracker/h264_video.py``). The video has a thread and a short queue of its own: encoding never holds
up the tracking thread, and should the encoder fall behind, a frame is left out of the video (its
``frames`` row says so, ``video_frame`` NULL) rather than the camera kept waiting; the count is in
``meta.video_frames_dropped``. A file source is not a camera: it can wait, so with
``video_backpressure`` the tracking thread waits for the encoder instead and no frame of the file is
left out. The ``frames`` table maps frame index to time and to the frame's number
in the video. Recordings made before kept a Motion-JPEG ``<name>.avi``; ``meta.video_file`` names
whichever there is, and readers open both.
"""
from __future__ import annotations

import datetime as _dt
import json
import math
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from tracker.errors import RecordingError
from tracker.events import EventBus, TrackerEvent
from tracker.recording.schema import LEGACY_VIDEO_SUFFIXES, POSE_COLUMNS, RECORDING_FORMAT, RECORDING_VERSION, SCHEMA, VIDEO_SUFFIX
from tracker.roster import Roster
from tracker.unit_pose import UnitPose

_STOP = object()
#: A pose is written again only when it changed by more than this (inches, or pixels uncalibrated) ...
POSITION_EPS = 1e-3
#: ... or this many degrees, or its state or flags changed.
HEADING_EPS_DEG = 0.01
#: Room kept free for the closing note and checkpoint after a disk fills (see the module's docstring).
RESERVE_BYTES = 256 * 1024
RESERVE_SUFFIX = "-reserve"
#: Camera frames waiting for the encoder, in bytes: about a second at 1080p (6 MB a frame), to ride out a
#: busy moment of the machine, and a bound on the memory a lagging encoder takes.
VIDEO_QUEUE_BYTES = 200 * 1024 * 1024
#: The recording's video: camera footage for the debrief, not the demo's sharp overlay text. x264's
#: fastest preset costs less CPU than the Motion-JPEG it replaces, at a fifteenth of the size (README,
#: bench/recording_video.py): the tracker shares the machine with it.
VIDEO_CRF = 23
VIDEO_PRESET = "ultrafast"
_INSERT_POSE = f"INSERT INTO poses ({', '.join(POSE_COLUMNS)}) VALUES ({', '.join('?' * len(POSE_COLUMNS))})"


def video_path_for(path: str | Path) -> Path:
    """Where the camera video of recording ``path`` goes: same name, ``.mp4``."""
    return Path(path).with_suffix(VIDEO_SUFFIX)


def _utc_now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def _json(payload: Any) -> str:
    try:
        return json.dumps(payload, sort_keys=True, default=_json_default)
    except (TypeError, ValueError) as exc:
        raise RecordingError(f"cannot record {payload!r}: not JSON-serialisable ({exc}); pass plain dicts, lists, numbers and strings") from None


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if hasattr(value, "value") and isinstance(value.value, (str, int)):
        return value.value  # enums
    raise TypeError(f"{type(value).__name__} is not JSON-serialisable")


class Recorder:
    """Writes one session to a SQLite file (mutable; ``close()`` it, or use it as a context manager).

    ``metadata``: session facts stored in the ``meta`` table (scenario path and text, calibration
    JSON, ruleset...). ``video``: also write the frames handed to :meth:`record_frame` to ``<name>.mp4``.
    An existing file is refused unless ``overwrite`` (a recording is never destroyed by accident).
    ``max_size_bytes``: the database may not grow past this size; reaching it stops the recording
    exactly as a full disk does (what was committed stays readable, ``meta.stop_reason`` says why).
    ``video_backpressure``: a frame the video encoder has no room for waits for it instead of being left
    out (for a file source, which waits; a live camera does not, so its frames may be left out).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        metadata: Mapping[str, Any] | None = None,
        roster: Roster | None = None,
        video: bool = False,
        video_fps: float = 30.0,
        overwrite: bool = False,
        queue_size: int = 512,
        commit_interval_s: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
        max_size_bytes: int | None = None,
        checkpoint_interval_s: float = 2.0,
        reserve_bytes: int = RESERVE_BYTES,
        video_backpressure: bool = False,
    ) -> None:
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise RecordingError(f"cannot record to '{self.path}': folder '{self.path.parent}' does not exist; create it first")
        if overwrite:
            for p in self._files():
                p.unlink(missing_ok=True)
        video_file = video_path_for(self.path)
        if video and video_file.exists():
            # Another recording's video (game.sqlite and game.db share game.mp4), or a file of the user's.
            raise RecordingError(f"cannot record to '{self.path}' with its video: '{video_file}' already exists and "
                                 "is not this recording's; choose another file name (a file is never overwritten)")
        try:
            # O_EXCL: exactly one of two recorders started at once with this new name gets it.
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            raise RecordingError(f"'{self.path}' already exists; choose another file name (a recording is never overwritten)") from None
        except OSError as exc:
            raise RecordingError(f"cannot record to '{self.path}' ({exc.strerror}); check the folder is writable") from None
        self._reserve = Path(f"{self.path}{RESERVE_SUFFIX}")
        db = None
        try:
            for stale in (Path(f"{self.path}-wal"), Path(f"{self.path}-shm"), Path(f"{self.path}-journal")):
                stale.unlink(missing_ok=True)  # left by an earlier file of this name: not ours to replay
            if reserve_bytes > 0:
                with open(self._reserve, "wb") as fh:
                    fh.write(b"\0" * int(reserve_bytes))
                    fh.flush()
                    os.fsync(fh.fileno())
            db = sqlite3.connect(str(self.path), check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            if max_size_bytes is not None:
                page_size = int(db.execute("PRAGMA page_size").fetchone()[0])
                db.execute(f"PRAGMA max_page_count = {max(2, int(max_size_bytes) // page_size)}")
            db.executescript(SCHEMA)
            meta = {
                "format": RECORDING_FORMAT,
                "version": str(RECORDING_VERSION),
                "created_utc": _utc_now(),
                "video_file": video_path_for(self.path).name if video else "",
                "video_fps": str(float(video_fps)),
            }
            for key, value in (metadata or {}).items():
                meta[str(key)] = value if isinstance(value, str) else _json(value)
            db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", meta.items())
            for spec in (roster.units if roster else ()):
                db.execute(
                    "INSERT OR REPLACE INTO units (tag_id, name, side, spec_json) VALUES (?, ?, ?, ?)",
                    (spec.tag_id, spec.name, spec.side, _json(asdict(spec))),
                )
            db.commit()
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except (sqlite3.Error, OSError) as exc:
            if db is not None:
                db.close()
            for p in self._files()[:5]:  # a refused start leaves nothing behind: the name stays free
                p.unlink(missing_ok=True)  # (only the files it made: no video is made before the first frame)
            raise RecordingError(f"cannot record to '{self.path}': {what_happened(exc, self.path)}") from None
        self._db = db
        self._checkpoint_interval_s = float(checkpoint_interval_s)
        self._video = video
        self._video_fps = float(video_fps)
        self._video_frames = 0  # handed to the video thread (the next one's number in the video)
        self._video_dropped = 0
        self._video_written = 0  # encoded (the video thread's count)
        self._video_error: BaseException | None = None
        self._video_queue: queue.Queue[Any] = queue.Queue()  # bounded by bytes: see _queue_video
        self._video_queued_bytes = 0
        self._video_lock = threading.Lock()
        self._video_room = threading.Condition(self._video_lock)  # signalled as the encoder takes a frame
        self._video_backpressure = bool(video_backpressure)
        self._video_thread: threading.Thread | None = None
        if video:
            self._video_thread = threading.Thread(target=self._video_loop, name=f"sandtable-video-{self.path.name}", daemon=True)
            self._video_thread.start()
        self._commit_interval_s = float(commit_interval_s)
        self._clock = clock
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=max(8, queue_size))
        self._error: BaseException | None = None
        self._applied_t_s = 0.0  # session time of the newest row written (committed or not) ...
        self._committed_t_s = 0.0  # ... and of the newest row committed: what survives an error
        self._failed_after_t_s = 0.0
        self._last_pose: dict[int, UnitPose] = {}
        self._known_units: set[int] = {spec.tag_id for spec in (roster.units if roster else ())}
        self._unsubscribe: Callable[[], None] | None = None
        self._attached_to: EventBus | None = None
        self._closed = False
        self.last_t_s = 0.0
        self._thread = threading.Thread(target=self._write_loop, name=f"sandtable-recorder-{self.path.name}", daemon=True)
        self._thread.start()

    # -- what the tracker and the GUI call --------------------------------------------------------
    def attach(self, bus: EventBus) -> None:
        """Record every event published on ``bus`` (the tracker's), until :meth:`close`. Idempotent."""
        if self._attached_to is bus:
            return
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._attached_to = bus
        self._unsubscribe = bus.subscribe(self.record_event)

    @property
    def closed(self) -> bool:
        """Whether the recording was closed (it takes nothing more)."""
        return self._closed

    def record_frame(self, frame_index: int, t_s: float, poses: tuple[UnitPose, ...] | list[UnitPose], image_bgr: np.ndarray | None = None) -> None:
        """One processed frame: its time, the poses that changed, and (with ``video``) the image."""
        self._check()
        self.last_t_s = max(self.last_t_s, float(t_s))
        rows = []
        for pose in poses:
            if self._changed(pose):
                self._last_pose[pose.tag_id] = pose
                rows.append(_pose_row(frame_index, pose))
            if pose.tag_id not in self._known_units:
                self._known_units.add(pose.tag_id)
                self._put(("unit", (pose.tag_id, pose.name, pose.side, _json({"tag_id": pose.tag_id, "name": pose.name}))))
        video_frame = self._queue_video(image_bgr) if self._video and image_bgr is not None else None
        self._put(("frame", (int(frame_index), float(t_s), video_frame), rows))

    def record_event(self, event: TrackerEvent) -> None:
        self._check()
        self.last_t_s = max(self.last_t_s, float(event.t_s))
        self._put(
            ("event", (float(event.t_s), int(event.frame_index), event.kind.value, event.tag_id, event.name, _json(event.payload)))
        )

    def record_rules_event(self, t_s: float, kind: str, payload: Mapping[str, Any]) -> None:
        """A rule resolution from the rules engine (a JSON-serialisable dict), at session time ``t_s``."""
        self._check()
        if not isinstance(kind, str) or not kind:
            raise RecordingError(f"rules event kind {kind!r}: give a non-empty name such as 'attack'")
        self._put(("rules", (float(t_s), kind, _json(dict(payload)))))

    def add_bookmark(self, t_s: float, note: str) -> None:
        """An instructor's bookmark at session time ``t_s``."""
        self._check()
        self._put(("bookmark", (float(t_s), str(note))))

    def set_meta(self, key: str, value: Any) -> None:
        self._check()
        self._put(("meta", (str(key), value if isinstance(value, str) else _json(value))))

    def flush(self, timeout_s: float = 10.0) -> None:
        """Wait until everything handed over so far is committed to the file (and the video encoder)."""
        if self._video_thread is not None and self._video_thread.is_alive():
            encoded = threading.Event()
            self._video_queue.put(encoded)
            if not encoded.wait(timeout_s):
                raise RecordingError(f"the video of '{self.path}' is more than {timeout_s:.0f} s behind; is the machine very busy?")
        done = threading.Event()
        self._put(("flush", done))
        if not done.wait(timeout_s):
            raise RecordingError(f"recording to '{self.path}' is more than {timeout_s:.0f} s behind; is the disk very slow?")
        self._check()

    def close(self) -> None:
        """Write what is queued, mark the session ended, and close the file (and the video)."""
        if self._closed:
            return
        self._closed = True
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._video_thread is not None:
            self._video_queue.put(_STOP)
            self._video_thread.join()
            notes = [("video_frames_dropped", str(self._video_dropped))]
            if self._video_error is not None and self._error is None:
                notes.append(("video_stop_reason", f"{what_happened(self._video_error, self.path)}; the video ends "
                                                   f"after {self._video_written} frames"))
            for note in notes:
                self._put(("meta", note))
        self._queue.put(_STOP)
        self._thread.join()
        if self._error is not None:
            raise RecordingError(
                f"recording to '{self.path}' failed: {what_happened(self._error, self.path)}; the session up to "
                f"t={self._failed_after_t_s:.1f} s is kept in the file"
            )

    def __enter__(self) -> "Recorder":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def video_frame_count(self) -> int:
        """Frames handed to the video so far (each has its number in the video in the ``frames`` table)."""
        return self._video_frames

    @property
    def records_video(self) -> bool:
        """Whether frames go to a video beside the recording (``video_path_for(path)``)."""
        return self._video

    @property
    def video_frames_dropped(self) -> int:
        """Frames left out of the video because the encoder was behind (never with ``video_backpressure``)."""
        return self._video_dropped

    @property
    def video_frames_encoded(self) -> int:
        """Frames the encoder has taken so far: the file holds all but the last second of them."""
        return self._video_written

    # -- internals ---------------------------------------------------------------------------
    def _files(self) -> tuple[Path, ...]:
        return (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm"), Path(f"{self.path}-journal"),
                Path(f"{self.path}{RESERVE_SUFFIX}"), video_path_for(self.path),
                *(self.path.with_suffix(s) for s in LEGACY_VIDEO_SUFFIXES))

    def _release_reserve(self) -> None:
        try:
            self._reserve.unlink(missing_ok=True)
        except OSError:
            # A folder made read-only: the file cannot go, but its room can (truncating needs no folder
            # write), which is all a full disk needs. Never a reason to fail a recording that is complete.
            try:
                os.truncate(self._reserve, 0)
            except OSError:
                pass

    def _check(self) -> None:
        if self._error is not None:
            raise RecordingError(
                f"recording to '{self.path}' stopped: {what_happened(self._error, self.path)}; the session up to "
                f"t={self._failed_after_t_s:.1f} s is kept in the file"
            )
        if self._closed:
            raise RecordingError(f"recording '{self.path}' is closed; start a new one")

    def _put(self, item: Any) -> None:
        self._queue.put(item)  # blocks when the writer is seconds behind: never drops data

    def _changed(self, pose: UnitPose) -> bool:
        last = self._last_pose.get(pose.tag_id)
        if last is None:
            return True
        if (last.state, last.moving, last.conflict) != (pose.state, pose.moving, pose.conflict):
            return True
        if pose.moving and pose.last_seen_t_s > last.last_seen_t_s:
            return True  # every sighting of a unit in motion, even one where it stood as in the last
        if last.x_in is not None and pose.x_in is not None and last.y_in is not None and pose.y_in is not None:
            moved = math.hypot(pose.x_in - last.x_in, pose.y_in - last.y_in)
        else:
            moved = math.hypot(pose.center_px[0] - last.center_px[0], pose.center_px[1] - last.center_px[1])
        turned = abs((pose.heading_deg - last.heading_deg + 180.0) % 360.0 - 180.0)
        return moved > POSITION_EPS or turned > HEADING_EPS_DEG

    def _write_loop(self) -> None:
        db = self._db
        last_commit = last_checkpoint = self._clock()
        dirty = False
        pending: list[Any] = []  # applied since the last commit: re-applied once if a commit fails
        while True:
            try:
                item = self._queue.get(timeout=self._commit_interval_s / 2)
            except queue.Empty:
                item = None
            try:
                if item is _STOP:
                    if self._error is not None:
                        break  # the reason was written when the error happened
                    db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('ended_utc', ?)", (_utc_now(),))
                    db.commit()
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    self._release_reserve()
                    break
                if item is not None and self._error is not None:
                    if item[0] == "flush":  # nothing more will be written: do not keep the caller waiting
                        item[1].set()
                    elif item[0] == "meta":  # a note (the video's stop reason): a few bytes, worth a try
                        try:
                            self._apply(db, item)
                            db.commit()
                        except sqlite3.Error:
                            db.rollback()
                    continue
                if item is not None:
                    if item[0] == "flush":
                        db.commit()
                        pending.clear()
                        self._committed_t_s = self._applied_t_s
                        dirty = False
                        last_commit = self._clock()
                        item[1].set()
                        continue
                    self._apply(db, item)
                    pending.append(item)
                    dirty = True
                if dirty and self._clock() - last_commit >= self._commit_interval_s:
                    db.commit()
                    pending.clear()
                    self._committed_t_s = self._applied_t_s
                    dirty = False
                    last_commit = self._clock()
                if not dirty and self._clock() - last_checkpoint >= self._checkpoint_interval_s:
                    # The .sqlite alone (copied without its -wal) then misses at most these seconds.
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    last_checkpoint = self._clock()
            except Exception as exc:  # disk full, file removed: keep what was committed, report on next call
                if self._error is None:
                    self._error = exc
                    self._failed_after_t_s = self._committed_t_s
                    try:
                        db.rollback()  # the failed transaction; everything committed before stays
                    except sqlite3.Error:
                        pass
                    if item is not None and item is not _STOP and item[0] != "flush" and item not in pending:
                        pending.append(item)
                    self._mark_stopped(db, pending)  # now, not at close: the process may not live that long
                    pending.clear()
                if item is _STOP:
                    break
                if item is not None and item[0] == "flush":
                    item[1].set()
        db.close()

    def _mark_stopped(self, db: sqlite3.Connection, pending: list[Any]) -> None:
        """After a write error: keep the rows of the failed transaction if the reserved room holds them,
        and say in the file why and when it stopped (best effort: the disk may be full)."""
        self._release_reserve()  # the room kept for exactly this
        db.execute("PRAGMA max_page_count = 2147483646")  # a size cap, not a full disk: room for the note
        for rows in (pending, []):  # the lost half second and the note; else the note alone
            try:
                for item in rows:
                    self._apply(db, item)
                if rows:
                    self._failed_after_t_s = self._applied_t_s
                reason = f"{self._error}; recording stopped, kept up to t={self._failed_after_t_s:.1f} s"
                notes = [("stopped_utc", _utc_now()), ("stop_reason", reason)]
                if self._video:
                    # The video stops with the poses (it is what fills the disk, and past the poses' end it
                    # could not be replayed): said in the same note, while the reserve gives room for it.
                    stopped_by = self._video_error or self._error
                    assert stopped_by is not None  # this note is written only after a write error
                    self._video_error = stopped_by
                    notes.append(("video_stop_reason", f"{what_happened(stopped_by, self.path)}; the video ends "
                                                       f"after about {self._video_written} frames"))
                db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", notes)
                db.commit()
                self._committed_t_s = self._failed_after_t_s
                break
            except sqlite3.Error:
                try:
                    db.rollback()
                except sqlite3.Error:
                    pass
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass  # the note and the frames stay in the -wal file, which the reader applies

    def _apply(self, db: sqlite3.Connection, item: tuple[Any, ...]) -> None:
        kind = item[0]
        if kind in ("frame", "event", "rules", "bookmark"):
            self._applied_t_s = max(self._applied_t_s, float(item[1][1] if kind == "frame" else item[1][0]))
        if kind == "frame":
            (frame_index, t_s, video_frame), rows = item[1], item[2]
            db.execute("INSERT OR REPLACE INTO frames (frame_index, t_s, video_frame) VALUES (?, ?, ?)", (frame_index, t_s, video_frame))
            if rows:
                db.executemany(_INSERT_POSE, rows)
        elif kind == "event":
            db.execute("INSERT INTO events (t_s, frame_index, kind, tag_id, name, payload_json) VALUES (?, ?, ?, ?, ?, ?)", item[1])
        elif kind == "rules":
            db.execute("INSERT INTO rules_events (t_s, kind, payload_json) VALUES (?, ?, ?)", item[1])
        elif kind == "bookmark":
            db.execute("INSERT INTO bookmarks (t_s, note) VALUES (?, ?)", item[1])
        elif kind == "unit":
            db.execute("INSERT OR IGNORE INTO units (tag_id, name, side, spec_json) VALUES (?, ?, ?, ?)", item[1])
        elif kind == "meta":
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", item[1])

    # -- the video, on a thread of its own ------------------------------------------------------
    def _queue_video(self, image_bgr: np.ndarray) -> int | None:
        """Hand a frame to the encoder without waiting; its number in the video, or None if left out."""
        if self._video_error is not None:
            return None
        with self._video_room:
            while self._video_queued_bytes > 0 and self._video_queued_bytes + image_bgr.nbytes > VIDEO_QUEUE_BYTES:
                if not self._video_backpressure or self._video_error is not None:
                    self._video_dropped += 1  # the encoder is behind: the camera does not wait for it
                    return None
                self._video_room.wait(1.0)  # a file waits: the encoder always drains, even after an error
            self._video_queued_bytes += image_bgr.nbytes
        # A copy: it is encoded later, and a camera may fill the same array with its next frame meanwhile.
        self._video_queue.put(image_bgr.copy())
        self._video_frames += 1
        return self._video_frames - 1

    def _video_loop(self) -> None:
        from tracker.h264_video import H264Writer

        writer: H264Writer | None = None
        while True:
            image = self._video_queue.get()
            if image is _STOP:
                break
            if isinstance(image, threading.Event):  # flush(): everything before it is encoded
                image.set()
                continue
            with self._video_room:
                self._video_queued_bytes -= image.nbytes
                self._video_room.notify_all()
            if self._video_error is not None:
                continue  # keep draining, so the tracking thread never waits on a dead encoder
            try:
                if writer is None:
                    h, w = image.shape[:2]
                    writer = H264Writer(video_path_for(self.path), self._video_fps, (w, h), crf=VIDEO_CRF,
                                        preset=VIDEO_PRESET, crash_safe=True)
                elif (image.shape[1], image.shape[0]) != writer.size_px:  # the camera came back at another size
                    import cv2

                    image = cv2.resize(image, writer.size_px, interpolation=cv2.INTER_AREA)
                writer.write(image)
                self._video_written += 1
            except Exception as exc:  # disk full, an encoder error: the poses keep being recorded
                self._video_error = exc
                # Said in the file now, not only at close: the process may not live that long.
                self._put(("meta", ("video_stop_reason", f"{what_happened(exc, self.path)}; the video ends after "
                                                         f"{self._video_written} frames")))
        if writer is not None:
            try:
                writer.close()
            except Exception as exc:
                self._video_error = self._video_error or exc
        if writer is not None:
            trim_to_whole_fragments(video_path_for(self.path))  # a whole file is left as it is


def what_happened(exc: BaseException, path: Path) -> str:
    """One line saying what stopped a recording, and what to do: the folder gone or read-only, the
    disk full, or else the error itself."""
    import errno

    folder = path.parent
    text = str(exc)
    code = getattr(exc, "errno", None)
    if not folder.is_dir():
        return f"its folder '{folder}' was removed or unmounted; record to another folder"
    if code in (errno.EROFS, errno.EACCES, errno.EPERM) or "readonly" in text or "read-only" in text \
            or not os.access(folder, os.W_OK):
        return f"its folder '{folder}' became read-only; make it writable or record to another folder"
    if code in (errno.ENOSPC, errno.EDQUOT) or "disk is full" in text or "No space" in text:
        return "the disk is full; free disk space or record to another file"
    return f"{text or type(exc).__name__}; check the folder is writable and the disk not full"


def trim_to_whole_fragments(video: Path) -> int:
    """Cut a fragmented MP4 whose writing stopped mid-fragment (a full disk) back to its last whole
    fragment, so that it plays to there; returns the bytes kept (the file untouched if it is whole).

    Top-level boxes are (size, type) headers; a fragment is a ``moof`` followed by its ``mdat``."""
    try:
        size = video.stat().st_size
        with open(video, "rb") as fh:
            keep, at, last_moof = 0, 0, None
            while at + 8 <= size:
                fh.seek(at)
                header = fh.read(16)
                box = int.from_bytes(header[:4], "big")
                kind = header[4:8]
                if box == 1 and len(header) >= 16:
                    box = int.from_bytes(header[8:16], "big")
                elif box == 0:
                    box = size - at  # to the end of the file
                if box < 8 or at + box > size:
                    break  # cut short here
                if kind == b"moof":
                    last_moof = at
                elif kind == b"mdat" or last_moof is None:
                    keep, last_moof = at + box, None
                at += box
        if keep < size:
            os.truncate(video, keep)
        return keep
    except OSError:
        return 0


def _pose_row(frame_index: int, p: UnitPose) -> tuple[Any, ...]:
    return (
        float(p.t_s),
        int(frame_index),
        int(p.tag_id),
        p.name,
        p.side,
        p.state.value,
        p.x_in,
        p.y_in,
        p.z_in,
        float(p.heading_deg),
        float(p.center_px[0]),
        float(p.center_px[1]),
        p.moved_this_turn_in,
        float(p.turned_this_turn_deg),
        int(p.moving),
        int(p.conflict),
        float(p.last_seen_t_s),
    )
