"""The second window: full-screen on a screen the user picks, black, showing only the overlays the
instructor chose, warped through the projector calibration so they land on the table — or, in
presenter mode, the plain top-down view for a wall screen or TV. It also shows the projector
calibration pattern while the camera captures it."""
from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QImage, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

from gui.compositor import Compositor
from gui.overlay_worker import ViewRenderer, ViewSpec
from appmodel.overlays.registry import OverlayToggles
from appmodel.overlays.tag_spots import tag_spots
from appmodel.overlays.transforms import ProjectorTransform, TopDownTransform


#: Shown over the picture when the window opens and whenever the mouse moves, so that a one-screen
#: user, whose only screen this window covers, knows the way out.
KEYS_HINT = "Esc: leave full screen (again: close)  ·  F11: full screen"
CURSOR_HIDE_MS = 2500


class ProjectorWindow(QWidget):
    """``mode`` "projector" (needs ``projector_calibration``) or "presenter".

    Full screen with the cursor hidden (it would be projected onto the table); moving the mouse shows
    the cursor and the keys for a moment. Esc leaves full screen, Esc in a window closes it, F11
    toggles full screen."""

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
        #: Qt's polygons of the tag mask last painted, by the id of the array each was made from
        self._mask_polygons: dict[int, tuple[np.ndarray, Any]] = {}
        self.frame_bgr: np.ndarray | None = None
        self.pattern: QImage | None = None
        self.setWindowTitle("Sandtable Companion — " + ("projector" if self.mode == "projector" else "presenter"))
        self.setStyleSheet("background: black")
        self.setCursor(Qt.CursorShape.BlankCursor)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.hint_visible = False
        self._hide_timer = QTimer(self)
        self._hide_timer.setSingleShot(True)
        self._hide_timer.timeout.connect(self._hide_cursor_and_hint)
        if self.mode == "projector":
            self.resize(projector_calibration.width_px, projector_calibration.height_px)
        # Drawn like the table view: tracked moves get their overlays on a worker thread, so the
        # projector never holds up the UI thread the live loop and the main window share.
        # The tag mask is made on the worker with the overlays, from the same snapshot (it follows the
        # units exactly where the overlays show them, and costs the UI thread only the black patches).
        self.renderer = ViewRenderer(session, self.compositor, self, self.view_spec, calibration=calibration,
                                     prepare=self._mask_of)

    def closeEvent(self, event: Any) -> None:
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
        self._show_cursor_and_hint()

    # -- keys and mouse: a way out on every screen -----------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            if self.isFullScreen():
                self.leave_full_screen()
            else:
                self.close()
        elif event.key() == Qt.Key.Key_F11:
            if self.isFullScreen():
                self.leave_full_screen()
            else:
                self.showFullScreen()
                self._show_cursor_and_hint()
        else:
            super().keyPressEvent(event)

    def leave_full_screen(self) -> None:
        """A normal window, two thirds of its screen, centred: easy to move, resize or close."""
        screen = self.screen().availableGeometry()
        self.showNormal()
        w, h = int(screen.width() * 2 / 3), int(screen.height() * 2 / 3)
        self.setGeometry(screen.x() + (screen.width() - w) // 2, screen.y() + (screen.height() - h) // 2, w, h)
        self._show_cursor_and_hint()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self._show_cursor_and_hint()
        super().mouseMoveEvent(event)

    def _show_cursor_and_hint(self) -> None:
        self.setCursor(Qt.CursorShape.ArrowCursor)
        if not self.hint_visible:
            self.hint_visible = True
            self.update()
        self._hide_timer.start(CURSOR_HIDE_MS)

    def _hide_cursor_and_hint(self) -> None:
        self.setCursor(Qt.CursorShape.BlankCursor)
        self.hint_visible = False
        self.update()

    def _paint_hint(self, p: QPainter) -> None:
        font = QFont()
        font.setPixelSize(max(14, min(22, self.height() // 40)))
        p.setFont(font)
        fm = p.fontMetrics()
        w, h = fm.horizontalAdvance(KEYS_HINT) + 32, fm.height() + 16
        box = QRectF((self.width() - w) / 2, 16, w, h)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(10, 12, 16, 230))
        p.drawRoundedRect(box, 6, 6)
        p.setPen(QColor("#ffffff"))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, KEYS_HINT)

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
        ground under it plus its base, at the size and turn the roster gives its tag, else the
        layout's unit tag size), where the picture is kept black."""
        return self._mask_of(self.session.snapshot())[1]

    def _mask_of(self, snapshot: Any, units: Any = None) -> tuple[tuple[str, bool], list[np.ndarray], list[int] | None]:
        """:meth:`tag_mask_polygons` of ``snapshot`` (of ``units`` only, standing as given, when
        given), with what they depend on besides it (the mode and whether tags are masked) and the
        unit each polygon covers (None when a tag the projector cannot place left the two out of
        step); any thread."""
        mode, mask = self.mode, self.mask_tags
        if mode != "projector" or not mask:
            return (mode, mask), [], []
        from types import SimpleNamespace

        from calibration.projector_mask import tag_mask_polygons
        from calibration.table_layout import DEFAULT_UNIT_TAG_SIZE_IN

        if units is not None:
            snapshot = SimpleNamespace(ground=snapshot.ground, units=tuple(units))
        default_size = getattr(getattr(self.calibration, "layout", None), "unit_tag_size_in", DEFAULT_UNIT_TAG_SIZE_IN)
        spots = tag_spots(snapshot, self.session.scenario, default_tag_size_in=default_size)
        polygons = tag_mask_polygons(self.projector_calibration, spots)
        ids = [u.unit_id for u in snapshot.units if u.on_table]
        return (mode, mask), polygons, ids if len(ids) == len(polygons) else None

    def _paint_tag_mask(self, p: QPainter, polygons: list[np.ndarray] | None = None) -> None:
        from PySide6.QtCore import QPointF
        from PySide6.QtGui import QPolygonF

        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # the same pixels on screen and in render_image
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(Qt.GlobalColor.black)
        # Qt's polygons kept while their arrays are the same (the mask changes only with the game):
        # making them point by point took a quarter of the projector's paint
        made, kept = self._mask_polygons, {}
        for poly in self.tag_mask_polygons() if polygons is None else polygons:
            found = made.get(id(poly))
            if found is None or found[0] is not poly:
                found = (poly, QPolygonF([QPointF(float(x), float(y)) for x, y in poly]))
            kept[id(poly)] = found
            p.drawPolygon(found[1])
        self._mask_polygons = kept
        p.restore()

    def _shown_mask(self) -> list[np.ndarray]:
        """The tag mask of the snapshot the renderer's last paint showed (made on its worker), the
        tags of the carried units whose pictures it moved to their newest poses put there too."""
        r = self.renderer
        prepared = r.shown_prepared
        if prepared is None or prepared[0] != (self.mode, self.mask_tags):
            prepared = self._mask_of(r.shown_snapshot if r.shown_snapshot is not None else self.session.snapshot())
            r.shown_prepared = prepared
        polygons: list[np.ndarray] = prepared[1]
        ids = prepared[2]
        moved = [uid for uid, move in r.shown_moves.items() if not move.isIdentity()]
        if moved and ids is not None and r.shown_snapshot is not None:
            now = [u for u in self.session.units() if u.unit_id in moved]
            extra = self._mask_of(r.shown_snapshot, now)[1]
            polygons = [poly for poly, uid in zip(polygons, ids) if uid not in moved] + extra
        return polygons

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            if self.pattern is not None:
                self._paint(p, (self.width(), self.height()))
            else:
                self.renderer.paint(p)
                self._paint_tag_mask(p, self._shown_mask())
                if self.hint_visible:
                    self._paint_hint(p)
        finally:
            p.end()
