"""The offscreen compositor: a camera frame (or a blank table) + a session snapshot + overlay toggles,
through a transform, into a QImage — what the live views, the projector window, the headless demo
video and the tests all draw with.

Works under ``QT_QPA_PLATFORM=offscreen``: it needs only a Qt application (:func:`ensure_qt_app`).

Cached between frames: the draw items of a snapshot (rebuilt only when the session changed, and
then only what changed: :class:`~gui.draw_memo.Memo`), every projected outline
(:class:`~gui.overlay_painter.OverlayPainter`), the overlays themselves as cached layers brought up to
date where they changed, with the units being moved drawn over them (:mod:`gui.overlay_layers`), the
remap tables that rectify the camera frame for the top-down view, and the frame's BGRA buffer.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter

from gui.draw_memo import Memo
from gui.overlay_layers import LayerStack
from gui.overlay_painter import OverlayPainter
from gui.overlay_shapes import DrawItem, build_items
from gui.settings import OverlayToggles
from gui.transforms import CameraTransform, TopDownTransform

SAND = QColor("#5b5140")
SURROUND = QColor("#1c1f24")
#: Resolution of the rectified camera picture under the top-down view.
RECTIFIED_PX_PER_IN = 10.0


def ensure_qt_app() -> Any:
    """The running Qt application, or a new one (QImage + QPainter work offscreen). A QApplication
    rather than a bare QGuiApplication: widgets created later in the same process (a window opened by
    the demo, pytest-qt's qtbot) abort on a QGuiApplication."""
    app = QGuiApplication.instance()
    if app is None:
        from PySide6.QtWidgets import QApplication

        app = QApplication(["sandtable"])
    return app


def qimage_from_bgr(frame_bgr: np.ndarray) -> QImage:
    """A QImage (Format_RGB32, its own copy) of a BGR frame: BGRA bytes are RGB32 on little-endian hosts."""
    import cv2

    bgra = cv2.cvtColor(np.ascontiguousarray(frame_bgr), cv2.COLOR_BGR2BGRA)
    h, w = bgra.shape[:2]
    return QImage(bgra.data, w, h, w * 4, QImage.Format.Format_RGB32).copy()


def bgr_from_qimage(image: QImage) -> np.ndarray:
    """A BGR numpy copy of a QImage (for video writers and pixel tests)."""
    img = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = img.width(), img.height()
    buf = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.sizeInBytes()).reshape(h, img.bytesPerLine())
    return buf[:, : w * 4].reshape(h, w, 4)[:, :, :3].copy()


