"""The first-run walkthrough of `sandtable run`, with the synthetic table standing in for the camera:
each step as a player meets it (tags printed, anchors found or named missing, the registration's error
in inches, capture again, the files saved and remembered), and the wizard driven page by page offscreen."""
from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from calibration.errors import CalibrationError
from calibration.files import load_table_calibration, save_camera_model
from calibration.synthetic import Hand, SyntheticTable, TagPlacement, overhead_pose, webcam_model
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout
from gui import setup_steps
from appmodel.scenarios import find_shipped
from gui.settings import AppSettings
from tracker.sources import CameraSource

STARTER = find_shipped("starter-skirmish").path
LAYOUT = TableLayout.default()
UNITS = [TagPlacement(10 + i, 14.0 + 9.0 * i, 18.0 + 3.0 * (i % 3), 1.0, 90.0) for i in range(5)]


@pytest.fixture(scope="module")
def table() -> SyntheticTable:
    """A 1080p wide-angle webcam over the table, tilted 25 degrees (not the demo's camera)."""
    return SyntheticTable(layout=LAYOUT, model=webcam_model(1920, 1080), pose=overhead_pose(LAYOUT, tilt_deg=25),
                          texture_seed=3, supersample=2, background_supersample=1)


def cover(*anchor_ids: int) -> list[Hand]:
    """A hand laid flat over each of these anchors (a player leaning over the table)."""
    return [Hand(LAYOUT.anchor(i).x_in, LAYOUT.anchor(i).y_in, 2.5, z_in=0.5) for i in anchor_ids]


def picture(table: SyntheticTable, *, hands=()) -> np.ndarray:
    return table.render(UNITS, hands=list(hands), rng=np.random.default_rng(1)).image_bgr


