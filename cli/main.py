"""The `sandtable` command line: one dispatcher, one module per sub-command.

Each sub-command lives in ``cli/commands/<name>.py`` and exposes ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``. Command modules import only argparse
at module level; numpy, OpenCV and Qt are imported inside ``run`` so that ``sandtable odds``
starts in a fraction of a second and never loads Qt.

Adding a command: write its module and add its name to ``COMMANDS``.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from appmodel.errors import user_error_types

COMMANDS: tuple[str, ...] = ("odds", "roll", "resolve", "demo", "board", "tags", "detect", "track", "calibrate", "simulate", "scan", "debrief", "scenarios", "gui", "replay", "run")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sandtable",
        description="Sandtable Companion: camera-tracked measuring, rules and debrief for miniature wargames.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f"cli.commands.{name}")
        command_parser = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command_parser)
        command_parser.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except user_error_types() as exc:
        # A user mistake gets one line naming what was wrong, never a traceback.
        print(f"sandtable {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"sandtable {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`sandtable demo | head`): not an error. Point stdout at devnull so the
        # interpreter's final flush does not raise again.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
