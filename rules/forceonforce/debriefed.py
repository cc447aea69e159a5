"""What Force on Force's logged events mean to the debrief: each fire's test (won, lost, nobody), the
figures players made casualties by hand (the excerpt stops before fire combat), and every roll --
tests, initiative dice, the Hot Spot roll -- with its exact odds.

A fire names its units by name (they split and merge during a game): the figures of the firing unit
come from the game the scenario starts, the target's from the odds shown before the roll.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

from rules.events import RulesEvent
from rules.forceonforce.checks import opposed_odds, p_pass
from rules.forceonforce.initiative import InitiativePool, initiative_odds
from rules.recorded_events import hand_set_status, mapping, nodes, number
from rules.ruleset import CasualtyView, EngagementView, RollView
from rules.serialize import from_jsonable


def engagements(event: RulesEvent, game: Any = None) -> tuple[EngagementView, ...]:
    """A unit's fire: the opposed (or unopposed) test it won, lost or drew, measured centre to centre."""
    outcome = mapping(event.outcome)
    if outcome.get("type") != "FireResult":
        return ()
    check, test = mapping(outcome.get("check")), outcome.get("test") or None
    firer, target = str(check.get("firer", "")), str(check.get("target", ""))
    firer_ids: tuple[int, ...] = ()
    try:
        if game is not None and game.has_team(firer):
            firer_ids = tuple(f.figure_id for f in game.members(firer))
    except Exception:  # a game from another program: positions are then unknown
        firer_ids = ()
    if not isinstance(test, Mapping):
        result, detail = "nobody won", "no test: line of sight and line of fire only"
    elif test.get("type") == "OpposedResult":
        a, b = mapping(test.get("first")), mapping(test.get("second"))
        winner = test.get("winner")
        result = "won the test" if winner == firer else "lost the test" if winner else "nobody won"
        detail = f"{a.get('name')} {a.get('total')} against {b.get('name')} {b.get('total')}"
    else:
        roll = mapping(test.get("roll"))
        result = "won the test" if roll.get("success") else "lost the test"
        detail = f"{roll.get('name')} {roll.get('total')}: {'passes' if roll.get('success') else 'fails'}"
    distance = number(check.get("centre_distance_in"))
    # The centres the rules measured between (the ends of the line of fire), with the units' figures as
    # they were at that moment: the scenario's teams are out of date once an element has split or merged.
    corridor = mapping(check.get("corridor"))
    ends = [number(corridor.get(k)) for k in ("ax_in", "ay_in", "bx_in", "by_in")]
    origin: tuple[float, float] | None = None
    aim: tuple[float, float] | None = None
    if all(v is not None for v in ends):
        origin, aim = (ends[0], ends[1]), (ends[2], ends[3])  # type: ignore[assignment]  # all() checked: none is None
    return (EngagementView(min(firer_ids, default=-1), "Fire", None, result, 1, 1 if result == "won the test" else 0,
                           distance, detail, firer, str(check.get("firer_side") or event.side or ""), target,
                           str(check.get("target_side", "")), "centre to centre" if distance is not None else "",
                           origin, aim, firer_ids),)


def casualties(event: RulesEvent) -> tuple[CasualtyView, ...]:
    """A figure made a casualty, removed or brought back by hand (the players' ruling after a fire)."""
    hand = hand_set_status(event, "figure")
    if hand is None:
        return ()
    tag_id, change, status = hand
    return (CasualtyView(tag_id, change, "set by hand" if change == "back in play" else f"set by hand ({status})"),)


def recorded_rolls(event: RulesEvent, game: Any = None) -> tuple[RollView, ...]:
    """The initiative test's dice, a Hot Spot roll, and every test (unopposed or opposed) in an event."""
    outcome = mapping(event.outcome)
    t = outcome.get("type")
    if t == "InitiativeResult" and "turn" in outcome:
        return tuple(_initiative(outcome))
    if t == "ReinforcementResult":
        return (_reinforcement(outcome),)
    return tuple(fact for node in nodes(outcome) if node.get("type") in ("CheckResult", "OpposedResult")
                 for fact in _test(node))


