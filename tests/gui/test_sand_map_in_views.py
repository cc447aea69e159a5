"""The sand-as-map overlays on screen: selecting a unit with the viewshed on shades the ground hidden
behind a hill in the window's top-down view; the camera view and the projector draw the same
shading through their own transforms; symbols replace nothing but show where the units stand."""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession  # noqa: E402
from appmodel.overlays.registry import OverlayToggles  # noqa: E402
from appmodel.overlays.sandmap import HIDDEN_RGBA  # noqa: E402
from appmodel.overlays.transforms import CameraTransform, TopDownTransform  # noqa: E402
from appmodel.tracking.synthetic_feed import SyntheticFeed  # noqa: E402
from gui.compositor import Compositor, bgr_from_qimage, ensure_qt_app  # noqa: E402
from gui.settings import load_settings, open_store  # noqa: E402
from rules.downrange.examples.in_depth import SCENARIO_PATH  # noqa: E402
from rules.terrain_sight import Ground  # noqa: E402

MAAWS = 13  # at (15, 29)
CELL = 0.25
HIDDEN_XY, SEEN_XY = (52.0, 22.0), (22.0, 31.0)  # behind the hill from the gunner; open ground beside him


def hill() -> Ground:
    yy, xx = np.mgrid[0:int(48 / CELL) + 1, 0:int(72 / CELL) + 1] * CELL
    r = np.hypot(xx - 40.0, yy - 24.0)
    return Ground(np.where(r < 10.0, 3.0 * (1 + np.cos(np.pi * np.minimum(r / 10.0, 1))) / 2, 0.0), CELL)


def only(*names: str) -> OverlayToggles:
    return OverlayToggles(**{**{n: False for n in OverlayToggles().names()}, **{n: True for n in names}})


def reddish(bgr: np.ndarray, xy_px: np.ndarray, r: int = 2) -> bool:
    """Dark red shading over a black frame: red well above green and blue."""
    x, y = int(round(xy_px[0])), int(round(xy_px[1]))
    b, g, red = bgr[y - r:y + r + 1, x - r:x + r + 1].reshape(-1, 3).mean(axis=0)
    return bool(red > 40 and red > 2 * g and red > 2 * b)


@pytest.fixture(scope="module")
def session() -> GameSession:
    ensure_qt_app()
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.set_ground(hill())
    s.select_unit(MAAWS)
    return s


def test_top_down_and_camera_views_shade_the_hidden_ground_red(session) -> None:
    feed = SyntheticFeed((72.0, 48.0), width_px=1280, height_px=720)
    for transform, size in ((TopDownTransform((72.0, 48.0), (1440, 960), margin_px=20), (960, 1440)),
                            (CameraTransform(feed.calibration), (720, 1280))):
        img = bgr_from_qimage(Compositor().compose(session.snapshot(), transform, only("viewshed"),
                                                   frame_bgr=np.zeros(size + (3,), np.uint8)))
        hidden, seen = transform.device_from_table(np.array([HIDDEN_XY, SEEN_XY]))
        assert reddish(img, hidden), f"the ground behind the hill is not shaded in {type(transform).__name__}"
        assert not reddish(img, seen), f"open ground beside the gunner is shaded hidden in {type(transform).__name__}"
    assert HIDDEN_RGBA[0] > 2 * HIDDEN_RGBA[1]


def test_symbols_are_drawn_where_the_units_stand(session) -> None:
    t = TopDownTransform((72.0, 48.0), (1440, 960), margin_px=20)
    black = np.zeros((960, 1440, 3), np.uint8)
    img = bgr_from_qimage(Compositor().compose(session.snapshot(), t, only("symbols"), frame_bgr=black)).astype(int)
    bare = bgr_from_qimage(Compositor().compose(session.snapshot(), t, only(), frame_bgr=black)).astype(int)
    drawn = np.abs(img - bare).max(axis=-1)
    for u in session.snapshot().units:
        if u.on_table:
            x, y = (int(round(v)) for v in t.device_from_table(np.array([[u.x_in, u.y_in]]))[0])
            assert drawn[y - 6:y + 7, x - 6:x + 7].max() > 60, f"no symbol drawn at {u.name}"
    empty = t.device_from_table(np.array([[60.0, 6.0]]))[0].astype(int)
    assert drawn[empty[1] - 6:empty[1] + 7, empty[0] - 6:empty[0] + 7].max() == 0


def test_selecting_a_unit_with_the_viewshed_on_draws_hidden_ground_in_the_window(qtbot, tmp_path) -> None:
    from appmodel.tracking.live_tracking import SyntheticLive
    from gui.app import create_application
    from gui.main_window import MainWindow

    create_application()
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    s.set_ground(hill())
    feed = SyntheticFeed(s.table_size_in, width_px=640, height_px=360)
    live = SyntheticLive(feed).start()
    store = open_store(tmp_path / "settings.ini")
    w = MainWindow(s, settings=load_settings(store), store=store, calibration=feed.calibration, live=live)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    w.view.set_mode("table")
    for name in OverlayToggles().names():  # the viewshed alone, so the pixels say what drew them
        w.set_overlay(name, False)
    w.actions_by_name["overlay_viewshed"].trigger()  # the menu offers it
    assert w.settings.overlays.viewshed
    hidden = w.view.transform().device_from_table(np.array([HIDDEN_XY]))[0]

    def shaded() -> bool:
        return reddish(bgr_from_qimage(w.view.grab().toImage()), hidden)

    assert not shaded()
    s.select_unit(MAAWS)
    qtbot.waitUntil(shaded, timeout=20000)
    s.select_unit(None)
    qtbot.waitUntil(lambda: not shaded(), timeout=20000)


def test_the_window_badge_shows_the_match_score_while_the_sculpting_guidance_is_on(qtbot) -> None:
    from gui.app import create_application
    from gui.table_view import TableView

    create_application()
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    s.set_ground(hill())
    s.set_sand_map(s.sand.with_(target_ground=Ground(np.zeros_like(hill().heights_in), CELL)))  # flatten the hill
    view = TableView(s, toggles=OverlayToggles().with_("sculpting", True), mode="table")
    qtbot.addWidget(view)
    view.resize(1366, 700)
    from PySide6.QtGui import QImage, QPainter

    image = QImage(1366, 700, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    p = QPainter(image)
    try:
        view._paint_badge(p)
    finally:
        p.end()
    assert image.pixelColor(20, 20).alpha() > 0  # the badge is painted in the corner
    texts = [view.badge_text()]
    from calibration.sculpting import match_score
    score = match_score(hill().heights_in, np.zeros_like(hill().heights_in), cell_in=CELL)
    assert any(f"sand vs target: {score.summary()}" in t for t in texts)
