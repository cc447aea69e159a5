"""Errors of the rules engine. All are ValueErrors whose message says what to fix."""
from __future__ import annotations


class RulesError(ValueError):
    """Base class: a rules input the user can correct."""


class DiceError(RulesError):
    """A malformed dice expression or an impossible die (there is no d7)."""


class EnteredDiceError(DiceError):
    """Dice entered by hand do not fit the roll asked for (missing, impossible for that die, left over)."""


class DataFileError(RulesError):
    """A data file under rules/ (or a user's) is malformed; the message names file, entry and field."""


class ScenarioRulesError(RulesError):
    """The rules fields of a scenario are malformed; the message names the file, the unit and the field."""


class UnknownNameError(RulesError):
    """A weapon, unit type, vehicle, equipment item or unit that the data does not know."""


class IllegalActionError(RulesError):
    """An action the rules do not allow in the current state (the message says which rule)."""


class SaveFileError(RulesError):
    """A saved game state cannot be read (wrong format, wrong version, corrupt)."""
