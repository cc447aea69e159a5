"""A carried unit's own overlays follow its newest tracked pose before the exact drawing is made:
the view paints the unit's picture moved to where the unit now stands (and nowhere else: no ghost
at the old place), the exact image replaces it once made, and a user's own change (a click, a
toggle) never shows a moved picture; the move itself is exact in the top-down view and through a
projector's homography, and within a pixel near the unit through the camera's lens."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QImage, QPainter

from appmodel.game_session import GameSession
from appmodel.overlays.moved_layer import preview_error_px, rigid_move_px
from appmodel.overlays.registry import OverlayToggles
from appmodel.overlays.transforms import CameraTransform, ProjectorTransform, TopDownTransform
from appmodel.tracking.synthetic_feed import SyntheticFeed
from gui.compositor import Compositor, bgr_from_qimage, ensure_qt_app
from gui_helpers import hold_overlay_jobs, wait_until
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

MAAWS, ZBL = 13, 40
W, H = 960, 540
START = (15.0, 29.0)
ONLY_UNITS = OverlayToggles(**{n: n == "units" for n in OverlayToggles().names()})


@pytest.fixture(scope="module")
def feed():
    ensure_qt_app()
    return SyntheticFeed((72.0, 48.0), width_px=W, height_px=H)


def place(s: GameSession, step: int, x: float, y: float) -> None:
    s.apply_poses([UnitPose(MAAWS, "", "", x, y, 1.0, 0.0, UnitState.SEEN, step / 30, None)], t_s=step / 30)


def painted(view) -> np.ndarray:
    image = QImage(W, H, QImage.Format.Format_RGB32)
    p = QPainter(image)
    try:
        view.renderer.paint(p)
    finally:
        p.end()
    return bgr_from_qimage(image)


def base_at(img: np.ndarray, camera, x_in: float, y_in: float) -> bool:
    """Whether the Marines' blue base is drawn at a table point of the camera view."""
    x, y = camera.device_from_table(np.array([[x_in, y_in]]))[0]
    patch = img[int(y) - 2:int(y) + 3, int(x) - 2:int(x) + 3].reshape(-1, 3).astype(int)
    return bool((patch[:, 0] - patch[:, 2]).max() > 80)  # blue well over red


def carried_three_frames(feed, qtbot, *, zoom: float = 1.0):
    """A table view (zoomed by ``zoom``) of a game whose MAAWS gunner has been carried for three
    frames, the exact overlays of the last one made by the worker."""
    from gui.table_view import TableView

    app = ensure_qt_app()
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    view = TableView(s, calibration=feed.calibration, toggles=ONLY_UNITS)
    qtbot.addWidget(view)
    view.resize(W, H)
    view.show()
    if zoom != 1.0:
        view.zoom_by(zoom)
    view.set_frame(np.zeros((H, W, 3), np.uint8))
    wait_until(app, lambda: view.renderer.shown_frame is not None and not view.overlays.busy)
    for step in range(1, 4):
        place(s, step, START[0] + 0.2 * step, START[1])
        wait_until(app, lambda: not view.overlays.busy and view.overlays.latest_overlay().version == s.version)
    return app, s, view


def carrying_view(feed, qtbot):
    """A table view of a game whose MAAWS gunner is being carried, its exact overlays made by the
    worker (so its own items are on a picture of their own)."""
    app, s, view = carried_three_frames(feed, qtbot)
    assert dict(view.overlays.latest_overlay().poses).keys() == {MAAWS}, "the carried unit has a picture of its own"
    return app, s, view


@pytest.fixture
def carried(feed, qtbot):
    """:func:`carrying_view`, and a gate that holds the worker's next jobs (a busy machine) while the
    test looks at the previews."""
    app, s, view = carrying_view(feed, qtbot)
    gate = hold_overlay_jobs(view.compositor)
    yield app, s, view, gate
    gate.set()


def test_a_carried_units_overlays_are_painted_at_its_newest_pose_before_the_exact_image(feed, carried):
    app, s, view, gate = carried
    camera = view.transform()
    exact = view.overlays.latest_overlay()
    was = dict(exact.poses)[MAAWS][:2]
    for step in range(4, 7):  # three frames while the worker is held: each painted at its own pose
        now = (START[0] + 0.2 * 3 + 1.5 * (step - 3), START[1] - 0.8 * (step - 3))
        place(s, step, *now)
        img = painted(view)
        r = view.renderer
        assert r.shown_version == exact.version < s.version == r.shown_pose_version, "a preview of the newest pose"
        assert set(r.shown_moves) == {MAAWS}
        assert base_at(img, camera, *now), f"the unit's base is drawn where frame {step} put it"
        assert not base_at(img, camera, *was), "and not where the last exact image had it (no ghost)"


