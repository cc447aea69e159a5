"""The second window: full-screen on a screen the user picks, black, showing only the overlays the
instructor chose, warped through the projector calibration so they land on the table — or, in
presenter mode, the plain top-down view for a wall screen or TV. It also shows the projector
calibration pattern while the camera captures it."""
from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

from gui.compositor import Compositor
from gui.overlay_worker import ViewRenderer, ViewSpec
from gui.settings import OverlayToggles
from appmodel.transforms import ProjectorTransform, TopDownTransform


class ProjectorWindow(QWidget):
    """``mode`` "projector" (needs ``projector_calibration``) or "presenter"."""

    def __init__(self, session: Any, *, projector_calibration: Any | None = None, toggles: OverlayToggles | None = None,
                 mode: str = "projector", calibration: Any | None = None, parent: QWidget | None = None,
                 mask_tags: bool = True) -> None:
        super().__init__(parent)
        #: keep the picture dark over every unit's tag, so projected light never costs tracking
        self.mask_tags = mask_tags
        self.session = session
        self.projector_calibration = projector_calibration
        self.calibration = calibration
        self.toggles = toggles or OverlayToggles.projector_default()
        self.mode = mode if (mode == "presenter" or projector_calibration is not None) else "presenter"
        self.compositor = Compositor(font_px=22)
        self.frame_bgr: np.ndarray | None = None
        self.pattern: QImage | None = None
        self.setWindowTitle("Sandtable Companion — " + ("projector" if self.mode == "projector" else "presenter"))
        self.setStyleSheet("background: black")
        self.setCursor(Qt.CursorShape.BlankCursor)
        if self.mode == "projector":
            self.resize(projector_calibration.width_px, projector_calibration.height_px)
        # Drawn like the table view: tracked moves get their overlays on a worker thread, so the
        # projector never holds up the UI thread the live loop and the main window share.
        self.renderer = ViewRenderer(session, self.compositor, self, self.view_spec, calibration=calibration)

    def closeEvent(self, event: Any) -> None:  # noqa: N802
        self.renderer.close()
        super().closeEvent(event)

    def show_on_screen(self, index: int) -> None:
        """Full screen on screen ``index`` (the last screen if there are fewer)."""
        from PySide6.QtGui import QGuiApplication

        screens = QGuiApplication.screens()
        screen = screens[min(max(0, index), len(screens) - 1)]
        self.setScreen(screen)
        self.setGeometry(screen.geometry())
        self.showFullScreen()

    def view_spec(self) -> ViewSpec:
        """How the window shows the session now: through the projector calibration, 1:1 from the
        top-left, on black; or (presenter) the top-down view over the rectified frame."""
        size = (max(1, self.width()), max(1, self.height()))
        if self.mode == "projector":
            return ViewSpec(ProjectorTransform(self.projector_calibration), self.toggles, size, "black")
        transform = self.transform()
        if transform.viewport_px != size:
            transform = transform.resized(size)
        return ViewSpec(transform, self.toggles, size, "frame" if self.calibration is not None else "plain")

    def set_toggles(self, toggles: OverlayToggles) -> None:
        self.toggles = toggles
        self.update()

    def set_frame(self, frame_bgr: np.ndarray | None) -> None:
        """The camera frame (presenter mode shows it rectified under the overlays)."""
        self.frame_bgr = frame_bgr
        if self.mode == "presenter":
            self.renderer.set_frame(frame_bgr)

    def show_pattern(self, pattern_gray: np.ndarray | None) -> None:
        """Show a calibration pattern (grey image at projector resolution) instead of the overlays."""
        if pattern_gray is None:
            self.pattern = None
        else:
            g = np.ascontiguousarray(pattern_gray)
            self.pattern = QImage(g.data, g.shape[1], g.shape[0], g.shape[1], QImage.Format.Format_Grayscale8).copy()
        self.update()

    def transform(self) -> Any:
        if self.mode == "projector":
            return ProjectorTransform(self.projector_calibration)
        return TopDownTransform(self.session.table_size_in, (max(1, self.width()), max(1, self.height())))

    def render_image(self, size: tuple[int, int] | None = None) -> QImage:
        """What the window shows, as an image (tests, the headless demo)."""
        if size is None:
            size = ((self.projector_calibration.width_px, self.projector_calibration.height_px) if self.mode == "projector"
                    else (self.width(), self.height()))
        image = QImage(size[0], size[1], QImage.Format.Format_RGB32)
        p = QPainter(image)
        try:
            self._paint(p, size)
        finally:
            p.end()
        return image

    def _paint(self, p: QPainter, size: tuple[int, int]) -> None:
        if self.pattern is not None:
            p.fillRect(0, 0, size[0], size[1], Qt.GlobalColor.white)
            p.drawImage(0, 0, self.pattern)
            return
        transform = self.transform() if self.mode == "presenter" else ProjectorTransform(self.projector_calibration)
        if self.mode == "presenter" and transform.viewport_px != size:
            transform = transform.resized(size)
        self.compositor.paint(p, self.session.snapshot(), transform, self.toggles, size,
                              frame_bgr=self.frame_bgr if self.mode == "presenter" else None,
                              calibration=self.calibration, black=self.mode == "projector")
        self._paint_tag_mask(p)

    def tag_mask_polygons(self) -> list[np.ndarray]:
        """Projector-pixel polygons over every unit's tag on the table (its card plus a margin, at the
        ground under it plus a typical base), where the picture is kept black."""
        if self.mode != "projector" or not self.mask_tags:
            return []
        from calibration.projector_mask import TagSpot, tag_mask_polygons
        from calibration.table_layout import DEFAULT_UNIT_TAG_SIZE_IN

        spots = [TagSpot(u.x_in, u.y_in, u.z_in + 1.0, DEFAULT_UNIT_TAG_SIZE_IN, u.heading_deg)
                 for u in self.session.snapshot().units if u.on_table]
        return tag_mask_polygons(self.projector_calibration, spots)

    def _paint_tag_mask(self, p: QPainter) -> None:
        from PySide6.QtCore import QPointF
        from PySide6.QtGui import QPolygonF

        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # the same pixels on screen and in render_image
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(Qt.GlobalColor.black)
        for poly in self.tag_mask_polygons():
            p.drawPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in poly]))
        p.restore()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        p = QPainter(self)
        try:
            if self.pattern is not None:
                self._paint(p, (self.width(), self.height()))
            else:
                self.renderer.paint(p)
                self._paint_tag_mask(p)
        finally:
            p.end()
