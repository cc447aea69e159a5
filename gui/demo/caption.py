"""The caption band under the demo video: which step of the rulebook is playing, its words, what the rules said.

Drawn with Qt (the compositor's fonts, offscreen) into a band the width of the video; the band is
cached and drawn again only when its text changes (a few times per step), so it costs nothing on most
frames.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gui.compositor import bgr_from_qimage, ensure_qt_app

BAND_BG = "#15171b"
TITLE = "#f2f2f2"
TEXT = "#c9ccd1"
RULES = "#ffd24a"
STATUS = "#8fa3bf"


@dataclass(frozen=True)
class CaptionText:
    """What the band shows: ``heading`` (section and title), ``status`` (round, turn, time), the
    rulebook's ``text`` and the latest ``rules`` sentences."""

    heading: str
    status: str
    text: str
    rules: tuple[str, ...] = ()


class CaptionBand:
    """Renders :class:`CaptionText` into a BGR band of ``width_px`` x ``height_px`` (mutable: caches)."""

    def __init__(self, width_px: int, height_px: int) -> None:
        self.size = (int(width_px), int(height_px))
        self._key: CaptionText | None = None
        self._band: np.ndarray | None = None

    def render(self, caption: CaptionText) -> np.ndarray:
        if caption != self._key or self._band is None:
            self._band = _draw(caption, self.size)
            self._key = caption
        return self._band


def _draw(caption: CaptionText, size: tuple[int, int]) -> np.ndarray:
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    ensure_qt_app()
    w, h = size
    image = QImage(w, h, QImage.Format.Format_RGB32)
    image.fill(QColor(BAND_BG))
    p = QPainter(image)
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        scale = h / 128.0
        margin = 14 * scale
        title_font = QFont("DejaVu Sans")
        title_font.setPixelSize(max(10, round(21 * scale)))
        title_font.setBold(True)
        body_font = QFont("DejaVu Sans")
        body_font.setPixelSize(max(9, round(15 * scale)))
        p.setFont(title_font)
        p.setPen(QColor(TITLE))
        line_h = p.fontMetrics().height()
        p.drawText(QRectF(margin, margin * 0.6, w * 0.62, line_h), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                   caption.heading)
        p.setFont(body_font)
        p.setPen(QColor(STATUS))
        p.drawText(QRectF(w * 0.5, margin * 0.6, w * 0.5 - margin, line_h),
                   int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), caption.status)
        metrics = p.fontMetrics()
        body_h = metrics.height()
        top = margin * 0.6 + line_h + 2 * scale
        rules_lines = [r for r in caption.rules if r][-2:]
        text_lines = max(1, int((h - top - margin * 0.5) / body_h) - len(rules_lines))
        p.setPen(QColor(TEXT))
        for line in _wrap(caption.text, metrics, w - 2 * margin, text_lines):
            p.drawText(QRectF(margin, top, w - 2 * margin, body_h), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), line)
            top += body_h
        p.setPen(QColor(RULES))
        for line in rules_lines:
            text = metrics.elidedText(line, Qt.TextElideMode.ElideRight, int(w - 2 * margin))
            p.drawText(QRectF(margin, top, w - 2 * margin, body_h), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)
            top += body_h
    finally:
        p.end()
    return bgr_from_qimage(image)


def _wrap(text: str, metrics: object, width_px: float, max_lines: int) -> list[str]:
    """Greedy word wrap to ``width_px``; the last line is elided when the text does not fit."""
    from PySide6.QtCore import Qt

    words = text.split()
    lines: list[str] = []
    current = ""
    for word in words:
        trial = f"{current} {word}".strip()
        if metrics.horizontalAdvance(trial) <= width_px or not current:  # type: ignore[attr-defined]  # metrics is typed object to keep Qt out of the signature (a QFontMetrics)
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        rest = " ".join(lines[max_lines - 1:])
        lines = lines[: max_lines - 1] + [metrics.elidedText(rest, Qt.TextElideMode.ElideRight, int(width_px))]  # type: ignore[attr-defined]  # metrics is typed object to keep Qt out of the signature (a QFontMetrics)
    return lines


__all__ = ["CaptionBand", "CaptionText"]
