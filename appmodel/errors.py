"""Errors of the application layer, and the set of exceptions the CLI reports as user mistakes."""
from __future__ import annotations

import importlib


class UsageError(ValueError):
    """A command-line or GUI input the user can fix; the message says how."""


# Each package keeps its own small hierarchy (style rule 6); the CLI reports any of them as
# one line. Listed by name so that importing this module pulls in none of the packages.
_USER_ERROR_CLASSES = (
    ("rules.errors", "RulesError"),
    ("calibration.errors", "CalibrationError"),
    ("tracker.errors", "TrackerError"),
)


def user_error_types() -> tuple[type[BaseException], ...]:
    types: list[type[BaseException]] = [UsageError, FileNotFoundError, PermissionError, IsADirectoryError]
    for module_name, class_name in _USER_ERROR_CLASSES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        types.append(getattr(module, class_name))
    return tuple(types)
