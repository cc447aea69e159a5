"""The view's pictures made off the UI thread: the table view shows exactly what ``compose`` draws
while units are carried; tracked moves go to the worker and a user's click is drawn at once; the
newest request wins and a late job never replaces a newer picture; a failing job falls back to
drawing on the UI thread; the backgrounds put the camera picture where the overlays are; snapshots
built on another thread are the session's own."""
from __future__ import annotations

import doctest
import importlib
import os
import threading

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.compositor import Compositor, bgr_from_qimage, ensure_qt_app
from gui_helpers import hold_overlay_jobs, wait_until
from gui.overlay_worker import JobThread, OverlayWorker
from appmodel.game_session import AttackDraft, GameSession
from appmodel.overlays.registry import OverlayToggles
from appmodel.tracking.synthetic_feed import SyntheticFeed
from appmodel.overlays.transforms import CameraTransform, TopDownTransform
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

MAAWS, AR, ZBL = 13, 31, 40
W, H = 960, 540


def game() -> GameSession:
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.select_unit(ZBL, weapon="Autocannon")
    s.set_attack(AttackDraft(ZBL, "Autocannon", (15, 11)))
    s.set_blast_point((24.0, 30.0))
    return s


def carry(s: GameSession, step: int, uid: int, start: tuple[float, float]) -> None:
    x, y = start[0] + 0.3 * step, start[1] + 0.1 * step
    s.apply_poses([UnitPose(uid, "", "", x, y, 1.0, 5.0 * step, UnitState.SEEN, step / 30, None)], t_s=step / 30)


@pytest.fixture(scope="module")
def feed():
    ensure_qt_app()
    return SyntheticFeed((72.0, 48.0), width_px=W, height_px=H)


def shown_view(qtbot, feed, s: GameSession):
    """A table view of ``s`` on screen, the size of the camera picture."""
    from gui.table_view import TableView

    view = TableView(s, calibration=feed.calibration)
    qtbot.addWidget(view)
    view.resize(W, H)
    view.show()
    return view


def settle(app, view, until, timeout_s: float = 10.0) -> None:
    wait_until(app, until, timeout_s)


def test_the_view_shows_exactly_what_compose_draws_while_units_are_carried(feed, qtbot):
    app = ensure_qt_app()
    shown = game()
    view = shown_view(qtbot, feed, shown)
    reference = Compositor()
    reference.painter.label_taken_px = (view.badge_box_px(),)  # the view keeps its labels clear of its badge
    camera = CameraTransform(feed.calibration)
    assert view.transform().cache_key == camera.cache_key  # the camera picture fills the view 1:1
    frame = feed.render(shown.units())
    view.set_frame(frame)  # the first picture is drawn at once (the worker has nothing yet)
    settle(app, view, lambda: view.renderer.shown_frame is frame and not view.overlays.busy)
    jobs = view.overlays.jobs_done
    for step in range(1, 7):
        frame = frame.copy()  # a new camera picture each time
        view.set_frame(frame)
        carry(shown, step, ZBL if step > 3 else MAAWS, (53.0, 25.0) if step > 3 else (15.0, 29.0))
        settle(app, view, lambda: view.renderer.shown_frame is frame and not view.overlays.busy
               and view.overlays.latest_overlay().version == shown.version)
        expected = bgr_from_qimage(reference.compose(shown.snapshot(), camera, OverlayToggles(), frame_bgr=frame))
    assert view.overlays.jobs_done >= jobs + 6, "tracked moves are drawn by the worker"
    got = bgr_from_qimage(view.grab().toImage())
    badge = np.zeros((H, W), bool)
    badge[:40, :520] = True  # the view's own status badge
    diff = np.abs(got.astype(int) - expected.astype(int)).max(axis=2)
    assert diff[~badge].max() == 0, f"{(diff[~badge] > 0).sum()} pixels differ"
    assert view.compositor.layers.hot_item_count > 0, "the carried vehicle is drawn hot"