class SyntheticCapture:
    """What ``cv2.VideoCapture`` gives the camera thread, filmed on the synthetic table; ``show``
    swaps the picture (a hand reaches in, a hand goes away)."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.lock = threading.Lock()
        self.reads_since_show = 0

    def show(self, image: np.ndarray) -> None:
        """Film another picture, and wait until the camera thread has delivered it."""
        with self.lock:
            self.image = image
            self.reads_since_show = 0
        # Never goes on with the old picture (it did after 10 s, and a loaded machine's camera thread
        # can be that late): 120 s only ends a broken test.
        deadline = time.monotonic() + 120.0
        while self.reads_since_show < 2:
            assert time.monotonic() < deadline, "the camera thread did not deliver the new picture in 120 s"
            time.sleep(0.01)

    def isOpened(self) -> bool:  # OpenCV's name
        return True

    def read(self):
        time.sleep(1 / 30)
        with self.lock:
            self.reads_since_show += 1
            return True, self.image.copy()

    def release(self) -> None:
        pass


# ---------------------------------------------------------------------------------- the steps
def test_which_calibration_a_run_uses_and_when_it_walks_through_calibrating(tmp_path, table) -> None:
    default = tmp_path / "default" / "table.json"
    first = setup_steps.find_calibration(None, "", default_path=default)
    assert first.needs_walkthrough and first.path == default and "first run" in first.problem
    gone = setup_steps.find_calibration(None, str(tmp_path / "old.json"), default_path=default)
    assert gone.needs_walkthrough and "is gone" in gone.problem and gone.path == tmp_path / "old.json"
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "sandtable-table-calibration", "version": 1, "method": "pnp", "cam', encoding="utf-8")
    remembered = setup_steps.find_calibration(None, str(broken), default_path=default)
    assert remembered.needs_walkthrough and "cannot be used" in remembered.problem and "corrupt" in remembered.problem
    with pytest.raises(CalibrationError, match="corrupt or truncated"):
        setup_steps.find_calibration(str(broken), "", default_path=default)  # named on the command line: an error
    named = setup_steps.find_calibration(str(tmp_path / "new.json"), "", default_path=default)
    assert named.needs_walkthrough and named.path == tmp_path / "new.json"
    good = tmp_path / "table.json"
    setup_steps.save_calibration(TableCalibration(table.model, table.pose, LAYOUT, residual_in=0.0), good)
    found = setup_steps.find_calibration(None, str(good), default_path=default)
    assert not found.needs_walkthrough and found.calibration.layout.width_in == 72


def test_the_tags_of_the_scenario_are_written_as_printable_pdfs(tmp_path) -> None:
    sheets = setup_steps.write_tags_for(STARTER, tmp_path)
    names = [p.name for p in sheets.files]
    assert names[0] == "anchors.pdf" and any(n.startswith("unit-tags-") for n in names)
    for p in sheets.files:
        assert p.read_bytes()[:5] == b"%PDF-" and p.stat().st_size > 2_000
    assert "Print at 100%" in sheets.message and "1-inch bar" in sheets.message


def test_a_hidden_anchor_is_named_with_the_place_it_belongs(table) -> None:
    everything = setup_steps.check_anchors(picture(table), LAYOUT)
    assert everything.found == (0, 1, 2, 3) and everything.missing == () and everything.enough
    hidden = setup_steps.check_anchors(picture(table, hands=cover(2)), LAYOUT)
    assert hidden.found == (0, 1, 3) and hidden.missing == (2,) and hidden.enough
    assert "anchor 2 belongs at the far right corner (70.5, 46.5) in" in hidden.message


def true_anchor_px(table: SyntheticTable, tag_id: int) -> np.ndarray:
    from calibration.projection import camera_from_table

    return camera_from_table(np.array([[LAYOUT.anchor(tag_id).x_in, LAYOUT.anchor(tag_id).y_in]]), table.model, table.pose)[0]


def test_where_a_hidden_anchor_should_be_is_predicted_from_the_anchors_seen(table) -> None:
    import itertools

    for covered in [(i,) for i in range(4)] + list(itertools.combinations(range(4), 2)):
        check = setup_steps.check_anchors(picture(table, hands=cover(*covered)), LAYOUT)
        assert check.missing == covered and set(check.expected_px) == set(covered)
        assert ("marks where each should be" if len(covered) == 1 else "marks about where each should be") in check.message
        for hidden in covered:
            centre = np.asarray(check.expected_px[hidden]).mean(axis=0)
            true = true_anchor_px(table, hidden)
            # The lens is not known yet: with three anchors seen the mark is within 5% of the picture's width
            # of the anchor, with two it is at least in the right part of the picture.
            assert np.linalg.norm(centre - true) < (0.05 if len(covered) == 1 else 0.2) * 1920, (covered, hidden)
            assert (centre[0] > 960) == (true[0] > 960) and (centre[1] > 540) == (true[1] > 540), (covered, hidden)
    alone = setup_steps.check_anchors(picture(table, hands=cover(1, 2, 3)), LAYOUT)
    assert alone.missing == (1, 2, 3) and alone.expected_px == {}  # one anchor cannot tell where the others are


def test_registration_reports_its_error_in_inches_and_a_verdict(table) -> None:
    with_lens = setup_steps.register_frame(picture(table), LAYOUT, table.model)
    assert with_lens.verdict == "good" and with_lens.residual_in < 0.02
    assert "in RMS" in with_lens.message and "above the table" in with_lens.message
    # the camera's true pose comes back: a unit's tag maps to where it stands
    z = with_lens.calibration.pose.camera_position_in[2]
    assert z == pytest.approx(table.pose.camera_position_in[2], abs=0.2)
    guessed = setup_steps.register_frame(picture(table), LAYOUT, None)
    assert guessed.calibration is not None and guessed.verdict == "usable"  # the lens between the anchors is a guess
    assert "lens" in guessed.message  # the notes say the lens was assumed
    assert "Uncalibrated camera:" in guessed.message and guessed.message.endswith(".")  # in sentences
    failed = setup_steps.register_frame(picture(table, hands=cover(1, 2, 3)), LAYOUT, table.model)
    assert failed.verdict == "retry" and failed.calibration is None and "could not be registered" in failed.message
    other_shape = webcam_model(1000, 1000)
    refused = setup_steps.register_frame(picture(table), LAYOUT, other_shape)
    assert refused.verdict == "retry" and "another shape" in refused.message


def test_the_files_are_remembered_for_the_next_run(tmp_path) -> None:
    settings = setup_steps.remember(AppSettings(), camera="1", scenario=STARTER, calibration=tmp_path / "t.json",
                                    projector=tmp_path / "p.json")
    assert (settings.camera, settings.scenario_path) == ("1", str(STARTER.resolve()))
    assert settings.calibration_path == str((tmp_path / "t.json").resolve())
    assert settings.projector_calibration_path == str((tmp_path / "p.json").resolve())


# ---------------------------------------------------------------------------------- the wizard
def amber_pixels_near(image, centre_px, radius_px: float) -> int:
    """Pixels of the walkthrough's 'expected here' amber within ``radius_px`` of ``centre_px``."""
    from gui.setup_wizard import EXPECTED_COLOR
    from PySide6.QtGui import QColor

    want = QColor(EXPECTED_COLOR)
    count = 0
    x0, y0 = int(centre_px[0]), int(centre_px[1])
    r = int(radius_px)
    for y in range(max(0, y0 - r), min(image.height(), y0 + r)):
        for x in range(max(0, x0 - r), min(image.width(), x0 + r)):
            c = image.pixelColor(x, y)
            if abs(c.red() - want.red()) < 40 and abs(c.green() - want.green()) < 40 and abs(c.blue() - want.blue()) < 50:
                count += 1
    return count


