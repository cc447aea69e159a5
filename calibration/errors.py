"""Errors of the calibration package. All are ValueErrors whose message says what to fix."""
from __future__ import annotations


class CalibrationError(ValueError):
    """Base class: a calibration input or file the user can correct."""


class CalibrationFileError(CalibrationError):
    """A calibration file is missing fields, corrupt, truncated or of an unknown version."""


class RegistrationError(CalibrationError):
    """The table could not be registered (too few anchors visible, residual too large)."""


class LayoutFileError(CalibrationError):
    """A table layout file (TOML) is malformed; the message names the file, entry and field."""


class ScenarioFileError(CalibrationError):
    """The calibration layer's part of a scenario file ([table], [terrain], [simulation], unit paths)
    is malformed; the message names the file, entry and field."""


class ProjectorCalibrationError(CalibrationError):
    """The projected pattern was not seen well enough to calibrate the projector."""