class Compositor:
    """Draws snapshots; keep one per view so each keeps its own caches."""

    def __init__(self, *, font_px: float = 15.0) -> None:
        self.painter = OverlayPainter(font_px=font_px)
        self.memo = Memo()
        self.layers = LayerStack(self.painter)
        self._items_key: Hashable = None
        self._items: list[DrawItem] = []
        self._rectify: tuple[Hashable, Any, Any] | None = None
        self._bgra: np.ndarray | None = None
        #: False draws every overlay straight onto the frame each time (the bench's comparison).
        self.cache_layer = True

    @property
    def incremental(self) -> bool:
        """False repaints a cached layer whole whenever anything in it changed (the bench's comparison)."""
        return self.layers.incremental

    @incremental.setter
    def incremental(self, on: bool) -> None:
        self.layers.incremental = bool(on)

    @property
    def last_update(self) -> str:
        """What the last frame did to the cached layers: "none", "region" or "full"."""
        return self.layers.last_update

    @property
    def last_repainted_px(self) -> int:
        return self.layers.last_repainted_px

    def items(self, snapshot: Any, toggles: OverlayToggles) -> list[DrawItem]:
        """The snapshot's draw items for the overlays switched on (rebuilt only when either changed,
        and then only the parts whose inputs changed)."""
        key = (snapshot.version, id(snapshot.state), toggles)
        if key != self._items_key:
            self._items = build_items(snapshot, [n for n in toggles.names() if toggles.is_on(n)], memo=self.memo)
            self._items_key = key
            self.layers.note_units(snapshot.units)
        return self._items

    def invalidate(self) -> None:
        """Forget the cached layers: the next frame repaints them whole (label placement is kept)."""
        self.layers.invalidate()

    # -- backgrounds ------------------------------------------------------------------------------
    def _frame_image(self, frame_bgr: np.ndarray) -> QImage:
        """The frame as a QImage sharing this compositor's BGRA buffer (valid until the next frame)."""
        import cv2

        h, w = frame_bgr.shape[:2]
        if self._bgra is None or self._bgra.shape[:2] != (h, w):
            self._bgra = np.empty((h, w, 4), dtype=np.uint8)
        cv2.cvtColor(np.ascontiguousarray(frame_bgr), cv2.COLOR_BGR2BGRA, dst=self._bgra)
        return QImage(self._bgra.data, w, h, w * 4, QImage.Format.Format_RGB32)

    def rectified(self, frame_bgr: np.ndarray, calibration: Any, table_size_in: tuple[float, float]) -> np.ndarray:
        """The camera frame resampled onto the table plane, RECTIFIED_PX_PER_IN pixels per inch, row 0 at
        the table's far edge (y = depth), lens distortion removed (remap tables cached per calibration)."""
        import cv2

        key = (id(calibration), table_size_in, frame_bgr.shape[:2])
        if self._rectify is None or self._rectify[0] != key:
            w_in, d_in = table_size_in
            s = RECTIFIED_PX_PER_IN
            cols, rows = int(round(w_in * s)), int(round(d_in * s))
            xs = (np.arange(cols) + 0.5) / s
            ys = d_in - (np.arange(rows) + 0.5) / s
            gx, gy = np.meshgrid(xs, ys)
            px = calibration.camera_from_table(np.column_stack([gx.ravel(), gy.ravel()]))
            map_x = px[:, 0].reshape(rows, cols).astype(np.float32)
            map_y = px[:, 1].reshape(rows, cols).astype(np.float32)
            self._rectify = (key, map_x, map_y)
        _, map_x, map_y = self._rectify
        return cv2.remap(frame_bgr, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)

    def paint_background(self, p: QPainter, size: tuple[int, int], transform: Any, *, frame_bgr: np.ndarray | None,
                         calibration: Any | None, table_size_in: tuple[float, float], black: bool = False) -> None:
        w, h = size
        if black:
            p.fillRect(0, 0, w, h, Qt.GlobalColor.black)
            return
        if isinstance(transform, CameraTransform):
            p.fillRect(0, 0, w, h, SURROUND)
            if frame_bgr is not None:
                fh, fw = frame_bgr.shape[:2]
                target = QRectF(transform.offset_px[0], transform.offset_px[1], fw * transform.view_scale, fh * transform.view_scale)
                p.drawImage(target, self._frame_image(frame_bgr))
            return
        p.fillRect(0, 0, w, h, SURROUND)
        corners = transform.device_from_table(np.array([[0.0, table_size_in[1]], [table_size_in[0], 0.0]]))
        rect = QRectF(QPointF(*corners[0]), QPointF(*corners[1]))
        if frame_bgr is not None and calibration is not None:
            flat = self.rectified(frame_bgr, calibration, table_size_in)
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            p.drawImage(rect, self._frame_image(flat))
        else:
            p.fillRect(rect, SAND)

    # -- whole pictures ---------------------------------------------------------------------------
    def paint(self, p: QPainter, snapshot: Any, transform: Any, toggles: OverlayToggles, size: tuple[int, int], *,
              frame_bgr: np.ndarray | None = None, calibration: Any | None = None, black: bool = False,
              extra_items: Iterable[DrawItem] = ()) -> None:
        """Background, then the overlays switched on, onto ``p`` (a widget's or an image's painter)."""
        self.paint_background(p, size, transform, frame_bgr=frame_bgr, calibration=calibration,
                              table_size_in=snapshot.table_size_in, black=black)
        extra = list(extra_items)
        self.paint_overlays(p, snapshot, transform, toggles, size)
        if extra:
            self.painter.paint(p, extra, transform, size=size, remember_labels=False)

    def paint_overlays(self, p: QPainter, snapshot: Any, transform: Any, toggles: OverlayToggles,
                       size: tuple[int, int]) -> None:
        """The overlays onto ``p``: the cached layers, brought up to date where the game changed, and
        the units being moved drawn between them (:mod:`gui.overlay_layers`)."""
        items = self.items(snapshot, toggles)
        if not self.cache_layer:
            self.painter.paint(p, items, transform, size=size)
            return
        self.layers.update(items, transform, size)
        self.layers.paint(p)

    def compose(self, snapshot: Any, transform: Any, toggles: OverlayToggles, *, size: tuple[int, int] | None = None,
                frame_bgr: np.ndarray | None = None, calibration: Any | None = None, black: bool = False) -> QImage:
        """One finished picture as a QImage (Format_RGB32). ``size`` defaults to the frame's or the
        transform's viewport. A camera-view frame at its own size is painted on in place (no copy)."""
        ensure_qt_app()
        if size is None:
            if isinstance(transform, TopDownTransform):
                size = transform.viewport_px
            elif frame_bgr is not None:
                size = (frame_bgr.shape[1], frame_bgr.shape[0])
            elif isinstance(transform, CameraTransform):
                size = transform.image_size_px
            else:
                size = (transform.calibration.width_px, transform.calibration.height_px)
        w, h = int(size[0]), int(size[1])
        in_place = (frame_bgr is not None and not black and isinstance(transform, CameraTransform)
                    and transform.view_scale == 1.0 and transform.offset_px == (0.0, 0.0)
                    and (frame_bgr.shape[1], frame_bgr.shape[0]) == (w, h))
        if in_place:
            image = self._frame_image(frame_bgr)
            p = QPainter(image)
            try:
                self.paint_overlays(p, snapshot, transform, toggles, (w, h))
            finally:
                p.end()
            return image
        image = QImage(w, h, QImage.Format.Format_RGB32)
        p = QPainter(image)
        try:
            self.paint(p, snapshot, transform, toggles, (w, h), frame_bgr=frame_bgr, calibration=calibration, black=black)
        finally:
            p.end()
        return image


def compose(snapshot: Any, transform: Any, toggles: OverlayToggles | None = None, *, frame_bgr: np.ndarray | None = None,
            size: tuple[int, int] | None = None, calibration: Any | None = None, black: bool = False) -> QImage:
    """One-off :meth:`Compositor.compose` (a video writer should keep a :class:`Compositor` for its caches)."""
    image = Compositor().compose(snapshot, transform, toggles or OverlayToggles(), size=size, frame_bgr=frame_bgr,
                                 calibration=calibration, black=black)
    return image.copy()
