"""Where several cameras' views overlap, shown after the walkthrough has calibrated each camera in turn.

A top-down picture of the table (``calibration.coverage.coverage_image``): each camera's view in its
own tint, the overlaps darker, a gap no camera sees hatched red, the anchors with their ids and each
camera's name where it hangs; under it one line for the whole table and one per camera (the anchors it
was registered from and its error in inches). A gap is said plainly with what it means in the game:
units there stay stale until a camera sees them again.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

PICTURE_W = 720


def coverage_lines(calibrations: Mapping[str, Any], cover: Any) -> list[str]:
    """The words under the picture: the table's coverage, then each camera's registration."""
    lines = [cover.summary() + "."]
    for name, cal in calibrations.items():
        anchors = getattr(cal, "anchors_used", None)
        used = f"anchors {', '.join(str(a) for a in anchors)}, " if anchors else ""
        lines.append(f"{name}: registered from {used}{cal.residual_in:.3f} in error")
    if cover.gap_fraction > 0:
        lines.append("Units in the red part are seen by no camera: they stay where they were last seen (stale) "
                     "until a camera sees them again. Move or turn a camera to close the gap, or play around it.")
    return lines


class CoverageDialog(QDialog):
    """Shows which camera sees which part of the table; Start the game (accept) or Quit (reject)."""

    def __init__(self, calibrations: Mapping[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        import cv2

        from calibration.coverage import coverage_image, coverage_map

        self.setWindowTitle("Sandtable Companion — where the cameras' views overlap")
        names = list(calibrations)
        cals = [calibrations[n] for n in names]
        self.cover = coverage_map(cals, names, cell_in=1.0)
        picture = coverage_image(self.cover, cals)
        scale = PICTURE_W / picture.shape[1]
        small = cv2.resize(picture, (PICTURE_W, int(round(picture.shape[0] * scale))), interpolation=cv2.INTER_AREA)
        rgb = np.ascontiguousarray(cv2.cvtColor(small, cv2.COLOR_BGR2RGB))
        image = QImage(rgb.data, rgb.shape[1], rgb.shape[0], rgb.strides[0], QImage.Format.Format_RGB888).copy()
        self.picture = QLabel()
        self.picture.setPixmap(QPixmap.fromImage(image))
        self.text = QLabel("<br>".join(coverage_lines(calibrations, self.cover)))
        self.text.setWordWrap(True)
        buttons = QDialogButtonBox()
        self.start_button = buttons.addButton("Start the game", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton("Quit", QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("<b>Every camera is calibrated.</b> This is what each one sees of the table:"))
        layout.addWidget(self.picture)
        layout.addWidget(self.text)
        layout.addWidget(buttons)


__all__ = ["CoverageDialog", "coverage_lines"]
