"""Overlays land on the right pixels: the range ring drawn through a known calibration (lens distortion
included) and in the top-down view, checked pixel by pixel against where the rules put the ring."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.compositor import Compositor, bgr_from_qimage, ensure_qt_app
from appmodel.game_session import GameSession
from appmodel.overlays.registry import OverlayToggles
from appmodel.tracking.synthetic_feed import SyntheticFeed
from appmodel.overlays.transforms import CameraTransform, TopDownTransform
from rules.downrange.examples.in_depth import SCENARIO_PATH

MAAWS = 13  # at (15, 29), Carl Gustaf: Range 38", base radius 0.5"
ONLY = {name: False for name in OverlayToggles().names()}


def only(*names: str) -> OverlayToggles:
    return OverlayToggles(**{**ONLY, **{n: True for n in names}})


@pytest.fixture(scope="module")
def scene():
    ensure_qt_app()
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    session.select_unit(MAAWS)
    feed = SyntheticFeed((72.0, 48.0), width_px=1280, height_px=720)
    return session, feed


def lit(img: np.ndarray, xy: np.ndarray, r: int = 2) -> bool:
    x, y = int(round(xy[0])), int(round(xy[1]))
    patch = img[max(0, y - r): y + r + 1, max(0, x - r): x + r + 1]
    return bool(patch.max() > 60)


def ring_points(center, radius_in, angles_deg):
    return np.array([[center[0] + radius_in * math.cos(math.radians(a)), center[1] + radius_in * math.sin(math.radians(a))]
                     for a in angles_deg])


def test_range_ring_lands_on_the_camera_pixels_of_points_at_range_from_the_base(scene):
    session, feed = scene
    u = session.unit(MAAWS)
    black = np.zeros((720, 1280, 3), np.uint8)
    image = Compositor().compose(session.snapshot(), CameraTransform(feed.calibration), only("range"), frame_bgr=black)
    img = bgr_from_qimage(image)
    angles = np.arange(-80, 81, 8)  # the part of the 38.5" ring that lies on the table, to the right
    on_ring = feed.calibration.camera_from_table(ring_points((u.x_in, u.y_in), 38.0 + 0.5, angles))
    inside = feed.calibration.camera_from_table(ring_points((u.x_in, u.y_in), 36.5, angles))
    visible = [(a, b) for a, b in zip(on_ring, inside) if 5 < a[0] < 1275 and 5 < a[1] < 715]
    assert len(visible) >= 10
    assert all(lit(img, a) for a, _ in visible), "the ring is missing where 38\" from the base projects"
    assert not any(lit(img, b) for _, b in visible), "something is drawn 2\" inside the ring"
    # the ring is blue, the Marines' colour (#2f6fd0 -> B > R)
    a = visible[len(visible) // 2][0]
    x, y = int(round(a[0])), int(round(a[1]))
    patch = img[y - 2: y + 3, x - 2: x + 3].reshape(-1, 3).astype(int)
    brightest = patch[patch.sum(axis=1).argmax()]
    assert brightest[0] > brightest[2] + 60


def test_camera_overlay_follows_the_lens_distortion_not_a_pinhole(scene):
    session, feed = scene
    u = session.unit(MAAWS)
    cal = feed.calibration
    black = np.zeros((720, 1280, 3), np.uint8)
    img = bgr_from_qimage(Compositor().compose(session.snapshot(), CameraTransform(cal), only("range"), frame_bgr=black))
    from dataclasses import replace

    from calibration.table_calibration import TableCalibration

    pinhole = TableCalibration(replace(cal.model, dist_coeffs=(0.0, 0.0, 0.0, 0.0, 0.0)), cal.pose, cal.layout, 0.0)
    pts = ring_points((u.x_in, u.y_in), 38.5, np.arange(-60, 61, 5))
    distorted, straight = cal.camera_from_table(pts), pinhole.camera_from_table(pts)
    far_apart = [(d, s) for d, s in zip(distorted, straight) if np.linalg.norm(d - s) > 12 and 5 < d[0] < 1275 and 5 < d[1] < 715
                 and 5 < s[0] < 1275 and 5 < s[1] < 715]
    assert far_apart, "the test needs points where the lens bends the ring visibly"
    assert all(lit(img, d) for d, _ in far_apart)
    assert not any(lit(img, s, r=1) for _, s in far_apart)


def test_top_down_ring_and_tape_are_where_the_inches_say(scene):
    session, feed = scene
    u = session.unit(MAAWS)
    t = TopDownTransform((72.0, 48.0), (1000, 700), margin_px=20)
    session.measure((u.x_in, u.y_in), (60.0, 10.0))
    img = bgr_from_qimage(Compositor().compose(session.snapshot(), t, only("range", "tape"), black=True))
    ring = t.device_from_table(ring_points((u.x_in, u.y_in), 38.5, range(0, 360, 5)))
    inner = t.device_from_table(ring_points((u.x_in, u.y_in), 37.0, range(0, 360, 5)))
    on_view = [(p, q) for p, q in zip(ring, inner) if 3 < p[0] < 997 and 3 < p[1] < 697]
    assert len(on_view) >= 10 and all(lit(img, p) for p, _ in on_view)
    assert sum(lit(img, q, r=1) for _, q in on_view) <= 1  # (the tape crosses the ring once)
    s = t.px_per_in
    assert abs(np.linalg.norm(t.device_from_table(np.array([[u.x_in + 38.5, u.y_in]]))[0] -
                              t.device_from_table(np.array([[u.x_in, u.y_in]]))[0]) - 38.5 * s) < 1e-6
    on_tape = t.device_from_table(np.array([[u.x_in + 0.3 * (60 - u.x_in), u.y_in + 0.3 * (10 - u.y_in)]]))[0]
    off_tape = t.device_from_table(np.array([[u.x_in + 0.3 * (60 - u.x_in), u.y_in + 0.3 * (10 - u.y_in) + 3.0]]))[0]
    assert lit(img, on_tape) and not lit(img, off_tape)
    assert session.snapshot().tape.distance_in == pytest.approx(math.hypot(60 - u.x_in, 10 - u.y_in) - 0.5)
    session.clear_tape()


def test_a_moved_unit_is_drawn_at_its_new_place_not_from_the_cache(scene):
    session, feed = scene
    from tracker.unit_pose import UnitPose, UnitState

    t = TopDownTransform((72.0, 48.0), (1000, 700), margin_px=20)
    comp = Compositor()
    before = bgr_from_qimage(comp.compose(session.snapshot(), t, only("units"), black=True))
    session.apply_poses([UnitPose(MAAWS, "MAAWS gunner", "Marines", 40.0, 10.0, 1.0, 0.0, UnitState.SEEN, 1.0, 27.0)])
    after = bgr_from_qimage(comp.compose(session.snapshot(), t, only("units"), black=True))
    new = t.device_from_table(np.array([[40.0, 10.0]]))[0]
    old = t.device_from_table(np.array([[15.0, 29.0]]))[0]
    assert not lit(before, new) and lit(after, new)
    assert lit(before, old) and not lit(after, old)
