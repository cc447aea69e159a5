"""The offscreen compositor: a camera frame (or a blank table) + a session snapshot + overlay toggles,
through a transform, into a QImage — what the live views, the projector window, the headless demo
video and the tests all draw with.

Works under ``QT_QPA_PLATFORM=offscreen``: it needs only a Qt application (:func:`ensure_qt_app`).

Cached between frames: the draw items of a snapshot (rebuilt only when the session changed, and
then only what changed: :class:`~appmodel.overlays.draw_memo.Memo`), every projected outline
(:class:`~gui.overlay_painter.OverlayPainter`), the overlays themselves as cached layers brought up to
date where they changed, with the units being moved drawn over them (:mod:`gui.overlay_layers`), the
remap tables that rectify the camera frame for the top-down view, and the frame's BGRA buffer.
"""
from __future__ import annotations

import math
import threading
import time
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QTransform

from appmodel.tracking.frame_gate import pause_point
from appmodel.overlays.draw_item import DrawItem
from appmodel.overlays.draw_memo import Memo
from appmodel.overlays.registry import OverlayToggles, build_items
from appmodel.overlays.transforms import CameraTransform, TopDownTransform
from calibration.rectify import RECTIFIED_PX_PER_IN, RectifyMaps, rectify, rectify_maps
from appmodel.overlays.moved_layer import Pose, pose_of, rigid_move_px
from gui.overlay_layers import LayerPart, LayerStack
from gui.overlay_painter import OverlayPainter

SAND = QColor("#5b5140")
SURROUND = QColor("#1c1f24")
_SURROUND_BGRA = (0x24, 0x1F, 0x1C, 0xFF)


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


@dataclass(frozen=True, eq=False)
class OverlayImage:
    """A view's overlays for one game version as pictures of their own (transparent where nothing
    is drawn), never changed once made: what an overlay worker hands the UI thread, which only blends
    them over the camera frame (:meth:`Compositor.paint_overlay_image`).

    ``parts``: ARGB32 premultiplied images in drawing order, each with the view rectangle it covers
    (x0, y0, x1, y1), where that rectangle starts in the image (the cached layer is the view's
    size; what moves is drawn on small ones of its own) and the carried unit whose own items it holds
    (:class:`~gui.overlay_layers.LayerPart`); ``content_px``: the rectangle holding
    something (None: nothing); ``version``: the snapshot's; ``view_key``: the view it was made for
    (:func:`view_key`); ``made_ms``: how long making it took, the snapshot included when a worker
    built that too."""

    parts: tuple[LayerPart, ...]
    content_px: tuple[int, int, int, int] | None
    version: int
    view_key: Hashable
    made_ms: float = 0.0
    #: Where each carried unit that has a picture of its own among ``parts`` stood when it was drawn
    #: ((unit id, :data:`~appmodel.overlays.moved_layer.Pose`) pairs): a view moves that picture from
    #: there to the unit's newer pose until the next exact image (:meth:`Compositor.preview_moves`).
    poses: tuple[tuple[int, Pose], ...] = ()
    #: Carried units with no picture of their own in this view (nothing of theirs in sight, or nothing
    #: drawn for them alone): nothing to move, so their next poses wait for no exact image either.
    unseen: frozenset[int] = frozenset()


@dataclass(frozen=True, eq=False)
class BackgroundImage:
    """A camera frame as one view shows it under the overlays (:meth:`Compositor.background_image`),
    never changed once made. ``pixels``: the BGRA buffer ``image`` shows (kept alive with it);
    ``frame``: the frame it was made from; ``key``: the view (:func:`background_key`)."""

    image: QImage
    pixels: np.ndarray
    frame: Any
    key: Hashable
    made_ms: float = 0.0


#: A carried unit's picture moved by less than this (pixels, at its corners) beyond a whole-pixel
#: shift is shifted, not resampled.
SHIFT_TOLERANCE_PX = 0.5
#: Moved pictures up to this many pixels are resampled smoothly (bilinear); bigger ones (the
#: selected unit's long rings) to the nearest pixel, which costs the UI thread a third as much.
SMOOTH_MOVE_MAX_PX = 250_000


#: Moved pictures bigger than this (pixels: the selected vehicle's 64" ring covers most of a 1080p
#: view) that do not turn are shifted by the move at their centre, to the pixel: resampled through
#: the lens, each cost the UI thread 10-15 ms a paint (``bench/gui_draw.py``); what the lens bends
#: across one (a pixel or two at the far edge of a long ring) waits for the exact image, at most a
#: quarter of a second (``EXACT_SPACING_S``).
SHIFT_BIG_MIN_PX = 500_000
#: ...as long as the move turns them less than this (degrees: a vehicle turning in place is resampled).
SHIFT_BIG_MAX_TURN_DEG = 0.5


