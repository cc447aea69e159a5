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
import math
import signal
import sys
import threading
from collections.abc import Sequence

from appmodel.errors import user_error_types

COMMANDS: tuple[str, ...] = ("odds", "roll", "resolve", "demo", "board", "tags", "detect", "track", "calibrate", "simulate", "scan", "debrief", "scenarios", "gui", "replay", "run", "camera_node")


def _version() -> str:
    """The installed package's version (a source tree that was never installed says so)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sandtable-companion")
    except PackageNotFoundError:
        return "(not installed: run make test or pip install -e .)"


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a mistake is one line (what was wrong and where the help is), not the usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]  # typed None, not NoReturn: self.exit() never returns
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="sandtable",
        description="Sandtable Companion: camera-tracked measuring, rules and debrief for miniature wargames.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_OneLineParser)
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f"cli.commands.{name}")
        command_parser = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command_parser)
        _check_numbers(command_parser)
        command_parser.set_defaults(_run=module.run)
    return parser


#: Numeric arguments that measure a length, a time, a rate or a count: never below zero.
NON_NEGATIVE = frozenset({
    "lost_after", "fps", "settle", "at", "size_in", "board_tag_in", "board_gap_in", "height_in", "distance",
    "max_frames", "shots", "assist", "board_cols", "board_rows", "seed", "camera", "select", "difficulty",
})
#: No argument of any command is meaningful past this (seconds, inches, counts, seeds).
_NUMBER_LIMIT = 1e9


def _number_type(kind: type, dest: str):  # an argparse type
    def parse(text: str) -> float | int:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {'whole ' if kind is int else ''}number") from None
        if not math.isfinite(value) or abs(value) > _NUMBER_LIMIT:
            raise argparse.ArgumentTypeError(f"{text} is not a finite number below {_NUMBER_LIMIT:g}")
        if dest in NON_NEGATIVE and value < 0:
            raise argparse.ArgumentTypeError(f"{text} is negative; give 0 or more")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its own messages
    return parse


def _check_numbers(parser: argparse.ArgumentParser) -> None:
    """Every float or int argument refuses nan, inf, absurd sizes and (where it measures something)
    negative values at parse time, so no command sees them."""
    for action in parser._actions:  # argparse has no public iterator of actions
        if action.type in (float, int):
            action.type = _number_type(action.type, action.dest)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a mistake argparse already reported in one line
        return int(exc.code or 0) if isinstance(exc.code, (int, type(None))) else 2
    previous = _stop_on_sigterm()
    try:
        return int(args._run(args) or 0)
    except user_error_types() as exc:
        # A user mistake gets one line naming what was wrong, never a traceback.
        print(f"sandtable {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except _input_error_types() as exc:
        # The last net for a reader that let a malformed input through: still one line, naming the
        # files the command was given.
        print(f"sandtable {args.command}: error: {_input_error_line(args, exc)}", file=sys.stderr)
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
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a service manager, ``kill``): stop as Ctrl+C does, so recordings close cleanly."""


def _stop_on_sigterm():  # the previous handler
    if threading.current_thread() is not threading.main_thread():
        return None  # signals reach only the main thread; a command run from a test thread keeps the default

    def stop(signum: int, frame: object) -> None:
        raise Terminated()

    return signal.signal(signal.SIGTERM, stop)


def _input_error_types() -> tuple[type[BaseException], ...]:
    types: list[type[BaseException]] = [RecursionError, UnicodeDecodeError, MemoryError, OverflowError, OSError]
    try:
        import cv2

        types.append(cv2.error)
    except ImportError:
        pass
    import sqlite3

    types.append(sqlite3.Error)
    return tuple(types)


def _input_error_line(args: argparse.Namespace, exc: BaseException) -> str:
    from pathlib import Path

    files = []
    for key, value in vars(args).items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and not key.startswith("_") and item and Path(item).is_file():
                files.append(item)
    what = {
        RecursionError: "is nested too deeply to read",
        UnicodeDecodeError: "is not text (a binary file?)",
        MemoryError: "is too large for this machine's memory",
        OverflowError: "holds a number too large to compute with",
    }
    reason = next((text for kind, text in what.items() if isinstance(exc, kind)), None)
    named = ", ".join(repr(f) for f in files) or "an input"
    if reason is None:
        if isinstance(exc, OSError):
            target = exc.filename or named
            return f"{target}: {exc.strerror or exc}; check the path, its permissions and free disk space"
        return f"{named}: cannot be read ({str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__}); check the file"
    return f"{named} {reason}; give a well-formed file with sensible values"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
