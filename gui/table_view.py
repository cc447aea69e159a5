"""The central view: the camera picture with overlays in perspective, or the top-down table (rectified,
inches grid); one key switches. Mouse: click a unit to select it; tools for the tape measure (drag),
the blast point and the landing point of a missed explosive; wheel zooms, right-drag pans.

Painting a frame is drawing one finished background image and blending one finished overlay image
over it (:class:`~gui.overlay_worker.ViewRenderer`): the view's workers make the background whenever
a camera frame arrives (scaled into the view, or rectified for the top-down view) and the overlays
whenever tracked units moved (30 times a second while a unit is carried); a new frame is shown
together with the overlays of the poses tracked in it. Everything a user does — a click, a zoom, a
toggle, a rules change — is drawn at once, on the UI thread."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (QColor, QFont, QFontMetrics, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap,
                           QWheelEvent)
from PySide6.QtWidgets import QWidget

from gui.compositor import Compositor
from appmodel.errors import UsageError
from gui.overlay_worker import ViewRenderer, ViewSpec
from appmodel.overlays.registry import OverlayToggles
from appmodel.overlays.sandmap import match_score_of
from appmodel.overlays.transforms import CameraTransform, TopDownTransform

TOOLS = ("select", "tape", "blast", "landing", "circle", "fan", "line", "waypoints")
TOOL_HINTS = {
    "select": "click a unit to select it; drag a placed template to move it",
    "circle": "click to drop a circle template (snaps to a unit's centre); drag a placed one to move it",
    "fan": "press at the apex and drag toward where the 45-degree fan points",
    "line": "press at the start and drag toward where the line points",
    "waypoints": "click the tape's points one after another (snapped to units); Esc ends the tape",
    "tape": "drag from a unit or point to another to measure",
    "blast": "click a point or a unit: the blast radius of the selected explosive",
    "landing": "click where the missed round lands (inside the red miss radius)",
}


def _badge_font() -> QFont:
    font = QFont()
    font.setPixelSize(13)
    return font


class TableView(QWidget):
    """Draws a :class:`~appmodel.game_session.GameSession` through the camera or the top-down transform."""

    message = Signal(str)
    #: The Resolution of a missed explosive once its landing point was clicked.
    landed = Signal(object)
    toolChanged = Signal(str)

    def __init__(self, session: Any, *, calibration: Any | None = None, toggles: OverlayToggles | None = None,
                 mode: str = "camera", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.calibration = calibration
        self.toggles = toggles or OverlayToggles()
        self.compositor = Compositor()
        self.mode = mode if calibration is not None else "table"
        self.tool = "select"
        #: Whether the players roll the dice a missed round's landing brings (the attack panel's
        #: "Players' dice"): a landing click then places it and Resolve lands it with those dice.
        self.landing_by_hand: Callable[[], bool] = lambda: False
        self.top = TopDownTransform(session.table_size_in, (max(1, self.width()), max(1, self.height())))
        self.camera_zoom = 1.0
        self.camera_pan = (0.0, 0.0)
        self._drag_start: tuple[float, float] | None = None
        #: (template id, what the drag does: "move" or "aim", the last point) while a template is dragged.
        self._template_drag: tuple[int, str, tuple[float, float]] | None = None
        #: The template last placed or touched: what rotate, pin and remove act on.
        self.current_template: int | None = None
        self._drag_now: tuple[float, float] | None = None
        self._pan_from: QPointF | None = None
        self._help_text: str | None = None
        #: Where the F1 list was last drawn (a QRectF in the view's pixels).
        self.help_box_px: Any = None
        #: The first row of the F1 list shown, when it needs scrolling (wheel, arrows, Page Up/Down).
        self.help_scroll = 0
        self._help_rows = (0, 0)  # (rows shown at once, rows in all) at the last paint
        #: The F1 list's lines drawn whole inside the view at the last paint (what the user can read now).
        self.help_lines_shown: list[str] = []
        #: The tracking status (appmodel.tracking.tracking_status.TrackingStatus) the window last computed, or None.
        self.tracking: Any | None = None
        #: Units the replay's event list points at (its filters' recent events): ringed on the map.
        self.highlighted: tuple[int, ...] = ()
        self.setMouseTracking(True)
        self.setMinimumSize(480, 320)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.renderer = ViewRenderer(session, self.compositor, self, self.view_spec, calibration=calibration)
        #: The view's workers (overlays, backgrounds).
        self.overlays, self.backgrounds = self.renderer.overlays, self.renderer.backgrounds

    @property
    def frame_bgr(self) -> np.ndarray | None:
        """The newest camera frame (BGR)."""
        return self.renderer.frame_bgr

    def closeEvent(self, event: Any) -> None:  # Qt's name
        self.renderer.close()
        super().closeEvent(event)

    def view_spec(self) -> ViewSpec:
        """How the view shows the session now (transform, toggles, size, background)."""
        frame = self.mode == "camera" or self.calibration is not None
        self.compositor.painter.label_taken_px = (self.badge_box_px(),)  # labels are laid out for this view
        return ViewSpec(self.transform(), self.toggles, (max(1, self.width()), max(1, self.height())),
                        "frame" if frame else "plain")

    # -- state ----------------------------------------------------------------------------------
    def set_frame(self, frame_bgr: np.ndarray | None) -> None:
        self.renderer.set_frame(frame_bgr)

    def set_toggles(self, toggles: OverlayToggles) -> None:
        self.toggles = toggles
        self.update()

    def set_mode(self, mode: str) -> None:
        if mode == "camera" and self.calibration is None:
            self.message.emit("no table calibration: only the top-down view is available (calibrate the table first)")
            mode = "table"
        self.mode = mode
        self.update()

    def toggle_mode(self) -> None:
        self.set_mode("table" if self.mode == "camera" else "camera")

    # -- placed templates ------------------------------------------------------------------------
    def _board(self) -> Any:
        from appmodel.overlays.placed_templates import TemplateBoard

        return self.session.templates if self.session.templates is not None else TemplateBoard()

    def _press_template(self, point: tuple[float, float]) -> bool:
        """A press that places or grabs a template (True), or one for the other tools (False)."""
        from appmodel.overlays.placed_templates import snapped

        board = self._board()
        if self.tool in ("circle", "fan", "line"):
            grabbed = board.at(*point)
            if grabbed is not None and grabbed.kind == self.tool:
                self._grab(grabbed.template_id, "move", point)
                return True
            at = snapped(point, self.session.units())
            board = board.add(self.tool, at)
            self.current_template = board.templates[-1].template_id
            self.session.set_templates(board)
            self._template_drag = (self.current_template, "aim" if self.tool != "circle" else "move", at)
            self.message.emit(f"{board.templates[-1].label} placed; R / Shift+R turn it, Ctrl+Shift+K pins it, "
                              "Delete removes it")
            return True
        if self.tool == "waypoints":
            at = snapped(point, self.session.units())
            current = next((t for t in board.templates if t.template_id == self.current_template and t.kind == "tape"),
                           None)
            if current is None:
                board = board.add("tape", at)
                self.current_template = board.templates[-1].template_id
            else:
                board = board.extend_tape(current.template_id, at)
            self.session.set_templates(board)
            self.message.emit(board.get(self.current_template).label)
            return True
        if self.tool == "select" and self.session.unit_at(*point) is None:
            grabbed = board.at(*point)
            if grabbed is not None:
                self._grab(grabbed.template_id, "move", point)
                return True
        return False

    def _grab(self, template_id: int, mode: str, point: tuple[float, float]) -> None:
        self.current_template = template_id
        self._template_drag = (template_id, mode, point)
        t = self._board().get(template_id)
        self.message.emit(f"{t.label}" + (": pinned, it stays (Ctrl+Shift+K unpins)" if t.pinned else ""))

    def _drag_template(self, point: tuple[float, float]) -> None:
        template_id, mode, last = self._template_drag
        board = self._board()
        if mode == "aim":
            board = board.aimed(template_id, point)
        else:
            board = board.moved(template_id, point[0] - last[0], point[1] - last[1])
        self._template_drag = (template_id, mode, point)
        self.session.set_templates(board)

    def change_current_template(self, change: str) -> None:
        """"rotate+", "rotate-", "pin" (toggles) or "remove" the current template."""
        board = self._board()
        if self.current_template is None or all(t.template_id != self.current_template for t in board.templates):
            self.message.emit("no template chosen: place one, or click one with the select tool")
            return
        t = board.get(self.current_template)
        if change == "rotate+":
            board = board.rotated(t.template_id, 15.0)
        elif change == "rotate-":
            board = board.rotated(t.template_id, -15.0)
        elif change == "pin":
            board = board.pinned(t.template_id, not t.pinned)
        elif change == "remove":
            board = board.removed(t.template_id)
            self.current_template = None
        self.session.set_templates(board)
        if change == "remove":
            self.message.emit(f"{t.label} removed")
        else:
            self.message.emit(board.get(t.template_id).label)

    def set_tool(self, tool: str) -> None:
        if self.tool == "waypoints" and tool != "waypoints":
            self.current_template = None if tool != "select" else self.current_template
        self.tool = tool if tool in TOOLS else "select"
        self._drag_start = self._drag_now = None
        self._template_drag = None
        self.toolChanged.emit(self.tool)
        self.message.emit(TOOL_HINTS[self.tool])
        self.update()

    def reset_zoom(self) -> None:
        self.top = TopDownTransform(self.session.table_size_in, (self.width(), self.height()))
        self.camera_zoom, self.camera_pan = 1.0, (0.0, 0.0)
        self.update()

    def zoom_by(self, factor: float, about: tuple[float, float] | None = None) -> None:
        if self.mode == "table":
            self.top = self.top.zoomed(factor, about)
        else:
            self.camera_zoom = float(np.clip(self.camera_zoom * factor, 0.5, 10.0))
        self.update()

    def transform(self) -> Any:
        """The view's current ``device_from_table`` transform."""
        size = (max(1, self.width()), max(1, self.height()))
        if self.mode == "camera" and self.calibration is not None:
            iw, ih = self.calibration.model.width_px, self.calibration.model.height_px
            scale = min(size[0] / iw, size[1] / ih) * self.camera_zoom
            ox = (size[0] - iw * scale) / 2 + self.camera_pan[0]
            oy = (size[1] - ih * scale) / 2 + self.camera_pan[1]
            return CameraTransform(self.calibration, view_scale=round(scale, 6), offset_px=(round(ox, 2), round(oy, 2)))
        if self.top.viewport_px != size:
            self.top = self.top.resized(size)
        return self.top

    def table_point(self, pos: QPointF) -> tuple[float, float]:
        p = self.transform().table_from_device(np.array([[pos.x(), pos.y()]]))[0]
        return float(p[0]), float(p[1])

    # -- painting -------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            transform = self.renderer.paint(p).transform
            if self._drag_start is not None and self._drag_now is not None:
                a, b = transform.device_from_table(np.array([self._drag_start, self._drag_now]))
                p.setPen(QPen(QColor("#ffe14d"), 2, Qt.PenStyle.DashLine))
                p.drawLine(QPointF(*a), QPointF(*b))
            self._paint_badge(p)
            self._paint_highlights(p, transform)
            self._paint_tracking(p, transform)
            if self.help_text:
                self._paint_help(p)
        finally:
            p.end()

    def set_highlights(self, unit_ids: tuple[int, ...]) -> None:
        if tuple(unit_ids) != self.highlighted:
            self.highlighted = tuple(unit_ids)
            self.update()

    def _paint_highlights(self, p: QPainter, transform: Any) -> None:
        """A bright dashed ring around each unit the replay's event list points at."""
        if not self.highlighted:
            return
        units = {u.unit_id: u for u in self.session.units()}
        p.setBrush(Qt.BrushStyle.NoBrush)
        for uid in self.highlighted:
            u = units.get(uid)
            if u is None or not u.on_table:
                continue
            fp = u.footprint
            reach = getattr(fp, "radius_in", None) or 0.5 * float(np.hypot(getattr(fp, "length_in", 1.0), getattr(fp, "width_in", 1.0)))
            centre, edge = transform.device_from_table(np.array([[u.x_in, u.y_in], [u.x_in + reach + 0.6, u.y_in]]))
            r = max(10.0, float(np.hypot(*(edge - centre))))
            p.setPen(QPen(QColor(0, 0, 0, 200), 5))
            p.drawEllipse(QPointF(*centre), r, r)
            p.setPen(QPen(QColor("#ffe14d"), 3, Qt.PenStyle.DashLine))
            p.drawEllipse(QPointF(*centre), r, r)

    def _paint_tracking(self, p: QPainter, transform: Any) -> None:
        """Where a missing anchor belongs (a red dashed ring and its id), and a notice when the feed stopped."""
        status = self.tracking
        if status is None:
            return
        font = QFont()
        font.setPixelSize(14)
        font.setBold(True)
        p.setFont(font)
        for a in status.missing_anchors:
            x, y = transform.device_from_table(np.array([[a.x_in, a.y_in]]))[0]
            p.setPen(QPen(QColor("#ff5252"), 3, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(x, y), 22, 22)
            text = f"anchor {a.tag_id} missing"
            w = p.fontMetrics().horizontalAdvance(text) + 12
            box = QRectF(min(max(4.0, x - w / 2), self.width() - w - 4), min(y + 28, self.height() - 26), w, 22)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(0, 0, 0, 190))
            p.drawRoundedRect(box, 4, 4)
            p.setPen(QColor("#ff8a80"))
            p.drawText(box, int(Qt.AlignmentFlag.AlignCenter), text)
        if status.ended:
            # A scripted or file source's end: said calmly, in a corner, not as a fault.
            text = f"{status.ended}: units are shown where they were last seen"
            font.setPixelSize(14)
            p.setFont(font)
            w = min(self.width() - 20, p.fontMetrics().horizontalAdvance(text) + 24)
            box = QRectF((self.width() - w) / 2, self.height() - 40, w, 30)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(0, 0, 0, 190))
            p.drawRoundedRect(box, 6, 6)
            p.setPen(QColor("#e0e0e0"))
            p.drawText(box, int(Qt.AlignmentFlag.AlignCenter), text)
        elif status.stalled:
            text = (f"The camera feed stopped {status.seconds_since_frame:.0f} s ago: units are shown where they were "
                    "last seen")
            font.setPixelSize(18)
            p.setFont(font)
            w = min(self.width() - 20, p.fontMetrics().horizontalAdvance(text) + 32)
            box = QRectF((self.width() - w) / 2, self.height() / 2 - 24, w, 48)
            p.setPen(QPen(QColor("#ff5252"), 2))
            p.setBrush(QColor(20, 0, 0, 220))
            p.drawRoundedRect(box, 8, 8)
            p.setPen(QColor("#ffffff"))
            p.drawText(box, int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), text)

    def badge_text(self, tool: str | None = None) -> str:
        """The line in the view's top-left corner: which view, the tool, the sculptor's progress."""
        text = ("Camera view" if self.mode == "camera" else "Top-down view") + \
            f"  ·  tool: {tool or self.tool}  (Tab switches view, F1 shortcuts)"
        score = match_score_of(self.session.ground, self.session.sand) if self.toggles.sculpting else None
        if score is not None:  # the sculptor's progress, where the instructor looks (computed once per scan)
            text += f"  ·  sand vs target: {score.summary()}"
        return text

    def badge_box_px(self) -> tuple[float, float, float, float]:
        """The badge's rectangle, as wide as with its longest tool's name: labels keep clear of it."""
        if getattr(self, "_badge_box", (None,))[0] != (key := self.badge_text()):
            width = max(QFontMetrics(_badge_font()).horizontalAdvance(self.badge_text(t)) for t in TOOLS) + 16
            self._badge_box = (key, (8.0, 8.0, 8.0 + width, 32.0))
        return self._badge_box[1]

    def _paint_badge(self, p: QPainter) -> None:
        text = self.badge_text()
        ratio = self.devicePixelRatioF()
        key = (text, ratio)
        cached = getattr(self, "_badge", None)
        if cached is None or cached[0] != key:
            # Drawn once per text: laying the text out again on every paint took several ms of each
            # frame's paint on the UI thread.
            font = _badge_font()
            width = QFontMetrics(font).horizontalAdvance(text) + 16
            pixmap = QPixmap(int(round((width + 2) * ratio)), int(round(26 * ratio)))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            q = QPainter(pixmap)
            q.setRenderHint(QPainter.RenderHint.Antialiasing, p.testRenderHint(QPainter.RenderHint.Antialiasing))
            q.setFont(font)
            q.setPen(Qt.PenStyle.NoPen)
            q.setBrush(QColor(0, 0, 0, 160))
            q.drawRoundedRect(QRectF(0, 0, width, 24), 4, 4)
            q.setPen(QColor("#ffffff"))
            q.drawText(QRectF(8, 0, width, 24), int(Qt.AlignmentFlag.AlignVCenter), text)
            q.end()
            cached = self._badge = (key, pixmap)
        p.drawPixmap(QPointF(8, 8), cached[1])

    @property
    def help_text(self) -> str | None:
        """The F1 list (first line the title; "keys\tdescription" lines), shown over the view; None hides it."""
        return self._help_text

    @help_text.setter
    def help_text(self, text: str | None) -> None:
        self._help_text = text
        self.help_scroll = 0
        self.update()

    def scroll_help(self, rows: int) -> None:
        """Scroll the F1 list by ``rows`` (negative: up), within its length."""
        shown, total = self._help_rows
        self.help_scroll = max(0, min(self.help_scroll + int(rows), max(0, total - shown)))
        self.update()

    def _paint_help(self, p: QPainter) -> None:
        """The shortcut list over the view, keys and what they do in aligned columns, in as many columns as
        the view's height needs (a long list on a laptop screen was cut off at the bottom); the font shrinks
        when even columns overflow, and where the smallest still does not fit the list scrolls (wheel,
        arrows, Page Up/Down, Home/End) with a note saying there is more."""
        lines = (self.help_text or "").splitlines()
        title, body = (lines[0], lines[1:]) if lines else ("", [])
        while body and not body[0].strip():
            body = body[1:]
        pairs = [tuple(line.split("\t", 1)) if "\t" in line else (line,) for line in body]
        font = QFont()
        margin, gap = 24, 28
        for px in (16, 14, 13, 12, 11, 10):
            font.setPixelSize(px)
            p.setFont(font)
            fm = p.fontMetrics()
            key_w = max((fm.horizontalAdvance(q[0]) for q in pairs if len(q) == 2), default=0) + 12
            col_w = max((key_w + fm.horizontalAdvance(q[1]) if len(q) == 2 else fm.horizontalAdvance(q[0]) for q in pairs),
                        default=0) + gap
            # The title, a blank row, the rows, and a row for the "more" note, inside 20 px of frame each side.
            room_rows = max(1, int((self.height() - 20 - 40 - 3 * fm.height()) // fm.height()))
            columns = max(1, -(-len(body) // room_rows))
            if columns * col_w + 2 * margin <= self.width() - 20:
                break
        columns = max(1, min(columns, int((self.width() - 20 - 2 * margin) // max(col_w, 1))))
        total_rows = -(-len(body) // columns) if body else 0
        rows = min(total_rows, room_rows)
        self._help_rows = (rows, total_rows)
        self.help_scroll = max(0, min(self.help_scroll, total_rows - rows))
        scrolls = rows < total_rows
        w = min(self.width() - 20, max(columns * col_w, fm.horizontalAdvance(title)) + 2 * margin)
        h = fm.height() * (rows + 2 + (1 if scrolls else 0)) + 40
        box = QRectF((self.width() - w) / 2, max(10, (self.height() - h) / 2), w, h)
        p.setPen(QPen(QColor("#ffe14d"), 2))
        # Opaque: the unit names and ring labels beneath showed through between the rows and read as
        # part of the list.
        p.setBrush(QColor(10, 12, 16))
        p.drawRoundedRect(box, 8, 8)
        self.help_box_px = box
        p.setPen(QColor("#ffffff"))
        top = box.top() + 20 + fm.ascent()
        p.drawText(QPointF(box.left() + margin, top), title)
        self.help_lines_shown = []
        for i, pair in enumerate(pairs):
            c, r = divmod(i, total_rows)
            r -= self.help_scroll
            if not 0 <= r < rows:
                continue
            x, y = box.left() + margin + c * col_w, top + (r + 2) * fm.height()
            p.setPen(QColor("#ffe14d") if len(pair) == 2 else QColor("#ffffff"))
            p.drawText(QPointF(x, y), pair[0])
            if len(pair) == 2:
                p.setPen(QColor("#ffffff"))
                p.drawText(QPointF(x + key_w, y), pair[1])
            self.help_lines_shown.append(body[i])
        if scrolls:
            below = total_rows - rows - self.help_scroll
            note = " · ".join(x for x in (f"▲ {self.help_scroll} rows above" if self.help_scroll else "",
                                          f"▼ {below} rows below" if below else "") if x)
            p.setPen(QColor("#c0c8d0"))
            p.drawText(QPointF(box.left() + margin, top + (rows + 2) * fm.height()),
                       f"{note}  (wheel, arrows, Page Up/Down)")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.help_text:
            page = max(1, self._help_rows[0] - 1)
            step = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -page, Qt.Key.Key_PageDown: page,
                    Qt.Key.Key_Home: -10**6, Qt.Key.Key_End: 10**6}.get(Qt.Key(event.key()))
            if step is not None:
                self.scroll_help(step)
                return
        super().keyPressEvent(event)

    # -- mouse ----------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() in (Qt.MouseButton.RightButton, Qt.MouseButton.MiddleButton):
            self._pan_from = event.position()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return
        point = self.table_point(event.position())
        try:
            if self._press_template(point):
                return
            if self.tool == "tape":
                self._drag_start = self._drag_now = point
            elif self.tool == "blast":
                uid = self.session.unit_at(*point)
                if uid is not None:
                    u = self.session.unit(uid)
                    point = (u.x_in, u.y_in)
                self.session.set_blast_point(point)
            elif self.tool == "landing":
                if self.landing_by_hand():  # the players roll the landing's dice: Resolve lands it
                    self.session.place_landing(point)
                    self.message.emit(f"lands at ({point[0]:.1f}, {point[1]:.1f}): enter the dice it brings, then Resolve")
                else:
                    self.landed.emit(self.session.choose_landing(point))
                    self.message.emit(f"landed at ({point[0]:.1f}, {point[1]:.1f})")
                self.set_tool("select")
            else:
                self.session.select_unit(self.session.unit_at(*point))
        except (UsageError, ValueError) as exc:
            self.message.emit(str(exc))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            d = event.position() - self._pan_from
            self._pan_from = event.position()
            if self.mode == "table":
                self.top = self.top.panned(d.x(), d.y())
            else:
                self.camera_pan = (self.camera_pan[0] + d.x(), self.camera_pan[1] + d.y())
            self.update()
            return
        if self._template_drag is not None:
            self._drag_template(self.table_point(event.position()))
            return
        if self._drag_start is not None:
            self._drag_now = self.table_point(event.position())
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None and event.button() in (Qt.MouseButton.RightButton, Qt.MouseButton.MiddleButton):
            self._pan_from = None
            return
        if self._template_drag is not None and event.button() == Qt.MouseButton.LeftButton:
            self._template_drag = None
            return
        if self._drag_start is not None and event.button() == Qt.MouseButton.LeftButton:
            end = self.table_point(event.position())
            tape = self.session.measure(self._drag_start, end)
            self._drag_start = self._drag_now = None
            self.message.emit(f'tape: {tape.distance_in:.1f}"' + (" base to base" if tape.start_unit and tape.end_unit else ""))
            self.update()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.help_text:  # over the F1 list the wheel scrolls it, it does not zoom the map beneath
            self.scroll_help(-3 if event.angleDelta().y() > 0 else 3)
            return
        factor = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        pos = event.position()
        self.zoom_by(factor, (pos.x(), pos.y()))