def _as_shift(move: QTransform, box: tuple[int, int, int, int]) -> tuple[int, int] | None:
    """The whole-pixel shift ``move`` comes to over ``box`` (x0, y0, x1, y1) to within
    :data:`SHIFT_TOLERANCE_PX` (for a big picture that does not turn, its shift at the centre:
    :data:`SHIFT_BIG_MIN_PX`), or None when it turns, scales or bends the picture more."""
    x0, y0, x1, y1 = box
    m11, m12, m13, m21, m22, m23 = move.m11(), move.m12(), move.m13(), move.m21(), move.m22(), move.m23()
    m31, m32, m33 = move.m31(), move.m32(), move.m33()

    def moved(x: float, y: float) -> tuple[float, float]:
        w = m13 * x + m23 * y + m33
        return (m11 * x + m21 * y + m31) / w - x, (m12 * x + m22 * y + m32) / w - y

    shift: tuple[int, int] | None = None
    for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
        u, v = moved(x, y)
        if shift is None:
            shift = (round(u), round(v))
        if abs(u - shift[0]) > SHIFT_TOLERANCE_PX or abs(v - shift[1]) > SHIFT_TOLERANCE_PX:
            break
    else:
        return shift
    if (x1 - x0) * (y1 - y0) < SHIFT_BIG_MIN_PX or abs(math.degrees(math.atan2(m12, m11))) >= SHIFT_BIG_MAX_TURN_DEG:
        return None
    u, v = moved((x0 + x1) / 2, (y0 + y1) / 2)
    return (round(u), round(v))


def background_key(transform: Any, size: tuple[int, int], calibration: Any | None) -> Hashable:
    """What a background image depends on besides the frame."""
    return (transform.cache_key, (int(size[0]), int(size[1])), id(calibration))


def view_key(transform: Any, size: tuple[int, int], toggles: OverlayToggles) -> Hashable:
    """What an overlay image depends on besides the game: the transform, the view's size, the toggles."""
    return (transform.cache_key, (int(size[0]), int(size[1])), toggles)


