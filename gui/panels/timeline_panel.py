"""The replay timeline as a simulator's after-action review: scrub, play at up to 64x, pause by itself
at each event of the kinds chosen (hits and kills unless told otherwise), jump to the next event or
engagement that passes the event list's filters, and the comms lane under the slider (who signalled
whom, what jamming cut, when).

Playback advances the replay by the time its clock says passed since the last tick, times the speed
(``clock`` is injectable: the tests drive a fake one). A tick does the same work at 64x as at 1x: one
seek (the state, the units' last poses and the log at that time, each found by bisection or the
recording's index) and a bisection for the events the tick crossed; the video is decoded elsewhere.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QMenu, QPushButton, QSlider, QToolButton,
                               QVBoxLayout, QWidget)

from appmodel.recording.review import DEFAULT_PAUSE_KINDS, REVIEW_KINDS, TOPIC_MOMENTS, ReviewEvent
from appmodel.session.game_log import clock_text
from gui.panels.comms_lane import CommsLane

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
#: Slider steps per second of recording.
STEPS_PER_S = 10
#: Playback's tick (ms): 20 updates a second at any speed.
TICK_MS = 50
#: A tick never advances by more than this much wall time (times the speed): after a stall of the
#: machine, playback goes on from where it was rather than leaping past what it should have shown.
MAX_TICK_S = 0.25
#: The kinds "next engagement" stops at.
ENGAGEMENT_KINDS = frozenset({"kill", "hit", "attack"})


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
    """Drives a :class:`appmodel.replay_model.ReplayModel`.

    ``on_seek`` callbacks get the new time after every seek; ``on_paused_at`` callbacks the event
    playback stopped at by itself (the window shows its result card). The event list's filters
    (``set_filters``) also choose what "." and "next engagement" stop at and what playback pauses at.
    """

    def __init__(self, replay: Any, *, clock: Callable[[], float] = time.monotonic, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.replay = replay
        self.clock = clock
        self.on_seek: list[Callable[[float], None]] = []
        self.on_paused_at: list[Callable[[ReviewEvent], None]] = []
        #: The event list's filters: kinds shown (None: all), the acting side and a unit (None: any).
        self.kinds: frozenset[str] | None = None
        self.side: str | None = None
        self.unit_id: int | None = None
        present = {e.kind for e in replay.review}
        self.pause_kinds: set[str] = set(DEFAULT_PAUSE_KINDS & present) or set(DEFAULT_PAUSE_KINDS)
        self.slider = EventSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, max(1, int(replay.duration_s * STEPS_PER_S)))
        self.lane = CommsLane(replay, self.slider)
        self.lane.jump.connect(lambda t: self.seek(float(t)))
        self.time_label = QLabel()
        self.play_button = QPushButton("Play (Space)")
        self.prev_button = QPushButton("◀ Event (,)")
        self.next_button = QPushButton("Event ▶ (.)")
        self.next_button.setToolTip("The next event the event list shows (its filters choose)")
        self.engagement_button = QPushButton("Engagement ▶ (>)")
        self.engagement_button.setToolTip("The next attack the rules resolved, past the tracker's events (Shift+.)")
        self.speed = QComboBox()
        for s in SPEEDS:
            self.speed.addItem(f"{s:g}x", s)
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.speed.setToolTip("Playback speed (Ctrl+] faster, Ctrl+[ slower)")
        self.pause_button = QToolButton()
        self.pause_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.pause_menu = QMenu(self.pause_button)
        self.pause_actions: dict[str, QAction] = {}
        if any(e.topics for e in replay.review):
            present.add(TOPIC_MOMENTS.name)
        for kind in (*REVIEW_KINDS, TOPIC_MOMENTS):
            if kind.name not in present or kind.name == "tracker":
                continue
            action = self.pause_menu.addAction(kind.label)
            action.setCheckable(True)
            action.setChecked(kind.name in self.pause_kinds)
            action.toggled.connect(lambda on, k=kind.name: self.set_pause_kind(k, on))
            self.pause_actions[kind.name] = action
        self.pause_button.setMenu(self.pause_menu)
        self.pause_button.setStyleSheet("QToolButton { padding-right: 16px; }")  # the menu's arrow clipped the text
        self.pause_button.setToolTip("Playback stops by itself at each event of these kinds and shows its card")
        self.next_paused_button = QPushButton("Next stop ▶ (Ctrl+.)")
        self.next_paused_button.setToolTip("The next event of the kinds playback pauses at")
        self._label_pause_button()
        self.paused_at: ReviewEvent | None = None
        row = QHBoxLayout()
        for w in (self.prev_button, self.play_button, self.next_button, self.engagement_button, self.next_paused_button,
                  self.speed, self.pause_button, self.time_label):
            row.addWidget(w)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)
        layout.addWidget(self.slider)
        layout.addWidget(self.lane)
        layout.addLayout(row)
        layout.addStretch(1)
        self._update_marks()
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self._last_tick = 0.0
        self.slider.valueChanged.connect(lambda v: self.seek(v / STEPS_PER_S, from_slider=True))
        self.play_button.clicked.connect(self.toggle_play)
        self.next_button.clicked.connect(self.next_event)
        self.engagement_button.clicked.connect(self.next_engagement)
        self.next_paused_button.clicked.connect(self.next_stop)
        self.prev_button.clicked.connect(self.previous_event)
        self.seek(0.0)

    # -- filters ------------------------------------------------------------------------------------
    def _filters(self, kinds: frozenset[str] | set[str] | None = None) -> dict[str, Any]:
        # Pausing and "next engagement" have their own kinds; the list's side and unit apply to every jump.
        return {"kinds": self.kinds if kinds is None else frozenset(kinds), "side": self.side, "unit_id": self.unit_id}

    def set_filters(self, *, kinds: frozenset[str] | None, side: str | None, unit_id: int | None) -> None:
        self.kinds, self.side, self.unit_id = kinds, side, unit_id
        self.lane.set_filters(kinds=kinds, side=side, unit_id=unit_id)
        self._update_marks()

    def set_pause_kind(self, kind: str, on: bool) -> None:
        (self.pause_kinds.add if on else self.pause_kinds.discard)(kind)
        action = self.pause_actions.get(kind)
        if action is not None and action.isChecked() != on:
            action.setChecked(on)
        self._label_pause_button()

    def _label_pause_button(self) -> None:
        names = [a.text() for k, a in self.pause_actions.items() if k in self.pause_kinds]
        self.pause_button.setText("Pause at: " + (", ".join(names) if len(names) <= 2 else f"{len(names)} kinds")
                                  if names else "Pause at: nothing")

    def _update_marks(self) -> None:
        duration = max(1e-9, self.replay.duration_s)
        shown = [e.t_s for e in self.replay.review if e.kind != "tracker" and self._passes(e)]
        self.slider.marks = tuple(sorted({min(1.0, max(0.0, t / duration)) for t in shown}))
        self.slider.setToolTip(f"{len(shown)} events and bookmarks, marked under the slider")
        self.slider.update()

    def _passes(self, e: ReviewEvent) -> bool:
        from appmodel.recording.review import passes

        return passes(e, **self._filters())

    # -- playing ------------------------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    @property
    def speed_x(self) -> float:
        return float(self.speed.currentData())

    def set_speed(self, speed_x: float) -> None:
        self.speed.setCurrentIndex(min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - speed_x)))

    def faster(self) -> None:
        self.speed.setCurrentIndex(min(len(SPEEDS) - 1, self.speed.currentIndex() + 1))

    def slower(self) -> None:
        self.speed.setCurrentIndex(max(0, self.speed.currentIndex() - 1))

    def seek(self, t_s: float, *, from_slider: bool = False) -> None:
        self.replay.seek(t_s)
        if not from_slider:
            self.slider.blockSignals(True)
            self.slider.setValue(int(round(self.replay.t_s * STEPS_PER_S)))
            self.slider.blockSignals(False)
        self.time_label.setText(f"{clock_text(self.replay.t_s)} / {clock_text(self.replay.duration_s)}")
        self.lane.set_time(self.replay.t_s)
        for callback in self.on_seek:
            callback(self.replay.t_s)

    def toggle_play(self) -> None:
        if self.playing:
            self.timer.stop()
            self.play_button.setText("Play (Space)")
        else:
            if self.replay.t_s >= self.replay.duration_s:
                self.seek(0.0)
            self._last_tick = self.clock()
            self.timer.start()
            self.play_button.setText("Pause (Space)")

    def _tick(self) -> None:
        """Advance by the clock's time since the last tick times the speed, stopping at the first event
        of the kinds chosen that the step crosses."""
        now = self.clock()
        step_s = min(MAX_TICK_S, max(0.0, now - self._last_tick)) * self.speed_x
        self._last_tick = now
        t0 = self.replay.t_s
        t1 = min(self.replay.duration_s, t0 + step_s)
        if t1 <= t0 and t0 < self.replay.duration_s:
            return  # no time passed (the timer came round early): nothing to redraw
        stops = self.replay.review_between(t0, t1, **self._filters(self.pause_kinds)) if self.pause_kinds else []
        if stops:
            first = stops[0].t_s
            # of the events at that moment, the weightiest (a kill before a hit)
            order = [k.name for k in REVIEW_KINDS]
            event = min((e for e in stops if e.t_s == first), key=lambda e: order.index(e.kind) if e.kind in order else len(order))
            self.seek(event.t_s)
            self.toggle_play()
            self.paused_at = event
            for callback in self.on_paused_at:
                callback(event)
            return
        self.seek(t1)
        if t1 >= self.replay.duration_s:
            self.toggle_play()

    # -- jumps --------------------------------------------------------------------------------------
    def _jump(self, event: ReviewEvent | None) -> None:
        if event is not None:
            self.seek(event.t_s)

    def next_event(self) -> None:
        """To the next event the event list shows (with every rules event's result, and bookmarks)."""
        self._jump(self.replay.next_review_after(self.replay.t_s, **self._filters()))

    def previous_event(self) -> None:
        """To the previous event the list shows; to the start when there is none before."""
        event = self.replay.previous_review_before(self.replay.t_s, **self._filters())
        self.seek(event.t_s if event is not None else 0.0)

    def next_engagement(self) -> None:
        """To the next attack the rules resolved, past the tracker's events in between."""
        self._jump(self.replay.next_review_after(self.replay.t_s, **self._filters(ENGAGEMENT_KINDS)))

    def previous_engagement(self) -> None:
        self._jump(self.replay.previous_review_before(self.replay.t_s, **self._filters(ENGAGEMENT_KINDS)))

    def next_stop(self) -> None:
        """To the next event of the kinds playback pauses at."""
        if self.pause_kinds:
            self._jump(self.replay.next_review_after(self.replay.t_s, **self._filters(self.pause_kinds)))
