"""Recordings: one package owns the format (``schema``), writing (``writer.Recorder``), reading
(``reader.RecordingReader``, ``open_recording`` which rescues a damaged file) and rescuing a file cut
short (``salvage``). docs/recording-format.md describes the format field by field.
"""
from tracker.recording.reader import Bookmark, RecordingReader, RulesRecord, open_recording
from tracker.recording.salvage import SalvageResult, salvage_recording
from tracker.recording.schema import (
    MAX_SESSION_S,
    POSE_COLUMNS,
    RECORDING_FORMAT,
    RECORDING_VERSION,
    SCHEMA,
    TABLES,
    VIDEO_SUFFIX,
    is_bookkeeping,
)
from tracker.recording.writer import Recorder, video_path_for

__all__ = [
    "Bookmark", "MAX_SESSION_S", "POSE_COLUMNS", "RECORDING_FORMAT", "RECORDING_VERSION", "Recorder", "RecordingReader",
    "RulesRecord", "SCHEMA", "SalvageResult", "TABLES", "VIDEO_SUFFIX", "is_bookkeeping", "open_recording",
    "salvage_recording", "video_path_for",
]
