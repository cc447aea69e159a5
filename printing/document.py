"""A printed report that flows over pages: headings, paragraphs, pictures and tables, drawn with the
project's one PDF writer (:mod:`printing.pdf_canvas`).

The blocks are plain values; :func:`write_document` places them top to bottom, starts a new page when
the next one does not fit (a table breaks between rows and repeats its header), wraps every cell at
words so nothing runs off the paper, and puts the document's title and the page number in the footer.
It knows nothing of what the document is about (the debrief's take-home pack composes the blocks:
``cli/debrief_pack.py``), so printing/ stays below the front ends it serves.
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from appmodel.errors import UsageError
from printing.pdf_canvas import PageSize, PdfCanvas

LINE = 1.45  # line height as a multiple of the font size (what PdfCanvas.text lays out)
FOOTER_IN = 0.3


@dataclass(frozen=True)
class Heading:
    text: str
    #: Start on a new page (a chapter of the pack), unless the page is still empty.
    new_page: bool = False


@dataclass(frozen=True)
class Paragraph:
    text: str
    size_pt: float = 9.0
    grey: int = 0


@dataclass(frozen=True)
class SvgMark:
    """An SVG drawn over a picture (a unit's military symbol on the map): ``box`` is its left, top,
    width and height as fractions of the picture's."""

    svg: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class Picture:
    """A PNG, as wide as the text (or ``max_width_in``), as high as its proportions make it, never
    higher than a page; ``marks`` drawn over it as vectors."""

    png: bytes
    max_width_in: float | None = None
    marks: tuple[SvgMark, ...] = ()


@dataclass(frozen=True)
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    #: Relative column widths (one per header).
    widths: tuple[float, ...]
    #: A colour key per row (#rrggbb, drawn as a bar left of the row; "" for none): an outcome, a side.
    keys: tuple[str, ...] = ()
    size_pt: float = 7.5


Block = Heading | Paragraph | Picture | Table


@dataclass(frozen=True)
class DocumentSummary:
    pages: int


def png_size_px(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's header (no image library needed to plan the page).

    >>> png_size_px(bytes.fromhex("89504e470d0a1a0a0000000d49484452") + struct.pack(">II", 640, 480))
    (640, 480)
    """
    if png[:8] != b"\x89PNG\r\n\x1a\n" or len(png) < 24:
        raise UsageError("a picture for the PDF is not a PNG; this is a bug, please report it")
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def write_document(path: str | Path, blocks: Sequence[Block], *, title: str, paper: str = "letter",
                   progress: Callable[[int, int], None] | None = None) -> DocumentSummary:
    """Write ``blocks`` as a PDF at ``path`` (whole or not at all); ``progress(done, total)`` per block."""
    page = PageSize.named(paper)
    canvas = PdfCanvas(path, page, title=title)
    try:
        _Flow(canvas, title).place(blocks, progress or (lambda done, total: None))
    finally:
        canvas.finish()
    return DocumentSummary(canvas.pages)


class _Flow:
    def __init__(self, canvas: PdfCanvas, title: str) -> None:
        self.canvas = canvas
        self.title = title
        self.left, self.top, self.right, bottom = canvas.page.usable_in
        self.bottom = bottom - FOOTER_IN
        self.width = self.right - self.left
        self.y = self.top
        self._footer()

    # ---------------------------------------------------------------- page handling
    def _footer(self) -> None:
        c = self.canvas
        c.fill(self.left, self.bottom + 0.08, self.width, 0.005, grey=160)
        c.text(self.left, self.bottom + 0.12, self.title, size_pt=7, grey=90, width_in=self.width * 0.8)
        c.text(self.right - 0.8, self.bottom + 0.12, f"page {c.pages}", size_pt=7, grey=90, width_in=0.8, centre=True)

    def _new_page(self) -> None:
        self.canvas.new_page()
        self.y = self.top
        self._footer()

    def _room(self, height_in: float) -> None:
        """Start a new page unless ``height_in`` fits below (a block taller than a page gets a page of its own)."""
        if self.y + height_in > self.bottom and self.y > self.top + 1e-6:
            self._new_page()

    # ---------------------------------------------------------------- blocks
    def place(self, blocks: Sequence[Block], progress: Callable[[int, int], None]) -> None:
        for i, block in enumerate(blocks):
            if isinstance(block, Heading):
                following = blocks[i + 1] if i + 1 < len(blocks) else None
                # a heading stays with a picture that follows it, or with a few lines of anything else
                self._heading(block, self._picture_size(following)[1] + 0.12 if isinstance(following, Picture) else 0.8)
            elif isinstance(block, Paragraph):
                self._paragraph(block)
            elif isinstance(block, Picture):
                self._picture(block)
            else:
                self._table(block)
            progress(i + 1, len(blocks))

    def _heading(self, h: Heading, keep_in: float) -> None:
        if h.new_page and self.y > self.top + 1e-6:
            self._new_page()
        size = 13.0
        lines = self.canvas.wrapped_lines(h.text, width_in=self.width, size_pt=size, bold=True)
        self._room(lines * size * LINE / 72 + 0.14 + keep_in)
        if self.y > self.top + 1e-6:
            self.y += 0.08
        self.canvas.text(self.left, self.y, h.text, size_pt=size, bold=True, width_in=self.width, lines=lines)
        self.y += lines * size * LINE / 72 + 0.06

    def _paragraph(self, p: Paragraph) -> None:
        lines = self.canvas.wrapped_lines(p.text, width_in=self.width, size_pt=p.size_pt)
        height = lines * p.size_pt * LINE / 72
        self._room(height)
        self.canvas.text(self.left, self.y, p.text, size_pt=p.size_pt, width_in=self.width, lines=lines, grey=p.grey)
        self.y += height + 0.08

    def _picture_size(self, p: Picture) -> tuple[float, float]:
        """(width, height) in inches the picture will take: the text's width, never taller than a page."""
        w_px, h_px = png_size_px(p.png)
        width = min(self.width, p.max_width_in or self.width)
        height = width * h_px / w_px
        most = self.bottom - self.top - 0.6  # room left for a heading above it
        if height > most:  # taller than a page: shrink to fit, keeping its proportions
            width, height = width * most / height, most
        return width, height

    def _picture(self, p: Picture) -> None:
        width, height = self._picture_size(p)
        self._room(height)
        left = self.left + (self.width - width) / 2
        self.canvas.image(left, self.y, width, height, p.png)
        for mark in p.marks:
            x, y, w, h = mark.box
            self.canvas.svg(left + x * width, self.y + y * height, w * width, h * height, mark.svg)
        self.y += height + 0.12

    def _table(self, t: Table) -> None:
        total = sum(t.widths)
        widths = [self.width * w / total for w in t.widths]
        pad = 0.04
        line = t.size_pt * LINE / 72

        def height_of(cells: Sequence[str], bold: bool) -> tuple[float, int]:
            lines = max(self.canvas.wrapped_lines(text or " ", width_in=w - 2 * pad, size_pt=t.size_pt, bold=bold)
                        for text, w in zip(cells, widths))
            return lines * line + 2 * pad, lines

        def draw_row(cells: Sequence[str], bold: bool, shade: int | None, key: str) -> None:
            height, lines = height_of(cells, bold)
            if shade is not None:
                self.canvas.fill(self.left, self.y, self.width, height, grey=shade)
            if key:
                self.canvas.swatch(self.left, self.y, 0.05, height, key)
            x = self.left
            for text, w in zip(cells, widths):
                self.canvas.text(x + pad + (0.03 if x == self.left else 0), self.y + pad, text, size_pt=t.size_pt,
                                 bold=bold, width_in=w - 2 * pad, lines=lines)
                x += w
            self.y += height

        header_h, _ = height_of(t.headers, True)
        first_h = height_of(t.rows[0], False)[0] if t.rows else 0.0
        self._room(header_h + first_h)
        draw_row(t.headers, True, 225, "")
        for i, row in enumerate(t.rows):
            height, _ = height_of(row, False)
            if self.y + height > self.bottom:
                self._new_page()
                draw_row(t.headers, True, 225, "")
            draw_row(row, False, 245 if i % 2 else None, t.keys[i] if i < len(t.keys) else "")
        self.y += 0.15
