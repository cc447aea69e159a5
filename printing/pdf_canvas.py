"""A PDF page set in inches: QPdfWriter at 1200 dpi, tag drawing, scale bars and text.

Only this module talks to Qt's painter; the sheets (tag_sheets.py, board_sheet.py) place things in
inches from the top-left corner of the paper. It is the one module outside gui/ allowed to import Qt
(named in tests/test_layering.py): Qt is imported only inside the functions that draw, so printing/
still loads without Qt.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from calibration.tag_bitmaps import TAG_CELLS, tag_bitmap
from appmodel.errors import UsageError

DPI = 1200
PAPERS_IN = {"letter": (8.5, 11.0), "a4": (210 / 25.4, 297 / 25.4)}
#: Unprinted border every printer needs, inches.
PRINTER_MARGIN_IN = 0.4


def ensure_qt_app():
    """The process's Qt application (fonts need one); headless when there is no display (CI, SSH).

    A QApplication rather than a bare QGuiApplication, so that windows can still be opened later in
    the same process (Qt allows only one application object per process).
    """
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QApplication(["sandtable"])
    return app


@dataclass(frozen=True)
class PageSize:
    width_in: float
    height_in: float

    @classmethod
    def named(cls, paper: str, *, landscape: bool = False) -> "PageSize":
        if paper not in PAPERS_IN:
            raise UsageError(f"paper {paper!r}: use one of {', '.join(PAPERS_IN)}")
        w, h = PAPERS_IN[paper]
        return cls(h, w) if landscape else cls(w, h)

    @property
    def usable_in(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the printable area."""
        m = PRINTER_MARGIN_IN
        return m, m, self.width_in - m, self.height_in - m


