"""Results of the Force on Force procedures that roll dice, as data (no sentences).

Initiative results live with the test (:mod:`rules.forceonforce.initiative`), checks with the test
tools (:mod:`rules.forceonforce.checks`), reinforcements with the Hot Spots. Sentences are rendered
from all of them by :mod:`rules.forceonforce.narration`.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.forceonforce.checks import CheckResult, OpposedResult
from rules.forceonforce.fire import FireCheck


@dataclass(frozen=True)
class FireResult:
    """A unit's fire: the line-of-sight / line-of-fire check and, if allowed, the test the players
    chose (opposed Troop Quality by default). What a win does is not in the excerpt."""

    check: FireCheck
    test: OpposedResult | CheckResult | None = None

    @property
    def firer_won(self) -> bool | None:
        if isinstance(self.test, OpposedResult):
            return self.test.winner == self.check.firer
        if isinstance(self.test, CheckResult):
            return self.test.passed
        return None


@dataclass(frozen=True)
class ActivationResult:
    """A unit activates; an Irregular unit without its leader first checks Troop Quality (A.6)."""

    team: str
    side: str
    check: CheckResult | None
    may_act: bool
    move_locked: bool = False


@dataclass(frozen=True)
class TestRecord:
    """A generic test the players asked for (morale test, reaction, first aid...), on a unit or not."""

    about: str | None
    purpose: str
    result: CheckResult | OpposedResult
