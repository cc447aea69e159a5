"""Projector calibration from the window's menu, offscreen: the pattern goes up full screen on the
chosen screen, the camera (the synthetic table, lit by a projector throwing whatever that window
shows) takes a frame once it settled, and the mapping it fits puts table points where the real
projector lights them, with its error in inches reported and the file saved."""
from __future__ import annotations

import os

import cv2
import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from calibration.camera_model import CameraModel, CameraPose
from calibration.projection import camera_from_table
from calibration.synthetic import Projector, SyntheticTable, overhead_pose, webcam_model
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout
from appmodel.tracking.live_tracking import LiveUpdate
from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH

LAYOUT = TableLayout.default()
CAMERA = webcam_model(1280, 720)
CAMERA_POSE = overhead_pose(LAYOUT, tilt_deg=20.0)
PROJECTOR_POSE = CameraPose.looking_at((36.0, 1.0, 80.0), (36.0, 1.0, 0.0))


def projector_model(width: int, height: int) -> CameraModel:
    """A ceiling projector with lens shift over the near edge, scaled to the screen it is given."""
    f = 1300.0 * width / 1280
    return CameraModel(width, height, f, f, width / 2 - 0.5, height - 20.0, source="synthetic")


class CameraOverLitTable:
    """The live source: the synthetic table under the camera, lit by a projector that throws whatever
    full-screen window is up (the pattern), dark when none is."""

    def __init__(self) -> None:
        self.frames = 0
        self.lit_frames = 0
        self._dark: np.ndarray | None = None

    def poll(self) -> LiveUpdate:
        from PySide6.QtWidgets import QApplication

        from gui.projector_window import ProjectorWindow

        shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, ProjectorWindow) and w.isVisible()
                 and w.pattern is not None]
        projector = None
        if shown:
            window = shown[0]
            assert window.isFullScreen()
            from gui.compositor import bgr_from_qimage

            image = bgr_from_qimage(window.render_image((window.width(), window.height())))
            projector = Projector(projector_model(image.shape[1], image.shape[0]), PROJECTOR_POSE, image, room_light=0.35)
            self.lit_frames += 1
            self.size = (image.shape[1], image.shape[0])
        self.frames += 1
        if projector is None:  # the dark table does not change: render it once
            if self._dark is None:
                self._dark = SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE).render([]).image_bgr
            return LiveUpdate(self._dark, None, ())
        frame = SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, projector=projector).render([]).image_bgr
        return LiveUpdate(frame, None, ())

    def stop(self) -> None:
        pass


@pytest.fixture
def window(qtbot, tmp_path):
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import AppSettings

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    settings = AppSettings(projector_calibration_path=str(tmp_path / "projector.json"), projector_screen=0)
    live = CameraOverLitTable()
    w = MainWindow(session, settings=settings, store=None, calibration=TableCalibration(CAMERA, CAMERA_POSE, LAYOUT, 0.0),
                   live=live)
    w.pattern_settle_ms = 300
    qtbot.addWidget(w)
    w.show()
    return w


def test_calibrating_from_the_menu_fits_the_projector_to_a_few_hundredths_of_an_inch(window, qtbot, tmp_path):
    from calibration.projector import load_projector_calibration

    window.actions_by_name["calibrate_projector"].trigger()
    qtbot.waitUntil(lambda: window.projector_calibration is not None or "Projector" in window.last_message
                    or window.calibration_run is None and window.last_message, timeout=20000)
    cal = window.projector_calibration
    assert cal is not None, window.last_message
    live = window.live
    assert live.lit_frames >= 1 and (cal.width_px, cal.height_px) == live.size  # the pattern filled the screen
    # the error is reported in inches, and the file is where the settings say
    assert "error" in window.last_message and " in RMS" in window.last_message
    assert cal.residual_in < 0.05
    saved = load_projector_calibration(tmp_path / "projector.json")
    assert np.allclose(saved.homography, cal.homography)
    # where the fitted mapping sends table points is where the real projector lights them
    pts = np.array([[x, y] for x in (8.0, 24.0, 36.0, 48.0, 64.0) for y in (6.0, 24.0, 42.0)])
    truth = camera_from_table(pts, projector_model(cal.width_px, cal.height_px), PROJECTOR_POSE)
    err_in = np.linalg.norm(cal.projector_from_table(pts) - truth, axis=1) / cal.px_per_in_at(36.0, 24.0)
    assert err_in.max() < 0.1
    # the pattern window is gone and the projector window can be opened with the new mapping
    from gui.projector_window import ProjectorWindow
    from PySide6.QtWidgets import QApplication

    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, ProjectorWindow) and w.isVisible()]
    assert window.show_projector("projector") is not None


def test_a_camera_that_does_not_see_the_pattern_is_reported_not_a_crash(window, qtbot):
    class DarkCamera(CameraOverLitTable):
        """A camera pointed away from the projected area: it never sees the pattern."""

        def poll(self) -> LiveUpdate:
            if self._dark is None:
                self._dark = SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE).render([]).image_bgr
            return LiveUpdate(self._dark, None, ())

    window.live = DarkCamera()
    window.actions_by_name["calibrate_projector"].trigger()
    qtbot.waitUntil(lambda: window.calibration_run is None and bool(window.last_message), timeout=20000)
    assert window.projector_calibration is None
    assert "pattern tags" in window.last_message and "dim the room" in window.last_message


def test_the_window_takes_the_tracking_loops_detections_rather_than_searching_the_frame_again(window, qtbot,
                                                                                            monkeypatch):
    """A tracked camera's update carries the loop's detections of its frame (found on the tracking
    thread): the calibration fits those, and the UI thread searches nothing."""
    from tracker.detections import detect_tags, detector_for_this_thread
    from tracker.pipeline import TrackedFrame

    class TrackedCamera(CameraOverLitTable):
        """The lit table, each frame handed over with its detections, as the tracking loop hands them."""

        def __init__(self) -> None:
            super().__init__()
            self.detected = 0

        def poll(self) -> LiveUpdate:
            frame = super().poll().frame_bgr
            found = detect_tags(detector_for_this_thread(), cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), frame_index=self.frames)
            self.detected += 1
            return LiveUpdate(frame, TrackedFrame(self.frames, 0.0, (), (), found), ())

    def ui_search(*args, **kwargs):
        raise AssertionError("the window searched the frame for tags again on the UI thread")

    import gui.projector_calibration as flow

    monkeypatch.setattr(flow, "detect_tags", ui_search)
    window.live = TrackedCamera()
    window.actions_by_name["calibrate_projector"].trigger()
    qtbot.waitUntil(lambda: window.calibration_run is None and bool(window.last_message), timeout=20000)
    cal = window.projector_calibration
    assert cal is not None, window.last_message
    assert window.live.lit_frames >= 1 and cal.residual_in < 0.05
