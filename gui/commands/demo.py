"""`sandtable demo`: the rulebook's in-depth example, narrated step by step with the dice the text states.

A rules walkthrough, headless, for now; the full demo on the synthetic table replaces it later
(it drives the table from the same script, ``rules/downrange/examples/in_depth.py``).
"""
from __future__ import annotations

import argparse
import json
import textwrap

NAME = "demo"
HELP = "Walk through the Down Range in-depth example (section 6): each step's odds, dice and outcome."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--until", metavar="SECTION", help="stop after this section (e.g. 6.4.2-6.4.4)")
    parser.add_argument("--save-state", metavar="FILE", help="write the final game state (JSON) to FILE")
    parser.add_argument("--json", action="store_true", help="print the game's event log as JSON lines")


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gui.errors import UsageError
    from rules.downrange.examples.in_depth import STEPS, play

    steps = list(STEPS)
    if args.until:
        sections = [s.section for s in steps]
        if args.until not in sections:
            raise UsageError(f"--until {args.until!r}: not a step of the example; the steps are {', '.join(sections)}")
        steps = steps[: sections.index(args.until) + 1]
    state = None
    if not args.json:
        print("Down Range, in-depth example (rulebook section 6): Marines with a mortar team, a MAAWS gunner, a\n"
              "corpsman, a UTV and a Black Hornet against a PLA Marine Corps squad and its ZBL-09 IFV.\n")
    for record in play(steps):
        state = record.state
        if args.json:
            continue
        step = record.step
        print(f"== {step.section}  {step.title}")
        print(_wrap(step.text, "   "))
        for line in record.lines:
            print(_wrap(line, "   | ") if not line.startswith("  ") else "   |" + line)
        print(_wrap(f"Rulebook: {step.expect}", "   = "))
        if step.note:
            print(_wrap(f"Reading taken: {step.note}", "   ~ "))
        print()
    assert state is not None
    if args.json:
        for event in state.events:
            print(json.dumps(event.to_json()))
    else:
        down = [u.name for u in state.units if u.status.value != "active"]
        print(f"End of the example after round {state.round}: {len(state.events)} events logged; "
              f"out of the fight: {', '.join(down)}.")
    if args.save_state:
        Path(args.save_state).write_text(state.dumps(), encoding="utf-8")
    return 0
