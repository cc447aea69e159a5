"""The Tracking panel: the camera's frames per second and delay, the anchors, every unit's state with
the reason (never seen, too small in the picture, hidden, lost), and the tag-like squares in view that
the tracker could not read (a trimmed border, too small, too blurred), refreshed twice a second. With
several cameras, a line per camera (frames per second, anchors it sees, units in its view, a camera
node's bad messages skipped, a lost camera's reconnect tries) and which cameras see each unit."""
from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QTableWidgetItem, QVBoxLayout, QWidget

from gui.panels.tables import read_only_table
from gui.theme import TEXT_COLORS

MAX_NOTICE_LINES = 2  # undecoded-square lines shown in the panel (the rest in its tooltip)
STATE_COLORS = {"seen": TEXT_COLORS["good"], "stale": TEXT_COLORS["warning"], "lost": TEXT_COLORS["error"],
                "never seen": TEXT_COLORS["error"], "lifted": TEXT_COLORS["muted"]}


def _camera_color(line: Any) -> str:
    if not line.delivering:
        return TEXT_COLORS["error"]
    return TEXT_COLORS["warning"] if getattr(line, "bad_messages", 0) else TEXT_COLORS["good"]


class TrackingPanel(QWidget):
    heights: QLabel | None = None  # the units whose tag size and base height disagree, made when first needed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("Camera: waiting for the first frame")
        self.summary.setWordWrap(True)
        self.anchors = QLabel("")
        self.anchors.setWordWrap(True)
        self.undecoded = QLabel("")
        self.undecoded.setWordWrap(True)
        self.undecoded.hide()
        self.cameras = QLabel("")
        self.cameras.setWordWrap(True)
        self.cameras.hide()
        self.table = read_only_table(("Tag", "Unit", "State", "Tag px", "Why", "Seen by"), stretch=(4,), min_px=120)
        self.table.setColumnHidden(5, True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for w in (self.summary, self.anchors, self.cameras, self.undecoded, self.table):
            layout.addWidget(w)

    def show_status(self, status: Any) -> None:
        color = TEXT_COLORS["error"] if status.stalled else TEXT_COLORS["good"] if status.frames else TEXT_COLORS["muted"]
        self.summary.setText(f"<span style='color:{color}'><b>{status.summary()}</b></span>")
        if status.anchors:
            words = [f"{a.tag_id}: {'seen' if a.seen else 'MISSING'}" for a in status.anchors]
            note = (" — a missing anchor is marked where it belongs in the camera view; the table stays registered "
                    "from the others" if status.missing_anchors else "")
            self.anchors.setText("Anchors " + ", ".join(words) + note)
        undecoded = status.undecoded
        if undecoded:
            # The first few lines (tags read only by the fallback come first: the likeliest fix); all of
            # them in the tooltip, so the unit table keeps its room in a small dock.
            shown = [html.escape(line) for line in undecoded[:MAX_NOTICE_LINES]]
            if len(undecoded) > MAX_NOTICE_LINES:
                shown.append(f"… and {len(undecoded) - MAX_NOTICE_LINES} more (hover to read them)")
            self.undecoded.setText(f"<span style='color:{TEXT_COLORS['warning']}'><b>In view but not tracked:</b><br>"
                                   + "<br>".join(shown) + "</span>")
            self.undecoded.setToolTip("\n".join(undecoded))
        self.undecoded.setVisible(bool(undecoded))
        cameras = getattr(status, "cameras", ())
        if cameras:
            # A camera node whose messages are skipped (damaged, too big, forged) is worth a look even
            # while it delivers: its count is on its line, in the warning colour.
            self.cameras.setText("<br>".join(
                f"<span style='color:{_camera_color(c)}'>{html.escape(c.text())}</span>" for c in cameras))
        self.cameras.setVisible(bool(cameras))
        self.table.setColumnHidden(5, not cameras)
        # Twice a second during play, 40 rows of which a few change: only the cells whose text
        # changed are touched (a new item per cell each time kept the UI thread busy for a large part
        # of a second on a loaded two-core machine, while the camera's frames waited to be shown).
        self.table.setUpdatesEnabled(False)
        try:
            if self.table.rowCount() != len(status.units):
                self.table.setRowCount(len(status.units))
            for row, u in enumerate(status.units):
                cells = (str(u.tag_id), u.name, u.state, "" if u.tag_px is None else f"{u.tag_px:.0f}", u.why,
                         ", ".join(getattr(u, "cameras", ())))
                for col, text in enumerate(cells):
                    item = self.table.item(row, col)
                    if item is not None and item.text() == text:
                        continue
                    if item is None:
                        item = QTableWidgetItem(text)
                        self.table.setItem(row, col, item)
                    else:
                        item.setText(text)
                    if col == 2:
                        item.setForeground(QColor(STATE_COLORS.get(u.state, TEXT_COLORS["muted"])))
                    if col == 4:
                        item.setToolTip(text)
        finally:
            self.table.setUpdatesEnabled(True)

    def show_heights(self, lines: tuple[str, ...]) -> None:
        """One line per unit whose tag size and base height disagree (``appmodel.tracking.height_check``), above
        the units' table; hidden when there are none."""
        if self.heights is None:
            if not lines:
                return
            self.heights = QLabel()
            self.heights.setTextFormat(Qt.TextFormat.PlainText)
            self.heights.setWordWrap(True)
            self.heights.setStyleSheet(f"QLabel {{ color: {TEXT_COLORS['warning']}; }}")
            self.layout().insertWidget(self.layout().indexOf(self.table), self.heights)
        self.heights.setText("\n".join(lines))
        self.heights.setVisible(bool(lines))