class PdfCanvas:
    """Pages of one PDF, drawn in inches from the paper's top-left corner."""

    def __init__(self, path: str | Path, page: PageSize, *, title: str) -> None:
        ensure_qt_app()
        from PySide6.QtCore import QMarginsF, QSizeF
        from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

        out = Path(path)
        if out.parent and not out.parent.exists():
            raise UsageError(f"cannot write {str(out)!r}: folder {str(out.parent)!r} does not exist; create it first")
        if out.exists() and not out.is_file():
            raise UsageError(f"cannot write {str(out)!r}: it is not a file; give a .pdf file name")
        # Drawn into a new file next to the target and moved over it at the end: a target that cannot
        # really be written (/proc/version, a read-only folder) fails here, not silently after "wrote".
        self._final = out
        self._tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        try:
            os.close(os.open(self._tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except OSError as exc:
            raise UsageError(f"cannot write {str(out)!r} ({exc.strerror}); choose a writable folder") from None
        self.page = page
        self._writer = QPdfWriter(str(self._tmp))
        self._writer.setResolution(DPI)
        self._writer.setTitle(title)
        self._writer.setCreator("Sandtable Companion")
        size = QPageSize(QSizeF(page.width_in, page.height_in), QPageSize.Unit.Inch, "", QPageSize.SizeMatchPolicy.ExactMatch)
        layout = QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Inch)
        self._writer.setPageLayout(layout)
        self._painter = QPainter()
        if not self._painter.begin(self._writer):
            self._tmp.unlink(missing_ok=True)
            raise UsageError(f"cannot write {str(out)!r}; check that the folder is writable")
        self._painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self.pages = 1

    @staticmethod
    def d(inches: float) -> float:
        return inches * DPI

    def new_page(self) -> None:
        self._writer.newPage()
        self.pages += 1

    def finish(self) -> None:
        """End the PDF and put it in place; ``UsageError`` if it could not be written whole."""
        self._painter.end()
        try:
            if self._tmp.stat().st_size == 0:
                raise OSError(0, "nothing was written (disk full?)")
            os.replace(self._tmp, self._final)
        except OSError as exc:
            self._tmp.unlink(missing_ok=True)
            raise UsageError(f"cannot write {str(self._final)!r} ({exc.strerror}); choose a writable folder with free space") from None

    # ------------------------------------------------------------------ drawing
    def tag(self, tag_id: int, left_in: float, top_in: float, size_in: float) -> None:
        """Tag ``tag_id``'s black square with its top-left corner at (left, top), ``size_in`` across,
        upright (row 0 of the bitmap at the top: the tag's heading points up the page)."""
        from PySide6.QtCore import QRectF, Qt
        from PySide6.QtGui import QBrush, QColor, QPainterPath

        cell = self.d(size_in) / TAG_CELLS
        x0, y0 = self.d(left_in), self.d(top_in)
        bits = tag_bitmap(tag_id)
        path = QPainterPath()
        for r in range(TAG_CELLS):
            c = 0
            while c < TAG_CELLS:
                if bits[r, c]:
                    c += 1
                    continue
                start = c
                while c < TAG_CELLS and not bits[r, c]:
                    c += 1
                path.addRect(QRectF(x0 + start * cell, y0 + r * cell, (c - start) * cell, cell))
        # one filled outline, so that no viewer or printer shows seams between cells
        path = path.simplified()
        path.setFillRule(Qt.FillRule.WindingFill)
        self._painter.fillPath(path, QBrush(QColor(0, 0, 0)))

    def outline(self, left_in: float, top_in: float, width_in: float, height_in: float, *, grey: int = 170, dashed: bool = True) -> None:
        """A thin cutting line."""
        from PySide6.QtCore import QRectF, Qt
        from PySide6.QtGui import QColor, QPen

        pen = QPen(QColor(grey, grey, grey))
        pen.setWidthF(self.d(0.006))
        pen.setStyle(Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
        self._painter.setPen(pen)
        self._painter.setBrush(Qt.BrushStyle.NoBrush)
        self._painter.drawRect(QRectF(self.d(left_in), self.d(top_in), self.d(width_in), self.d(height_in)))

    def text(self, left_in: float, top_in: float, text: str, *, size_pt: float = 8.0, bold: bool = False,
             width_in: float | None = None, centre: bool = False, grey: int = 0, lines: int = 1) -> None:
        """Text whose box starts at (left, top); centred in ``width_in`` when asked, wrapped over up to
        ``lines`` lines."""
        from PySide6.QtCore import QRectF, Qt
        from PySide6.QtGui import QColor, QFont, QPen

        font = QFont("DejaVu Sans")
        font.setPointSizeF(size_pt)
        font.setBold(bold)
        self._painter.setFont(font)
        self._painter.setPen(QPen(QColor(grey, grey, grey)))
        w = self.d(width_in if width_in is not None else self.page.width_in - left_in)
        h = self.d(size_pt / 72.0 * 1.45 * lines + size_pt / 72.0 * 0.2)
        flags = (Qt.AlignmentFlag.AlignHCenter if centre else Qt.AlignmentFlag.AlignLeft) | Qt.AlignmentFlag.AlignTop
        if lines > 1:
            flags |= Qt.TextFlag.TextWordWrap
        self._painter.drawText(QRectF(self.d(left_in), self.d(top_in), w, h), int(flags), text)

    def wrapped_lines(self, text: str, *, width_in: float, size_pt: float = 8.0, bold: bool = False) -> int:
        """How many lines :meth:`text` needs to fit ``text`` in ``width_in`` wrapped at words (so a caller
        can give it the room, instead of letting a long line run off the paper)."""
        from PySide6.QtCore import QRectF, Qt
        from PySide6.QtGui import QFont, QFontMetricsF

        font = QFont("DejaVu Sans")
        font.setPointSizeF(size_pt)
        font.setBold(bold)
        # measured in the painter's device pixels, where drawText will lay it out
        metrics = QFontMetricsF(font, self._painter.device())
        box = metrics.boundingRect(QRectF(0, 0, self.d(width_in), 1e9), int(Qt.TextFlag.TextWordWrap), text)
        return max(1, int(round(box.height() / metrics.lineSpacing())))

    def fill(self, left_in: float, top_in: float, width_in: float, height_in: float, *, grey: int = 0) -> None:
        from PySide6.QtCore import QRectF
        from PySide6.QtGui import QColor

        self._painter.fillRect(QRectF(self.d(left_in), self.d(top_in), self.d(width_in), self.d(height_in)), QColor(grey, grey, grey))

    def scale_bars(self, left_in: float, top_in: float) -> float:
        """A 1-inch and a 25-mm bar with end ticks and captions; returns the height used (inches)."""
        bar_h = 0.06
        tick_h = 0.16
        x = left_in
        for length_in, label in ((1.0, "1 inch"), (25 / 25.4, "25 mm")):
            self.fill(x, top_in + (tick_h - bar_h) / 2, length_in, bar_h)
            self.fill(x, top_in, 0.01, tick_h)
            self.fill(x + length_in - 0.01, top_in, 0.01, tick_h)
            self.text(x, top_in + tick_h + 0.03, label, size_pt=7, width_in=length_in, centre=True)
            x += length_in + 0.5
        self.text(
            x, top_in - 0.02,
            "Print at 100% (\"actual size\", no \"fit to page\"). Each bar must measure exactly its length with a ruler;",
            size_pt=7, grey=60,
        )
        self.text(x, top_in + 0.12, "otherwise the tags are the wrong size and every distance will be off.", size_pt=7, grey=60)
        return tick_h + 0.2

    def image(self, left_in: float, top_in: float, width_in: float, height_in: float, png: bytes) -> None:
        """A PNG picture (a plot) scaled into the box; smoothed, since a plot is not an exact-size tag."""
        from PySide6.QtCore import QRectF
        from PySide6.QtGui import QImage, QPainter

        picture = QImage.fromData(png, "PNG")
        if picture.isNull():
            raise UsageError("a picture for the PDF could not be read as PNG; this is a bug, please report it")
        self._painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        self._painter.drawImage(QRectF(self.d(left_in), self.d(top_in), self.d(width_in), self.d(height_in)), picture)

    def svg(self, left_in: float, top_in: float, width_in: float, height_in: float, svg: str) -> None:
        """An SVG picture (a unit's military symbol) drawn as vectors into the box."""
        from PySide6.QtCore import QByteArray, QRectF
        from PySide6.QtSvg import QSvgRenderer

        renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
        if not renderer.isValid():
            raise UsageError("an SVG for the PDF could not be read; this is a bug, please report it")
        renderer.render(self._painter, QRectF(self.d(left_in), self.d(top_in), self.d(width_in), self.d(height_in)))

    def swatch(self, left_in: float, top_in: float, width_in: float, height_in: float, color: str) -> None:
        """A filled box in a named or #rrggbb colour (a side's or an outcome's key)."""
        from PySide6.QtCore import QRectF
        from PySide6.QtGui import QColor

        self._painter.fillRect(QRectF(self.d(left_in), self.d(top_in), self.d(width_in), self.d(height_in)), QColor(color))