def _test_dice(roll: Mapping[str, Any]) -> str:
    sides, base, modifier = int(roll.get("sides") or 0), int(roll.get("base_sides") or 0), int(roll.get("modifier") or 0)
    text = f"d{sides} ({roll.get('what', 'test')})"
    if base and base != sides:
        text += f", shifted from d{base}"
    if modifier:
        text += f", {modifier:+d}"
    return text


def _test_label(label: str, roll: Mapping[str, Any]) -> str:
    """The label the engine gave the roll ("Bravo fires at Cell 1: Troop Quality of Bravo")."""
    return f"{label}: {roll.get('what', 'test')} of {roll.get('name', '')}"


def _test(node: Mapping[str, Any]) -> Iterator[RollView]:
    target = int(node.get("target") or 4)
    label = str(node.get("label", "test"))
    if node.get("type") == "CheckResult":
        roll = mapping(node.get("roll"))
        p = p_pass(int(roll.get("sides") or 6), modifier=int(roll.get("modifier") or 0), target=target)
        passed = bool(roll.get("success"))
        yield RollView(_test_label(label, roll), _test_dice(roll), f"{target}+", (int(roll.get("face") or 0),),
                       roll.get("total"), "passes" if passed else "fails", passed, p, "passes")
        return
    first, second = mapping(node.get("first")), mapping(node.get("second"))
    odds = opposed_odds(int(first.get("sides") or 6), int(second.get("sides") or 6),
                        first_modifier=int(first.get("modifier") or 0), second_modifier=int(second.get("modifier") or 0),
                        target=target)
    winner = node.get("winner")
    for roll, p in ((first, odds.p_first), (second, odds.p_second)):
        won = winner == roll.get("name")
        result = "wins" if won else ("nobody wins" if winner is None else "loses")
        yield RollView(_test_label(label, roll), _test_dice(roll), f"{target}+ and higher than the other",
                       (int(roll.get("face") or 0),), roll.get("total"), result, won, p, "wins the opposed test")


def _initiative(outcome: Mapping[str, Any]) -> Iterator[RollView]:
    rolls = [r for r in outcome.get("rolls", ()) if isinstance(r, Mapping)]
    previous = outcome.get("previous")
    odds: Mapping[str, Fraction] = {}
    try:
        pools = [from_jsonable(InitiativePool, r["pool"], where="initiative pool") for r in rolls]
        odds = initiative_odds(pools, previous=previous)
    except (KeyError, TypeError, ValueError):
        pass
    holder = outcome.get("holder")
    for r in rolls:
        pool = mapping(r.get("pool"))
        side = str(pool.get("side", ""))
        faces = tuple(int(f) for f in r.get("faces", ()))
        yield RollView(f"initiative test of {side}, turn {outcome.get('turn')} ({pool.get('dice')}D{pool.get('sides')})",
                       f"{pool.get('dice')}d{pool.get('sides')}",
                       "most dice showing 4+" + (f" (a tie: {previous} keeps it)" if previous else " (ties re-rolled)"),
                       faces, int(r.get("successes") or 0), "has initiative" if holder == side else "does not",
                       holder == side, odds.get(side), "has initiative")
    for n, tied in enumerate(outcome.get("rerolls", ()), start=1):  # turn 1 with nobody holding it: ties again
        for r in (t for t in tied if isinstance(t, Mapping)):
            pool = mapping(r.get("pool"))
            yield RollView(f"initiative test of {pool.get('side', '')}, turn {outcome.get('turn')}, tied roll {n}",
                           f"{pool.get('dice')}d{pool.get('sides')}", "a tie: rolled again",
                           tuple(int(f) for f in r.get("faces", ())), int(r.get("successes") or 0), "tied", None, None)


def _reinforcement(outcome: Mapping[str, Any]) -> RollView:
    if outcome.get("lost"):
        result = "lost (a neutralised Hot Spot)"
    elif outcome.get("player_chooses"):
        result = "the player chooses the Hot Spot"
    else:
        result = f"Hot Spot {outcome.get('hot_spot')}"
    face = int(outcome.get("face") or 0)
    return RollView(f"Hot Spot for {outcome.get('team', '')}", "1d6", "1-5: that Hot Spot; 6: the player chooses",
                    (face,), face, result, None, None)
