"""`sandtable board`: print the lens-calibration board (PDF) at exact size.

    sandtable board --out board.pdf
    sandtable calibrate camera photos/*.jpg --out camera.json     # then photograph it and calibrate
"""
from __future__ import annotations

import argparse

from appmodel.errors import UsageError

NAME = "board"
HELP = "Print the lens-calibration board (a grid of AprilTags) as a PDF at exact size."


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """Board geometry options, shared with `sandtable calibrate camera` (which must know the board)."""
    parser.add_argument("--board-cols", type=int, default=7, help="tags across the board (default 7)")
    parser.add_argument("--board-rows", type=int, default=5, help="tags down the board (default 5)")
    parser.add_argument("--board-tag-in", type=float, default=1.0, help="edge of each tag's black square, inches (default 1)")
    parser.add_argument("--board-gap-in", type=float, default=0.4, help="gap between tags, inches (default 0.4)")


def board_from_args(args: argparse.Namespace):
    from calibration.board import BoardSpec
    from calibration.errors import CalibrationError

    try:
        return BoardSpec(args.board_cols, args.board_rows, args.board_tag_in, args.board_gap_in)
    except CalibrationError as exc:
        raise UsageError(f"board options: {exc}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="PDF", help="where to write the PDF (required)")
    parser.add_argument("--paper", choices=("letter", "a4"), default="letter", help="paper size (default letter)")
    add_board_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if not args.out:
        raise UsageError("say where to write the sheet: --out board.pdf (then print it at 100%, actual size)")
    from printing.board_sheet import write_board_pdf

    board = board_from_args(args)
    write_board_pdf(args.out, board, paper=args.paper)
    print(
        f"wrote {args.out}: {board.cols} x {board.rows} tags of {board.tag_size_in:g} in (ids {board.tag_ids[0]}-{board.tag_ids[-1]}) "
        f"on one {args.paper} page, landscape; print at 100%, check the 1-inch bar, glue it flat, then photograph it 10-20 times "
        "and run `sandtable calibrate camera PHOTO... --out camera.json`"
    )
    return 0