def test_the_anchor_page_marks_where_a_hidden_anchor_should_be(table, qtbot, tmp_path) -> None:
    from gui.setup_wizard import PREVIEW_W, SetupWizard, _pixmap

    capture = SyntheticCapture(picture(table, hands=cover(3)))
    camera = CameraSource(0, capture_factory=lambda spec: capture)
    try:
        wizard = SetupWizard(camera, scenario_path=STARTER, layout=LAYOUT, calibration_path=tmp_path / "table.json")
        qtbot.addWidget(wizard)
        wizard.resize(1000, 740)
        wizard.show()
        wizard.next()
        page = wizard.anchor_page
        qtbot.waitUntil(lambda: page.check is not None, timeout=10_000)
        assert page.check_now().missing == (3,)
        scale = PREVIEW_W / 1920
        where = true_anchor_px(table, 3) * scale
        marked = page.preview.pixmap().toImage()
        wizard.grab().save(str(tmp_path / "anchor-page.png"))
        unmarked = _pixmap(wizard.newest_frame(), page.check.corners_px).toImage()  # the same picture, no mark
        # the dashed outline, where the anchor belongs (the hand over it is not that colour)
        assert amber_pixels_near(marked, where, 40) > 30 + amber_pixels_near(unmarked, where, 40)
        assert "anchor 3 belongs at the far left corner" in page.status.text()
        capture.show(picture(table))
        assert page.check_now().missing == ()
        clear = page.preview.pixmap().toImage()
        assert amber_pixels_near(clear, where, 40) == 0  # all in view: nothing marked missing
        capture.show(picture(table, hands=cover(3)))
        wizard.next()
        save_camera_model(table.model, tmp_path / "camera.json")
        wizard.lens_page.use_file(tmp_path / "camera.json")
        wizard.next()
        assert wizard.currentPage() is wizard.register_page
        assert wizard.register_page.capture().verdict in ("good", "usable")  # three anchors are enough ...
        registered = wizard.register_page.preview.pixmap().toImage()
        wizard.grab().save(str(tmp_path / "register-page.png"))
        assert amber_pixels_near(registered, where, 25) > 30  # ... and the fourth is marked where it belongs
    finally:
        camera.close()


