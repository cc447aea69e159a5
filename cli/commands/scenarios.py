"""`sandtable scenarios`: the scenario files that ship with the program, and copying one to edit it.

    sandtable scenarios                                  # list them
    sandtable scenarios --copy starter-skirmish .        # copy one into a folder, to edit
    sandtable track 0 --scenario "$(sandtable scenarios --path starter-skirmish)"
    sandtable scenarios --check my_game.toml            # read it as the tracker, rules and table would
"""
from __future__ import annotations

import argparse

NAME = "scenarios"
HELP = "List the example scenarios that ship with the program, or copy one to edit."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--copy", nargs=2, metavar=("NAME", "DIR"), help="copy scenario NAME into folder DIR")
    group.add_argument("--path", metavar="NAME", help="print where scenario NAME is installed")
    group.add_argument("--check", metavar="FILE", help="check a scenario file for typos and mistakes in every layer")


def run(args: argparse.Namespace) -> int:
    from appmodel.scenarios import copy_shipped, find_shipped, shipped_scenarios

    if args.check:
        from appmodel.scenarios.check import check_scenario

        c = check_scenario(args.check)
        film = f"; synthetic table: {c.synthetic_frames} frames" if c.synthetic_frames is not None else ""
        print(f"{c.path}: fine. {c.name!r}: {c.units} units of {', '.join(c.sides) or 'no side'}, "
              f"rules {c.ruleset}, table {c.table_in[0]:g}\" x {c.table_in[1]:g}\"{film}")
        return 0
    if args.copy:
        target = copy_shipped(*args.copy)
        print(f"copied to {target}; edit it, then e.g. sandtable tags --roster {target} --out tags.pdf")
        return 0
    if args.path:
        print(find_shipped(args.path).path)
        return 0
    for s in shipped_scenarios():
        film = ", synthetic table ready" if s.synthetic else ""
        print(f"{s.name:<18} {s.title} ({s.ruleset} rules, {s.units} units{film})")
        if s.description:
            print(f"{'':<18} {s.description}")
        print(f"{'':<18} {s.path}")
    print("\ncopy one to edit it: sandtable scenarios --copy NAME DIR")
    return 0
