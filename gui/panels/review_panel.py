"""The replay's event list, as an after-action review filters it: by the side that acted, by unit and by
kind (kills, hits, signals, jamming, other actions such as treatments and boardings, bookmarks...),
each event with its result card in the ruleset's words. The list follows playback; clicking an event
goes there. Its filters also choose what the timeline's jumps and pauses stop at and which units the
map rings (:meth:`highlighted_units`)."""
from __future__ import annotations

import bisect
import html
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from appmodel.recording.review import REVIEW_KINDS, ReviewEvent, passes
from appmodel.session.game_log import clock_text
from gui.flow_layout import FlowLayout
from gui.result_card_view import card_body_html

KIND_COLORS = {"kill": "#ff6e6e", "hit": "#ffb74d", "attack": "#e0e0e0", "signal": "#64b5f6", "jamming": "#ff8a80",
               "action": "#a5d6a7", "bookmark": "#ffe14d", "rules": "#b0b0b0", "tracker": "#9fc9ff"}
#: The kinds the list hides until asked (as the report's list does).
HIDDEN_AT_FIRST = frozenset(k.name for k in REVIEW_KINDS if k.hidden_at_first)
KIND_ORDER = [k.name for k in REVIEW_KINDS]
#: How long after an event the map keeps ringing its units.
HIGHLIGHT_S = 8.0


