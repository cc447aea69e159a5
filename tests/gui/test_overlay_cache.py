"""Drawing costs what changed, and draws the same pixels as painting everything: the cached overlay
image brought up to date region by region equals a full repaint while units move, start and stop;
a carried unit repaints nothing cached; the builders recompute only the moved unit's shapes; cut
outlines paint the same pixels inside their rectangle; the rules' cone shortcut gives the exact
test's answers."""
from __future__ import annotations

import math
import os
import random

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.compositor import Compositor, bgr_from_qimage, ensure_qt_app
from gui.overlay_layers import HOT_REBUILDS
from appmodel.game_session import AttackDraft, GameSession
from appmodel.overlays.registry import OverlayToggles
from appmodel.tracking.synthetic_feed import SyntheticFeed
from appmodel.overlays.transforms import CameraTransform, TopDownTransform
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

MAAWS, SERGEANT, GUNNER, AR, ZBL = 13, 10, 11, 31, 40


def game() -> GameSession:
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.select_unit(ZBL, weapon="Autocannon")
    s.set_attack(AttackDraft(ZBL, "Autocannon", (15, 11), {"crew_assistants": 1}, {11: {"cover": "partial"}}))
    s.set_blast_point((24.0, 30.0))
    s.measure((18.0, 21.0), (47.0, 32.0))
    return s


def move(s: GameSession, t: float, **where: tuple[float, float]) -> None:
    ids = {"maaws": MAAWS, "sergeant": SERGEANT, "gunner": GUNNER, "ar": AR, "zbl": ZBL}
    s.apply_poses([UnitPose(ids[k], "", "", x, y, 1.0, h, UnitState.SEEN, t, None) for k, (x, y, h) in where.items()], t_s=t)


@pytest.fixture(scope="module")
def camera():
    ensure_qt_app()
    feed = SyntheticFeed((72.0, 48.0), width_px=960, height_px=540)
    return CameraTransform(feed.calibration)


def picture(comp: Compositor, s: GameSession, transform, toggles=None) -> np.ndarray:
    black = np.zeros((540, 960, 3), np.uint8)
    return bgr_from_qimage(comp.compose(s.snapshot(), transform, toggles or OverlayToggles(), frame_bgr=black))


def test_the_cached_overlays_equal_a_full_repaint_while_units_move_start_and_stop(camera):
    s = game()
    comp = Compositor()
    picture(comp, s, camera)
    updates, hot = [], []
    script = [dict(maaws=(15.0 + 0.3 * i, 29.0, 10.0 * i)) for i in range(1, 5)]           # one unit carried
    script += [dict(maaws=(16.5, 29.0, 40.0), gunner=(14.0 + 0.4 * i, 24.0 - 0.2 * i, 0.0),  # three at once, the
                    ar=(50.0 - 0.5 * i, 21.0, 180.0)) for i in range(1, 4)]                  # team's token among them
    script += [dict(zbl=(53.0 - 0.5 * i, 25.0, 180.0)) for i in range(1, 3)]                  # the selected vehicle
    script += [{"blast": (24.0, 30.0 + 0.2 * i)} for i in range(HOT_REBUILDS + 1)]  # all set down; the game goes on
    for t, where in enumerate(script, start=1):
        if "blast" in where:
            s.set_blast_point(where["blast"])
        else:
            move(s, float(t), **where)
        incremental = picture(comp, s, camera)
        updates.append(comp.last_update)
        hot.append(comp.layers.hot_item_count)
        comp.invalidate()
        full = picture(comp, s, camera)
        diff = np.abs(incremental.astype(int) - full.astype(int))
        assert diff.max() <= 2 and (diff > 0).mean() < 1e-4, f"step {t}: the cached image differs from a full repaint"
    assert "region" in updates, "the test must exercise the region repaint"
    assert max(hot) > 0 and hot[-1] == 0, "carried units are drawn hot, and taken back once set down"


