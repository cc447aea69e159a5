"""Errors of the tracker package. All are ValueErrors whose message says what to fix."""
from __future__ import annotations


class TrackerError(ValueError):
    """Base class: a tracker input the user can correct."""


class SourceError(TrackerError):
    """A frame source (camera, video, folder, recording) could not be opened or read."""


class ScenarioError(TrackerError):
    """A scenario/roster file is malformed; the message names the file, entry and field."""


class RecordingError(TrackerError):
    """A recording file cannot be written or read."""