class ReviewPanel(QWidget):
    """``on_filters`` callbacks get (kinds, side, unit_id) whenever a filter changes; ``on_jump`` a time to seek to."""

    def __init__(self, replay: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.replay = replay
        self.on_filters: list[Callable[[frozenset[str], str | None, int | None], None]] = []
        self.on_jump: list[Callable[[float], None]] = []
        self.side_box = QComboBox()
        self.side_box.addItem("All sides", None)
        for side in replay.sides():
            self.side_box.addItem(side, side)
        self.unit_box = QComboBox()
        self.unit_box.addItem("All units", None)
        for uid in sorted({u for e in replay.review for u in e.unit_ids}, key=replay.unit_name):
            self.unit_box.addItem(replay.unit_name(uid), uid)
        present = {e.kind for e in replay.review}
        self.kind_boxes: dict[str, QCheckBox] = {}
        kinds_row = FlowLayout(spacing_px=8)
        for kind in REVIEW_KINDS:
            if kind.name not in present:
                continue
            box = QCheckBox(f"{kind.label} ({sum(e.kind == kind.name for e in replay.review)})")
            box.setChecked(kind.name not in HIDDEN_AT_FIRST)
            box.setStyleSheet(f"QCheckBox {{ color: {KIND_COLORS.get(kind.name, '#e0e0e0')}; }}")
            box.toggled.connect(self._filters_changed)
            kinds_row.addWidget(box)
            self.kind_boxes[kind.name] = box
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.setMinimumHeight(120)
        self.count_label = QLabel()
        self.card_title = QLabel()
        self.card_title.setWordWrap(True)
        self.card_title.setTextFormat(Qt.TextFormat.PlainText)
        self.card_title.setStyleSheet("font-weight: bold;")
        self.card_body = QLabel()
        self.card_body.setWordWrap(True)
        self.card_body.setTextFormat(Qt.TextFormat.RichText)
        self.card_body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        filters = QHBoxLayout()
        filters.addWidget(self.side_box, 1)
        filters.addWidget(self.unit_box, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(filters)
        layout.addLayout(kinds_row)
        layout.addWidget(self.count_label)
        layout.addWidget(self.list, 3)
        layout.addWidget(self.card_title)
        layout.addWidget(self.card_body, 1)
        self.side_box.currentIndexChanged.connect(self._filters_changed)
        self.unit_box.currentIndexChanged.connect(self._filters_changed)
        self.list.itemClicked.connect(self._clicked)
        self.list.itemActivated.connect(self._clicked)
        self.shown: list[ReviewEvent] = []
        self._times: list[float] = []
        self.t_s = 0.0
        self.selected: ReviewEvent | None = None
        self._rebuild()

    # -- filters ------------------------------------------------------------------------------------
    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(k for k, box in self.kind_boxes.items() if box.isChecked())

    @property
    def side(self) -> str | None:
        side: str | None = self.side_box.currentData()
        return side

    @property
    def unit_id(self) -> int | None:
        uid: int | None = self.unit_box.currentData()
        return uid

    def set_kind(self, kind: str, on: bool) -> None:
        if kind in self.kind_boxes:
            self.kind_boxes[kind].setChecked(on)

    def set_side(self, side: str | None) -> None:
        self.side_box.setCurrentIndex(max(0, self.side_box.findData(side)))

    def set_unit(self, unit_id: int | None) -> None:
        self.unit_box.setCurrentIndex(max(0, self.unit_box.findData(unit_id)))

    def _filters_changed(self, *_: Any) -> None:
        self._rebuild()
        for callback in self.on_filters:
            callback(self.kinds, self.side, self.unit_id)

    def _rebuild(self) -> None:
        kinds, side, unit_id = self.kinds, self.side, self.unit_id
        self.shown = [e for e in self.replay.review if passes(e, kinds=kinds, side=side, unit_id=unit_id)]
        self._times = [e.t_s for e in self.shown]
        self.list.blockSignals(True)
        self.list.clear()
        for e in self.shown:
            side_text = f" [{e.side}]" if e.side else ""
            item = QListWidgetItem(f"{clock_text(e.t_s)}{side_text}  {e.text}")
            item.setForeground(QColor(KIND_COLORS.get(e.kind, "#e0e0e0")))
            if e.card is not None:
                item.setToolTip("\n".join((e.card.title, *e.card.dice, *e.card.outcome)))
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.count_label.setText(f"{len(self.shown)} of {len(self.replay.review)} events shown")
        self.follow(self.t_s)

    # -- following the replay ---------------------------------------------------------------------
    def follow(self, t_s: float) -> None:
        """The current row is the last event shown at or before ``t_s`` (its card below), scrolled into view."""
        self.t_s = t_s
        i = bisect.bisect_right(self._times, t_s + 1e-9) - 1
        if i < 0:
            self.list.setCurrentRow(-1)
            self.show_event(None)
            return
        # of the events at that same moment (a kill and the bookmark made of it), the weightiest
        first = bisect.bisect_left(self._times, self._times[i])
        i = min(range(first, i + 1), key=lambda k: KIND_ORDER.index(self.shown[k].kind))
        if self.list.currentRow() != i:
            self.list.blockSignals(True)
            self.list.setCurrentRow(i)
            self.list.blockSignals(False)
            self.list.scrollToItem(self.list.item(i))
        self.show_event(self.shown[i])

    def show_event(self, event: ReviewEvent | None) -> None:
        """Show ``event``'s result card under the list (its words alone when nothing was resolved)."""
        if event is self.selected and (event is None or self.card_title.text()):
            return
        self.selected = event
        if event is None:
            later = len(self.shown)
            self.card_title.setText("No event yet at this moment" + (f" ({later} shown later: press .)" if later else ""))
            self.card_body.setText("")
            return
        card = event.card
        self.card_title.setText(f"{clock_text(event.t_s)}  " + (card.title if card is not None else event.text))
        body = card_body_html(card) if card is not None else ""
        if event.comms is not None and event.comms.to_ids:
            names = ", ".join(self.replay.unit_name(u) for u in event.comms.to_ids)
            word = "Radios cut" if event.comms.kind == "jamming" else "Reached"
            body = (body + "<br><br>" if body else "") + f"<b>{word}</b><br>{html.escape(names)}"
        if event.topics:
            body = (body + "<br><br>" if body else "") + "<b>Review topics</b><br>" + html.escape(", ".join(event.topics))
        self.card_body.setText(body)

    def _clicked(self, item: QListWidgetItem) -> None:
        i = self.list.row(item)
        if 0 <= i < len(self.shown):
            for callback in self.on_jump:
                callback(self.shown[i].t_s)
            self.show_event(self.shown[i])

    def highlighted_units(self, t_s: float) -> tuple[int, ...]:
        """The units the map rings at ``t_s``: those of the events shown in the last HIGHLIGHT_S seconds
        (with a unit chosen, that unit alone)."""
        if self.unit_id is not None:
            return (self.unit_id,)
        lo = bisect.bisect_left(self._times, t_s - HIGHLIGHT_S)
        hi = bisect.bisect_right(self._times, t_s + 1e-9)
        return tuple(dict.fromkeys(u for e in self.shown[lo:hi] for u in e.unit_ids))
