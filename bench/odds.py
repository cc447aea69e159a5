"""Exact odds speed: an 8-shot Fan against 8 different targets, exact engine against naive enumeration.

An M2 .50 cal (Fan 8, Difficulty 6, Damage 1d8) with an assistant (+1) fires one attack at each of 8
different targets on a synthetic table: troops of every type with and without body armor, behind
partial cover, unaware, and vehicles with dice Defense (one of them out of the d8's reach). Side by
side, from one run:

* **engine, full**: ``rules.downrange.attack.attack_odds`` - target validation, range and 45-degree
  cone geometry, Advantage/Disadvantage from the state and declarations, exact odds by convolution;
  measured cold (every cache emptied before each repetition) and warm;
* **engine, odds only**: ``rules.downrange.odds.shot_odds`` per target, caches emptied;
* **naive**: enumerate every face of every die (Skill die or pair, Damage dice, Defense dice) and
  count kills, the way one would check the numbers by hand.

Both give exact fractions; the script checks they are equal. Target (issue 2): well under a
millisecond per target. A second table shows how the cost grows with bigger pools.

    .venv/bin/python bench/odds.py [--repeat 30]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from fractions import Fraction
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dice import Dice
from rules.distributions import dice_sum_pmf, kept_die_pmf
from rules.downrange.attack import attack_odds
from rules.downrange.declarations import AttackSetup, Level, TargetSpec
from rules.downrange.odds import p_damage, p_skill, shot_odds
from rules.downrange.scenario import game_from_scenario


def clear_caches() -> None:
    for f in (p_skill, p_damage, dice_sum_pmf, kept_die_pmf):
        f.cache_clear()


def naive(sides: int, mode: str, bonus: int, difficulty: int, damage: Dice, defense: Dice) -> tuple[Fraction, Fraction]:
    """Enumerate every die face; kept-die automatic failure, all-ones Damage fails, all-ones Defense fails."""
    skill = list(product(range(1, sides + 1), repeat=1 if mode == "normal" else 2))
    dmg = [()] if damage.is_static else list(product(range(1, damage.sides + 1), repeat=damage.count))
    dfn = [()] if defense.is_static else list(product(range(1, defense.sides + 1), repeat=defense.count))
    gated = not defense.is_static and (damage.is_static or damage.sides < defense.sides)
    hits = kills = 0
    for faces in skill:
        kept = max(faces) if mode == "advantage" else min(faces) if mode == "disadvantage" else faces[0]
        hit = kept != 1 and kept + bonus >= difficulty
        hits += hit
        if hit and not gated:
            for d in dmg:
                d_total, d_ones = sum(d) + damage.bonus, bool(d) and all(x == 1 for x in d)
                for f in dfn:
                    f_total, f_ones = sum(f) + defense.bonus, bool(f) and all(x == 1 for x in f)
                    kills += not d_ones and (f_ones or d_total >= f_total)
    return Fraction(hits, len(skill)), Fraction(kills, len(skill) * len(dmg) * len(dfn))


def table_game():  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    targets = [
        ("Rifleman", "average combatant", [], {}),
        ("Rifleman, armored", "average combatant", ["body armor"], {}),
        ("Militia", "substandard combatant", [], {"unaware": True}),
        ("Civilian", "non-combatant", [], {}),
        ("Sniper behind sandbags", "specialist combatant", ["body armor"], {"cover": Level.PARTIAL}),
        ("UTV", "UTV", [], {}),
        ("Combat UAS", "Combat UAS", [], {"concealment": Level.PARTIAL}),
        ("Military truck", "Military truck", [], {}),
    ]
    units = [{"tag_id": 10, "name": "M2 gunner", "side": "Blue", "type": "average combatant", "weapons": ["M2 .50 cal"],
              "x_in": 2.0, "y_in": 24.0, "heading_deg": 0.0},
             {"tag_id": 11, "name": "Assistant", "side": "Blue", "type": "average combatant", "x_in": 2.0, "y_in": 22.5}]
    for i, (name, kind, equipment, _) in enumerate(targets):
        units.append({"tag_id": 20 + i, "name": name, "side": "Red", "type": kind, "equipment": equipment,
                      "x_in": 30.0 + 2.5 * i, "y_in": 16.0 + 2.2 * i, "heading_deg": 180.0})
    state = game_from_scenario({"format": "sandtable-scenario", "version": 1, "sides": [{"name": "Blue"}, {"name": "Red"}],
                                "units": units})
    specs = tuple(TargetSpec(20 + i, stationary=(i % 2 == 0), **decl) for i, (_, _, _, decl) in enumerate(targets))
    return state, AttackSetup(10, "M2 .50 cal", specs, assistants=(11,))


def median_time(fn, repeat: int, *, cold: bool) -> float:  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    times = []
    for _ in range(repeat):
        if cold:
            clear_caches()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()

    state, setup = table_game()
    odds = attack_odds(state, setup)
    n = len(odds)
    assert n == 8 and all(o.allowed for o in odds), [o.reason for o in odds]
    configs = [(6, o.roll, 1, 6, state.catalog.weapon("M2 .50 cal").damage, state.effective_defense(state.unit(o.unit_id)))
               for o in odds]

    full_cold = median_time(lambda: attack_odds(state, setup), args.repeat, cold=True)
    full_warm = median_time(lambda: attack_odds(state, setup), args.repeat, cold=False)
    math_cold = median_time(lambda: [shot_odds(*c) for c in configs], args.repeat, cold=True)
    brute_t = median_time(lambda: [naive(*c) for c in configs], max(3, args.repeat // 5), cold=False)

    print("Exact odds of an 8-shot Fan (M2 .50 cal, +1 assistant) against 8 different targets")
    print(f"{'target':28} {'roll':13} {'Defense':8} {'p(hit)':>8} {'p(kill)':>12}  naive agrees")
    for o, c in zip(odds, configs):
        hit, kill = naive(*c)
        agree = hit == o.p_hit and kill == o.p_kill
        print(f"{o.name:28} {o.roll:13} {str(c[5]):8} {str(o.p_hit):>8} {str(o.p_kill):>12}  {'yes' if agree else 'NO'}")
        if not agree:
            print("MISMATCH between the engine and the naive enumeration", file=sys.stderr)
            return 1
    print()
    print(f"{'method':44} {'all 8 targets':>14} {'per target':>12} {'vs naive':>9}")
    rows = [("engine, full pipeline, cold caches", full_cold), ("engine, full pipeline, warm caches", full_warm),
            ("engine, odds only, cold caches", math_cold), ("naive enumeration of every die face", brute_t)]
    for label, t in rows:
        print(f"{label:44} {t * 1e3:11.3f} ms {t / n * 1e6:9.1f} us {brute_t / t:8.1f}x")
    verdict = "yes" if full_cold / n < 1e-3 else "NO"
    print(f"\nWell under a millisecond per target (full pipeline, cold): {verdict} ({full_cold / n * 1e6:.0f} us)")

    print("\nHow the cost grows with the dice pools (one target, odds only, cold caches):")
    print(f"{'attack':40} {'outcomes':>12} {'engine':>10} {'naive':>12}")
    for label, sides, mode, damage, defense in [
        ("rifle 1d6 vs 4", 6, "normal", "1d6", "4"), ("MAAWS 2d10 vs 2d10, Advantage", 6, "advantage", "2d10", "2d10"),
        ("81 mm 3d8 vs 3d8", 6, "normal", "3d8", "3d8"), ("tank gun 4d10 vs 4d10", 6, "normal", "4d10", "4d10"),
        ("MLRS 6d10 vs 4d10", 6, "normal", "6d10", "4d10"),
    ]:
        dmg, dfn = Dice.parse(damage), Dice.parse(defense)
        outcomes = (sides ** (1 if mode == "normal" else 2)) * (dmg.sides ** dmg.count) * (
            1 if dfn.is_static else dfn.sides ** dfn.count)
        config = (sides, mode, 0, 4, dmg, dfn)
        eng = median_time(lambda c=config: shot_odds(*c), args.repeat, cold=True)
        if outcomes <= 2_000_000:
            nv = median_time(lambda c=config: naive(*c), 1, cold=False)
            nv_text = f"{nv * 1e3:9.1f} ms"
        else:
            nv_text = "   (skipped)"
        print(f"{label:40} {outcomes:12,d} {eng * 1e6:7.0f} us {nv_text:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
