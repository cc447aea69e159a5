"""`sandtable tags`: print tag sheets at exact size (PDF), for units or the table's anchors.

    sandtable tags --ids 10-49 --size-in 1 --out tags.pdf
    sandtable tags --roster scenario.toml --out roster-tags.pdf      # unit names under each tag
    sandtable tags --anchors --out anchors.pdf                       # the four 2" table anchors
"""
from __future__ import annotations

import argparse
import re

from appmodel.errors import UsageError

NAME = "tags"
HELP = "Print AprilTag sheets (PDF) at exact size with a scale bar: unit tags by id or roster, or the anchor set."

UNIT_IDS = (10, 399)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ids", help="unit tag ids, e.g. 10-49 or 10,12,20-25 (10-399)")
    parser.add_argument("--size-in", type=float, help="edge of each tag's black square in inches (default 1, anchors 2; "
                        "with --roster: for the units whose entry gives no tag_size_in)")
    parser.add_argument("--roster", metavar="FILE", help="a scenario file: print its units' tags with their names")
    parser.add_argument("--anchors", action="store_true", help="print the table's anchor tags instead")
    parser.add_argument("--layout", metavar="FILE", help="with --anchors: a layout file with other anchors")
    parser.add_argument("--table", metavar="WxD", help="with --anchors: table size in inches (default 72x48)")
    parser.add_argument("--paper", choices=("letter", "a4"), default="letter", help="paper size (default letter)")
    parser.add_argument("--out", metavar="PDF", help="where to write the PDF (required)")


def parse_ids(text: str) -> list[int]:
    """``"10-12,20"`` -> [10, 11, 12, 20]."""
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not m:
            raise UsageError(f"--ids {text!r}: write ids like 10-49 or 10,12,20-25")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            raise UsageError(f"--ids {part!r}: the range runs backwards; write {hi}-{lo}")
        ids.extend(range(lo, hi + 1))
    bad = [i for i in ids if not UNIT_IDS[0] <= i <= UNIT_IDS[1]]
    if bad:
        b = bad[0]
        if b <= 9:
            reason = "ids 0-9 are the table's anchors (print them with --anchors)"
        elif 400 <= b <= 499:
            reason = "ids 400-499 are the projector's calibration pattern"
        elif 500 <= b <= 586:
            reason = "ids 500-586 are the lens-calibration board (sandtable board)"
        else:
            reason = "the tag36h11 family has ids 0-586 only"
        raise UsageError(f"--ids: tag {b} cannot be a unit tag: {reason}; units use {UNIT_IDS[0]}-{UNIT_IDS[1]}")
    if len(set(ids)) != len(ids):
        raise UsageError(f"--ids {text!r} names some tags twice; each tag should be printed once")
    return ids


def run(args: argparse.Namespace) -> int:
    if not args.out:
        raise UsageError("say where to write the sheet: --out tags.pdf (then print it at 100%, actual size)")
    from printing.tag_sheets import TagLabel, anchor_labels, check_one_size, write_sized_tag_sheets, write_tag_sheets

    chosen = sum(bool(x) for x in (args.ids, args.roster, args.anchors))
    if chosen != 1:
        raise UsageError("say what to print: exactly one of --ids 10-49, --roster FILE or --anchors")
    if args.size_in is not None and not args.size_in > 0:
        raise UsageError(f"--size-in {args.size_in:g}: give the tag's edge in inches, e.g. 1")
    if args.anchors:
        from cli.commands.calibrate import layout_from_args

        layout = layout_from_args(args)
        size = check_one_size(layout)
        if args.size_in is not None and abs(args.size_in - size) > 1e-9:
            raise UsageError(f"--size-in {args.size_in:g} disagrees with the layout's {size:g} in anchors; change the layout file instead")
        summary = write_tag_sheets(
            args.out, anchor_labels(layout), size_in=size, paper=args.paper,
            title=f"Anchor tags for a {layout.width_in:g} x {layout.depth_in:g} in table ({size:g} in, tag36h11)",
            hint="Tape each anchor flat where its label says. The origin corner is next to anchor 0; +x runs toward anchor 1, +y toward anchor 3.",
            label_strip_in=0.75, note_lines=4,
        )
        what = f"{len(summary.tags)} anchor tags of {size:g} in"
    elif args.roster:
        from printing.roster_labels import roster_labels

        # Each unit at the size its roster entry gives; --size-in only for units that give none.
        groups = roster_labels(args.roster, default_size_in=args.size_in or 1.0)
        summary = write_sized_tag_sheets(args.out, dict(sorted(groups.items())), paper=args.paper,
                                         title=lambda size: f"Unit tags from {args.roster} ({size:g} in, tag36h11)")
        what = " and ".join(f"{len(labels)} unit tag{'s' if len(labels) != 1 else ''} of {size:g} in"
                            for size, labels in sorted(groups.items())) + " with names"
    else:
        ids = parse_ids(args.ids)
        size = args.size_in if args.size_in is not None else 1.0
        summary = write_tag_sheets(args.out, [TagLabel(i) for i in ids], size_in=size, paper=args.paper,
                                   title=f"Unit tags {args.ids} ({size:g} in, tag36h11)")
        what = f"{len(ids)} unit tags of {size:g} in"
    pages = f"{summary.pages} {args.paper} page" + ("s" if summary.pages != 1 else "")
    print(f"wrote {args.out}: {what} on {pages}; print at 100% (actual size) and check the 1-inch bar with a ruler")
    return 0

