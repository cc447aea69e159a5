"""The comms lane under the replay's slider: a mark at each signal (blue) and jamming (red) along the
recording's time, and in words the last one at or before the replay time -- who signalled whom, whose
radios the jamming cut (as the Marine Corps' AAIRS puts radio traffic on its debrief timeline).
Clicking a mark jumps there; hovering names it."""
from __future__ import annotations

import bisect
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider, QToolTip, QWidget

from appmodel.recording.review import CommsLink
from appmodel.session.game_log import clock_text

COLORS = {"signal": "#64b5f6", "command": "#81c784", "sigint": "#ffb74d", "jamming": "#ff6e6e"}
#: Pixels of the marks' strip; the words go beside it.
STRIP_PX = 14


class CommsLane(QWidget):
    """``replay``: a ReplayModel (its ``comms`` and ``unit_name``); ``slider``: the timeline's, whose groove
    the marks line up with. ``jump`` is emitted with the time of a mark clicked."""

    jump = Signal(float)

    def __init__(self, replay: Any, slider: QSlider, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.replay = replay
        self.slider = slider
        self.links: list[CommsLink] = list(replay.comms)
        self._times = [c.t_s for c in self.links]
        self.t_s = 0.0
        self.setMouseTracking(True)
        self.setMinimumHeight(STRIP_PX + 22 if self.links else 0)
        self.setVisible(bool(self.links))
        self.setToolTip("Comms: each signal (blue) and jamming (red); click a mark to go there")

    def words(self, link: CommsLink) -> str:
        """"0:39 Sergeant → Mortar gunner, Corpsman" for a signal; "... jams: X, Y cut" for jamming."""
        who = self.replay.unit_name(link.from_id) if link.from_id is not None else "?"
        names = ", ".join(self.replay.unit_name(u) for u in link.to_ids)
        if link.kind == "jamming":
            return f"{clock_text(link.t_s)}  {who} jams: " + (f"{names} cut off the radio" if names else "no radio cut")
        return f"{clock_text(link.t_s)}  {who} → " + (names or "nobody in reach")

    def current(self) -> CommsLink | None:
        """The last signal or jamming at or before the replay time."""
        i = bisect.bisect_right(self._times, self.t_s + 1e-9) - 1
        return self.links[i] if i >= 0 else None

    def set_time(self, t_s: float) -> None:
        if self.links:
            self.t_s = t_s
            self.update()

    def _span(self) -> tuple[float, float]:
        """(left px, width px) of the slider's groove, in this widget's coordinates."""
        option = QStyleOptionSlider()
        self.slider.initStyleOption(option)
        style = self.slider.style()
        groove = style.subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderGroove, self.slider)
        handle = style.subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, self.slider)
        offset = self.slider.mapTo(self.window(), self.slider.rect().topLeft()).x() - self.mapTo(self.window(), self.rect().topLeft()).x()
        return offset + groove.left() + handle.width() / 2, max(1.0, groove.width() - handle.width())

    def _x(self, t_s: float) -> float:
        left, span = self._span()
        return left + span * min(1.0, max(0.0, t_s / max(1e-9, self.replay.duration_s)))

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.fillRect(QRectF(0, 0, self.width(), STRIP_PX), QColor("#1d2127"))
            for link in self.links:
                x = self._x(link.t_s)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor(COLORS.get(link.kind, "#cccccc")))
                if link.kind == "jamming":
                    p.drawRect(QRectF(x - 2, 1, 4, STRIP_PX - 2))
                else:
                    p.drawEllipse(QPointF(x, STRIP_PX / 2), 4, 4)
            x = self._x(self.t_s)
            p.setPen(QPen(QColor("#ffe14d"), 1))
            p.drawLine(QPointF(x, 0), QPointF(x, STRIP_PX))
            link = self.current()
            font = QFont(self.font())
            font.setPixelSize(13)
            p.setFont(font)
            p.setPen(QColor(COLORS.get(link.kind, "#dddddd")) if link else QColor("#9aa0a6"))
            text = ("Comms: " + self.words(link)) if link else f"Comms: {len(self.links)} signals and jamming later"
            rect = QRectF(4, STRIP_PX + 2, self.width() - 8, self.height() - STRIP_PX - 2)
            p.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                       p.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, int(rect.width())))
        finally:
            p.end()

    def _near(self, x: float) -> CommsLink | None:
        best = min(self.links, key=lambda c: abs(self._x(c.t_s) - x), default=None)
        return best if best is not None and abs(self._x(best.t_s) - x) <= 6 else None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        link = self._near(event.position().x())
        if link is not None:
            QToolTip.showText(event.globalPosition().toPoint(), self.words(link) + "\n" + link.text, self)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        link = self._near(event.position().x())
        if link is not None:
            self.jump.emit(link.t_s)
