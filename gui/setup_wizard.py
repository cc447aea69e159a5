"""The first-run walkthrough of `sandtable run` as a wizard: print, place, (lens), register, (projector).

Each page shows one step of :mod:`gui.setup_steps` with the camera's live picture where it helps: the
anchors the camera sees are outlined green as the user places them, and the registration shows its
error in inches with Accept (Next) or Capture again. Nothing requires editing a file; the files it
makes are remembered in the settings so the next run starts directly.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QLabel, QPushButton, QRadioButton, QVBoxLayout, QWidget,
                               QWizard, QWizardPage)

from gui import setup_steps

PREVIEW_W = 560


@dataclass(frozen=True)
class SetupResult:
    """What the walkthrough made: the table calibration (saved at ``calibration_path``) and an
    optional projector calibration file."""

    calibration: Any
    calibration_path: Path
    projector_path: Path | None = None


#: Anchors seen are outlined green; where a missing one should be, a dashed amber outline and a label.
SEEN_COLOR = "#3ee06a"
EXPECTED_COLOR = "#ffb020"
MIN_MARK_RADIUS_PX = 18


def _pixmap(frame_bgr: np.ndarray | None, outlines: dict[int, Any] | None = None, width: int = PREVIEW_W,
            expected: dict[int, Any] | None = None, *, rough: bool = False) -> QPixmap:
    """The camera's picture at ``width`` with the anchors seen outlined and where the ``expected`` ones
    should be marked (``rough``: a guess from two anchors, and worded so)."""
    if frame_bgr is None:
        pm = QPixmap(width, int(width * 9 / 16))
        pm.fill(QColor("#202226"))
        p = QPainter(pm)
        p.setPen(QColor("#c0c0c0"))
        p.drawText(pm.rect(), int(Qt.AlignmentFlag.AlignCenter), "waiting for the camera…")
        p.end()
        return pm
    import cv2

    h, w = frame_bgr.shape[:2]
    scale = width / w
    small = cv2.resize(frame_bgr, (width, int(round(h * scale))), interpolation=cv2.INTER_AREA)
    rgb = cv2.cvtColor(small, cv2.COLOR_BGR2RGB) if small.ndim == 3 else cv2.cvtColor(small, cv2.COLOR_GRAY2RGB)
    image = QImage(rgb.data, rgb.shape[1], rgb.shape[0], rgb.strides[0], QImage.Format.Format_RGB888).copy()
    if outlines or expected:
        p = QPainter(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setPen(QPen(QColor(SEEN_COLOR), 3))
        for tag_id, corners in (outlines or {}).items():
            pts = [QPointF(float(x) * scale, float(y) * scale) for x, y in np.asarray(corners).reshape(-1, 2)]
            p.drawPolygon(QPolygonF(pts))
            p.drawText(pts[1] + QPointF(0, -4), str(tag_id))
        labels: list[Any] = []  # placed so far: a label never covers another
        for tag_id, corners in sorted((expected or {}).items()):
            _mark_expected(p, tag_id, np.asarray(corners, float).reshape(-1, 2) * scale, image.width(), image.height(),
                           rough=rough, taken=labels)
        p.end()
    return QPixmap.fromImage(image)


def _mark_expected(p: QPainter, tag_id: int, corners: np.ndarray, width: int, height: int, *, rough: bool,
                   taken: list[Any]) -> None:
    """A dashed outline where anchor ``tag_id`` should be (larger than the tag, so a far one shows) and a
    label saying so; beyond the picture, the label at the nearest edge says that instead. The label moves
    off the ones in ``taken`` (and joins them)."""
    from PySide6.QtCore import QRectF

    centre = corners.mean(axis=0)
    inside = 0 <= centre[0] < width and 0 <= centre[1] < height
    pen = QPen(QColor(EXPECTED_COLOR), 3, Qt.PenStyle.DashLine)
    p.setPen(pen)
    radius = float(np.max(np.linalg.norm(corners - centre, axis=1)))
    grow = max(1.5, MIN_MARK_RADIUS_PX / max(radius, 1e-6))
    p.drawPolygon(QPolygonF([QPointF(*(centre + grow * (c - centre))) for c in corners]))
    radius *= grow
    where = ("about here" if rough else "here") if inside else ("near this edge" if rough else "beyond this edge")
    text = f"anchor {tag_id} not seen — expected {where}"
    metrics = p.fontMetrics()
    box = QRectF(0, 0, metrics.horizontalAdvance(text) + 10, metrics.height() + 6)
    # Below the mark, or above it near the bottom; always whole inside the picture, clear of other labels.
    x = min(max(centre[0] - box.width() / 2, 2.0), width - box.width() - 2)
    below = centre[1] + radius + 4 + box.height() < height
    y = centre[1] + radius + 4 if below else centre[1] - radius - 4 - box.height()
    box.moveTo(x, min(max(y, 2.0), height - box.height() - 2))
    step = (box.height() + 2) * (1 if box.top() < height / 2 else -1)
    while any(box.intersects(other) for other in taken) and 0 <= box.top() + step <= height - box.height():
        box.translate(0, step)
    taken.append(box)
    p.fillRect(box, QColor(0, 0, 0, 190))
    p.setPen(QColor(EXPECTED_COLOR))
    p.drawText(box, int(Qt.AlignmentFlag.AlignCenter), text)


class _Page(QWizardPage):
    def __init__(self, wizard: "SetupWizard", title: str, subtitle: str) -> None:
        super().__init__()
        self.owner = wizard
        self.setTitle(title)
        self.setSubTitle(subtitle)
        self.layout_ = QVBoxLayout(self)

    def label(self, text: str = "") -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.layout_.addWidget(label)
        return label


class PrintPage(_Page):
    def __init__(self, wizard: "SetupWizard") -> None:
        super().__init__(wizard, "1. Print the tags",
                         "Anchor tags mark the table; every unit carries its own tag.")
        why = wizard.intro
        self.label((f"<b>{why}</b><br><br>" if why else "") +
                   f"The scenario is <b>{Path(wizard.scenario_path).name}</b>. Write its tags as PDFs, print them at "
                   "100% (actual size) and check the 1-inch bar with a ruler. Stick each unit's tag on its base with the "
                   "tag's top edge toward the model's front. Already printed? Go on.")
        row = QHBoxLayout()
        self.button = QPushButton("Write the anchor and unit tags (PDF)…")
        self.button.clicked.connect(self.choose_folder)
        row.addWidget(self.button)
        row.addStretch(1)
        self.layout_.addLayout(row)
        self.result_label = self.label()
        self.layout_.addStretch(1)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Folder for the tag PDFs", str(Path(self.owner.scenario_path).parent))
        if folder:
            self.write_to(folder)

    def write_to(self, folder: str | Path) -> setup_steps.PrintedSheets:
        from appmodel.errors import UsageError

        try:
            sheets = setup_steps.write_tags_for(self.owner.scenario_path, folder)
        except (UsageError, ValueError, OSError) as exc:
            self.result_label.setText(f"<span style='color:#ff7b6b'>{exc}</span>")
            raise
        self.result_label.setText(sheets.message)
        return sheets


class AnchorPage(_Page):
    def __init__(self, wizard: "SetupWizard") -> None:
        layout = wizard.table_layout
        super().__init__(wizard, "2. Place the anchors",
                         f"Tape the {len(layout.anchors)} anchor tags flat on the {layout.width_in:g} x {layout.depth_in:g} in "
                         "table, each where its label says.")
        places = "; ".join(f"anchor {a.tag_id} at ({a.x_in:g}, {a.y_in:g}) in, the {setup_steps.describe_place(a, layout)}"
                           for a in layout.anchors)
        self.label(f"Table inches start at the corner next to anchor 0, x along the width, y along the depth: {places}. "
                   "The camera's picture below outlines every anchor it sees in green, and marks with a dashed outline "
                   "where one it cannot see should be.")
        self.preview = QLabel()
        self.preview.setPixmap(_pixmap(None))
        self.layout_.addWidget(self.preview)
        self.status = self.label("Looking for the anchors…")
        self.check: setup_steps.AnchorCheck | None = None
        self._worker: threading.Thread | None = None
        self._pending: setup_steps.AnchorCheck | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(150)
        self.timer.timeout.connect(self._tick)

    def initializePage(self) -> None:  # Qt's name
        self.timer.start()

    def cleanupPage(self) -> None:
        self.timer.stop()

    def check_now(self) -> setup_steps.AnchorCheck | None:
        """Check the newest frame on this thread (tests, and the Next button's last look)."""
        frame = self.owner.newest_frame()
        if frame is None:
            return None
        self._show(setup_steps.check_anchors(frame, self.owner.table_layout), frame)
        return self.check

    def _tick(self) -> None:
        frame = self.owner.newest_frame()
        if self._pending is not None:
            check, self._pending = self._pending, None
            self._show(check, frame)
        elif frame is not None:
            self.preview.setPixmap(_pixmap(frame, self.check.corners_px if self.check else None,
                                           expected=self.check.expected_px if self.check else None,
                                           rough=bool(self.check and self.check.expected_rough)))
        if frame is not None and (self._worker is None or not self._worker.is_alive()):
            def work(image: np.ndarray = frame) -> None:
                self._pending = setup_steps.check_anchors(image, self.owner.table_layout)
            self._worker = threading.Thread(target=work, name="sandtable-anchor-check", daemon=True)
            self._worker.start()

    def _show(self, check: setup_steps.AnchorCheck, frame: np.ndarray | None) -> None:
        self.check = check
        self.status.setText(check.message)
        self.preview.setPixmap(_pixmap(frame, check.corners_px, expected=check.expected_px, rough=check.expected_rough))
        self.completeChanged.emit()


class LensPage(_Page):
    def __init__(self, wizard: "SetupWizard") -> None:
        super().__init__(wizard, "3. The lens (optional)",
                         "A lens calibration makes every measurement exact; without one the lens is fitted to the anchors.")
        self.label("If you have run <tt>sandtable board</tt> and <tt>sandtable calibrate camera</tt> for this camera, use "
                   "its camera.json. Without it a wide-angle webcam measures to about half an inch, good enough to start.")
        self.skip = QRadioButton("No lens file: fit the lens to the anchors")
        self.use = QRadioButton("Use a lens file…")
        self.skip.setChecked(True)
        self.use.toggled.connect(lambda on: self.choose() if on and self.owner.camera_model is None else None)
        self.skip.toggled.connect(lambda on: self.set_model(None) if on else None)
        self.layout_.addWidget(self.skip)
        self.layout_.addWidget(self.use)
        self.status = self.label()
        self.layout_.addStretch(1)

    def choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Lens calibration", str(Path.home()), "Camera model (*.json)")
        if path:
            self.use_file(path)
        else:
            self.skip.setChecked(True)

    def use_file(self, path: str | Path) -> None:
        from calibration.errors import CalibrationError
        from calibration.files import load_camera_model

        try:
            self.set_model(load_camera_model(path))
            self.status.setText(f"Using {path}.")
            self.use.setChecked(True)
        except CalibrationError as exc:
            self.set_model(None)
            self.skip.setChecked(True)
            self.status.setText(f"<span style='color:#ff7b6b'>{exc}</span>")

    def set_model(self, model: Any | None) -> None:
        self.owner.camera_model = model
        if model is None:
            self.status.setText("The lens will be fitted to the anchors.")


class RegisterPage(_Page):
    def __init__(self, wizard: "SetupWizard") -> None:
        super().__init__(wizard, "4. Register the table",
                         "One picture of the anchors tells where the camera is over the table.")
        self.label("Clear the table of hands, check every anchor is in view, then capture. The error is how far the "
                   "anchors' corners land from where they should, in inches. " + setup_steps.verdict_rule())
        self.preview = QLabel()
        self.preview.setPixmap(_pixmap(None))
        self.layout_.addWidget(self.preview)
        row = QHBoxLayout()
        self.button = QPushButton("Capture and register")
        self.button.clicked.connect(self.capture)
        row.addWidget(self.button)
        row.addStretch(1)
        self.layout_.addLayout(row)
        self.status = self.label()
        self.registration: setup_steps.Registration | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(150)
        self.timer.timeout.connect(self._tick)

    def initializePage(self) -> None:
        self.timer.start()

    def cleanupPage(self) -> None:
        self.timer.stop()

    def _tick(self) -> None:
        frame = self.owner.newest_frame()
        if frame is not None and self.registration is None:
            self.preview.setPixmap(_pixmap(frame))

    def capture(self) -> setup_steps.Registration:
        frame = self.owner.newest_frame()
        if frame is None:
            self.registration = setup_steps.Registration(None, "retry", "No picture from the camera yet; check it is "
                                                         "plugged in, then capture again.")
        else:
            self.registration = setup_steps.register_frame(frame, self.owner.table_layout, self.owner.camera_model)
            layout = self.owner.table_layout
            check = setup_steps.check_anchors(frame, layout)
            expected, rough = check.expected_px, check.expected_rough
            calibration = self.registration.calibration
            if calibration is not None:  # registered: where the missing anchors are, through the lens too
                expected = {i: calibration.camera_from_table(layout.anchor(i).corners_in()[:, :2]) for i in check.missing}
                rough = False
            self.preview.setPixmap(_pixmap(frame, check.corners_px, expected=expected, rough=rough))
        colour = {"good": "#3ee06a", "usable": "#ffd24a", "retry": "#ff7b6b"}[self.registration.verdict]
        self.status.setText(f"<span style='color:{colour}'><b>{self.registration.verdict.capitalize()}.</b></span> "
                            f"{self.registration.message}")
        self.button.setText("Capture again")
        self.completeChanged.emit()
        return self.registration

    def isComplete(self) -> bool:
        return self.registration is not None and self.registration.verdict in ("good", "usable")

    def validatePage(self) -> bool:
        """Accept: the calibration is saved where it will be found next time."""
        if not self.isComplete():
            return False
        assert self.registration is not None
        self.owner.saved_path = setup_steps.save_calibration(self.registration.calibration, self.owner.calibration_path)
        self.owner.calibration = self.registration.calibration
        return True


class ProjectorPage(_Page):
    def __init__(self, wizard: "SetupWizard") -> None:
        super().__init__(wizard, "5. The projector (optional)",
                         "With a projector over the table the players see ranges and fans on the sand itself.")
        self.label("Once the window is open: Projector → Calibrate the projector… shows a pattern on the projector "
                   "and the camera measures where it falls. If you calibrated it before, use that file now.")
        row = QHBoxLayout()
        self.button = QPushButton("Use a projector calibration…")
        self.button.clicked.connect(self.choose)
        row.addWidget(self.button)
        row.addStretch(1)
        self.layout_.addLayout(row)
        self.status = self.label("No projector: fine — the presenter window (Ctrl+Shift+P) shows the table on a TV.")
        self.layout_.addStretch(1)

    def choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Projector calibration", str(Path.home()), "Projector calibration (*.json)")
        if path:
            self.use_file(path)

    def use_file(self, path: str | Path) -> None:
        from calibration.errors import CalibrationError
        from calibration.projector import load_projector_calibration

        try:
            load_projector_calibration(path)
        except CalibrationError as exc:
            self.status.setText(f"<span style='color:#ff7b6b'>{exc}</span>")
            return
        self.owner.projector_path = Path(path)
        self.status.setText(f"Using {path}.")


class DonePage(_Page):
    def __init__(self, wizard: "SetupWizard") -> None:
        super().__init__(wizard, "Ready", "The table is calibrated.")
        self.summary = self.label()

    def initializePage(self) -> None:
        reg = self.owner.calibration
        self.summary.setText(
            f"The table calibration is saved in <tt>{self.owner.saved_path}</tt> "
            f"({reg.residual_in:.3f} in registration error) and remembered: the next <tt>sandtable run</tt> starts "
            "directly. If the camera or the table moves, the tracker notices from the anchors and registers again; "
            "to start over, run <tt>sandtable run --recalibrate</tt>.<br><br>Finish opens the companion.")


class SetupWizard(QWizard):
    """The walkthrough (mutable). ``source``: the camera (``latest_frame(timeout_s)``); the newest
    frame is kept for the pages. ``intro``: why the walkthrough runs (first run, a lost file)."""

    def __init__(self, source: Any, *, scenario_path: str | Path, layout: Any, calibration_path: str | Path,
                 intro: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Sandtable Companion — set up the table")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.source = source
        self.scenario_path = str(scenario_path)
        self.table_layout = layout
        self.calibration_path = Path(calibration_path)
        self.intro = intro
        self.camera_model: Any | None = None
        self.calibration: Any | None = None
        self.saved_path: Path | None = None
        self.projector_path: Path | None = None
        self._frame: np.ndarray | None = None
        self._closed = False
        self.print_page = PrintPage(self)
        self.anchor_page = AnchorPage(self)
        self.lens_page = LensPage(self)
        self.register_page = RegisterPage(self)
        self.projector_page = ProjectorPage(self)
        self.done_page = DonePage(self)
        for page in (self.print_page, self.anchor_page, self.lens_page, self.register_page, self.projector_page,
                     self.done_page):
            self.addPage(page)
        self.resize(760, 700)

    def done(self, result: int) -> None:
        """Finished or cancelled: the pages stop looking at the camera (it goes on to the game)."""
        for page in (self.anchor_page, self.register_page):
            page.timer.stop()
        self._closed = True
        super().done(result)

    def newest_frame(self) -> np.ndarray | None:
        """The camera's newest picture (the last one seen when none is new)."""
        if self._closed:
            return self._frame
        frame = self.source.latest_frame(0.0)
        if frame is not None:
            self._frame = frame.image_bgr
        return self._frame

    def result_value(self) -> SetupResult | None:
        if self.calibration is None or self.saved_path is None:
            return None
        return SetupResult(self.calibration, self.saved_path, self.projector_path)


__all__ = ["SetupResult", "SetupWizard"]
