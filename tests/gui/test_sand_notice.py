"""The window says when the camera sees that the sand was reshaped since the last relief scan."""
from __future__ import annotations

import os

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from calibration.sand_change import SandChangeWatch, sand_mask
from calibration.synthetic import Faults, SyntheticTable, overhead_pose, webcam_model
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout
from calibration.terrain import Hill, Terrain
from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH

LAYOUT = TableLayout.default()
CAMERA = webcam_model(640, 360)
POSE = overhead_pose(LAYOUT, tilt_deg=20.0)


def frame(terrain, seed):
    return SyntheticTable(LAYOUT, CAMERA, POSE, terrain).render([], faults=Faults(noise_sigma=2.0, blur_px=0.6),
                                                                 rng=np.random.default_rng(seed)).image_bgr


def test_the_status_bar_says_the_sand_changed_and_where(qtbot):
    from gui.main_window import MainWindow

    cal = TableCalibration(model=CAMERA, pose=POSE, layout=LAYOUT, residual_in=0.0, method="pnp")
    scanned = Terrain(hills=(Hill(24.0, 30.0, 10.0, 4.0),))
    window = MainWindow(GameSession.from_scenario_file(SCENARIO_PATH), calibration=cal)
    qtbot.addWidget(window)
    window.sand_watch = SandChangeWatch(frame(scanned, 9), sand=sand_mask(cal, (360, 640)))
    assert not any(window.check_sand(frame(scanned, k)) for k in range(3))
    assert "sand has changed" not in window.statusBar().currentMessage()
    reshaped = Terrain(hills=scanned.hills + (Hill(34.0, 13.0, 8.0, 3.0),))  # where no unit stands
    results = [window.check_sand(frame(reshaped, 10 + k)) for k in range(3)]
    assert results[-1]
    message = window.statusBar().currentMessage()
    assert "The sand has changed since the last scan around (3" in message and "rescan" in message
