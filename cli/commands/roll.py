"""`sandtable roll`: roll dice the Down Range way and say what came up.

    sandtable roll 2d10
    sandtable roll 1d6 --advantage --difficulty 4
    sandtable roll 2d8 1d6+1 --seed 7 --json
"""
from __future__ import annotations

import argparse
import json
import random

from appmodel.errors import UsageError

NAME = "roll"
HELP = "Roll dice (d4, d6, d8, d10), seeded if you like; all ones is an automatic failure."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dice", nargs="+", help="dice expressions such as 2d10, 1d6+1, d8")
    parser.add_argument("--seed", type=int, help="seed for reproducible rolls (printed when not given)")
    parser.add_argument("--advantage", action="store_true", help="a Skill roll with Advantage: roll the die twice, keep the higher")
    parser.add_argument("--disadvantage", action="store_true", help="with Disadvantage: keep the lower (both given: they cancel)")
    parser.add_argument("--difficulty", type=int, help="meet-or-beat target for the roll")
    parser.add_argument("--json", action="store_true", help="print one JSON object per roll, one per line")


def run(args: argparse.Namespace) -> int:
    from rules.dice import Dice, RollRequest, SeededDice
    from rules.downrange.catalog import SIDES
    from rules.downrange.modifiers import Modifiers
    from rules.downrange.rolls import roll_skill

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)
    source = SeededDice(seed)
    exprs = [Dice.parse(text, allowed_sides=SIDES) for text in args.dice]
    if (args.advantage or args.disadvantage) and any(d.count != 1 for d in exprs):
        raise UsageError("--advantage/--disadvantage apply to Skill rolls, which are one die (e.g. 1d6)")
    if args.difficulty is not None and args.difficulty < 1:
        raise UsageError(f"--difficulty {args.difficulty}: use 1 or more")
    for d in exprs:
        if d.is_static:
            raise UsageError(f"{d} is a fixed number, not a roll: give dice such as 1d6")
        if args.advantage or args.disadvantage:
            mods = Modifiers(("--advantage",) if args.advantage else (), ("--disadvantage",) if args.disadvantage else ())
            r = roll_skill(source, d, mods, bonus=0, difficulty=args.difficulty, label=str(d))
            data = {"dice": str(d), "seed": seed, "roll": r.mode, "faces": list(r.faces), "kept": r.kept,
                    "total": r.total, "automatic_failure": r.auto_failure,
                    "success": r.success if args.difficulty is not None else None}
            text = f"{d} ({r.mode}): " + (f"({r.faces[0]}, {r.faces[1]}) keeps {r.kept}" if len(r.faces) == 2 else f"{r.kept}")
            if d.bonus:
                text += f" {d.bonus:+d} = {r.total}"
            auto = r.auto_failure
            total = r.total
        else:
            roll = source.roll(RollRequest(str(d), d.count, d.sides))
            faces = list(roll.faces or ())
            total = roll.dice_total + d.bonus
            auto = roll.all_ones
            data = {"dice": str(d), "seed": seed, "faces": faces, "total": total, "automatic_failure": auto}
            text = f"{d}: " + " + ".join(map(str, faces))
            if len(faces) > 1 or d.bonus:
                text += (f" {d.bonus:+d}" if d.bonus else "") + f" = {total}"
        if args.difficulty is not None:
            ok = total >= args.difficulty and not auto
            data["success"] = ok
            text += f" against {args.difficulty}: " + ("success" if ok else "failure")
        if auto:
            text += " (all ones: automatic failure)"
        print(json.dumps(data) if args.json else text)
    if not args.json:
        flags = (" --advantage" if args.advantage else "") + (" --disadvantage" if args.disadvantage else "") + \
            (f" --difficulty {args.difficulty}" if args.difficulty is not None else "")
        print(f"(seed {seed}: `sandtable roll {' '.join(args.dice)}{flags} --seed {seed}` rolls the same)")
    return 0