def test_the_exact_image_replaces_the_preview_once_made(feed, carried):
    app, s, view, gate = carried
    now = (START[0] + 3.0, START[1] - 1.0)
    place(s, 4, *now)
    preview = painted(view)
    assert view.renderer.shown_pose_version > view.renderer.shown_version
    gate.set()
    wait_until(app, lambda: not view.overlays.busy and view.overlays.latest_overlay().version == s.version)
    exact = painted(view)
    r = view.renderer
    assert r.shown_version == r.shown_pose_version == s.version and r.shown_moves == {}
    reference = Compositor()
    reference.painter.label_taken_px = view.compositor.painter.label_taken_px
    expected = bgr_from_qimage(reference.compose(s.snapshot(), view.transform(), ONLY_UNITS,
                                                 frame_bgr=np.zeros((H, W, 3), np.uint8)))
    assert np.abs(exact.astype(int) - expected.astype(int)).max() == 0, "the exact drawing, pixel for pixel"
    camera = view.transform()
    assert base_at(preview, camera, *now) and base_at(exact, camera, *now), "the preview was where the exact image is"


def test_a_click_or_a_toggle_never_shows_a_preview(feed, carried):
    app, s, view, gate = carried
    place(s, 4, START[0] + 2.0, START[1])
    painted(view)
    assert view.renderer.shown_moves, "a tracked move is previewed"
    s.select_unit(ZBL)  # a user's click while the worker is still held
    painted(view)
    r = view.renderer
    assert r.shown_moves == {} and r.shown_version == r.shown_pose_version == s.version, "a click is drawn exactly"
    place(s, 5, START[0] + 2.5, START[1])
    view.set_toggles(OverlayToggles(**{n: n in ("units", "labels") for n in OverlayToggles().names()}))
    painted(view)
    assert r.shown_moves == {} and r.shown_version == s.version, "so is a toggle, even with a move pending"


def test_the_move_is_exact_where_the_view_is_a_plane_map_and_close_through_a_lens(feed):
    was, now = (20.0, 20.0, 0.0, 0.0), (21.0, 20.5, 13.0, 0.0)
    top = TopDownTransform((72.0, 48.0), (1200, 820))
    assert preview_error_px(top, was, now, 30.0, (1200, 820)) < 0.05  # the measure's own chords

    class Keystoned:  # a projector calibrated as a plane homography, seen at a slant
        h = np.array([[24.0, 3.0, 40.0], [1.0, -20.0, 1000.0], [0.0, 0.004, 1.0]])

        def projector_from_table(self, p):
            q = np.column_stack([p, np.ones(len(p))]) @ self.h.T
            return q[:, :2] / q[:, 2:]

    projector = ProjectorTransform(Keystoned())
    assert preview_error_px(projector, was, now, 30.0, (1920, 1080)) < 0.05
    camera = CameraTransform(feed.calibration)
    assert preview_error_px(camera, was, now, 3.0, (W, H)) < 1.0, "a unit's base and fan: within a pixel"
    far = preview_error_px(camera, was, now, 72.0, (W, H))
    assert far is not None and far < 15.0, far  # what a 72" ring's far edge may be off until the exact image
    assert rigid_move_px(camera, (500.0, 500.0, 0.0, 0.0), (501.0, 500.0, 0.0, 0.0)) is None, "off the lens: no move"


def test_on_the_projector_the_carried_units_tag_stays_dark_where_the_preview_puts_it(qtbot):
    import cv2

    from calibration.projector_model import ProjectorModel
    from calibration.synthetic.projected_light import ceiling_projector
    from calibration.table_layout import TableLayout
    from gui.projector_window import ProjectorWindow

    app = ensure_qt_app()
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    model = ProjectorModel(*ceiling_projector(TableLayout.default()))
    window = ProjectorWindow(s, projector_calibration=model)
    qtbot.addWidget(window)
    window.show()
    window.repaint()
    for step in range(1, 4):
        place(s, step, START[0] + 0.2 * step, START[1])
        wait_until(app, lambda: not window.renderer.overlays.busy
               and window.renderer.overlays.latest_overlay().version == s.version)
    gate = hold_overlay_jobs(window.compositor)
    try:
        was = (START[0] + 0.6, START[1])
        now = (START[0] + 3.6, START[1] + 1.0)
        place(s, 4, *now)
        image = QImage(window.width(), window.height(), QImage.Format.Format_RGB32)
        p = QPainter(image)
        window.renderer.paint(p)
        p.end()
        assert window.renderer.shown_pose_version == s.version > window.renderer.shown_version
        masks = window._shown_mask()

        def dark(x_in: float, y_in: float) -> bool:
            px = model.projector_from_table(np.array([[x_in, y_in]]), z_in=1.0)[0]
            return any(cv2.pointPolygonTest(m.astype(np.float32), (float(px[0]), float(px[1])), False) > 0 for m in masks)

        assert dark(*now), "the tag is kept dark where the unit now stands"
        assert not dark(*was), "and its old patch is gone (light there costs no tag)"
        assert dark(s.unit(ZBL).x_in, s.unit(ZBL).y_in), "the other units' tags stay dark"
    finally:
        gate.set()


