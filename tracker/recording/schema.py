"""The recording's format (version 1), in one place: the tables the writer creates, the reader reads and
the salvage copies; the pose row's columns; the kinds of ``rules_events`` rows that are a front end's
bookkeeping rather than game events. docs/recording-format.md describes every field.
"""
from __future__ import annotations

RECORDING_FORMAT = "sandtable-recording"
RECORDING_VERSION = 1
VIDEO_SUFFIX = ".mp4"
#: What recordings made before the H.264 video kept (Motion-JPEG); still read.
LEGACY_VIDEO_SUFFIXES = (".avi",)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS units (
    tag_id INTEGER PRIMARY KEY, name TEXT NOT NULL, side TEXT NOT NULL, spec_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS frames (
    frame_index INTEGER PRIMARY KEY, t_s REAL NOT NULL, video_frame INTEGER);
CREATE TABLE IF NOT EXISTS poses (
    id INTEGER PRIMARY KEY, t_s REAL NOT NULL, frame_index INTEGER NOT NULL, tag_id INTEGER NOT NULL,
    name TEXT NOT NULL, side TEXT NOT NULL, state TEXT NOT NULL,
    x_in REAL, y_in REAL, z_in REAL, heading_deg REAL NOT NULL, center_x_px REAL, center_y_px REAL,
    moved_this_turn_in REAL, turned_this_turn_deg REAL NOT NULL, moving INTEGER NOT NULL,
    conflict INTEGER NOT NULL, last_seen_t_s REAL NOT NULL);
CREATE INDEX IF NOT EXISTS poses_by_tag_time ON poses (tag_id, t_s);
CREATE INDEX IF NOT EXISTS poses_by_time ON poses (t_s);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY, t_s REAL NOT NULL, frame_index INTEGER NOT NULL, kind TEXT NOT NULL,
    tag_id INTEGER, name TEXT NOT NULL, payload_json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_time ON events (t_s);
CREATE TABLE IF NOT EXISTS rules_events (
    id INTEGER PRIMARY KEY, t_s REAL NOT NULL, kind TEXT NOT NULL, payload_json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS rules_events_by_time ON rules_events (t_s);
CREATE TABLE IF NOT EXISTS bookmarks (id INTEGER PRIMARY KEY, t_s REAL NOT NULL, note TEXT NOT NULL);
"""

#: Every table, in the order the salvage copies them.
TABLES = ("meta", "units", "frames", "poses", "events", "rules_events", "bookmarks")

#: A pose row as written and read (``poses`` without its ``id``).
POSE_COLUMNS = ("t_s", "frame_index", "tag_id", "name", "side", "state", "x_in", "y_in", "z_in", "heading_deg",
                "center_x_px", "center_y_px", "moved_this_turn_in", "turned_this_turn_deg", "moving", "conflict",
                "last_seen_t_s")

#: ``rules_events`` kinds the application session writes for the replay (the full game state after a
#: change is ``state:<why>``; each log line as shown; the selection): not game events for the debrief.
STATE_KIND_PREFIX = "state:"
LOG_KIND = "log"
VIEW_KIND = "view"

#: A session time beyond this (a week) is a damaged row, not a game: it is skipped when reading.
MAX_SESSION_S = 7 * 24 * 3600.0


def is_bookkeeping(kind: str) -> bool:
    """Whether a ``rules_events`` row is the session's bookkeeping (state, log, view), not a game event.

    >>> is_bookkeeping("state:attack"), is_bookkeeping("log"), is_bookkeeping("attack")
    (True, True, False)
    """
    return kind.startswith(STATE_KIND_PREFIX) or kind in (LOG_KIND, VIEW_KIND)
