"""The generic rules on the table: range bands are rings at the rules' distances from the base in the
camera view (known calibration, lens included) with their to-hit numbers where the rings cross the
line straight up from the unit; after a mortar's miss the scatter arrow ends on the landing point the
rules rolled, inside the area of effect; while aiming, a miss's reach is a dashed ring; the solo
tables' suggested move is drawn where the route leads."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui.compositor import Compositor, bgr_from_qimage, ensure_qt_app
from appmodel.overlays.draw_item import base_radius
from appmodel.game_session import AttackDraft, GameSession
from appmodel.overlays.registry import OverlayToggles
from appmodel.tracking.synthetic_feed import SyntheticFeed
from appmodel.overlays.transforms import CameraTransform, TopDownTransform
from rules.generic.examples import solo
from rules.geometry import Circle, Segment
from rules.ruleset import get_ruleset

TOP = TopDownTransform((72.0, 48.0), (1440, 960), margin_px=20)


def only(*names: str) -> OverlayToggles:
    return OverlayToggles(**{n: n in names for n in OverlayToggles().names()})


def at(transform, x: float, y: float) -> tuple[int, int]:
    px = transform.device_from_table(np.array([[x, y]], dtype=float))[0]
    return int(round(px[0])), int(round(px[1]))


def patch(img: np.ndarray, xy: tuple[int, int], r: int = 2) -> np.ndarray:
    x, y = xy
    return img[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].reshape(-1, 3).astype(int)


def lit(img: np.ndarray, xy: tuple[int, int], r: int = 2) -> bool:
    return bool(patch(img, xy, r).max() > 60)


def is_red(p: np.ndarray) -> bool:  # the scatter's #ff4d4d (B, G, R)
    return bool(((p[:, 2] > 200) & (p[:, 1] < 130) & (p[:, 0] < 130)).any())


def session_after(steps: int) -> GameSession:
    """The solo example as it stands after its first ``steps`` steps."""
    state = solo.initial_state()
    for record in solo.play(solo.STEPS[:steps]):
        state = record.state
    return GameSession(get_ruleset("generic"), state, scenario=solo.load_scenario(),
                       scenario_path=str(solo.SCENARIO_PATH))


@pytest.fixture(scope="module")
def app():
    return ensure_qt_app()


def test_range_band_rings_and_their_to_hit_labels_land_where_the_rules_put_them_in_the_camera_view(app):
    s = GameSession.from_scenario_file(solo.SCENARIO_PATH)
    s.select_unit(solo.M1)
    bands = [o for o in s.snapshot().overlays if o.kind == "range band"]
    assert [o.label for o in bands] == ['Point Blank 2+ (0-6")', 'Short 3+ (6-12")', 'Medium 4+ (12-18")',
                                        'Long 5+ (18-24")', 'Very Long 6+ (24-30")']
    feed = SyntheticFeed((72.0, 48.0), width_px=1280, height_px=720)
    cam = CameraTransform(feed.calibration)
    comp = Compositor()
    img = bgr_from_qimage(comp.compose(s.snapshot(), cam, only("bands"), frame_bgr=np.zeros((720, 1280, 3), np.uint8)))
    m = s.unit(solo.M1)
    r0 = m.footprint.radius_in
    for o in bands:
        edge = o.shape.distance_in + r0  # from the base: the ring is this far from the mortar's centre
        angles = np.radians(np.arange(-60, 61, 8))  # (the labels sit at the top, 90 degrees)
        ring = [at(cam, m.x_in + edge * math.cos(a), m.y_in + edge * math.sin(a)) for a in angles]
        between = [at(cam, m.x_in + (edge - 3.0) * math.cos(a), m.y_in + (edge - 3.0) * math.sin(a)) for a in angles]
        seen = [(p, q) for p, q in zip(ring, between) if 5 < p[0] < 1275 and 5 < p[1] < 715]
        assert len(seen) >= 8, o.label
        assert all(lit(img, p) for p, _ in seen), f"the {o.label} ring is not where the rules put it"
        clear = [q for _, q in seen if not any(b.box_px[0] - 4 <= q[0] <= b.box_px[2] + 4 and
                                               b.box_px[1] - 4 <= q[1] <= b.box_px[3] + 4 for b in comp.painter.placed_labels)]
        assert len(clear) >= 6 and not any(lit(img, q, 1) for q in clear), f"something is drawn 3\" inside {o.label}"
        # blue like the Blue side: B well above R on the ring
        bgr = max((patch(img, p, 1) for p, _ in seen[:3]), key=lambda a: a.sum())
        brightest = bgr[bgr.sum(axis=1).argmax()]
        assert brightest[0] > brightest[2] + 40
    # Every to-hit number is shown, at the top of its ring (the line straight up from the mortar).
    labels = {p.text: p for p in comp.painter.placed_labels}
    for o in bands:
        placed = labels.get(o.label) or next(p for p in comp.painter.placed_labels
                                             if p.request.text == o.label)  # (the short form "4+" if crowded)
        x0, y0, x1, y1 = placed.box_px
        top = at(cam, m.x_in, m.y_in + o.shape.distance_in + r0)
        if 10 < top[1] < 710:  # rings whose top is on the picture: the label sits on it
            assert x0 - 2 <= top[0] <= x1 + 2 and y0 - 2 <= top[1] <= y1 + 2, (o.label, placed.box_px, top)
        words = img[int(y0):int(y1), int(x0):int(x1)].reshape(-1, 3)
        assert words.max() > 150, f"the label {placed.text} is not drawn"


def test_after_a_mortar_miss_the_scatter_arrow_ends_on_the_landing_point_inside_the_area_of_effect(app):
    s = session_after(3)  # Turn 1, rifle fire, "Mortar miss": 5" East of the tank
    snap = s.snapshot()
    scatter = next(o for o in snap.overlays if o.kind == "scatter")
    effect = next(o for o in snap.overlays if o.kind == "area of effect")
    assert isinstance(scatter.shape, Segment) and isinstance(effect.shape, Circle)
    seg, area = scatter.shape, effect.shape
    assert (seg.bx_in, seg.by_in) == (area.x_in, area.y_in) and seg.length_in == pytest.approx(5.0)
    comp = Compositor()
    img = bgr_from_qimage(comp.compose(snap, TOP, only("scatter"), black=True))
    landed = at(TOP, seg.bx_in, seg.by_in)
    aimed = at(TOP, seg.ax_in, seg.ay_in)
    assert is_red(patch(img, landed, 2)), "no scatter point where the shell landed"
    assert is_red(patch(img, aimed, 2)), "no mark where it was aimed"
    for f in (0.25, 0.5, 0.75):  # the arrow's shaft, and nothing red 1" beside it
        assert is_red(patch(img, at(TOP, seg.ax_in + f * (seg.bx_in - seg.ax_in), seg.ay_in), 1))
    assert not is_red(patch(img, at(TOP, seg.ax_in + 0.5 * (seg.bx_in - seg.ax_in), seg.ay_in + 1.0), 2))
    # The area of effect: shaded orange inside its 3", nothing outside it.
    inside = patch(img, at(TOP, area.x_in, area.y_in - 0.6 * area.radius_in), 0)[0]
    assert inside[2] > inside[1] > inside[0] and inside[2] > 60, inside
    assert not lit(img, at(TOP, area.x_in, area.y_in - area.radius_in - 1.0), 2)
    label = next(p for p in comp.painter.placed_labels if p.request.text.startswith("Mortar scattered"))
    assert label.request.text == 'Mortar scattered 5.0"'
    cx, cy = (label.box_px[0] + label.box_px[2]) / 2, (label.box_px[1] + label.box_px[3]) / 2
    assert math.hypot(cx - landed[0], cy - landed[1]) < 4 * TOP.px_per_in, "the distance is not written by the point"


def test_while_a_mortar_aims_a_miss_may_land_within_a_dashed_ring_around_the_aim_point(app):
    s = GameSession.from_scenario_file(solo.SCENARIO_PATH)
    s.select_unit(solo.M1)
    s.set_attack(AttackDraft(solo.M1, "Mortar", (solo.T1,)))
    reach = next(o for o in s.snapshot().overlays if o.kind == "scatter reach")
    c = reach.shape
    img = bgr_from_qimage(Compositor().compose(s.snapshot(), TOP, only("scatter"), black=True))
    ring = [at(TOP, c.x_in + c.radius_in * math.cos(a), c.y_in + c.radius_in * math.sin(a))
            for a in np.radians(np.arange(0, 360, 3))]
    on = sum(is_red(patch(img, p, 1)) for p in ring) / len(ring)
    assert 0.4 < on < 0.95, f"the ring should be dashed: {on:.0%} of it is drawn"
    assert not lit(img, at(TOP, c.x_in + c.radius_in + 1.0, c.y_in), 1)
    assert not is_red(patch(img, at(TOP, c.x_in, c.y_in + c.radius_in - 1.0), 1))


def test_the_solo_tables_suggested_move_is_an_arrow_to_where_the_route_leads(app):
    names = [step.title for step in solo.STEPS]
    s = session_after(names.index("The tables play Red") + 1)
    moves = [o for o in s.snapshot().overlays if o.kind == "automation move"]
    assert moves, "the tables moved someone"
    img = bgr_from_qimage(Compositor().compose(s.snapshot(), TOP, only("automation"), black=True))
    for o in moves:
        seg = o.shape
        r = base_radius(s.unit(o.unit_ids[0]))  # its base's outline, drawn where it would stand
        assert lit(img, at(TOP, seg.bx_in, seg.by_in + r), 2) and lit(img, at(TOP, seg.bx_in - r, seg.by_in), 2), o.label
        assert lit(img, at(TOP, seg.bx_in, seg.by_in), 2)  # the arrow's point
    away = at(TOP, 66.0, 44.0)
    assert not lit(img, away, 3)


def test_the_selected_commanders_command_range_rings_the_units_under_command_within_it(app):
    s = GameSession.from_scenario_file(solo.SCENARIO_PATH)
    s.select_unit(solo.X1)
    command = next(o for o in s.snapshot().overlays if o.kind == "command range")
    assert set(command.unit_ids) == {solo.I1, solo.M1}  # I2 is beyond 12"
    comp = Compositor()
    img = bgr_from_qimage(comp.compose(s.snapshot(), TOP, only("command"), black=True))
    x = s.unit(solo.X1)
    edge = command.shape.distance_in + x.footprint.radius_in
    ring = [at(TOP, x.x_in + edge * math.cos(a), x.y_in + edge * math.sin(a)) for a in np.radians(np.arange(0, 360, 2))]
    on = sum(lit(img, p, 0) for p in ring) / len(ring)
    assert 0.4 < on < 0.9, f"a dashed ring 12\" from the commander's base: {on:.0%} drawn"

    def green_ring(uid: int) -> bool:
        u = s.unit(uid)
        r = base_radius(u) + 0.55
        pts = [patch(img, at(TOP, u.x_in + r * math.cos(a), u.y_in + r * math.sin(a)), 2)
               for a in np.radians(np.arange(0, 360, 20))]
        return sum(bool(((p[:, 1] > 200) & (p[:, 0] > 150) & (p[:, 2] > 150)).any()) for p in pts) >= 8

    assert green_ring(solo.I1) and green_ring(solo.M1) and not green_ring(solo.I2)
    assert any(p.request.text == command.label for p in comp.painter.placed_labels)
    s.select_unit(solo.I1)  # not a commander: nothing
    img = bgr_from_qimage(comp.compose(s.snapshot(), TOP, only("command"), black=True))
    assert img.max() < 40
