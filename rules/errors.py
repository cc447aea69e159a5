"""Errors of the rules engine. All are ValueErrors whose message says what to fix."""
from __future__ import annotations


class RulesError(ValueError):
    """Base class: a rules input the user can correct."""


class DiceError(RulesError):
    """A malformed dice expression or an impossible die (there is no d7)."""


class DataFileError(RulesError):
    """A data file under rules/ (or a user's) is malformed; the message names file, entry and field."""


class IllegalActionError(RulesError):
    """An action the rules do not allow in the current state (the message says which rule)."""
