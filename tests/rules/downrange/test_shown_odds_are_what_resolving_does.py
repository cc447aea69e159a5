"""Every kind of Down Range attack, resolved thousands of times with seeded dice: how often each
thing happened agrees with the odds the attack panel shows, within sampling error (tests/odds_sampling.py).

Per target the panel shows ``p_hit`` (one Skill roll succeeds; for an explosive: it lands where it
was aimed) and ``p_kill_any`` (the target is taken out, over all the shots spent on it; for an
explosive: by the blast where it was aimed -- a missed one lands where a player puts it). A smoke or
illumination round shows one row, its aim point: ``p_hit`` is the chance it lands there.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from odds_sampling import assert_frequency
from rules_helpers import game, unit

from rules.dice import SeededDice
from rules.downrange.attack import AIM_POINT, attack_odds, resolve_attack, resolve_landing
from rules.downrange.declarations import AttackMode, AttackSetup, Level, TargetSpec
from rules.downrange.results import ShotOutcome
from rules.downrange.state import GameState

TRIALS = 2000


@dataclass(frozen=True)
class Case:
    state: Callable[[], GameState]
    setup: AttackSetup
    #: Units aboard a target vehicle: each goes down exactly when the vehicle does (4.3).
    riders: dict[int, int] = field(default_factory=dict)


def _rifles(*targets: dict, weapon: str = "M4/M16") -> GameState:
    return game(unit(1, "Ann", "Blue", 0, 0, weapons=[weapon]), *targets)


def _vehicle_with_riders(compartment: str = "enclosed") -> GameState:
    return game(unit(1, "Gus", "Blue", 0, 0, weapons=["Carl Gustaf / MAAWS"]),
                unit(20, "Jeep", "Red", 20, 0, type_="Light tactical vehicle", weapons=[]),
                unit(21, "Rider A", "Red", 20, 0, aboard=20, compartment=compartment),
                unit(22, "Rider B", "Red", 20, 0, aboard=20, compartment=compartment))


def _group() -> GameState:
    return game(unit(1, "Thrower", "Blue", 0, 0, weapons=["Hand grenade"]),
                unit(2, "Gunner", "Red", 6, 0, team="mg"), unit(3, "Loader", "Red", 6, 0.2, team="mg"),
                unit(4, "Rifleman", "Red", 8, 1), unit(5, "Civilian", "Grey", 5, -2, type_="non-combatant"))


def _launcher(payload: str) -> Case:
    return Case(lambda: game(unit(1, "Grenadier", "Blue", 0, 0, weapons=["Underbarrel grenade launcher"]),
                             unit(2, "Rifleman", "Red", 20, 0)),
                AttackSetup(1, "Underbarrel grenade launcher", aim_x_in=20.0, aim_y_in=0.0, payload=payload))


CASES: dict[str, Case] = {
    "one rifle shot": Case(lambda: _rifles(unit(2, "Bo", "Red", 20, 0)), AttackSetup(1, "M4/M16", (TargetSpec(2),))),
    "a shot with Disadvantage (partial cover)": Case(
        lambda: _rifles(unit(2, "Bo", "Red", 20, 0)), AttackSetup(1, "M4/M16", (TargetSpec(2, cover=Level.PARTIAL),))),
    "a shot with Advantage (unaware target)": Case(
        lambda: _rifles(unit(2, "Bo", "Red", 20, 0)), AttackSetup(1, "M4/M16", (TargetSpec(2, unaware=True),))),
    "a Fan: two attacks at each of two units": Case(
        lambda: _rifles(unit(2, "Bo", "Red", 30, 0), unit(3, "Cy", "Red", 30, 3), weapon="M240"),
        AttackSetup(1, "M240", (TargetSpec(2, shots=2), TargetSpec(3, shots=2)))),
    "direct fire at a gun team member": Case(
        lambda: _rifles(unit(2, "Gunner", "Red", 20, 0, team="mg"), unit(3, "Loader", "Red", 20, 0, team="mg")),
        AttackSetup(1, "M4/M16", (TargetSpec(2),))),
    "a hand grenade at a group with a gun team": Case(_group, AttackSetup(1, "Hand grenade", aim_x_in=6.0, aim_y_in=0.0)),
    "HE at a vehicle (Defense dice) with riders inside": Case(
        _vehicle_with_riders, AttackSetup(1, "Carl Gustaf / MAAWS", (TargetSpec(20),)), riders={21: 20, 22: 20}),
    "HE aimed at a rider in an open compartment": Case(
        lambda: _vehicle_with_riders("open"), AttackSetup(1, "Carl Gustaf / MAAWS", (TargetSpec(21),))),
    "a grenade at a rider in an open truck bed (his own Damage roll)": Case(
        lambda: game(unit(1, "Grenadier", "Blue", 10, 10, weapons=["Hand grenade"]),
                     unit(20, "Truck", "Red", 16, 10, type_="Military truck"),
                     unit(21, "Bed rider", "Red", 16, 10, aboard=20, compartment="open")),
        AttackSetup(1, "Hand grenade", (TargetSpec(21, stationary=False),))),
    "a mortar landing head-on on a sandbagged team (cover and concealment declared)": Case(
        lambda: game(unit(1, "Mortar", "Blue", 0, 0, weapons=["60 mm mortar"]),
                     unit(2, "Gunner", "Red", 30, 0, team="mg"), unit(3, "Loader", "Red", 30, 0, team="mg")),
        AttackSetup(1, "60 mm mortar", (TargetSpec(2, stationary=False, head_on=True, cover=Level.PARTIAL,
                                                   concealment=Level.PARTIAL),))),
    "a motorcycle's exposed rider, shot on its own": Case(
        lambda: _rifles(unit(20, "Bike", "Red", 20, 0, type_="Motorcycle", operator=21),
                        unit(21, "Rider", "Red", 20, 0, aboard=20, compartment="exposed")),
        AttackSetup(1, "M4/M16", (TargetSpec(21),))),
    "suppression of two units": Case(
        lambda: _rifles(unit(2, "Bo", "Red", 30, 0), unit(3, "Cy", "Red", 30, 3), weapon="M240"),
        AttackSetup(1, "M240", (TargetSpec(2), TargetSpec(3)), mode=AttackMode.SUPPRESS)),
    **{f"the {p} payload": _launcher(p) for p in ("HE", "smoke", "illumination", "IR illumination")},
}


def _landing(result) -> tuple[float, float]:  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    miss = result.miss
    return (miss.intended_x_in, miss.intended_y_in + miss.miss_radius_in)


@pytest.mark.parametrize("name", sorted(CASES))
def test_shown_odds_are_how_often_resolving_does_it(name: str) -> None:
    case = CASES[name]
    state = case.state()
    odds = {o.unit_id: o for o in attack_odds(state, case.setup)}
    assert odds and all(o.allowed for o in odds.values()), [o.reason for o in odds.values()]
    if state.weapon(case.setup.weapon).is_explosive and case.setup.payload != "HE":
        assert list(odds) == [AIM_POINT]
    explosive = state.weapon(case.setup.weapon).is_explosive
    suppress = case.setup.mode is AttackMode.SUPPRESS
    hits = {uid: 0 for uid in odds}
    rolls = {uid: 0 for uid in odds}
    kills = {uid: 0 for uid in odds}
    rider_down = {uid: 0 for uid in case.riders}
    dice = SeededDice(sum(map(ord, name)))  # a seed per case: every run draws the same numbers
    for _ in range(TRIALS):
        result = resolve_attack(state, case.setup, dice)
        if result.needs_landing_point:
            result = resolve_landing(state, case.setup, result, _landing(result), dice)
        landed = result.miss is None
        by_target = {t.unit_id: t for t in result.targets}
        for uid in odds:
            t = by_target.get(uid)
            if suppress:
                rolls[uid] += 1
                hits[uid] += bool(t and t.suppressed)
            elif explosive:
                rolls[uid] += 1
                hits[uid] += landed
                kills[uid] += landed and bool(t and t.killed)
            else:
                assert t is not None
                rolls[uid] += len(t.shots)
                hits[uid] += sum(s.outcome is ShotOutcome.HIT for s in t.shots)
                kills[uid] += t.killed
        for rider, vehicle in case.riders.items():
            t = by_target.get(vehicle)
            went = bool(t and rider in t.went_down)
            assert went == bool(t and t.killed), "a rider goes down exactly when its vehicle does"
            rider_down[rider] += landed and went
    for uid, o in odds.items():
        assert_frequency(o.p_hit, hits[uid], rolls[uid], f"{name}: p(hit) on {o.name}")
        if not suppress:
            assert_frequency(o.p_kill_any, kills[uid], TRIALS, f"{name}: p(kill) on {o.name}")
    for rider, vehicle in case.riders.items():
        assert_frequency(odds[vehicle].p_kill_any, rider_down[rider], TRIALS, f"{name}: rider {rider} goes down")
