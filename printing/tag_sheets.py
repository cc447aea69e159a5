"""Sheets of tags at exact size: unit tags (optionally with roster names) and the anchor set.

Each tag sits on a white card (its quiet zone, 1.5 cells wide, kept free of print) outlined by a dashed
cutting line, with its id and name in a strip below the card's quiet zone. The top edge of every tag
is its heading: for units, stick it with the top edge toward the model's front.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from calibration.table_layout import TableLayout
from calibration.tag_bitmaps import CARD_MARGIN_CELLS, TAG_CELLS, card_size_in
from appmodel.errors import UsageError
from printing.pdf_canvas import PageSize, PdfCanvas

LABEL_STRIP_IN = 0.32
UNIT_HINT = "The top edge of each tag is the unit's front: stick it with that edge toward where the model faces."
GAP_IN = 0.18


@dataclass(frozen=True)
class TagLabel:
    """A tag to print and the words under it."""

    tag_id: int
    caption: str = ""
    note: str = ""


@dataclass(frozen=True)
class PrintedTag:
    """Where a tag's black square was printed: page (0-based) and its top-left corner on the paper."""

    tag_id: int
    page: int
    left_in: float
    top_in: float
    size_in: float


@dataclass(frozen=True)
class SheetSummary:
    pages: int
    tags: tuple[PrintedTag, ...] = field(default=())


def write_tag_sheets(
    path: str | Path,
    labels: Sequence[TagLabel],
    *,
    size_in: float,
    paper: str = "letter",
    title: str,
    hint: str = UNIT_HINT,
    label_strip_in: float = LABEL_STRIP_IN,
    note_lines: int = 1,
) -> SheetSummary:
    """A PDF with every tag of ``labels`` at ``size_in`` (black square), as many pages as it takes."""
    return write_sized_tag_sheets(path, {size_in: labels}, paper=paper, title=lambda _size: title, hint=hint,
                                  label_strip_in=label_strip_in, note_lines=note_lines)


def write_sized_tag_sheets(
    path: str | Path,
    groups: Mapping[float, Sequence[TagLabel]],
    *,
    paper: str = "letter",
    title: Callable[[float], str],
    hint: str = UNIT_HINT,
    label_strip_in: float = LABEL_STRIP_IN,
    note_lines: int = 1,
) -> SheetSummary:
    """One PDF with each group of tags at its own size (black square's edge in inches), each size
    starting on a new page under its own title."""
    if not any(groups.values()):
        raise UsageError("no tags to print; give --ids (e.g. 10-49), --roster FILE or --anchors")
    for size_in in groups:
        if not 0.25 <= size_in <= 7.0:
            raise UsageError(f"--size-in {size_in:g}: tags from 0.25 to 7 inches fit on a sheet")
    page = PageSize.named(paper)
    canvas = PdfCanvas(path, page, title=title(next(iter(groups))))
    placed: list[PrintedTag] = []
    try:
        for n, (size_in, labels) in enumerate((s, ls) for s, ls in groups.items() if ls):
            if n:
                canvas.new_page()
            placed += _lay_out(canvas, labels, size_in=size_in, paper=paper, title=title(size_in), hint=hint,
                               label_strip_in=label_strip_in, note_lines=note_lines)
    finally:
        canvas.finish()
    return SheetSummary(canvas.pages, tuple(placed))


