"""Plays the story's beats on a :class:`gui.session.GameSession`, the way players at the table would.

The director never moves a unit: positions reach the session only from the tracker
(:func:`poses_for_session` picks what to hand over). At each beat it does what a player does in the
companion: select the attacker and its weapon, set up the attack (the overlays and odds appear),
resolve it with the dice the text states, pick where a missed explosive lands, roll initiative,
start and end turns, apply an action. Every rule is decided by the session's ruleset.

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

from gui.demo.story import Beat, BeatKind, DemoStory
from gui.session import AttackDraft, GameSession


@dataclass(frozen=True)
class PlayedBeat:
    """A beat as it was played: the session time and what the rules answered (a ``Resolution`` for
    rolls, None otherwise)."""

    beat: Beat
    t_s: float
    resolution: Any = None


def draft_from_setup(setup: Any) -> AttackDraft:
    """The attack panel's draft for a Down Range ``AttackSetup`` (the script's declarations, keyed as
    ``DownRange.declarations()`` names them); only what differs from the defaults is declared."""
    decl: dict[str, Any] = {}
    if setup.mode.value != "attack":
        decl["mode"] = setup.mode.value
    if setup.payload != "HE":
        decl["payload"] = setup.payload
    if setup.assistants:
        decl["assistants"] = tuple(setup.assistants)
    for key, default in (("crew_assistants", 0), ("reaction", False), ("untrained", False), ("axis_deg", None),
                         ("linked", 1), ("distance_in", None)):
        if getattr(setup, key) != default:
            decl[key] = getattr(setup, key)
    for key in ("advantages", "disadvantages"):
        if getattr(setup, key):
            decl[key] = tuple(getattr(setup, key))
    targets: dict[int, dict[str, Any]] = {}
    for spec in setup.targets:
        td: dict[str, Any] = {}
        if spec.shots != 1:
            td["shots"] = spec.shots
        for key in ("cover", "concealment"):
            if getattr(spec, key).value != "none":
                td[key] = getattr(spec, key).value
        if spec.darkness is not None:
            td["darkness"] = spec.darkness.value
        if not spec.line_of_sight:
            td["line_of_sight"] = False
        if spec.spotter is not None:
            td["spotter"] = spec.spotter
        if spec.unaware:
            td["unaware"] = True
        if spec.stationary is not None:
            td["stationary"] = "yes" if spec.stationary else "no"
        if spec.head_on:
            td["head_on"] = True
        for key in ("advantages", "disadvantages"):
            if getattr(spec, key):
                td[key] = tuple(getattr(spec, key))
        targets[spec.unit_id] = td
    return AttackDraft(setup.attacker, setup.weapon, tuple(s.unit_id for s in setup.targets), decl, targets,
                       setup.aim)


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
        self.session = session
        self.on_beat = on_beat
        #: Called just before an attack's dice are rolled (the odds on screen are still those shown).
        self.before_roll = before_roll
        self.played: list[PlayedBeat] = []
        self._next = 0
        self._bookmarks = dict(_bookmarks())
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
            beat = self.story.beats[self._next]
            self._next += 1
            if self.before_roll is not None and beat.kind in (BeatKind.RESOLVE, BeatKind.LANDING):
                self.before_roll(beat)
            played = PlayedBeat(beat, t_s, self._play(beat))
            self.played.append(played)
            done.append(played)
            if self.on_beat is not None:
                self.on_beat(played)
        return done

    # -- one beat -------------------------------------------------------------------------------
    def _play(self, beat: Beat) -> Any:
        s = self.session
        kind = beat.kind
        item = beat.item
        if kind is BeatKind.STEP:
            s.set_attack(None)
            s.set_blast_point(None)
            if s.pending is None:
                s.cancel_pending()
            s.note(f"{item.section} {item.title}: {item.text}")
            return None
        if kind is BeatKind.MOVE:
            self._follow(beat.units[:1])
            return None
        if kind is BeatKind.AIM:
            setup = item.setup
            s.select_unit(setup.attacker, weapon=setup.weapon)
            s.set_blast_point(setup.aim)
            s.set_attack(draft_from_setup(setup))
            return None
        if kind is BeatKind.RESOLVE:
            now, self._after_landing = self._split_dice(list(item.dice))
            resolution = s.resolve_attack(now)
            section = self.story.steps[beat.step_index].section
            if section in self._bookmarks:
                s.bookmark(f"{section}: {self._bookmarks[section]}")
            if not resolution.pending:
                s.set_attack(None)  # the odds were for before the roll; the outcome is in the log
            return resolution
        if kind is BeatKind.LANDING:
            after, self._after_landing = self._after_landing, []
            resolution = s.choose_landing(item.landing, after)
            s.set_attack(None)
            return resolution
        if kind is BeatKind.INITIATIVE:
            s.select_unit(None)
            return s.start_round(list(item.dice))
        if kind is BeatKind.TREAT_AIM:
            s.set_attack(None)
            s.set_blast_point(None)
            self._follow((item.medic,))
            return None
        if kind is BeatKind.TREAT:
            return self._treat(item)
        if kind is BeatKind.ACTION:
            name = type(item).__name__
            if name == "StartTurn":
                return s.start_turn()
            if name == "EndTurn":
                s.end_turn()
                return None
            self._follow(beat.units)
            s.apply_action(item, kind=_kind_of(name))
            return None
        if kind is BeatKind.END:
            s.set_attack(None)
            s.set_blast_point(None)
            s.select_unit(None)
            complete = len(self.story.steps) == len(_script_steps())
            s.note("End of the example: the Marines call for extraction." if complete else
                   f"The demo stops after {self.story.steps[-1].section} (the example goes on to "
                   f"{_script_steps()[-1].section}).")
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

    def _treat(self, item: Any) -> Any:
        """A medic's roll: resolved by the rules with the stated die, recorded as the rules' action
        (the session has no medicine panel of its own)."""
        from rules.dice import EnteredDice
        from rules.downrange.actions import RecordTreatment
        from rules.downrange.medicine import resolve_treatment

        result = resolve_treatment(self.session.state, item.medic, item.patient, EnteredDice(list(item.dice)),
                                   assistants=tuple(item.assistants))
        self.session.apply_action(RecordTreatment(result), kind="treatment")
        return result


def _kind_of(action_name: str) -> str:
    """The recording's ``state:<why>`` for an action (docs/gui.md: start, attack, initiative, turn, edit)."""
    return {"Signal": "signal", "ControlRpv": "signal", "ReleaseRpv": "signal", "DesignateMainEffort": "command",
            "Board": "vehicle", "Disembark": "vehicle"}.get(action_name, "action")


def _script_steps() -> tuple[Any, ...]:
    from rules.downrange.examples.in_depth import STEPS

    return STEPS


def _bookmarks() -> tuple[tuple[str, str], ...]:
    """The instructor bookmarks the example recording carries (the debrief lists them)."""
    from gui.debrief.example_recording import EXAMPLE_BOOKMARKS

    return EXAMPLE_BOOKMARKS


__all__ = ["DemoDirector", "PlayedBeat", "draft_from_setup", "poses_for_session"]
