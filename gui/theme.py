"""The window's dark theme, readable by the WCAG AA measure: every text colour at least 4.5:1 against
the backgrounds it is drawn on, and the tick boxes and radio buttons drawn with a light edge (at least
3:1, WCAG's figure for controls) instead of Fusion's dark grey outline on a dark base, which hid them.

The colours are data here so that a test computes the ratios from them (tests/gui/test_readable_theme.py)."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleFactory

#: The application palette (role name -> colour) for the active and inactive states.
PALETTE = {
    "Window": "#23262b", "WindowText": "#e8e8e8", "Base": "#1b1d21", "AlternateBase": "#2a2d33",
    "Text": "#e8e8e8", "Button": "#30343a", "ButtonText": "#e8e8e8", "Highlight": "#3d6fb6",
    "HighlightedText": "#ffffff", "ToolTipBase": "#30343a", "ToolTipText": "#e8e8e8",
    "PlaceholderText": "#a0a0a0", "Link": "#8ab4f8", "LinkVisited": "#c58af9", "BrightText": "#ffffff",
}
#: Disabled controls (WCAG exempts them, but they should still be legible).
DISABLED = {"WindowText": "#8f9297", "Text": "#8f9297", "ButtonText": "#8f9297"}

#: Text colours the panels use on the window's backgrounds, by meaning.
TEXT_COLORS = {
    "error": "#ff6b6b", "warning": "#ffcc66", "muted": "#b0b0b0", "dim": "#a0a0a0", "good": "#7be3a0",
    "odds": "#ffe14d", "refused": "#ff9e80",
}
#: Backgrounds those texts appear on.
BACKGROUNDS = ("Window", "Base", "AlternateBase", "Button")

#: The tick box's and radio button's edge, and its fill when checked.
INDICATOR_EDGE = "#c8ccd2"
INDICATOR_EDGE_DISABLED = "#7a7e84"
INDICATOR_CHECK = "#ffffff"


def relative_luminance(color: str) -> float:
    """WCAG 2.x relative luminance of "#rrggbb"."""
    h = color.lstrip("#")
    channels = [int(h[i:i + 2], 16) / 255.0 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(a: str, b: str) -> float:
    """WCAG contrast ratio between two colours (1 to 21).

    >>> round(contrast_ratio("#ffffff", "#000000"), 1), round(contrast_ratio("#777777", "#777777"), 1)
    (21.0, 1.0)
    """
    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def palette() -> QPalette:
    pal = QPalette()
    for role, color in PALETTE.items():
        pal.setColor(getattr(QPalette.ColorRole, role), QColor(color))
    for role, color in DISABLED.items():
        pal.setColor(QPalette.ColorGroup.Disabled, getattr(QPalette.ColorRole, role), QColor(color))
    return pal


class ReadableStyle(QProxyStyle):
    """Fusion, with tick boxes (in dialogs and in table rows) and radio buttons that stand out."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(self, element: Any, option: Any, painter: QPainter, widget: Any = None) -> None:
        check = element in (QStyle.PrimitiveElement.PE_IndicatorCheckBox,
                            QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck)
        radio = element == QStyle.PrimitiveElement.PE_IndicatorRadioButton
        if not (check or radio):
            super().drawPrimitive(element, option, painter, widget)
            return
        state = option.state
        enabled = bool(state & QStyle.StateFlag.State_Enabled)
        on = bool(state & QStyle.StateFlag.State_On)
        partly = bool(state & QStyle.StateFlag.State_NoChange)
        side = min(option.rect.width(), option.rect.height()) - 2
        box = QRectF(option.rect.x() + (option.rect.width() - side) / 2, option.rect.y() + (option.rect.height() - side) / 2,
                     side, side)
        painter.save()
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            edge = QColor(INDICATOR_EDGE if enabled else INDICATOR_EDGE_DISABLED)
            painter.setPen(QPen(edge, 1.6))
            filled = (on or partly) and enabled
            painter.setBrush(QColor(PALETTE["Highlight"] if filled else PALETTE["Base"]))
            inner = box.adjusted(0.8, 0.8, -0.8, -0.8)
            if radio:
                painter.drawEllipse(inner)
                if on:
                    painter.setPen(Qt.PenStyle.NoPen)
                    painter.setBrush(QColor(INDICATOR_CHECK if enabled else INDICATOR_EDGE_DISABLED))
                    painter.drawEllipse(inner.center(), side * 0.2, side * 0.2)
                return
            painter.drawRoundedRect(inner, 2.5, 2.5)
            mark = QPen(QColor(INDICATOR_CHECK if enabled else INDICATOR_EDGE_DISABLED), max(1.6, side * 0.14))
            mark.setCapStyle(Qt.PenCapStyle.RoundCap)
            mark.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(mark)
            x, y, s = inner.x(), inner.y(), inner.width()
            if on:
                painter.drawPolyline([QPointF(x + 0.22 * s, y + 0.52 * s), QPointF(x + 0.42 * s, y + 0.72 * s),
                                      QPointF(x + 0.78 * s, y + 0.3 * s)])
            elif partly:
                painter.drawLine(QPointF(x + 0.25 * s, y + 0.5 * s), QPointF(x + 0.75 * s, y + 0.5 * s))
        finally:
            painter.restore()


def apply_theme(app: Any) -> None:
    """The readable style and the dark palette on ``app`` (a QApplication)."""
    app.setStyle(ReadableStyle())
    app.setPalette(palette())


__all__ = ["BACKGROUNDS", "PALETTE", "ReadableStyle", "TEXT_COLORS", "apply_theme", "contrast_ratio", "palette"]