def test_a_carried_unit_repaints_nothing_cached_and_is_drawn_where_it_is(camera):
    s = game()
    comp = Compositor()
    only = OverlayToggles(**{n: n in ("units", "voice", "grid") for n in OverlayToggles().names()})
    picture(comp, s, camera, only)
    repainted = []
    for i in range(1, 7):
        move(s, float(i), maaws=(15.0 + 0.5 * i, 29.0 - 0.3 * i, 0.0))
        img = picture(comp, s, camera, only)
        repainted.append(comp.last_repainted_px)
    assert repainted[0] > 0 and all(px == 0 for px in repainted[1:]), repainted
    x, y = camera.device_from_table(np.array([[18.0, 27.2]]))[0]
    patch = img[int(y) - 2:int(y) + 3, int(x) - 2:int(x) + 3].reshape(-1, 3)
    assert patch[:, 0].max() > 150  # the Marines' blue base is where the unit now stands
    old_x, old_y = camera.device_from_table(np.array([[15.0, 29.0]]))[0]
    assert img[int(old_y) - 2:int(old_y) + 3, int(old_x) - 2:int(old_x) + 3, 0].max() < 150


def test_once_still_the_picture_is_what_a_fresh_view_draws(camera):
    s = game()
    comp = Compositor()
    no_labels = OverlayToggles(labels=False, odds=False, fan=True)
    picture(comp, s, camera, no_labels)
    for i in range(1, 5):
        move(s, float(i), maaws=(15.0 + 0.5 * i, 29.0, 0.0), ar=(50.0 - 0.5 * i, 21.0, 180.0))
        picture(comp, s, camera, no_labels)
    for i in range(HOT_REBUILDS + 1):
        s.set_blast_point((24.0, 30.0 + 0.01 * i))  # the game goes on: other changes, nothing moves
        img = picture(comp, s, camera, no_labels)
    fresh = picture(Compositor(), s, camera, no_labels)
    diff = np.abs(img.astype(int) - fresh.astype(int))
    assert diff.max() <= 2 and (diff > 0).mean() < 1e-4


def test_the_builders_recompute_only_what_the_moved_unit_changed():
    from appmodel.overlays.draw_memo import Memo
    from appmodel.overlays.registry import build_items

    s = game()
    memo = Memo()
    names = OverlayToggles().names()
    first = build_items(s.snapshot(), names, memo=memo)
    computed = memo.misses
    move(s, 1.0, ar=(49.0, 21.0, 180.0))
    second = build_items(s.snapshot(), names, memo=memo)
    again = memo.misses - computed
    assert 0 < again < computed / 5, (again, computed)
    same = {id(i) for i in first} & {id(i) for i in second}
    assert len(same) > 0.7 * len(second)
    # and the result is what a build without memo gives
    plain = build_items(s.snapshot(), names)
    assert [i.identity for i in second] == [i.identity for i in plain]


@pytest.mark.parametrize("dashed,fill", [(False, 0), (True, 0), (False, 60), (True, 22)])
def test_an_outline_cut_to_a_rectangle_paints_the_same_pixels_there(camera, dashed, fill):
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QImage, QPainter

    from gui.overlay_painter import OverlayPainter
    from appmodel.overlays.draw_item import DrawItem

    ring = np.array([[30 + 40 * math.cos(a), 24 + 26 * math.sin(a)] for a in np.linspace(0, 2 * math.pi, 300, endpoint=False)])
    item = DrawItem("range", ("ring", dashed, fill), ring, "#2f6fd0", closed=True, width_px=2.5, dashed=dashed, fill=fill)
    painter = OverlayPainter()
    poly = painter.outlines([item], camera)[item.key]
    points = painter.projected(item, camera)
    for rect in ((40, 300, 120, 140), (430, 20, 100, 60), (820, 300, 120, 120)):
        images = []
        for cut in (False, True):
            img = QImage(960, 540, QImage.Format.Format_ARGB32_Premultiplied)
            img.fill(Qt.GlobalColor.transparent)
            p = QPainter(img)
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            x, y, w, h = rect
            p.setClipRect(QRect(x, y, w, h))
            if cut:
                painter.paint_shape_within(p, item, points, (x - 12.0, y - 12.0, x + w + 12.0, y + h + 12.0), camera)
            else:
                painter.paint_shape(p, item, poly, camera)
            p.end()
            images.append(bgr_from_qimage(img).astype(int))
        assert images[0].max() > 0, f"the rectangle {rect} must hold part of the ring"
        diff = np.abs(images[0] - images[1])
        assert diff.max() <= 3 and (diff > 0).sum() <= 6, rect


