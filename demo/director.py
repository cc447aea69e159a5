"""Plays the story's beats on a :class:`appmodel.game_session.GameSession`, the way players at the table would.

The director never moves a unit: positions reach the session only from the tracker
(:func:`poses_for_session` picks what to hand over). At each beat it does what a player does in the
companion: select the attacker and its weapon, set up the attack (the overlays and odds appear),
resolve it with the dice the text states, pick where a missed explosive lands, roll initiative or
another test, start and end turns, apply an action. How each of an example's items is done comes
from its :class:`~demo.examples.DemoExample`; every rule is decided by the session's ruleset.

>>> from rules.downrange.declarations import AttackSetup, TargetSpec, Level
>>> draft = draft_from_setup(AttackSetup(40, "Autocannon", (TargetSpec(15, shots=2), TargetSpec(11, shots=2,
...                          cover=Level.PARTIAL)), crew_assistants=1))
>>> draft.target_ids, dict(draft.declarations), dict(draft.target_declarations[11])
((15, 11), {'crew_assistants': 1}, {'shots': 2, 'cover': 'partial'})
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from demo.downrange_example import draft_from_setup
from demo.story import Beat, BeatKind, DemoStory
from appmodel.game_session import GameSession

#: Beats at which dice are rolled (a step's bookmark is set after the last of them).
ROLLS = (BeatKind.RESOLVE, BeatKind.INITIATIVE, BeatKind.ROLL, BeatKind.TURN, BeatKind.TREAT)


@dataclass(frozen=True)
class PlayedBeat:
    """A beat as it was played: the session time and what the rules answered (a ``Resolution`` for
    rolls, None otherwise)."""

    beat: Beat
    t_s: float
    resolution: Any = None


def poses_for_session(poses: Iterable[Any]) -> list[Any]:
    """The tracked poses worth handing to the rules: units seen in this frame, and units the tracker
    saw being taken off the table. A hidden (stale) or lost unit's pose is only its last sighting,
    and would put back on the table a unit the rules took off it (a rifleman who boarded his IFV)."""
    keep = ("seen", "lifted")
    return [p for p in poses if getattr(getattr(p, "state", None), "value", "seen") in keep]


class DemoDirector:
    """Applies the story's beats to ``session`` as their time comes (single-threaded: call
    :meth:`advance` from the thread that owns the session)."""

    def __init__(self, story: DemoStory, session: GameSession, *,
                 on_beat: Callable[[PlayedBeat], None] | None = None,
                 before_roll: Callable[[Beat], None] | None = None) -> None:
        self.story = story
        self.example = story.example
        self.session = session
        self.on_beat = on_beat
        #: Called just before an attack's dice are rolled (the odds on screen are still those shown).
        self.before_roll = before_roll
        self.played: list[PlayedBeat] = []
        self._next = 0
        # An instructor's bookmark goes after the last roll of its step (what the step comes to).
        last_roll: dict[int, int] = {}
        for i, beat in enumerate(story.beats):
            if beat.kind in ROLLS:
                last_roll[beat.step_index] = i
        self._bookmark_at = {i: note for step, i in last_roll.items()
                             if (note := self.example.bookmark(self._section(step), story.steps[step])) is not None}
        self._after_landing: list[Any] = []

    @property
    def finished(self) -> bool:
        return self._next >= len(self.story.beats)

    @property
    def next_beat(self) -> Beat | None:
        return None if self.finished else self.story.beats[self._next]

    def advance(self, t_s: float) -> list[PlayedBeat]:
        """Play every beat due at or before ``t_s``, in order."""
        done = []
        while not self.finished and self.story.beats[self._next].t_s <= t_s + 1e-9:
            index = self._next
            beat = self.story.beats[index]
            self._next += 1
            if self.before_roll is not None and beat.kind in (BeatKind.RESOLVE, BeatKind.LANDING):
                self.before_roll(beat)
            played = PlayedBeat(beat, t_s, self._play(beat))
            if index in self._bookmark_at:
                self.session.bookmark(self._bookmark_at[index])
            self.played.append(played)
            done.append(played)
            if self.on_beat is not None:
                self.on_beat(played)
        return done

    def _section(self, step_index: int) -> str:
        return self.example.section(step_index, self.story.steps[step_index])

    # -- one beat -------------------------------------------------------------------------------
    def _play(self, beat: Beat) -> Any:
        s = self.session
        ex = self.example
        kind = beat.kind
        item = beat.item
        if kind is BeatKind.STEP:
            s.set_attack(None)
            s.set_blast_point(None)
            if s.pending is None:
                s.cancel_pending()
            s.note(f"{self._section(beat.step_index)} {item.title}: {item.text}")
            return None
        if kind is BeatKind.MOVE:
            self._follow(beat.units[:1])
            return None
        if kind is BeatKind.AIM:
            aimed = ex.aim(item, s)
            s.select_unit(aimed.draft.attacker_id, weapon=aimed.weapon)
            s.set_blast_point(aimed.blast_point)
            s.set_attack(aimed.draft)
            return None
        if kind is BeatKind.RESOLVE:
            now, self._after_landing = self._split_dice(list(ex.attack_dice(item)))
            resolution = s.resolve_attack(now)
            if not resolution.pending:
                s.set_attack(None)  # the odds were for before the roll; the outcome is in the log
            return resolution
        if kind is BeatKind.LANDING:
            after, self._after_landing = self._after_landing, []
            resolution = s.choose_landing(ex.landing(item), after)
            s.set_attack(None)
            return resolution
        if kind is BeatKind.INITIATIVE:
            s.select_unit(None)
            return s.start_round(list(ex.initiative_dice(item)))
        if kind is BeatKind.TREAT_AIM:
            s.set_attack(None)
            s.set_blast_point(None)
            self._follow((item.medic,))
            return None
        if kind is BeatKind.TREAT:
            return ex.treat(item, s)
        if kind is BeatKind.ROLL:
            s.set_attack(None)
            self._follow(beat.units)
            return ex.roll(item, s)
        if kind is BeatKind.TURN:
            s.set_attack(None)
            return s.start_turn(list(ex.turn_dice(item)))
        if kind is BeatKind.ACTION:
            name = type(item).__name__
            if name == "StartTurn":
                return s.start_turn()
            if name == "EndTurn":
                s.end_turn()
                return None
            if name == "StartRound":
                return s.start_round([])
            self._follow(beat.units)
            request = s.ruleset.action_request(item)
            if request is not None:  # a player's action (a Signal, a boarding): the window's own path
                return s.resolve_action(request, [])
            s.apply_action(item, kind=ex.action_kind(name))
            return None
        if kind is BeatKind.END:
            s.set_attack(None)
            s.set_blast_point(None)
            s.select_unit(None)
            steps = ex.steps
            complete = len(self.story.steps) == len(steps)
            last = len(self.story.steps) - 1
            s.note(ex.finale if complete else
                   f"The demo stops after {ex.step_name(last, self.story.steps[last])} (the example goes on to "
                   f"{ex.step_name(len(steps) - 1, steps[-1])}).")
            return None
        raise ValueError(kind)

    def _split_dice(self, entries: list[Any]) -> tuple[list[Any], list[Any]]:
        """The stated dice of an attack split into those rolled now and those rolled once a missed
        explosive has landed (the rules ask for no more dice until the landing point is chosen)."""
        for k in range(len(entries) + 1):
            if self.session.dice_needed(entries[:k]) is None:
                return entries[:k], entries[k:]
        return entries, []

    def _follow(self, units: tuple[int, ...]) -> None:
        on_table = {u.unit_id for u in self.session.units() if u.on_table}
        for uid in units:
            if uid in on_table:
                self.session.select_unit(uid)
                return


__all__ = ["DemoDirector", "PlayedBeat", "ROLLS", "draft_from_setup", "poses_for_session"]
