"""The comms lane under the replay's slider: a mark at each signal (blue) and jamming (red) along the
recording's time, and in words the last one at or before the replay time -- who signalled whom, whose
radios the jamming cut (as the Marine Corps' AAIRS puts radio traffic on its debrief timeline).
Clicking a mark jumps there; hovering names it. The event list's filters (side, unit, kinds) filter
the lane the same way (:meth:`CommsLane.set_filters`, :func:`appmodel.recording.review.passes`): with
the Marines chosen, the lane holds the Marines' signals; with a unit, the signals it sent or that
reached it and the jamming that cut its radio."""
from __future__ import annotations

import bisect
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider, QToolTip, QWidget

from appmodel.recording.review import CommsLink, ReviewEvent, passes
from appmodel.session.game_log import clock_text

COLORS = {"signal": "#64b5f6", "command": "#81c784", "sigint": "#ffb74d", "jamming": "#ff6e6e"}
#: Pixels of the marks' strip; the words go beside it.
STRIP_PX = 14


class CommsLane(QWidget):
    """``replay``: a ReplayModel (its ``review`` events, ``comms`` and ``unit_name``); ``slider``: the
    timeline's, whose groove the marks line up with. ``jump`` is emitted with the time of a mark clicked."""

    jump = Signal(float)

    def __init__(self, replay: Any, slider: QSlider, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.replay = replay
        self.slider = slider
        self._events: list[ReviewEvent] = [e for e in replay.review if e.comms is not None]
        #: The links the filters let through, in time order (all of them until filtered).
        self.links: list[CommsLink] = []
        self._times: list[float] = []
        #: How the filters read, for the lane's words ("" with none).
        self.filtered_to = ""
        self.t_s = 0.0
        self.setMouseTracking(True)
        # Shown whenever the recording has comms, filtered out or not: the timeline keeps its layout.
        self.setMinimumHeight(STRIP_PX + 22 if self._events else 0)
        self.setVisible(bool(self._events))
        self.setToolTip("Comms: each signal (blue) and jamming (red); click a mark to go there")
        self.set_filters(kinds=None, side=None, unit_id=None)

    def set_filters(self, *, kinds: frozenset[str] | None, side: str | None, unit_id: int | None) -> None:
        """Keep the comms of the events the event list shows (its side, unit and kinds)."""
        self.links = [e.comms for e in self._events if e.comms is not None
                      and passes(e, kinds=kinds, side=side, unit_id=unit_id)]
        self._times = [c.t_s for c in self.links]
        self.filtered_to = " · ".join(w for w in (side or "", self.replay.unit_name(unit_id) if unit_id is not None else "") if w)
        if kinds is not None and len(self.links) < len(self._events) and not self.filtered_to:
            self.filtered_to = "the kinds the event list shows"
        self.update()

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
        if self._events:
            self.t_s = t_s
            self.update()

    def caption(self) -> str:
        """The lane's words: the last link at or before the replay time, or how many come later."""
        link = self.current()
        head = f"Comms ({self.filtered_to})" if self.filtered_to else "Comms"
        if link is not None:
            return f"{head}: {self.words(link)}"
        if not self.links:
            return f"{head}: no signal or jamming" + (" (the event list's filters hide the others)" if self._events else "")
        return f"{head}: {len(self.links)} signals and jamming later"

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
            text = self.caption()
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