def test_the_cone_shortcut_agrees_with_the_exact_test():
    from rules import geometry as G

    rng = random.Random(5)
    decided = 0
    for _ in range(1200):
        hull = G.OrientedRect(rng.uniform(0, 72), rng.uniform(0, 48), rng.uniform(0, 360), rng.uniform(2, 6), rng.uniform(1, 3))
        cone = G.Cone.from_attacker(hull, axis_deg=rng.uniform(0, 360), range_in=rng.choice([6, 12, 24, 48, 64]))
        base = G.Circle(rng.uniform(0, 72), rng.uniform(0, 48), rng.choice([0.5, 0.75, 1.0, 1.5]))
        part = G._wedge_part(cone, base)
        exact = part is not None and G._polygon_gap(part, hull) <= cone.reach.distance_in + G.EPS
        assert cone.touches(base) == exact
        decided += G._clear_cone_answer(cone, base) is not None
    assert decided > 400  # the shortcut is actually taken


def test_top_down_zoom_repaints_whole_and_stays_right():
    ensure_qt_app()
    s = game()
    comp = Compositor()
    t = TopDownTransform((72.0, 48.0), (800, 560))
    black = np.zeros((560, 800, 3), np.uint8)
    comp.compose(s.snapshot(), t, OverlayToggles(), frame_bgr=black)
    zoomed = t.zoomed(1.5, (400, 280))
    img = bgr_from_qimage(comp.compose(s.snapshot(), zoomed, OverlayToggles(), black=True))
    assert comp.last_update == "full"
    ref = bgr_from_qimage(Compositor().compose(s.snapshot(), zoomed, OverlayToggles(), black=True))
    assert np.abs(img.astype(int) - ref.astype(int)).max() <= 2


def test_what_a_view_keeps_draws_what_a_full_rebuild_draws_through_selections_and_toggles(camera):
    """The view's picture after moves, a new selection, overlays switched off and on again: drawn from
    what the compositor kept (remembered shapes, the cached layer brought up to date) it is what the
    same compositor draws having forgotten both (labels keep their spots either way: placement is
    stable by design)."""
    s = game()
    comp = Compositor()
    every = OverlayToggles()
    fewer = every.with_("fan", False).with_("voice", False).with_("range", False)
    picture(comp, s, camera, every)
    steps = [
        (lambda: move(s, 1.0, maaws=(15.4, 29.1, 10.0)), every),
        (lambda: move(s, 2.0, maaws=(15.8, 29.2, 20.0), ar=(49.5, 21.0, 180.0)), every),
        (lambda: s.select_unit(MAAWS), every),
        (lambda: move(s, 3.0, maaws=(16.2, 29.0, 30.0)), fewer),
        (lambda: s.select_unit(None), fewer),
        (lambda: move(s, 4.0, zbl=(52.5, 25.0, 180.0)), every),
        (lambda: s.select_unit(ZBL), every),
    ]
    for k, (change, toggles) in enumerate(steps, start=1):
        change()
        kept = picture(comp, s, camera, toggles)
        comp.memo.clear()
        comp.invalidate()
        fresh = picture(comp, s, camera, toggles)
        diff = np.abs(kept.astype(int) - fresh.astype(int))
        assert diff.max() <= 2 and (diff > 0).mean() < 1e-4, f"step {k}: {(diff > 0).sum()} pixels differ"