def _lay_out(canvas: PdfCanvas, labels: Sequence[TagLabel], *, size_in: float, paper: str, title: str, hint: str,
             label_strip_in: float, note_lines: int) -> list[PrintedTag]:
    """Tags of one size on the canvas from its current (fresh) page on, adding pages as needed."""
    left, top, right, bottom = canvas.page.usable_in
    card = card_size_in(size_in)
    pitch_x = card + GAP_IN
    pitch_y = card + label_strip_in + GAP_IN
    cols = int((right - left + GAP_IN) // pitch_x)
    header = _header(canvas, title, hint)
    rows = int((bottom - top - header + GAP_IN) // pitch_y)
    if cols < 1 or rows < 1:
        raise UsageError(f"a {size_in:g}\" tag does not fit on {paper} paper; use a smaller --size-in")
    margin = size_in * CARD_MARGIN_CELLS / TAG_CELLS
    placed = []
    per_page = cols * rows
    for k, label in enumerate(labels):
        if k and k % per_page == 0:
            canvas.new_page()
            header = _header(canvas, title, hint)
        slot = k % per_page
        r, c = divmod(slot, cols)
        x = left + c * pitch_x
        y = top + header + r * pitch_y
        canvas.outline(x, y, card, card + label_strip_in)
        canvas.tag(label.tag_id, x + margin, y + margin, size_in)
        placed.append(PrintedTag(label.tag_id, canvas.pages - 1, x + margin, y + margin, size_in))
        caption = f"#{label.tag_id}" + (f"  {label.caption}" if label.caption else "")
        size_pt = 7.0 if card < 1.6 else 9.0
        canvas.text(x, y + card + 0.02, caption, size_pt=size_pt, width_in=card, centre=True, bold=True)
        if label.note:
            canvas.text(x + 0.05, y + card + 0.02 + size_pt / 72 * 1.4, label.note, size_pt=size_pt - 1.5,
                        width_in=card - 0.1, centre=True, grey=60, lines=note_lines)
    return placed


#: Printed on every sheet: a tag trimmed to its black square is found by no AprilTag detector.
QUIET_ZONE_NOTE = (
    "Cut on the dashed line, not closer: the white border around each black square is part of the tag "
    "(the camera finds a tag by its black edge against white); a tag trimmed to the black is not seen."
)


def _header(canvas: PdfCanvas, title: str, hint: str) -> float:
    left, top, right, _ = canvas.page.usable_in
    width = right - left
    canvas.text(left, top, title, size_pt=10, bold=True, width_in=width)
    y = top + 0.2
    line_in = 7 / 72.0 * 1.45
    for words in (hint, QUIET_ZONE_NOTE):
        # wrapped within the page's margins: a line longer than the paper was cut off at "a tag trimme"
        n = canvas.wrapped_lines(words, width_in=width, size_pt=7)
        canvas.text(left, y, words, size_pt=7, grey=60, width_in=width, lines=n)
        y += n * line_in - 0.01
    used = (y - top) + 0.09 + canvas.scale_bars(left, y + 0.09)
    return used + 0.1


def anchor_labels(layout: TableLayout) -> list[TagLabel]:
    """What to write under each anchor: where it goes on the table."""
    corners = {
        (False, False): "the origin corner",
        (True, False): "the +x corner",
        (True, True): "the far corner",
        (False, True): "the +y corner",
    }
    out = []
    for a in layout.anchors:
        near_x = a.x_in > layout.width_in / 2
        near_y = a.y_in > layout.depth_in / 2
        where = corners[(near_x, near_y)] if a.tag_id <= 3 else "extra anchor"
        out.append(
            TagLabel(
                a.tag_id,
                f"anchor at {where}",
                f"Centre at x = {a.x_in:g} in, y = {a.y_in:g} in from the origin corner; top edge toward {_facing(a.heading_deg)}. "
                "Fix it flat; a bumped anchor is noticed and ignored.",
            )
        )
    return out


def _facing(heading_deg: float) -> str:
    h = heading_deg % 360
    names = {0: "+x", 90: "+y (the far side)", 180: "-x", 270: "-y (the near side)"}
    for angle, name in names.items():
        if abs((h - angle + 180) % 360 - 180) < 1e-6:
            return name
    return f"heading {h:g} degrees"


def check_one_size(layout: TableLayout) -> float:
    sizes = {a.size_in for a in layout.anchors}
    if len(sizes) != 1:
        raise UsageError(
            f"the layout's anchors have different sizes ({', '.join(f'{s:g}' for s in sorted(sizes))} in); "
            "print each size separately with --ids and --size-in"
        )
    return sizes.pop()
