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

from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen, QWheelEvent
from PySide6.QtWidgets import QWidget

from gui.compositor import Compositor
from appmodel.errors import UsageError
from gui.overlay_worker import ViewRenderer, ViewSpec
from gui.settings import OverlayToggles
from appmodel.transforms import CameraTransform, TopDownTransform

TOOLS = ("select", "tape", "blast", "landing")
TOOL_HINTS = {
    "select": "click a unit to select it",
    "tape": "drag from a unit or point to another to measure",
    "blast": "click a point or a unit: the blast radius of the selected explosive",
    "landing": "click where the missed round lands (inside the red miss radius)",
}


class TableView(QWidget):
    """Draws a :class:`~appmodel.game_session.GameSession` through the camera or the top-down transform."""

    message = Signal(str)
    toolChanged = Signal(str)

    def __init__(self, session: Any, *, calibration: Any | None = None, toggles: OverlayToggles | None = None,
                 mode: str = "camera", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.calibration = calibration
        self.toggles = toggles or OverlayToggles()
        self.compositor = Compositor()
        self.compositor.painter.label_top_px = 38.0  # the badge "Camera view · tool: ..." sits there
        self.mode = mode if calibration is not None else "table"
        self.tool = "select"
        self.top = TopDownTransform(session.table_size_in, (max(1, self.width()), max(1, self.height())))
        self.camera_zoom = 1.0
        self.camera_pan = (0.0, 0.0)
        self._drag_start: tuple[float, float] | None = None
        self._drag_now: tuple[float, float] | None = None
        self._pan_from: QPointF | None = None
        self.help_text: str | None = None
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

    def closeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        self.renderer.close()
        super().closeEvent(event)

    def view_spec(self) -> ViewSpec:
        """How the view shows the session now (transform, toggles, size, background)."""
        frame = self.mode == "camera" or self.calibration is not None
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

    def set_tool(self, tool: str) -> None:
        self.tool = tool if tool in TOOLS else "select"
        self._drag_start = self._drag_now = None
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
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        p = QPainter(self)
        try:
            transform = self.renderer.paint(p).transform
            if self._drag_start is not None and self._drag_now is not None:
                a, b = transform.device_from_table(np.array([self._drag_start, self._drag_now]))
                p.setPen(QPen(QColor("#ffe14d"), 2, Qt.PenStyle.DashLine))
                p.drawLine(QPointF(*a), QPointF(*b))
            self._paint_badge(p)
            if self.help_text:
                self._paint_help(p)
        finally:
            p.end()

    def _paint_badge(self, p: QPainter) -> None:
        text = ("Camera view" if self.mode == "camera" else "Top-down view") + f"  ·  tool: {self.tool}  (Tab switches view, F1 shortcuts)"
        font = QFont()
        font.setPixelSize(13)
        p.setFont(font)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 160))
        p.drawRoundedRect(QRectF(8, 8, p.fontMetrics().horizontalAdvance(text) + 16, 24), 4, 4)
        p.setPen(QColor("#ffffff"))
        p.drawText(QRectF(16, 8, self.width(), 24), int(Qt.AlignmentFlag.AlignVCenter), text)

    def _paint_help(self, p: QPainter) -> None:
        lines = (self.help_text or "").splitlines()
        font = QFont()
        font.setPixelSize(16)
        p.setFont(font)
        fm = p.fontMetrics()
        w = max(fm.horizontalAdvance(line) for line in lines) + 48
        h = fm.height() * len(lines) + 40
        box = QRectF((self.width() - w) / 2, max(10, (self.height() - h) / 2), w, h)
        p.setPen(QPen(QColor("#ffe14d"), 2))
        p.setBrush(QColor(10, 12, 16, 225))
        p.drawRoundedRect(box, 8, 8)
        p.setPen(QColor("#ffffff"))
        for i, line in enumerate(lines):
            p.drawText(QPointF(box.left() + 24, box.top() + 20 + fm.ascent() + i * fm.height()), line)

    # -- mouse ----------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() in (Qt.MouseButton.RightButton, Qt.MouseButton.MiddleButton):
            self._pan_from = event.position()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return
        point = self.table_point(event.position())
        try:
            if self.tool == "tape":
                self._drag_start = self._drag_now = point
            elif self.tool == "blast":
                uid = self.session.unit_at(*point)
                if uid is not None:
                    u = self.session.unit(uid)
                    point = (u.x_in, u.y_in)
                self.session.set_blast_point(point)
            elif self.tool == "landing":
                self.session.choose_landing(point)
                self.set_tool("select")
                self.message.emit(f"landed at ({point[0]:.1f}, {point[1]:.1f})")
            else:
                self.session.select_unit(self.session.unit_at(*point))
        except (UsageError, ValueError) as exc:
            self.message.emit(str(exc))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan_from is not None:
            d = event.position() - self._pan_from
            self._pan_from = event.position()
            if self.mode == "table":
                self.top = self.top.panned(d.x(), d.y())
            else:
                self.camera_pan = (self.camera_pan[0] + d.x(), self.camera_pan[1] + d.y())
            self.update()
            return
        if self._drag_start is not None:
            self._drag_now = self.table_point(event.position())
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan_from is not None and event.button() in (Qt.MouseButton.RightButton, Qt.MouseButton.MiddleButton):
            self._pan_from = None
            return
        if self._drag_start is not None and event.button() == Qt.MouseButton.LeftButton:
            end = self.table_point(event.position())
            tape = self.session.measure(self._drag_start, end)
            self._drag_start = self._drag_now = None
            self.message.emit(f'tape: {tape.distance_in:.1f}"' + (" base to base" if tape.start_unit and tape.end_unit else ""))
            self.update()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        factor = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        pos = event.position()
        self.zoom_by(factor, (pos.x(), pos.y()))
