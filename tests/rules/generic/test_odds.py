"""Exact odds of the generic rules checked by enumeration: the engine's odds against every sequence of
dice the rolling code can ask for, fed through the same functions that resolve a real shot or close
combat (so odds shown before a roll and what rolling does can never disagree)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import DiceRoll, RollRequest
from rules.generic.close_combat import close_combat_odds, resolve_close_combat
from rules.generic.ranged import p_at_least_levels, plan_shot, resolve_shot, shot_odds
from rules.generic.scenario import game_from_scenario
from rules.generic.state import GenericState


class _NeedMore(Exception):
    def __init__(self, request: RollRequest) -> None:
        self.request = request


class PrefixDice:
    """Plays back a fixed sequence of faces and stops at the first roll beyond it."""

    def __init__(self, faces: tuple[tuple[int, ...], ...]) -> None:
        self.faces, self.i = faces, 0

    def roll(self, request: RollRequest) -> DiceRoll:
        if self.i >= len(self.faces):
            raise _NeedMore(request)
        f = self.faces[self.i]
        self.i += 1
        return DiceRoll(request.label, request.count, request.sides, f, sum(f))


def every_outcome(run: Callable[[PrefixDice], Any]) -> Iterator[tuple[Fraction, Any]]:
    """Every way the dice can fall for ``run``, with its probability: a depth-first walk that branches
    on every face of every die the code asks for."""
    stack: list[tuple[tuple[tuple[int, ...], ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            result = run(PrefixDice(prefix))
        except _NeedMore as more:
            r = more.request
            each = p / r.sides**r.count
            for faces in product(range(1, r.sides + 1), repeat=r.count):
                stack.append((prefix + (faces,), each))
            continue
        yield p, result


def game(units: list[dict[str, Any]], **rules: Any) -> GenericState:
    return game_from_scenario({"format": "sandtable-scenario", "version": 1, "ruleset": "generic", "rules": rules,
                               "sides": [{"name": "Blue"}, {"name": "Red"}], "units": units}, source="odds.toml")


def unit(tag: int, side: str, x: float, y: float, type_: str, **kw: Any) -> dict[str, Any]:
    return {"tag_id": tag, "name": f"u{tag}", "side": side, "type": type_, "x_in": x, "y_in": y, **kw}


def brute_shot(state: GenericState, **plan_args: Any) -> dict[int, tuple[Fraction, Fraction, Fraction]]:
    plan = plan_shot(state, 10, **plan_args)
    out: dict[int, list[Fraction]] = {}
    for p, result in every_outcome(lambda dice: resolve_shot(state, plan, dice)):
        for d in result.damages:
            acc = out.setdefault(d.unit_id, [Fraction(0)] * 3)
            acc[0] += p
            acc[1] += p * (d.applied > 0)
            acc[2] += p * d.destroyed
    return {uid: (a, b, c) for uid, (a, b, c) in out.items()}


SHOTS = {
    "rifle at Medium": ([unit(10, "Blue", 0, 0, "Rifle section"), unit(20, "Red", 9, 0, "Rifle section",
                                                                        status="Damaged")], {"target_id": 20}, {}),
    "grenades scatter onto two units": ([unit(10, "Blue", 0, 0, "Grenadiers", damage=1),
                                         unit(20, "Red", 5.5, 0, "Rifle section"),
                                         unit(21, "Red", 5.5, 1.6, "Rifle section", status="Damaged")],
                                        {"target_id": 20}, {}),
    "grenades at a point, rounding down, north along the line of fire": (
        [unit(10, "Blue", 0, 0, "Grenadiers", damage=3), unit(20, "Red", 4.5, 0.8, "Light tank"),
         unit(21, "Blue", 4.0, -1.2, "Rifle section")],
        {"aim_point": (4.0, 0.0)}, {"half_rounding": "down", "scatter_north": "line of fire"}),
    "a hit does full damage around it when only misses halve": (
        [unit(10, "Blue", 0, 0, "Grenadiers", damage=2), unit(20, "Red", 3.5, 0, "Rifle section"),
         unit(21, "Red", 3.5, 1.5, "Scouts")], {"target_id": 20}, {"half_damage": "misses only"}),
}


@pytest.mark.parametrize("name", SHOTS)
def test_shot_odds_equal_rolling_every_die_through_the_resolver(name: str) -> None:
    units, args, rules = SHOTS[name]
    state = game(units, **rules)
    exact = shot_odds(state, plan_shot(state, 10, **args))
    brute = brute_shot(state, **args)
    assert set(exact) == set(brute) and exact
    for uid, (caught, damaged, destroyed) in brute.items():
        assert (exact[uid].p_caught, exact[uid].p_damaged, exact[uid].p_destroyed) == (caught, damaged, destroyed), uid


@given(points=st.integers(0, 5), defence=st.integers(0, 6), levels=st.integers(0, 4))
@settings(max_examples=80, deadline=None)
def test_damage_points_getting_through_equal_counting_every_die(points: int, defence: int, levels: int) -> None:
    hits = sum(1 for faces in product(range(1, 7), repeat=points) if sum(f > defence for f in faces) >= levels)
    assert p_at_least_levels(points, defence, levels) == Fraction(hits, 6**points)


@given(a_str=st.integers(0, 6), a_def=st.integers(0, 6), a_dmg=st.integers(0, 3), d_str=st.integers(0, 6),
       d_def=st.integers(0, 6), d_dmg=st.integers(0, 3), d_status=st.sampled_from(["Undamaged", "Damaged"]))
@settings(max_examples=25, deadline=None)
def test_close_combat_odds_equal_fighting_every_average_die(a_str: int, a_def: int, a_dmg: int, d_str: int, d_def: int,
                                                            d_dmg: int, d_status: str) -> None:
    state = game([unit(10, "Blue", 0, 0, "Rifle section", cc_strength=a_str, cc_defence=a_def, cc_damage=a_dmg),
                  unit(20, "Red", 1.2, 0, "Rifle section", cc_strength=d_str, cc_defence=d_def, cc_damage=d_dmg,
                       status=d_status)])
    odds = close_combat_odds(state, 10, 20)
    lose_d = lose_a = kill_d = kill_a = Fraction(0)
    for p, r in every_outcome(lambda dice: resolve_close_combat(state, 10, 20, dice)):
        lose_d += p * (r.rounds[0].loser == 20)
        lose_a += p * (r.rounds[1].loser == 10)
        kill_d += p * r.defender_destroyed
        kill_a += p * r.attacker_destroyed
    assert (odds.p_defender_loses_round, odds.p_attacker_loses_round) == (lose_d, lose_a)
    assert (odds.p_defender_destroyed, odds.p_attacker_destroyed) == (kill_d, kill_a)


def test_sandtable_odds_gives_the_band_to_hit_and_status_odds_of_a_shot(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from cli.main import main

    assert main(["odds", "--ruleset", "generic", "--delivery", "mortar", "--distance", "24", "--damage", "3",
                 "--defense", "3", "--status", "Superficial Damage", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["band"], data["to_hit"], data["p_hit"]) == ("Very Long", 6, "1/6")
    assert Fraction(data["p_destroyed"]) == Fraction(1, 6) * p_at_least_levels(3, 3, 2)
    assert main(["odds", "--ruleset", "generic", "--delivery", "handgun", "--distance", "19"]) == 2
    err = capsys.readouterr().err
    assert "beyond Very Long for a Handgun (18\")" in err and err.count("\n") == 1
    assert main(["odds", "--ruleset", "generic", "--list", "records"]) == 0
    assert "Rifle section: Foot" in capsys.readouterr().out
