"""Force on Force on the table: the line-of-fire corridor is shaded where the rules put it and the
figures in it are ringed and listed; a figure carried out of cohesion is flagged (and no longer once
it is back), in the camera view through a known calibration, with the cached picture equal to a full
repaint; the menus offer each rule system's own overlays and the toggles persist; the rooftop gunner's
base, rings, label and line of fire are drawn at his height where the camera sees him."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.compositor import Compositor, bgr_from_qimage, ensure_qt_app
from appmodel.game_session import AttackDraft, GameSession
from appmodel.overlays.registry import OverlayToggles
from appmodel.tracking.synthetic_feed import SyntheticFeed
from appmodel.overlays.transforms import CameraTransform, TopDownTransform
from rules.forceonforce.examples.patrol import SCENARIO_PATH
from rules.geometry import Corridor
from tracker.unit_pose import UnitPose, UnitState

ALPHA_1, ALPHA_3, ALPHA_4, BRAVO_1, CELL_1_A, SHOPPERS, MARKET_STALL = 10, 12, 13, 14, 30, 51, 50
ALPHA_4_HOME = (15.4, 20.0)


def only(*names: str) -> OverlayToggles:
    return OverlayToggles(**{n: n in names for n in OverlayToggles().names()})


def at(transform, x: float, y: float) -> tuple[int, int]:
    px = transform.device_from_table(np.array([[x, y]], dtype=float))[0]
    return int(round(px[0])), int(round(px[1]))


def patch(img: np.ndarray, xy: tuple[int, int], r: int = 2) -> np.ndarray:
    x, y = xy
    return img[y - r:y + r + 1, x - r:x + r + 1].reshape(-1, 3).astype(int)


def is_red(p: np.ndarray) -> bool:  # WARNING #ff4d4d (B, G, R)
    return bool(((p[:, 2] > 180) & (p[:, 1] < 120) & (p[:, 0] < 120)).any())


def is_amber(p: np.ndarray) -> bool:  # CAUTION #ffb000
    return bool(((p[:, 2] > 180) & (p[:, 1] > 110) & (p[:, 1] < 220) & (p[:, 0] < 80)).any())


def carry(s: GameSession, figure: int, xy: tuple[float, float], t: float) -> None:
    s.apply_poses([UnitPose(figure, "", "", xy[0], xy[1], 1.0, 0.0, UnitState.SEEN, t, None)], t_s=t)


@pytest.fixture(scope="module")
def app():
    return ensure_qt_app()


def test_the_line_of_fire_corridor_is_shaded_between_the_units_and_who_is_in_it_is_ringed_and_listed(app):
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    s.select_unit(ALPHA_1)
    s.set_attack(AttackDraft(ALPHA_1, "Fire", (CELL_1_A,)))
    lane = next(o for o in s.snapshot().overlays if o.kind == "line of fire")
    assert isinstance(lane.shape, Corridor) and SHOPPERS in lane.unit_ids and BRAVO_1 in lane.unit_ids
    t = TopDownTransform((72.0, 48.0), (1440, 960), margin_px=20)
    comp = Compositor()
    img = bgr_from_qimage(comp.compose(s.snapshot(), t, only("line_of_fire"), black=True))
    c = lane.shape
    along = math.atan2(c.by_in - c.ay_in, c.bx_in - c.ax_in)
    nx, ny = -math.sin(along), math.cos(along)

    def point(f: float, off_in: float) -> tuple[int, int]:
        return at(t, c.ax_in + f * (c.bx_in - c.ax_in) + nx * off_in, c.ay_in + f * (c.by_in - c.ay_in) + ny * off_in)

    # Shaded in the firing side's blue inside the corridor (2" each side), dark 1" beyond its edge
    # (on the side away from its list) and beyond its ends (the rough centres of the two units).
    inside = [point(f, off) for f in (0.3, 0.5, 0.7) for off in (-1.4, 1.4)]
    assert all((patch(img, p, 0)[:, 0] > patch(img, p, 0)[:, 2] + 15).all() for p in inside), "the corridor is not shaded"
    outside = [point(f, -c.half_width_in - 1.0) for f in (0.3, 0.5, 0.7)] + [point(-0.06, 0.0), point(1.05, 0.0)]
    assert all(patch(img, p, 1).max() < 40 for p in outside), "something is drawn beyond the corridor's edge"
    # Its long edge is drawn (dashed) where the rules' corridor ends sideways.
    edge = [point(f, c.half_width_in) for f in np.linspace(0.2, 0.8, 25)]
    assert sum(patch(img, p, 2).max() > 120 for p in edge) >= 12

    # The figures the rules found in the lane are ringed in amber; those outside are not.
    px_per_in = t.px_per_in

    def ringed(uid: int) -> bool:
        u = s.unit(uid)
        r = u.footprint.radius_in + 0.35
        return sum(is_amber(patch(img, at(t, u.x_in + r * math.cos(a), u.y_in + r * math.sin(a)), 2))
                   for a in np.radians(np.arange(0, 360, 30))) >= 9

    assert px_per_in > 10
    assert all(ringed(uid) for uid in lane.unit_ids)
    assert not ringed(MARKET_STALL) and not ringed(ALPHA_3)
    # ...and listed along the corridor, in amber words.
    listed = [p for p in comp.painter.placed_labels if p.text.startswith("line of fire")]
    assert len(listed) == 1 and "Bravo (friend)" in listed[0].text and "Shoppers (civilian)" in listed[0].text
    x0, y0, x1, y1 = (int(v) for v in listed[0].box_px)
    words = img[y0:y1, x0:x1].reshape(-1, 3).astype(int)
    assert ((words[:, 2] > 200) & (words[:, 0] < words[:, 2] - 80)).sum() > 50  # warm text, not white

    # The shoppers step out of the lane: the rules drop them, the ring and the words go.
    shopper = s.unit(SHOPPERS)
    carry(s, SHOPPERS, (shopper.x_in, 30.0), 1.0)
    img = bgr_from_qimage(comp.compose(s.snapshot(), t, only("line_of_fire"), black=True))
    listed = [p.text for p in comp.painter.placed_labels if p.text.startswith("line of fire")]
    assert listed and "Shoppers" not in listed[0]
    u = s.unit(SHOPPERS)
    assert not any(is_amber(patch(img, at(t, u.x_in + (u.footprint.radius_in + 0.35) * math.cos(a),
                                            u.y_in + (u.footprint.radius_in + 0.35) * math.sin(a)), 2))
                   for a in np.radians(np.arange(0, 360, 30)))


def test_a_figure_carried_out_of_cohesion_is_flagged_in_the_camera_view_and_not_once_it_is_back(app):
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    s.select_unit(BRAVO_1)
    feed = SyntheticFeed((72.0, 48.0), width_px=1280, height_px=720)
    cam = CameraTransform(feed.calibration)
    black = np.zeros((720, 1280, 3), np.uint8)
    comp = Compositor()

    def draw() -> np.ndarray:
        return bgr_from_qimage(comp.compose(s.snapshot(), cam, only("cohesion", "units"), frame_bgr=black))

    def flag_ring(xy: tuple[float, float], img: np.ndarray) -> int:
        r = 0.5 + 0.5  # the base's radius + the flag's margin
        return sum(is_red(patch(img, at(cam, xy[0] + r * math.cos(a), xy[1] + r * math.sin(a)), 1))
                   for a in np.radians(np.arange(0, 360, 30)))

    def around_alpha(img: np.ndarray) -> np.ndarray:  # the US patrol's corner of the table (blue; insurgents are red)
        corners = np.array([at(cam, x, y) for x in (7.0, 23.0) for y in (16.0, 26.0)])
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
        return img[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    img = draw()
    assert not is_red(around_alpha(img)), "nothing is flagged while every unit holds together"
    assert any(p.text == 'Alpha: in cohesion (1")' for p in comp.painter.placed_labels)

    away = (19.0, 23.0)
    for i, x in enumerate(np.linspace(ALPHA_4_HOME[0], away[0], 4)[1:], start=1):  # carried across, a frame at a time
        carry(s, ALPHA_4, (float(x), ALPHA_4_HOME[1] + (away[1] - ALPHA_4_HOME[1]) * i / 3), float(i))
        img = draw()
    assert flag_ring(away, img) >= 10, "the straggler is not ringed in red where the camera sees it"
    texts = [p.text for p in comp.painter.placed_labels]
    assert 'Alpha: OUT OF COHESION (1 astray) (1")' in texts
    gap = next(t for t in texts if t.startswith("Alpha 4:"))
    assert gap == 'Alpha 4: 5.2" from Alpha 3 (cohesion 1")'  # 6.18" centre to centre, less two 0.5" bases
    # the dashed line from the straggler to Alpha 3 is drawn in red half-way along
    a3 = s.unit(ALPHA_3)
    mid = ((away[0] + a3.x_in) / 2, (away[1] + a3.y_in) / 2)
    assert any(is_red(patch(img, at(cam, mid[0] + dx, mid[1] + dy), 2)) for dx in (-0.3, 0, 0.3) for dy in (-0.2, 0, 0.2))
    # the picture brought up to date region by region is what a full repaint draws
    comp.invalidate()
    full = draw()
    diff = np.abs(img.astype(int) - full.astype(int))
    assert diff.max() <= 2 and (diff > 0).mean() < 1e-4

    carry(s, ALPHA_4, ALPHA_4_HOME, 10.0)
    img = draw()
    assert flag_ring(away, img) == 0 and not is_red(around_alpha(img)), "still flagged once back"
    assert any(p.text == 'Alpha: in cohesion (1")' for p in comp.painter.placed_labels)


def test_hot_spot_counters_and_the_leaders_link_are_drawn_where_the_rules_put_them(app):
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    snap = s.snapshot()
    spots = [o.shape for o in snap.overlays if o.kind == "hot spot" and not o.unit_ids]
    link = next(o.shape for o in snap.overlays if o.kind == "leader")
    assert len(spots) == 5
    t = TopDownTransform((72.0, 48.0), (1440, 960), margin_px=20)
    comp = Compositor()
    img = bgr_from_qimage(comp.compose(snap, t, only("hot_spots", "cohesion"), black=True))
    for c in spots:  # amber counters (filled: orange over black), nothing 2" beside them
        b, g, r = patch(img, at(t, c.x_in, c.y_in), 0)[0]
        assert r > 120 and r > g > b + 50, (c, (b, g, r))
        assert patch(img, at(t, c.x_in + c.radius_in + 2.0, c.y_in), 1).max() < 40
    assert {f"Hot Spot {n}" for n in range(1, 6)} <= {p.text for p in comp.painter.placed_labels}
    # The gold dashed link from Abu Karim to the middle of Cell 1, and his words.
    a = at(t, link.ax_in + 0.5 * (link.bx_in - link.ax_in), link.ay_in + 0.5 * (link.by_in - link.ay_in))
    gold = patch(img, a, 2)
    assert ((gold[:, 2] > 200) & (gold[:, 1] > 170) & (gold[:, 0] < 140)).any()
    assert any(p.request.text == "Abu Karim leads Cell 1" for p in comp.painter.placed_labels)


@pytest.mark.parametrize("example, offered, not_offered", [
    ("rules.forceonforce.examples.patrol", {"cohesion", "line_of_fire", "hot_spots", "odds", "sight", "other"},
     {"fan", "voice", "jamming", "bands", "range", "movement"}),
    ("rules.generic.examples.solo", {"bands", "scatter", "command", "automation", "range", "movement"},
     {"fan", "voice", "cohesion", "line_of_fire"}),
    ("rules.downrange.examples.in_depth", {"fan", "voice", "jamming", "range", "blast"},
     {"cohesion", "bands", "scatter", "automation"}),
])
def test_the_overlays_menu_offers_the_games_own_overlays_and_the_toggles_persist(app, tmp_path, example, offered,
                                                                                   not_offered):
    import importlib

    from gui.main_window import MainWindow
    from gui.settings import load_settings, open_store

    module = importlib.import_module(example)
    session = GameSession.from_scenario_file(module.SCENARIO_PATH, seed=1)
    store = open_store(tmp_path / "settings.ini")
    window = MainWindow(session, settings=load_settings(store), store=store)
    try:
        names = {n.split("_", 1)[1] for n in window.actions_by_name if n.startswith("overlay_")}
        projector = {n.split("_", 1)[1] for n in window.actions_by_name if n.startswith("projector_")}
        assert offered <= names and not (not_offered & names)
        assert offered <= projector and not (not_offered & projector)
        first = sorted(offered)[0]
        window.actions_by_name[f"overlay_{first}"].trigger()  # off
        window.actions_by_name[f"projector_{first}"].trigger()
        assert not window.view.toggles.is_on(first)
    finally:
        window.close()
    saved = load_settings(open_store(tmp_path / "settings.ini"))
    assert not saved.overlays.is_on(first) and saved.projector_overlays.is_on(first) != \
        OverlayToggles.projector_default().is_on(first)


RPG_GUNNER = 44  # on the rooftop: 3" of terrain under his base (patrol.toml), his tag 4" up


def test_the_rooftop_gunners_base_ring_and_label_are_drawn_where_the_camera_sees_him_not_at_table_level(app):
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    gunner = s.unit(RPG_GUNNER)
    assert gunner.z_in == 3.0
    s.select_unit(RPG_GUNNER)
    feed = SyntheticFeed((72.0, 48.0), width_px=1280, height_px=720)
    cam = CameraTransform(feed.calibration)
    comp = Compositor()
    img = bgr_from_qimage(comp.compose(s.snapshot(), cam, only("units", "labels"),
                                       frame_bgr=np.zeros((720, 1280, 3), np.uint8)))

    def seen_at(z_in: float) -> np.ndarray:
        return feed.calibration.camera_from_table(np.array([[gunner.x_in, gunner.y_in]]), z_in=z_in)[0]

    foot, table_level, tag = seen_at(3.0), seen_at(0.0), seen_at(3.0 + 1.0)
    assert np.hypot(*(foot - table_level)) > 15  # the tilted camera sees the rooftop well away from z = 0

    # The selection ring (yellow #ffe14d) is centred on his foot on the roof: the middle of its pixels.
    x0, y0 = (np.minimum(foot, table_level) - 40).astype(int)
    x1, y1 = (np.maximum(foot, table_level) + 40).astype(int)
    crop = img[y0:y1, x0:x1].astype(int)
    yellow = (crop[:, :, 2] > 200) & (crop[:, :, 1] > 180) & (crop[:, :, 0] < 120)
    ys, xs = np.nonzero(yellow)
    assert len(xs) > 30, "no selection ring near the gunner"
    ring_centre = np.array([xs.mean() + x0, ys.mean() + y0])
    assert np.hypot(*(ring_centre - foot)) < 1.5, f"ring centred at {ring_centre.round(1)}, his foot is at {foot.round(1)}"
    # His tag, 1" above his base, sits inside the ring as a street figure's does (not 20 px away from it).
    radius_px = np.hypot(xs + x0 - ring_centre[0], ys + y0 - ring_centre[1]).mean()
    assert np.hypot(*(tag - ring_centre)) < radius_px < np.hypot(*(table_level - ring_centre))
    # His base is filled in his side's red at his foot, and nothing of his is drawn at table level.
    assert is_red(patch(img, (int(round(foot[0])), int(round(foot[1]))), 3))  # (around the white front tick)
    assert patch(img, (int(round(table_level[0])), int(round(table_level[1]))), 2).max() < 40
    # His label points at him up there (the leader line / anchor at his foot on the roof).
    label = next(p for p in comp.painter.placed_labels if p.text.startswith("RPG gunner"))
    assert np.hypot(*(np.array(label.request.anchor_px) - foot)) < 1.0


def test_the_line_of_fire_from_the_rooftop_starts_at_the_gunner_and_slopes_down_to_the_street(app):
    s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    s.select_unit(RPG_GUNNER)
    s.set_attack(AttackDraft(RPG_GUNNER, "Fire", (ALPHA_1,)))
    lane = next(o for o in s.snapshot().overlays if o.kind == "line of fire").shape
    feed = SyntheticFeed((72.0, 48.0), width_px=1280, height_px=720)
    cam = CameraTransform(feed.calibration)
    img = bgr_from_qimage(Compositor().compose(s.snapshot(), cam, only("line_of_fire"),
                                               frame_bgr=np.zeros((720, 1280, 3), np.uint8)))
    cal = feed.calibration

    def shaded(x: float, y: float, z: float) -> bool:
        p = cal.camera_from_table(np.array([[x, y]]), z_in=z)[0]
        return bool(patch(img, (int(round(p[0])), int(round(p[1]))), 0).max() > 25)

    # The corridor as drawn: its end at the gunner 3" up, its end at Alpha in the street. Points of it
    # near the firing end are shaded; points a corridor lying flat at table level would cover there,
    # well outside the drawn one, are dark.
    import cv2

    a, b = np.array([lane.ax_in, lane.ay_in]), np.array([lane.bx_in, lane.by_in])
    along = (b - a) / np.hypot(*(b - a))
    n = np.array([-along[1], along[0]])
    hw = lane.half_width_in
    corners = np.array([a + n * hw, b + n * hw, b - n * hw, a - n * hw])
    drawn = cal.camera_from_table(corners, z_in=np.array([3.0, 0.0, 0.0, 3.0])).astype(np.float32)
    near_end = [(a + along * t + n * w, 3.0 * (1 - t / np.hypot(*(b - a)))) for t in (0.3, 1.0, 2.0)
                for w in (-hw + 0.4, 0.0, hw - 0.4)]
    assert all(shaded(*xy, z) for xy, z in near_end), "the corridor does not start at the gunner on the roof"
    flat = [cal.camera_from_table(np.array([a + along * t + n * w]))[0] for t in np.linspace(0.2, 3.0, 8)
            for w in np.linspace(-hw + 0.3, hw - 0.3, 7)]
    outside = [p for p in flat if cv2.pointPolygonTest(drawn, (float(p[0]), float(p[1])), True) < -4]
    assert len(outside) >= 5
    assert not any(patch(img, (int(round(p[0])), int(round(p[1]))), 0).max() > 25 for p in outside), \
        "the corridor is drawn at table level under the rooftop"
    # At Alpha's end the corridor is at table level, as before.
    assert all(shaded(*(b - along * t + n * w), 0.0) for t in (0.3, 1.0) for w in (-hw + 0.4, hw - 0.4))
