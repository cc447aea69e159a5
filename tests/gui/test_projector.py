"""The projector window warps overlays through the projector calibration onto the table, on black,
showing only what the instructor chose; presenter mode shows the plain top-down view."""
from __future__ import annotations

import math
import os

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from calibration.projector import ProjectorCalibration
from gui.compositor import bgr_from_qimage
from appmodel.game_session import AttackDraft, GameSession
from appmodel.overlays.registry import OverlayToggles
from rules.downrange.examples.in_depth import SCENARIO_PATH

MAAWS = 13

# A projector hung off-centre and tilted: a real perspective warp, 1280x800.
H = np.array([[15.0, 1.2, 80.0], [-0.8, -14.0, 760.0], [0.0004, 0.0009, 1.0]])


def lit(img, xy, r=2):
    x, y = int(round(xy[0])), int(round(xy[1]))
    return img[max(0, y - r): y + r + 1, max(0, x - r): x + r + 1].max() > 60


def test_projector_window_draws_the_range_ring_where_the_projector_lights_the_table(qtbot):
    from gui.projector_window import ProjectorWindow

    cal = ProjectorCalibration(1280, 800, H, 0.0, 0.0, 16)
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    session.select_unit(MAAWS)
    only_range = OverlayToggles(**{n: n == "range" for n in OverlayToggles().names()})
    window = ProjectorWindow(session, projector_calibration=cal, toggles=only_range)
    qtbot.addWidget(window)
    img = bgr_from_qimage(window.render_image())
    assert img.shape == (800, 1280, 3)
    u = session.unit(MAAWS)
    ring = [(u.x_in + 38.5 * math.cos(math.radians(a)), u.y_in + 38.5 * math.sin(math.radians(a))) for a in range(-70, 71, 7)]
    inner = [(u.x_in + 36.5 * math.cos(math.radians(a)), u.y_in + 36.5 * math.sin(math.radians(a))) for a in range(-70, 71, 7)]
    px, px_in = cal.projector_from_table(np.array(ring)), cal.projector_from_table(np.array(inner))
    shown = [(p, q) for p, q in zip(px, px_in) if 3 < p[0] < 1277 and 3 < p[1] < 797]
    assert len(shown) >= 8
    # where the ring crosses a unit's tag the picture stays black (projection never costs tracking)
    import cv2

    masks = [m.astype(np.float32) for m in window.tag_mask_polygons()]
    under_tag = [any(cv2.pointPolygonTest(m, (float(p[0]), float(p[1])), True) > -4 for m in masks) for p, _ in shown]
    assert all(lit(img, p) for (p, _), hidden in zip(shown, under_tag) if not hidden)
    assert not any(lit(img, p, r=0) for (p, _), hidden in zip(shown, under_tag)
                   if hidden and any(cv2.pointPolygonTest(m, (float(p[0]), float(p[1])), True) > 2 for m in masks))
    # nothing 2" inside the ring, except where the ring's own label was placed
    labels = window.compositor.painter.placed_labels
    assert labels and labels[0].text.startswith("Carl Gustaf")
    clear = [q for _, q in shown if not any(b[0] - 3 <= q[0] <= b[2] + 3 and b[1] - 3 <= q[1] <= b[3] + 3
                                            for b in (p.box_px for p in labels))]
    assert len(clear) >= len(shown) - 3
    assert not any(lit(img, q) for q in clear)
    # black everywhere else: far from any overlay
    assert img[:40, :40].max() == 0 or not lit(img, cal.projector_from_table(np.array([[70.0, 46.0]]))[0])
    # moving the unit moves the projected ring (no stale cache)
    from tracker.unit_pose import UnitPose, UnitState

    session.apply_poses([UnitPose(MAAWS, "MAAWS gunner", "Marines", 20.0, 20.0, 1.0, 0.0, UnitState.SEEN, 1.0, 10.0)])
    img2 = bgr_from_qimage(window.render_image())
    p_new = cal.projector_from_table(np.array([[20.0 + 38.5, 20.0]]))[0]
    assert lit(img2, p_new)


def test_the_instructor_hides_the_odds_from_the_players(qtbot):
    from gui.projector_window import ProjectorWindow

    cal = ProjectorCalibration(1280, 800, H, 0.0, 0.0, 16)
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    session.set_attack(AttackDraft(10, "M4/M16", (31,)))
    window = ProjectorWindow(session, projector_calibration=cal)  # the players' default: no odds
    qtbot.addWidget(window)
    odds_only = OverlayToggles(**{n: n == "odds" for n in OverlayToggles().names()})
    window.set_toggles(odds_only.with_("odds", False))
    assert bgr_from_qimage(window.render_image()).max() == 0
    window.set_toggles(odds_only)
    img = bgr_from_qimage(window.render_image())
    target = session.unit(31)
    at = cal.projector_from_table(np.array([[target.x_in, target.y_in + 1.6]]))[0]
    assert lit(img, at, r=14)
    assert not OverlayToggles.projector_default().odds


def test_presenter_mode_is_the_unwarped_top_down_view(qtbot):
    from gui.projector_window import ProjectorWindow
    from appmodel.overlays.transforms import TopDownTransform

    session = GameSession.from_scenario_file(SCENARIO_PATH)
    session.select_unit(MAAWS)
    window = ProjectorWindow(session, mode="presenter", toggles=OverlayToggles(**{n: n == "range" for n in OverlayToggles().names()}))
    qtbot.addWidget(window)
    img = bgr_from_qimage(window.render_image((1000, 700)))
    t = TopDownTransform((72.0, 48.0), (1000, 700))
    u = session.unit(MAAWS)
    p = t.device_from_table(np.array([[u.x_in + 38.5, u.y_in]]))[0]
    assert lit(img, p)


def test_the_projector_on_screen_follows_a_carried_unit_without_drawing_on_the_ui_thread(qtbot, monkeypatch):
    import time

    from gui.compositor import ensure_qt_app
    from gui.overlay_worker import OverlayWorker
    from gui.projector_window import ProjectorWindow
    from tracker.unit_pose import UnitPose, UnitState

    app = ensure_qt_app()
    cal = ProjectorCalibration(1280, 800, H, 0.0, 0.0, 16)
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    session.select_unit(MAAWS)
    window = ProjectorWindow(session, projector_calibration=cal)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    app.processEvents()  # its first picture, drawn at once (nothing made yet)
    made_here = []
    original = OverlayWorker.render_now
    monkeypatch.setattr(OverlayWorker, "render_now", lambda self, *a, **k: made_here.append(1) or original(self, *a, **k))
    workers = window.renderer.overlays
    for step in range(1, 4):
        session.apply_poses([UnitPose(MAAWS, "MAAWS gunner", "Marines", 20.0 + step, 20.0, 1.0, 0.0, UnitState.SEEN,
                                      step / 30, None)], t_s=step / 30)
        end = time.monotonic() + 10
        while workers.busy or workers.latest_overlay() is None or workers.latest_overlay().version != session.version:
            assert time.monotonic() < end, "the projector's overlays were not made"
            app.processEvents()
            time.sleep(0.002)
        window.repaint()
    assert made_here == [], "tracked moves are drawn by the worker, not on the UI thread"
    on_screen = bgr_from_qimage(window.grab().toImage())[:800, :1280]
    assert np.array_equal(on_screen, bgr_from_qimage(window.render_image())), "the screen shows what render_image draws"
    p_new = cal.projector_from_table(np.array([[23.0 + 38.5, 20.0]]))[0]
    assert lit(on_screen, p_new), "the range ring moved with the unit"