def test_the_walkthrough_from_printing_to_a_saved_calibration(tmp_path, table, qtbot) -> None:
    from gui.setup_wizard import SetupWizard

    capture = SyntheticCapture(picture(table, hands=cover(1, 2, 3)))
    camera = CameraSource(0, capture_factory=lambda spec: capture)
    lens = tmp_path / "camera.json"
    save_camera_model(table.model, lens)
    try:
        wizard = SetupWizard(camera, scenario_path=STARTER, layout=LAYOUT, calibration_path=tmp_path / "cal" / "table.json",
                             intro="This is the first run with this camera: let us calibrate the table")
        qtbot.addWidget(wizard)
        wizard.show()
        assert "first run" in wizard.print_page.findChildren(type(wizard.print_page.result_label))[0].text()
        wizard.print_page.write_to(tmp_path)
        assert (tmp_path / "anchors.pdf").is_file() and "Print at 100%" in wizard.print_page.result_label.text()
        wizard.next()
        assert wizard.currentPage() is wizard.anchor_page
        qtbot.waitUntil(lambda: wizard.anchor_page.check is not None, timeout=10_000)
        assert wizard.anchor_page.check.missing == (1, 2, 3)  # a hand over three anchors
        capture.show(picture(table, hands=cover(2)))
        check = wizard.anchor_page.check_now()
        assert check.missing == (2,) and "far right corner" in wizard.anchor_page.status.text()
        wizard.next()
        wizard.lens_page.use_file(lens)
        assert wizard.camera_model is not None and str(lens) in wizard.lens_page.status.text()
        wizard.next()
        assert wizard.currentPage() is wizard.register_page and not wizard.register_page.isComplete()
        capture.show(picture(table, hands=cover(1, 2, 3)))
        assert wizard.register_page.capture().verdict == "retry"
        assert not wizard.register_page.isComplete() and "Capture again" == wizard.register_page.button.text()
        capture.show(picture(table))
        registration = wizard.register_page.capture()
        assert registration.verdict == "good" and wizard.register_page.isComplete()
        assert f"{registration.residual_in:.3f} in RMS" in wizard.register_page.status.text()
        wizard.next()  # accepting saves the calibration
        saved = load_table_calibration(tmp_path / "cal" / "table.json")
        assert saved.residual_in == pytest.approx(registration.residual_in)
        assert wizard.currentPage() is wizard.projector_page
        wizard.next()
        assert str(tmp_path / "cal" / "table.json") in wizard.done_page.summary.text()
        result = wizard.result_value()
        assert result is not None and result.calibration_path == tmp_path / "cal" / "table.json"
        assert result.projector_path is None
        wizard.accept()
    finally:
        camera.close()


def test_the_register_page_states_the_same_rule_its_verdict_applies(table, qtbot, tmp_path) -> None:
    """The newcomer read "under 0.05 in is good", then saw 0.019 in rated "Usable" (no lens file)."""
    from PySide6.QtWidgets import QLabel

    from gui.setup_wizard import SetupWizard

    camera = CameraSource(0, capture_factory=lambda spec: SyntheticCapture(picture(table)))
    try:
        wizard = SetupWizard(camera, scenario_path=STARTER, layout=LAYOUT, calibration_path=tmp_path / "table.json")
        qtbot.addWidget(wizard)
        words = " ".join(label.text() for label in wizard.register_page.findChildren(QLabel))
        guessed = setup_steps.register_frame(picture(table), LAYOUT, None)
        assert guessed.residual_in < setup_steps.GOOD_RESIDUAL_IN and guessed.verdict == "usable"
        # the page says beforehand why an error that small is only usable without a lens file
        assert "without a lens file" in words and f"under {setup_steps.GOOD_RESIDUAL_IN:g} in with a lens file" in words
    finally:
        camera.close()
