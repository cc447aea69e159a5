"""The replay timeline: scrub, play/pause, speed, jump to the next or previous event, bookmarks."""
from __future__ import annotations

from typing import Any

import bisect

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QSlider,
                               QVBoxLayout, QWidget)

from appmodel.session.game_log import clock_text

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
#: Slider steps per second of recording.
STEPS_PER_S = 10


class EventSlider(QSlider):
    """The timeline's slider with a mark under the groove at each event and bookmark (``marks``: 0-1)."""

    MARK_COLOR = "#ffb74d"

    def __init__(self, orientation: Qt.Orientation) -> None:
        super().__init__(orientation)
        self.marks: tuple[float, ...] = ()
        self.setMinimumHeight(30)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self.marks:
            return
        from PySide6.QtWidgets import QStyle, QStyleOptionSlider

        option = QStyleOptionSlider()
        self.initStyleOption(option)
        groove = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                             QStyle.SubControl.SC_SliderGroove, self)
        handle = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                             QStyle.SubControl.SC_SliderHandle, self)
        left = groove.left() + handle.width() / 2
        span = max(1.0, groove.width() - handle.width())
        p = QPainter(self)
        try:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(self.MARK_COLOR))
            for f in self.marks:
                x = int(round(left + f * span))
                p.drawRect(QRect(x - 1, self.height() - 7, 3, 7))
        finally:
            p.end()


class TimelinePanel(QWidget):
    """Drives a :class:`appmodel.replay_model.ReplayModel`; ``on_frame(frame_bgr)`` gets the recorded video."""

    def __init__(self, replay: Any, *, on_frame: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.replay = replay
        self.on_frame = on_frame
        #: Called with the new time after every seek (the recorded attack panel follows it).
        self.on_seek: list[Any] = []
        self.slider = EventSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, max(1, int(replay.duration_s * STEPS_PER_S)))
        self.time_label = QLabel()
        self.play_button = QPushButton("Play (Space)")
        self.prev_button = QPushButton("◀ Event (,)")
        self.next_button = QPushButton("Event ▶ (.)")
        self.engagement_button = QPushButton("Engagement ▶ (>)")
        self.engagement_button.setToolTip("The next attack the rules resolved, past the tracker's events (Shift+.)")
        self.speed = QComboBox()
        for s in SPEEDS:
            self.speed.addItem(f"{s:g}x", s)
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.moments = QListWidget()
        for m in replay.moments:
            item = QListWidgetItem(f"{clock_text(m.t_s)}  {m.text}")
            item.setData(Qt.ItemDataRole.UserRole, m.t_s)
            self.moments.addItem(item)
        for b in replay.bookmarks:
            item = QListWidgetItem(f"{clock_text(b.t_s)}  ★ {b.note}")
            item.setData(Qt.ItemDataRole.UserRole, b.t_s)
            self.moments.addItem(item)
        self.moments.sortItems()
        self._item_times = [float(self.moments.item(i).data(Qt.ItemDataRole.UserRole)) for i in range(self.moments.count())]
        duration = max(1e-9, replay.duration_s)
        self.slider.marks = tuple(sorted({min(1.0, max(0.0, t / duration)) for t in self._item_times}))
        self.slider.setToolTip(f"{len(self._item_times)} events and bookmarks, marked under the slider")
        row = QHBoxLayout()
        for w in (self.prev_button, self.play_button, self.next_button, self.engagement_button, self.speed,
                  self.time_label):
            row.addWidget(w)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.slider)
        layout.addLayout(row)
        layout.addWidget(self.moments)
        self.timer = QTimer(self)
        self.timer.setInterval(50)
        self.timer.timeout.connect(self._tick)
        self.slider.valueChanged.connect(lambda v: self.seek(v / STEPS_PER_S, from_slider=True))
        self.play_button.clicked.connect(self.toggle_play)
        self.next_button.clicked.connect(self.next_event)
        self.engagement_button.clicked.connect(self.next_engagement)
        self.prev_button.clicked.connect(self.previous_event)
        self.moments.itemActivated.connect(lambda item: self.seek(float(item.data(Qt.ItemDataRole.UserRole))))
        self.moments.itemClicked.connect(lambda item: self.seek(float(item.data(Qt.ItemDataRole.UserRole))))
        self.seek(0.0)

    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def seek(self, t_s: float, *, from_slider: bool = False) -> None:
        self.replay.seek(t_s)
        if not from_slider:
            self.slider.blockSignals(True)
            self.slider.setValue(int(round(self.replay.t_s * STEPS_PER_S)))
            self.slider.blockSignals(False)
        self.time_label.setText(f"{clock_text(self.replay.t_s)} / {clock_text(self.replay.duration_s)}")
        self._follow_in_list(self.replay.t_s)
        if self.on_frame is not None:
            self.on_frame(self.replay.frame_at(self.replay.t_s))
        for callback in self.on_seek:
            callback(self.replay.t_s)

    def _follow_in_list(self, t_s: float) -> None:
        """The list's current row is the last event at or before ``t_s`` (scrolled into view), so the list
        follows playback; before the first event, none."""
        i = bisect.bisect_right(self._item_times, t_s + 1e-9) - 1
        if i < 0:
            self.moments.setCurrentRow(-1)
            return
        if self.moments.currentRow() != i:
            self.moments.blockSignals(True)
            self.moments.setCurrentRow(i)
            self.moments.blockSignals(False)
            self.moments.scrollToItem(self.moments.item(i))

    def toggle_play(self) -> None:
        if self.playing:
            self.timer.stop()
            self.play_button.setText("Play (Space)")
        else:
            if self.replay.t_s >= self.replay.duration_s:
                self.seek(0.0)
            self.timer.start()
            self.play_button.setText("Pause (Space)")

    def _tick(self) -> None:
        t = self.replay.t_s + self.timer.interval() / 1000.0 * float(self.speed.currentData())
        self.seek(t)
        if t >= self.replay.duration_s:
            self.toggle_play()

    def next_event(self) -> None:
        m = self.replay.next_moment_after(self.replay.t_s)
        if m is not None:
            self.seek(m.t_s)

    def next_engagement(self) -> None:
        """To the next attack the rules resolved, past the tracker's events in between."""
        t = self.replay.next_engagement_after(self.replay.t_s)
        if t is not None:
            self.seek(t)

    def previous_engagement(self) -> None:
        t = self.replay.previous_engagement_before(self.replay.t_s)
        if t is not None:
            self.seek(t)

    def previous_event(self) -> None:
        m = self.replay.previous_moment_before(self.replay.t_s)
        if m is not None:
            self.seek(m.t_s)
