"""What a rule system says its logged events mean to the debrief, as data: the attacks on each target
(:class:`EngagementView`), who left the fight or came back (:class:`CasualtyView`), emission tokens and
who could locate them (:class:`EmissionView`, :class:`LocatorView`), every roll with its odds computed
again (:class:`RollView`). A rule system gives them from its :class:`rules.ruleset.Ruleset` methods of
the same names. Front ends import
them from :mod:`rules.ruleset`.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


#: A point on the table, (x_in, y_in).
XY = tuple[float, float]
@dataclass(frozen=True)
class EngagementView:
    """One attack on one target as the debrief lists it, from a logged event.

    ``outcome`` is one of "killed", "hit, no kill", "miss", "suppressed", "won the test", "lost the
    test", "nobody won"; ``distance_in`` the distance the rules measured (None: none measured);
    ``detail`` the procedure's own result in a few words.

    What the event itself says of the units goes in the optional fields; left empty, the debrief
    fills them from the recording (names and sides from its roster, places from the tracked poses):
    ``attacker_name``/``side``/``target_name``/``target_side``; ``target_id`` None with a
    ``target_name``: the unit the odds shown before the roll name so (a unit of several figures the
    event names only by name). ``measured``: how ``distance_in`` was measured ("": the ruleset's
    :attr:`FrontEnd.measured`); with ``distance_in`` None it says why there is no number ("adjacent",
    "in the blast"), and "" lets the debrief measure the tracked positions instead. ``from_in`` and
    ``to_in``: the points the rules measured between, when they recorded them (a line of fire's ends,
    the point a missed shot was aimed at); ``attacker_ids``: the figures whose middle is the attacker's
    place. ``impact_in``/``radius_in``: where a shot came down and its blast. ``odds``: which of the
    odds shown before the roll belong to this row: "target" (the target's), "first shown" (a miss that
    caught nobody: the unit aimed at, listed first) or "none".
    """

    attacker_id: int
    weapon: str
    target_id: int | None
    outcome: str
    shots: int = 1
    hits: int = 0
    distance_in: float | None = None
    detail: str = ""
    attacker_name: str = ""
    side: str = ""
    target_name: str = ""
    target_side: str = ""
    measured: str = ""
    from_in: XY | None = None
    to_in: XY | None = None
    attacker_ids: tuple[int, ...] = ()
    impact_in: XY | None = None
    radius_in: float | None = None
    odds: str = "target"


@dataclass(frozen=True)
class CasualtyView:
    """A unit leaving the fight or coming back, from a logged event: ``change`` is "down", "removed"
    or "back in play"; ``cause`` says why in a few words ("Ann with the Pebble", "set by hand")."""

    unit_id: int
    change: str
    cause: str


@dataclass(frozen=True)
class EmissionView:
    """What a logged event did to emission tokens (Down Range 5.1: a unit that used its radio can be
    located until the token lifts), for the debrief's emissions table.

    ``change``: "emits" (a token was put on ``unit_id``; ``purpose`` says why, and it lifts at the
    start of ``until_start_of``'s next turn, None: the unit's own side's), "cleared" (a player took it
    away by hand) or "located" (``by_unit`` found ``unit_id`` with SIGINT). ``by_hand``: a player set or
    cleared it (a later hand edit of the same unit's token ends a token).
    """

    unit_id: int
    change: str
    purpose: str = ""
    until_start_of: str | None = None
    by_unit: int | None = None
    by_hand: bool = False


@dataclass(frozen=True)
class CommsView:
    """What a logged event sent over the radio or cut from it, for the debrief's comms lane.

    ``kind``: "signal" (``unit_id`` used its radio; ``to_ids`` the friendly units it reached, as the
    rules had them at the time, () when the recording does not say), "command" (an order by radio or
    voice to ``to_ids``), "sigint" (``unit_id`` listened; ``to_ids`` the emitters it found) or
    "jamming" (``unit_id`` jammed; ``cut_names`` the enemy radios it cut). ``text``: in the rules' words.
    """

    unit_id: int
    kind: str
    to_ids: tuple[int, ...] = ()
    cut_names: tuple[str, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class LocatorView:
    """A unit that can locate enemy emitters (an electronic-warfare unit) and how far it hears them
    (``reach_in``; ``math.inf``: anywhere on the table)."""

    unit_id: int
    name: str
    side: str
    reach_in: float


@dataclass(frozen=True)
class RollView:
    """One die roll of a logged event, with its exact chance of success computed again from what was
    recorded (the debrief's "every roll" table).

    ``p_success`` None: not a pass/fail roll (where a miss lands) or nothing to compute it from;
    ``odds_note`` says what ``p_success`` is the chance of when it is not plain success ("kill once hit").
    """

    label: str  # the engine's label ("Skill roll of ZBL-09 with the Autocannon at UTV, attack 1 of 2")
    dice: str  # "1d6 with Advantage, +1"
    needed: str  # "Difficulty 6", "Defense 2d6 (rolled 8)", "Table 2-2: 6+ back in play"
    faces: tuple[int, ...] | None
    total: int | None
    result: str  # "hit", "miss", "killed", "unharmed", "injured", ...
    success: bool | None
    p_success: Fraction | None
    odds_note: str = ""

    @property
    def p_text(self) -> str:
        if self.p_success is None:
            return "—"
        return f"{float(self.p_success):.1%} ({self.p_success})"