def test_a_click_is_drawn_at_once_and_tracked_moves_go_to_the_worker(feed, qtbot, monkeypatch):
    app = ensure_qt_app()
    s = game()
    view = shown_view(qtbot, feed, s)
    view.set_frame(feed.render(s.units()))
    settle(app, view, lambda: view.renderer.shown_frame is not None and not view.overlays.busy)
    made_here = []
    original = OverlayWorker.render_now
    monkeypatch.setattr(OverlayWorker, "render_now", lambda self, *a, **k: made_here.append(1) or original(self, *a, **k))
    for step in range(1, 4):
        carry(s, step, AR, (50.0, 21.0))
        view.repaint()  # a paint before the worker is done shows the last overlays, it does not wait
        settle(app, view, lambda: not view.overlays.busy and view.overlays.latest_overlay().version == s.version)
    assert made_here == [], "tracked moves never make the UI thread draw the overlays"
    s.select_unit(MAAWS)
    view.repaint()
    assert made_here == [1] and view.overlays.latest_overlay().version == s.version, "a click shows at once"


def test_the_newest_request_wins_and_a_late_job_never_replaces_a_newer_picture():
    worker: JobThread[str] = JobThread("test-jobs")
    release = threading.Event()
    started = threading.Event()
    ran = []

    def slow() -> str:
        started.set()
        release.wait(5)
        ran.append("slow")
        return "slow"

    worker.submit(slow)
    assert started.wait(5)
    worker.submit(lambda: ran.append("dropped") or "dropped")
    worker.submit(lambda: ran.append("newest") or "newest")
    assert worker.run_here(lambda: "made here") == "made here"  # newer than all three
    worker.submit(lambda: ran.append("after") or "after")
    release.set()
    assert worker.wait_idle(5)
    assert ran == ["slow", "after"], "a request not yet started is replaced by the next one"
    assert worker.latest() == "after"
    release.clear()
    started.clear()
    worker.submit(slow)
    assert started.wait(5)
    assert worker.run_here(lambda: "click") == "click"
    release.set()
    assert worker.wait_idle(5)
    assert worker.latest() == "click", "the slow job finished last but is older than the click's picture"
    worker.stop()


def test_a_failing_job_is_reported_and_the_view_draws_on_its_own_thread(feed, qtbot):
    app = ensure_qt_app()
    s = game()
    view = shown_view(qtbot, feed, s)
    view.repaint()

    class Broken:
        version = s.version + 1

        def build(self):
            raise ValueError("the rules refused")

    spec = view.view_spec()
    view.overlays.request(Broken(), spec.transform, spec.toggles, spec.size)
    assert view.overlays.wait_idle(5)
    assert "the rules refused" in view.overlays.error
    carry(s, 1, AR, (50.0, 21.0))
    assert view.overlays.wait_idle(5) and view.overlays.error == ""  # the next tracked move works again
    view.overlays.request(Broken(), spec.transform, spec.toggles, spec.size)
    assert view.overlays.wait_idle(5) and view.overlays.error
    view.repaint()  # drawn on the UI thread instead: the picture is the current game's
    assert view.overlays.latest_overlay().version == s.version
    settle(app, view, lambda: True, 0.05)


