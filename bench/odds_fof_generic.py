"""Exact odds of Force on Force and the generic rules: the engine against naive enumeration and against
sampling, from one run.

* **Force on Force initiative test**: success counts by convolution (``initiative_odds``) against rolling
  every face of both pools (feasible only for small pools) and against 100 000 sampled tests of the
  rulebook's 8D8 vs 11D6 (whose naive enumeration would be 8^8 x 6^11 = 6.1e15 outcomes).
* **Generic rules area shot**: ``shot_odds`` (to-hit x scatter distance x both direction dice, binomial
  damage points) against walking every die the resolver can ask for, and against sampled shots.
* **Interactive cost** through the neutral interface, as the GUI asks while a player drags the mouse:
  ``attack_odds`` of a Force on Force fire (line-of-fire corridor over 26 figures, opposed-test odds)
  and of the generic mortar shot.

    .venv/bin/python bench/odds_fof_generic.py [--samples 100000]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dice import DiceRoll, RollRequest, SeededDice
from rules.distributions import successes_pmf
from rules.forceonforce.examples.patrol import initial_state as patrol
from rules.forceonforce.initiative import InitiativePool, initiative_odds
from rules.forceonforce.ruleset import ForceOnForce
from rules.generic.examples.solo import initial_state as solo
from rules.generic.ranged import p_at_least_levels, plan_shot, resolve_shot, shot_odds
from rules.generic.ruleset import GenericMiniatures
from rules.ruleset import AttackRequest


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[Any, float]:
    start = time.perf_counter()
    for _ in range(repeat):
        out = fn()
    return out, (time.perf_counter() - start) / repeat


def pool(side: str, n: int, s: int) -> InitiativePool:
    return InitiativePool(side, 0, 0, n, n, (), n, s)


def naive_initiative(na: int, sa: int, nb: int, sb: int) -> Fraction:
    """P(A has initiative), A holding it on a tie, by rolling every face of both pools."""
    wins = 0
    b_counts = [sum(1 for f in y if f >= 4) for y in product(range(1, sb + 1), repeat=nb)]
    for x in product(range(1, sa + 1), repeat=na):
        ka = sum(1 for f in x if f >= 4)
        wins += sum(1 for kb in b_counts if ka >= kb)
    return Fraction(wins, sa**na * sb**nb)


class _More(Exception):
    def __init__(self, r: RollRequest) -> None:
        self.r = r


class _Prefix:
    def __init__(self, faces: tuple[tuple[int, ...], ...]) -> None:
        self.faces, self.i = faces, 0

    def roll(self, r: RollRequest) -> DiceRoll:
        if self.i >= len(self.faces):
            raise _More(r)
        f = self.faces[self.i]
        self.i += 1
        return DiceRoll(r.label, r.count, r.sides, f, sum(f))


def naive_shot(state: Any, plan: Any) -> dict[int, tuple[Fraction, Fraction]]:
    """(P(loses a status level), P(destroyed)) per unit by walking every die the resolver asks for."""
    out: dict[int, tuple[Fraction, Fraction]] = {}
    stack: list[tuple[tuple[tuple[int, ...], ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            r = resolve_shot(state, plan, _Prefix(prefix))
        except _More as m:
            each = p / m.r.sides**m.r.count
            stack += [(prefix + (f,), each) for f in product(range(1, m.r.sides + 1), repeat=m.r.count)]
            continue
        for d in r.damages:
            hurt, dead = out.get(d.unit_id, (Fraction(0), Fraction(0)))
            out[d.unit_id] = (hurt + p * (d.applied > 0), dead + p * d.destroyed)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=100_000)
    args = ap.parse_args()

    print("Force on Force initiative test: P(first force has initiative), ties kept by the first")
    print(" pools          | exact (convolution)       |  ms exact | ms naive | naive/exact | equal")
    for na, sa, nb, sb in ((2, 8, 3, 6), (3, 8, 4, 6), (4, 8, 5, 6), (5, 8, 5, 6)):
        successes_pmf.cache_clear()
        exact, t_exact = timed(lambda: initiative_odds((pool("a", na, sa), pool("b", nb, sb)), previous="a")["a"], 20)
        naive, t_naive = timed(lambda: naive_initiative(na, sa, nb, sb))
        print(f" {na}D{sa} vs {nb}D{sb:<6}| {float(exact):.6f} = {str(exact):<14}| {t_exact * 1e3:9.3f} | "
              f"{t_naive * 1e3:8.1f} | {t_naive / t_exact:11.0f} | {exact == naive}")
    successes_pmf.cache_clear()
    exact, t_exact = timed(lambda: initiative_odds((pool("Red", 8, 8), pool("Blue", 11, 6)), previous="Red")["Blue"], 20)
    rng = random.Random(1)

    def sample() -> float:
        blue = 0
        for _ in range(args.samples):
            red_k = sum(rng.randint(1, 8) >= 4 for _ in range(8))
            blue_k = sum(rng.randint(1, 6) >= 4 for _ in range(11))
            blue += blue_k > red_k
        return blue / args.samples

    est, t_sample = timed(sample)
    print(f" rulebook 8D8 (holder) vs 11D6: P(Blue) exact {float(exact):.6f} in {t_exact * 1e3:.3f} ms; "
          f"{args.samples} sampled tests {est:.6f} (error {abs(est - float(exact)):.6f}) in {t_sample * 1e3:.0f} ms "
          f"({t_sample / t_exact:.0f}x slower); naive enumeration: 8^8 x 6^11 = {8**8 * 6**11:.1e} outcomes")

    print("\nGeneric rules: M1's mortar at the counter T1 (Very Long, 6 to hit, AoE 3\", scatter <= 6\"):")
    print("P(loses a status level) / P(destroyed) per unit")
    state = solo()
    plan = plan_shot(state, 12, target_id=30)
    def cold_odds() -> Any:
        p_at_least_levels.cache_clear()
        return shot_odds(state, plan)

    odds, t_exact = timed(cold_odds, 5)
    naive, t_naive = timed(lambda: naive_shot(state, plan))
    dice = SeededDice(2)
    hurt: dict[int, int] = {}
    dead: dict[int, int] = {}
    n_shots = max(2000, args.samples // 20)

    def simulate() -> None:
        for _ in range(n_shots):
            for d in resolve_shot(state, plan, dice).damages:
                hurt[d.unit_id] = hurt.get(d.unit_id, 0) + (d.applied > 0)
                dead[d.unit_id] = dead.get(d.unit_id, 0) + d.destroyed

    _, t_sim = timed(simulate)
    print(" unit | exact             | naive walk        | sampled           | equal")
    for uid, o in odds.items():
        nh, nd = naive.get(uid, (Fraction(0), Fraction(0)))
        print(f" {state.unit(uid).short_id:<4} | {float(o.p_damaged):.5f} / {float(o.p_destroyed):.5f} | "
              f"{float(nh):.5f} / {float(nd):.5f} | {hurt.get(uid, 0) / n_shots:.5f} / {dead.get(uid, 0) / n_shots:.5f} | "
              f"{(o.p_damaged, o.p_destroyed) == (nh, nd)}")
    print(f" time: exact (caches emptied) {t_exact * 1e3:.1f} ms, naive walk {t_naive * 1e3:.0f} ms ({t_naive / t_exact:.0f}x), "
          f"{n_shots} sampled shots {t_sim * 1e3:.0f} ms ({t_sim / t_exact:.0f}x)")

    print("\nThrough the neutral interface (what the GUI asks on every mouse move), ms per call")
    fof, fs = ForceOnForce(), patrol()
    g, gs = GenericMiniatures(), solo()
    rows = (("Force on Force attack_odds (26 figures, corridor)", lambda: fof.attack_odds(fs, AttackRequest(10, "Fire", (30,)))),
            ("Force on Force propose_targets", lambda: fof.propose_targets(fs, 10, "Fire")),
            ("generic attack_odds (mortar, all units)", lambda: g.attack_odds(gs, AttackRequest(12, "Mortar", (30,)))),
            ("generic overlays (bands, command range)", lambda: g.overlays(gs, 13)))
    for name, fn in rows:
        _, t = timed(fn, 20)
        print(f" {name:<52} {t * 1e3:7.2f}")


if __name__ == "__main__":
    main()
