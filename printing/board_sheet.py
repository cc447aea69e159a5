"""The lens-calibration board as a PDF: the tag grid at exact size, centred on a landscape sheet."""
from __future__ import annotations

from pathlib import Path

from calibration.board import BoardSpec
from appmodel.errors import UsageError
from printing.pdf_canvas import PageSize, PdfCanvas
from printing.tag_sheets import PrintedTag, SheetSummary


def write_board_pdf(path: str | Path, board: BoardSpec = BoardSpec(), *, paper: str = "letter") -> SheetSummary:
    page = PageSize.named(paper, landscape=True)
    left, top, right, bottom = page.usable_in
    header = 0.95
    if board.width_in > right - left or board.height_in > bottom - top - header:
        raise UsageError(
            f"a {board.width_in:g} x {board.height_in:g} in board does not fit on {paper} paper; use fewer or smaller tags"
        )
    canvas = PdfCanvas(path, page, title="Sandtable Companion lens-calibration board")
    canvas.text(left, top, f"Lens-calibration board: {board.cols} x {board.rows} tags of {board.tag_size_in:g} in, "
                f"ids {board.tag_ids[0]}-{board.tag_ids[-1]} (tag36h11)", size_pt=10, bold=True)
    canvas.text(left, top + 0.2, "Glue it flat on stiff card. Take 10-20 sharp photos with the camera you will use, from "
                "different angles, the board filling different parts of the picture (corners too).", size_pt=7, grey=60)
    canvas.scale_bars(left, top + 0.45)
    x0 = (page.width_in - board.width_in) / 2
    y0 = top + header + (bottom - top - header - board.height_in) / 2
    placed = []
    for tag_id in board.tag_ids:
        cx, cy = board.tag_center_in(tag_id)
        tag_left = x0 + cx - board.tag_size_in / 2
        tag_top = y0 + (board.height_in - cy) - board.tag_size_in / 2  # board y points up the page
        canvas.tag(tag_id, tag_left, tag_top, board.tag_size_in)
        placed.append(PrintedTag(tag_id, 0, tag_left, tag_top, board.tag_size_in))
    canvas.finish()
    return SheetSummary(1, tuple(placed))
