"""`sandtable calibrate projector --camera N`: the pattern goes up full-screen on the projector's screen,
the camera frame is grabbed while it shows, and the mapping is computed from it."""
from __future__ import annotations

import os

import cv2
import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from calibration.camera_model import CameraModel, CameraPose
from calibration.files import save_camera_model, save_table_calibration
from calibration.projector import load_projector_calibration
from calibration.synthetic import Projector, SyntheticTable, overhead_pose, webcam_model
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout
from cli.main import main

LAYOUT = TableLayout.default()
CAMERA = webcam_model(960, 540)
POSE = overhead_pose(LAYOUT, tilt_deg=20.0)


def test_the_pattern_is_shown_full_screen_while_the_camera_frame_is_grabbed(tmp_path, monkeypatch, capsys):
    from PySide6.QtWidgets import QApplication, QLabel

    import cli.commands.calibrate as command

    table_json = tmp_path / "table.json"
    save_table_calibration(TableCalibration(CAMERA, POSE, LAYOUT, 0.0), table_json)
    save_camera_model(CAMERA, tmp_path / "camera.json")
    shown = {}

    def fake_grab(index):
        # what the projector shows is whatever full-screen window is up now
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, QLabel) and w.isVisible()]
        assert len(windows) == 1 and windows[0].isFullScreen()
        pixmap = windows[0].pixmap()
        image = pixmap.toImage().convertToFormat(pixmap.toImage().Format.Format_Grayscale8)
        width, height = image.width(), image.height()
        pattern = np.array(image.constBits(), dtype=np.uint8).reshape(height, image.bytesPerLine())[:, :width].copy()
        shown["size"] = (width, height)
        # a projector throwing this picture over the table (the offscreen "screen" is not 16:9)
        f = 1300.0 * width / 1280
        projector = Projector(CameraModel(width, height, f, f, width / 2 - 0.5, height - 20.0),
                              CameraPose.looking_at((36.0, 1.0, 80.0), (36.0, 1.0, 0.0)),
                              cv2.cvtColor(pattern, cv2.COLOR_GRAY2BGR), room_light=0.35)
        return SyntheticTable(LAYOUT, CAMERA, POSE, projector=projector).render([]).image_bgr

    monkeypatch.setattr(command, "_grab", fake_grab)
    out = tmp_path / "projector.json"
    assert main(["calibrate", "projector", "--camera", "0", "--screen", "0",
                 "--calibration", str(table_json), "--out", str(out)]) == 0
    screen = QApplication.instance().screens()[0]
    assert shown["size"] == (screen.geometry().width(), screen.geometry().height())  # the pattern fills the screen
    assert load_projector_calibration(out).residual_in < 0.05
    assert not [w for w in QApplication.topLevelWidgets() if w.isVisible()]  # the pattern window is closed again
    capsys.readouterr()
    assert main(["calibrate", "projector", "--camera", "0", "--screen", "5",
                 "--calibration", str(table_json), "--out", str(out)]) == 2
    assert "--screen 5: there are" in capsys.readouterr().err
    w, h = shown["size"]
    assert main(["calibrate", "projector", "--camera", "0", "--size", f"{w + 10}x{h}",
                 "--calibration", str(table_json), "--out", str(out)]) == 2
    assert f"but the projector screen (--screen -1) is {w}x{h}" in capsys.readouterr().err