def test_while_a_preview_carries_the_frames_the_exact_images_are_spaced_and_the_last_pose_gets_one(feed, qtbot):
    import time

    from gui.overlay_worker import EXACT_SPACING_S

    app, s, view = carrying_view(feed, qtbot)
    jobs, t0 = view.overlays.jobs_done, time.monotonic()
    for step in range(4, 40):  # a fast hand: a pose every few milliseconds
        place(s, step, START[0] + 0.2 * step, START[1])
        app.processEvents()
        time.sleep(0.004)
    elapsed = time.monotonic() - t0
    made = view.overlays.jobs_done - jobs
    assert made <= elapsed / EXACT_SPACING_S + 2, f"{made} exact images in {elapsed:.2f} s"
    wait_until(app, lambda: not view.overlays.busy and view.overlays.latest_overlay().version == s.version)
    view.repaint()
    assert view.renderer.shown_version == s.version, "the last pose gets its exact image"


def test_a_frame_on_its_way_holds_the_exact_image_until_its_preview_is_painted(feed, qtbot, monkeypatch):
    """The worker's exact image (tens of ms of Python) waits at its pause points while a tracked frame's
    preview is still to paint, so the frame's path has the interpreter; the paint lets it go on."""
    from appmodel.tracking.frame_gate import LIVE_FRAMES

    app, s, view = carrying_view(feed, qtbot)
    monkeypatch.setattr(LIVE_FRAMES, "hold_max_s", 60.0)  # no hold ends by itself here
    monkeypatch.setattr("gui.overlay_worker.EXACT_SPACING_S", 0.01)  # the spaced exact image starts at once
    try:
        LIVE_FRAMES.frame_started()  # the tracking thread has the next frame in hand, tracks it,
        LIVE_FRAMES.frame_ready()
        LIVE_FRAMES.frame_taken()  # and the UI takes its poses:
        place(s, 4, START[0] + 2.0, START[1])
        assert view.renderer.preview_pending() and LIVE_FRAMES.open
        import time

        deadline = time.monotonic() + 30  # (no Qt events meanwhile: they would paint the preview)
        while LIVE_FRAMES.pauses == 0 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert LIVE_FRAMES.pauses > 0, "the worker's job stopped at a pause point"
        assert view.overlays.latest_overlay().version < s.version
        painted(view)  # the preview of the frame's pose: the frame is on the screen
        assert not LIVE_FRAMES.open and not view.renderer.preview_pending()
        wait_until(app, lambda: not view.overlays.busy and view.overlays.latest_overlay().version == s.version)
    finally:
        LIVE_FRAMES.release()


def test_a_unit_carried_out_of_the_views_sight_asks_for_no_exact_image_each_frame(feed, qtbot):
    """A view that does not see the carried unit (zoomed on the middle of the table) has nothing of it
    to move: it keeps its exact images spaced as for a unit in sight, instead of one every frame."""
    from gui.overlay_worker import EXACT_SPACING_S

    # zoomed on the middle 18" of the table: the MAAWS gunner, 15" from its edge, is out of sight
    app, s, view = carried_three_frames(feed, qtbot, zoom=4.0)
    latest = view.overlays.latest_overlay()
    assert latest.poses == () and MAAWS in latest.unseen
    place(s, 4, START[0] + 1.0, START[1])
    assert view.overlays.spacing_s == EXACT_SPACING_S and view.renderer.preview_pending()


def test_a_big_carried_picture_that_does_not_turn_is_shifted_to_the_pixel_not_resampled() -> None:
    """The selected vehicle's long rings cover most of the view: resampling that picture through the
    lens on every paint cost the UI thread 10-15 ms; carried without turning it is shifted by its move
    at the centre (the lens's bend across it follows with the exact image); turning, it is resampled,
    and a small picture is shifted only when the move is a shift to half a pixel everywhere on it."""
    from PySide6.QtGui import QTransform

    from gui.compositor import SHIFT_BIG_MIN_PX, _as_shift

    big = (0, 0, 1900, 1000)
    small = (800, 400, 1000, 600)
    assert (big[2] - big[0]) * (big[3] - big[1]) >= SHIFT_BIG_MIN_PX
    bent = QTransform(1.002, 0.0, 2e-7, 0.0, 1.002, 1e-7, 3.0, -1.0, 1.0)  # a slide through a lens: a little scale
    assert _as_shift(bent, big) == (5, 0)  # its move at the centre (950, 500), rounded
    assert _as_shift(bent, small) is None  # small: resampled, as exact as the homography
    turned = QTransform()
    turned.translate(950, 500)
    turned.rotate(1.6)
    turned.translate(-950, -500)
    assert _as_shift(turned, big) is None  # a vehicle turning: its fan must turn
    assert _as_shift(QTransform.fromTranslate(4.0, -2.0), small) == (4, -2)
