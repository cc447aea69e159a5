"""Target proposals and exact odds of the attack set up, computed when first read and shared between threads.

Handed the ruleset, one game state and one draft; it asks the rules nothing until a view reads it, and
answers the same for as long as neither the state nor the draft changes (:func:`analysis_for`).
"""
from __future__ import annotations

import threading
from typing import Any

from appmodel.session.attacks import AttackDraft
from rules.errors import RulesError
from rules.ruleset import HIT_AND_KILL, OddsLegend, Ruleset, TargetOdds, TargetProposal, odds_legend


class AttackAnalysis:
    """Target proposals and exact odds of one draft against one game state, computed when first read.

    Drawing a frame needs the odds only when the odds overlay is on, and never the proposals (the
    attack panel lists them); the session keeps one analysis for as long as neither the state nor
    the draft changes, so a new selection or tape does not compute them again.
    """

    def __init__(self, ruleset: Ruleset, state: Any, draft: AttackDraft | None) -> None:
        self.ruleset = ruleset
        self.state = state
        self.draft = draft
        self._proposals: tuple[TargetProposal, ...] | None = None
        self._odds: tuple[TargetOdds, ...] | None = None
        self._legend: OddsLegend | None = None
        self._errors = {"proposals": "", "odds": ""}
        # A snapshot built on a view's worker thread shares this analysis with the panels on the UI
        # thread: whoever asks first computes, the other waits for that answer.
        self._lock = threading.RLock()

    def matches(self, state: Any, draft: AttackDraft | None) -> bool:
        return state is self.state and draft == self.draft

    @property
    def proposals(self) -> tuple[TargetProposal, ...]:
        if self._proposals is None:
            with self._lock:
                if self._proposals is None:
                    proposals: tuple[TargetProposal, ...] = ()
                    if self.draft is not None:
                        try:
                            proposals = self.ruleset.propose_targets(self.state, self.draft.attacker_id, self.draft.weapon,
                                                                     aim_point=self.draft.aim_point)
                        except (RulesError, ValueError) as exc:
                            self._errors["proposals"] = str(exc)
                    self._proposals = proposals
        return self._proposals

    @property
    def odds(self) -> tuple[TargetOdds, ...]:
        if self._odds is None:
            with self._lock:
                if self._odds is None:
                    odds: tuple[TargetOdds, ...] = ()
                    if self.draft is not None and (self.draft.target_ids or self.draft.aim_point is not None):
                        try:
                            odds = self.ruleset.attack_odds(self.state, self.draft.request())
                        except (RulesError, ValueError) as exc:
                            self._errors["odds"] = str(exc)
                    self._odds = odds
        return self._odds

    @property
    def legend(self) -> OddsLegend:
        """What the odds' figures mean for this draft (Down Range's hit and kill unless the ruleset says)."""
        if self._legend is None:
            legend = HIT_AND_KILL
            if self.draft is not None:
                try:
                    legend = odds_legend(self.ruleset, self.state, self.draft.request())
                except (RulesError, ValueError):
                    pass
            self._legend = legend
        return self._legend

    @property
    def refusal(self) -> str:
        """'not allowed: <why>' when the rules refuse the whole attack before any die (the unit already
        used its Action, has no Reaction ready...), '' while some target has odds to show."""
        odds = self.odds
        reasons = {o.reason for o in odds}
        if odds and not any(o.allowed for o in odds) and len(reasons) == 1:
            return f"not allowed: {reasons.pop()}"
        return ""

    @property
    def error(self) -> str:
        """Why the rules refused the draft ('' when they did not)."""
        _ = self.proposals, self.odds
        return self._errors["proposals"] or self._errors["odds"] or self.refusal


def analysis_for(previous: AttackAnalysis | None, ruleset: Ruleset, state: Any,
                 draft: AttackDraft | None) -> AttackAnalysis:
    """``previous`` if it analyses this state and draft (its answers stand), else a new analysis."""
    if previous is not None and previous.ruleset is ruleset and previous.matches(state, draft):
        return previous
    return AttackAnalysis(ruleset, state, draft)