def test_the_backgrounds_put_the_camera_picture_where_the_overlays_are(feed):
    import cv2

    s = game()
    frame = feed.render(s.units())
    comp = Compositor()
    cal = feed.calibration
    # Top-down: every view pixel shows the camera pixel of its table point (lens included), to
    # within the bilinear interpolation of a 10 px/in rectification.
    top = TopDownTransform((72.0, 48.0), (800, 560))
    bg = comp.background_image(frame, top, (800, 560), calibration=cal, table_size_in=(72.0, 48.0))
    got = bg.pixels[:, :, :3].astype(int)
    ys, xs = np.mgrid[0:560, 0:800]
    table = top.table_from_device(np.column_stack([xs.ravel() + 0.5, ys.ravel() + 0.5]))
    inside = (table[:, 0] > 0.5) & (table[:, 0] < 71.5) & (table[:, 1] > 0.5) & (table[:, 1] < 47.5)
    cam = cal.camera_from_table(table).astype(np.float32)
    sampled = cv2.remap(frame, cam[:, 0].reshape(560, 800), cam[:, 1].reshape(560, 800), cv2.INTER_LINEAR)
    err = np.abs(got.reshape(-1, 3)[inside] - sampled.reshape(-1, 3)[inside].astype(int))
    assert err.mean() < 2.0 and np.percentile(err, 99) < 20, (err.mean(), np.percentile(err, 99))  # 1 px off: 3.2, 34
    corner = top.device_from_table(np.array([[0.0, 0.0]]))[0]
    outside = got[int(corner[1]) + 8, int(corner[0]) - 8]
    assert tuple(outside) == (0x24, 0x1F, 0x1C), "the surround colour around the table"
    # Camera view zoomed and panned: the view pixel at X shows the frame at (X + 0.5 - ox) / s - 0.5.
    zoomed = CameraTransform(cal, view_scale=0.8, offset_px=(40.0, 30.0))
    bg = comp.background_image(frame, zoomed, (W, H), calibration=cal, table_size_in=(72.0, 48.0))
    for x, y in ((300, 200), (500, 333), (700, 420)):
        u, v = (x + 0.5 - 40.0) / 0.8 - 0.5, (y + 0.5 - 30.0) / 0.8 - 0.5
        want = cv2.getRectSubPix(frame, (1, 1), (u, v))[0, 0].astype(int)
        assert np.abs(bg.pixels[y, x, :3].astype(int) - want).max() <= 2


def test_a_snapshot_built_on_another_thread_is_the_sessions_own():
    s = game()
    carry(s, 1, MAAWS, (15.0, 29.0))
    inputs = s.snapshot_inputs()
    built = []
    t = threading.Thread(target=lambda: built.append(inputs.build()))
    t.start()
    t.join(10)
    snap = built[0]
    here = GameSession.snapshot(s)
    assert (snap.version, snap.units, snap.overlays, snap.blast_caught, snap.odds) == \
        (here.version, here.units, here.overlays, here.blast_caught, here.odds)
    carry(s, 2, MAAWS, (15.0, 29.0))
    assert not s.adopt_snapshot(snap), "a snapshot of an older game is not kept"
    fresh = s.snapshot_inputs().build()
    assert s.adopt_snapshot(fresh) and s.snapshot() is fresh


@pytest.mark.parametrize("module", ["gui.overlay_worker", "gui.overlay_layers", "gui.overlay_painter"])
def test_the_drawing_modules_examples_run(module):
    ensure_qt_app()
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_a_view_never_paints_an_older_game_or_frame_after_a_newer_one(feed, qtbot):
    """Six tracked frames arrive while the worker is held up (a busy machine): the paints meanwhile
    show what is ready, never anything older than a paint before them; the requests made while it
    was held are replaced by the newest, and the view ends on the newest frame and game."""
    app = ensure_qt_app()
    s = game()
    view = shown_view(qtbot, feed, s)
    base = feed.render(s.units())
    view.set_frame(base)
    settle(app, view, lambda: view.renderer.shown_frame is base and not view.overlays.busy)
    renderer = view.renderer
    frames = {id(base): 0}
    painted: list[tuple[int, int]] = []
    paint = renderer.paint

    def recorded(p, spec=None):
        out = paint(p, spec)
        painted.append((renderer.shown_version, frames[id(renderer.shown_frame)]))
        return out

    renderer.paint = recorded
    gate = hold_overlay_jobs(view.compositor)
    jobs = view.overlays.jobs_done
    kept = []
    for step in range(1, 7):
        frame = base.copy()
        kept.append(frame)
        frames[id(frame)] = step
        view.set_frame(frame)
        carry(s, step, AR, (50.0, 21.0))
        app.processEvents()
        view.repaint()
    gate.set()
    settle(app, view, lambda: not view.overlays.busy and renderer.shown_version == s.version
           and renderer.shown_frame is kept[-1])
    versions = [v for v, _ in painted]
    shown_frames = [f for _, f in painted]
    assert versions == sorted(versions), f"an older game was painted after a newer one: {versions}"
    assert shown_frames == sorted(shown_frames), f"an older frame was painted after a newer one: {shown_frames}"
    assert view.overlays.jobs_done - jobs <= 2, "requests made while the worker was held were replaced by the newest"
    assert painted[-1] == (s.version, 6)