class Compositor:
    """Draws snapshots; keep one per view so each keeps its own caches.

    The overlay caches (builders' memo, projections, label placement, the cached layer) are used by
    one thread at a time: :attr:`lock` is held while they change, so a view may have its worker make
    :meth:`overlay_image` while the UI thread paints backgrounds (the frame buffers are the painting
    thread's)."""

    def __init__(self, *, font_px: float = 15.0) -> None:
        self.painter = OverlayPainter(font_px=font_px)
        self.memo = Memo()
        self.layers = LayerStack(self.painter)
        self.lock = threading.RLock()
        self._items_key: Hashable = None
        self._items: list[DrawItem] = []
        self._rectify: tuple[Hashable, RectifyMaps] | None = None
        self._rectify_lock = threading.Lock()
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
        with self.lock:
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

    def _rectify_maps(self, calibration: Any, table_size_in: tuple[float, float]) -> RectifyMaps:
        """The remap tables onto the table plane (calibration.rectify), computed once per calibration."""
        key = (id(calibration), table_size_in)
        with self._rectify_lock:
            if self._rectify is None or self._rectify[0] != key:
                self._rectify = (key, rectify_maps(calibration, table_size_in, px_per_in=RECTIFIED_PX_PER_IN))
            return self._rectify[1]

    def rectified(self, frame_bgr: np.ndarray, calibration: Any, table_size_in: tuple[float, float]) -> np.ndarray:
        """The camera frame resampled onto the table plane, RECTIFIED_PX_PER_IN pixels per inch, row 0 at
        the table's far edge (y = depth), lens distortion removed (remap tables cached per calibration)."""
        return rectify(frame_bgr, self._rectify_maps(calibration, table_size_in))

    def background_image(self, frame_bgr: np.ndarray, transform: Any, size: tuple[int, int], *,
                         calibration: Any | None, table_size_in: tuple[float, float]) -> BackgroundImage:
        """A camera frame as a view shows it under the overlays, at the view's size: scaled and offset
        into the camera view, or rectified onto the table for the top-down view (bilinear, the
        surround colour around it). OpenCV only (other Python threads run meanwhile): a view's
        background worker makes one per new frame, and repaints for overlay changes reuse it."""
        import cv2

        t0 = time.perf_counter()
        w, h = int(size[0]), int(size[1])
        frame = np.ascontiguousarray(frame_bgr)
        if isinstance(transform, CameraTransform):
            s, (ox, oy) = float(transform.view_scale), transform.offset_px
            fh, fw = frame.shape[:2]
            if s == 1.0 and (ox, oy) == (0.0, 0.0) and (fw, fh) == (w, h):
                pixels = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
            else:
                # view pixel centre (X + 0.5) shows frame point (X + 0.5 - ox) / s, pixel centres at +0.5
                inverse = np.array([[1.0 / s, 0.0, (0.5 - ox) / s - 0.5], [0.0, 1.0 / s, (0.5 - oy) / s - 0.5]])
                pixels = cv2.warpAffine(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA), inverse, (w, h),
                                        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT,
                                        borderValue=_SURROUND_BGRA)
        else:
            if calibration is None:
                raise ValueError("the top-down view needs the table calibration to rectify a camera frame")
            flat = cv2.cvtColor(self.rectified(frame, calibration, table_size_in), cv2.COLOR_BGR2BGRA)
            rows, cols = flat.shape[:2]
            (left, top), (right, bottom) = transform.device_from_table(
                np.array([[0.0, table_size_in[1]], [table_size_in[0], 0.0]]))
            kx, ky = cols / (right - left), rows / (bottom - top)
            inverse = np.array([[kx, 0.0, (0.5 - left) * kx - 0.5], [0.0, ky, (0.5 - top) * ky - 0.5]])
            pixels = cv2.warpAffine(flat, inverse, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=_SURROUND_BGRA)
        image = QImage(pixels.data, w, h, w * 4, QImage.Format.Format_RGB32)
        return BackgroundImage(image, pixels, frame_bgr, background_key(transform, (w, h), calibration),
                               (time.perf_counter() - t0) * 1000.0)

    def paint_background(self, p: QPainter, size: tuple[int, int], transform: Any, *, frame_bgr: np.ndarray | None,
                         calibration: Any | None, table_size_in: tuple[float, float], black: bool = False,
                         background: BackgroundImage | None = None) -> None:
        """The view's background onto ``p``: black (projector), the camera frame, or the rectified table
        (``background``: the frame already made into this view's background, drawn as it is)."""
        w, h = size
        if black:
            p.fillRect(0, 0, w, h, Qt.GlobalColor.black)
            return
        if background is not None:
            p.drawImage(0, 0, background.image)
            return
        if frame_bgr is not None and (isinstance(transform, CameraTransform) or calibration is not None):
            p.drawImage(0, 0, self.background_image(frame_bgr, transform, size, calibration=calibration,
                                                    table_size_in=table_size_in).image)
            return
        p.fillRect(0, 0, w, h, SURROUND)
        if not isinstance(transform, CameraTransform):
            corners = transform.device_from_table(np.array([[0.0, table_size_in[1]], [table_size_in[0], 0.0]]))
            p.fillRect(QRectF(QPointF(*corners[0]), QPointF(*corners[1])), SAND)

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
        with self.lock:
            if not self.cache_layer:
                self.painter.paint(p, self.items(snapshot, toggles), transform, size=size)
                return
            overlay = self.overlay_image(snapshot, transform, toggles, size)
        # as a view shows a worker's picture, so that both give the same pixels
        self.paint_overlay_image(p, overlay)

    def overlay_image(self, snapshot: Any, transform: Any, toggles: OverlayToggles, size: tuple[int, int], *,
                      started_s: float | None = None) -> OverlayImage:
        """The overlays as an :class:`OverlayImage` of their own, made on the calling thread (a view's
        worker): the same drawing as :meth:`paint_overlays` — the units being moved, the cached layer
        over them, their labels on top — as pictures nobody changes afterwards (the moving parts on
        small ones of their own, the cached layer shared: :meth:`LayerStack.parts`).
        ``started_s``: ``time.perf_counter()`` when the job began (for ``made_ms``)."""
        t0 = time.perf_counter() if started_s is None else started_s
        w, h = int(size[0]), int(size[1])
        with self.lock:  # (its pause points let a camera frame on its way go first: frame_gate)
            pause_point()
            items = self.items(snapshot, toggles)
            pause_point()
            layers = self.layers
            layers.update(items, transform, (w, h))
            pause_point()
            content = layers.content_px()
            parts = tuple(layers.parts()) if content is not None else ()
            hot = layers.hot_now  # the carried units these parts were drawn with
        movers = {part.unit_id for part in parts if part.unit_id is not None}
        poses = tuple((u.unit_id, pose_of(u)) for u in snapshot.units if u.unit_id in movers)
        unseen = hot - movers
        return OverlayImage(parts, content, snapshot.version, view_key(transform, (w, h), toggles),
                            (time.perf_counter() - t0) * 1000.0, poses, unseen)

    @staticmethod
    def preview_moves(overlay: OverlayImage | None, units_now: Any, transform: Any) -> dict[int, QTransform]:
        """For each carried unit with a picture of its own in ``overlay`` that stands elsewhere now
        (``units_now``: the session's units), the view-pixel move from where it was drawn to where it
        is (:func:`~appmodel.overlays.moved_layer.rigid_move_px`; the identity for one still where it
        was drawn); a unit the view cannot place now, or that left the table, is left out (its
        picture stays where the exact image drew it)."""
        if overlay is None or not overlay.poses:
            return {}
        now = {u.unit_id: u for u in units_now}
        out = {}
        for uid, was in overlay.poses:
            u = now.get(uid)
            if u is None or not u.on_table:
                continue
            pose = pose_of(u)
            if pose == was:  # where it was drawn: shown as it is
                out[uid] = QTransform()
                continue
            h = rigid_move_px(transform, was, pose)
            if h is not None:
                h = h / h[2, 2]  # Qt's order: x' = (m11 x + m21 y + m31) / (m13 x + m23 y + m33), ...
                out[uid] = QTransform(h[0, 0], h[1, 0], h[2, 0], h[0, 1], h[1, 1], h[2, 1], h[0, 2], h[1, 2], 1.0)
        return out

    @staticmethod
    def paint_overlay_image(p: QPainter, overlay: OverlayImage | None,
                            moves: dict[int, QTransform] | None = None) -> None:
        """Blend a finished overlay image over what ``p`` holds (each part only where it holds something),
        the pictures of the carried units in ``moves`` moved by their transforms (:meth:`preview_moves`)."""
        if overlay is None or overlay.content_px is None:
            return
        for image, (x0, y0, x1, y1), (sx, sy), unit_id in overlay.parts:
            move = moves.get(unit_id) if moves and unit_id is not None else None
            if move is None or move.isIdentity():
                p.drawImage(x0, y0, image, sx, sy, x1 - x0, y1 - y0)
                continue
            p.save()
            shift = _as_shift(move, (x0, y0, x1, y1))
            if shift is not None:  # placed to the pixel: Qt's plain blend
                p.translate(*shift)
            else:  # a turn, or the lens's scale over a big picture: resampled (smoothly when small)
                p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform,
                                (x1 - x0) * (y1 - y0) <= SMOOTH_MOVE_MAX_PX)
                p.setTransform(move, True)
            p.drawImage(x0, y0, image, sx, sy, x1 - x0, y1 - y0)
            p.restore()

    def compose(self, snapshot: Any, transform: Any, toggles: OverlayToggles, *, size: tuple[int, int] | None = None,
                frame_bgr: np.ndarray | None = None, calibration: Any | None = None, black: bool = False,
                overlay: OverlayImage | None = None) -> QImage:
        """One finished picture as a QImage (Format_RGB32): the background, and the overlays as an
        :class:`OverlayImage` blended over it — made here, or ``overlay``, one a worker made for this
        view — so the picture is exactly what a table view shows. ``size`` defaults to the frame's or
        the transform's viewport. A camera-view frame at its own size is painted on in place (no copy)."""
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
        if overlay is None and self.cache_layer:
            overlay = self.overlay_image(snapshot, transform, toggles, (w, h))
        in_place = (frame_bgr is not None and not black and isinstance(transform, CameraTransform)
                    and transform.view_scale == 1.0 and transform.offset_px == (0.0, 0.0)
                    and (frame_bgr.shape[1], frame_bgr.shape[0]) == (w, h))
        if in_place:
            image = self._frame_image(frame_bgr)
            p = QPainter(image)
        else:
            image = QImage(w, h, QImage.Format.Format_RGB32)
            p = QPainter(image)
            table = snapshot.table_size_in if snapshot is not None else getattr(transform, "table_size_in", (72.0, 48.0))
            self.paint_background(p, (w, h), transform, frame_bgr=frame_bgr, calibration=calibration,
                                  table_size_in=table, black=black)
        try:
            if overlay is not None:
                self.paint_overlay_image(p, overlay)
            else:
                self.paint_overlays(p, snapshot, transform, toggles, (w, h))
        finally:
            p.end()
        return image


def compose(snapshot: Any, transform: Any, toggles: OverlayToggles | None = None, *, frame_bgr: np.ndarray | None = None,
            size: tuple[int, int] | None = None, calibration: Any | None = None, black: bool = False) -> QImage:
    """One-off :meth:`Compositor.compose` (a video writer should keep a :class:`Compositor` for its caches)."""
    image = Compositor().compose(snapshot, transform, toggles or OverlayToggles(), size=size, frame_bgr=frame_bgr,
                                 calibration=calibration, black=black)
    return image.copy()
