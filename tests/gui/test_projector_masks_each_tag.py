"""The projector keeps each unit's own tag dark: the patch covers the tag as printed (the roster's
tag_size_in), at the tag's real height (the ground under the unit plus its base_height_in) and turned as
the tag lies (the unit's heading less its facing_offset_deg) -- not a default 1" tag on a 1" base."""
from __future__ import annotations

import os

import cv2
import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from appmodel.game_session import GameSession
from calibration.projector_model import ProjectorModel
from calibration.synthetic.projected_light import ceiling_projector
from calibration.table_layout import TableLayout, tag_corners_in
from calibration.tag_bitmaps import card_size_in
from rules.downrange.examples.in_depth import SCENARIO_PATH
from rules.terrain_sight import Ground

MAAWS, SERGEANT = 13, 10


def card_corners_px(model, x_in, y_in, z_in, size_in, heading_deg):
    ring = tag_corners_in((x_in, y_in), card_size_in(size_in), heading_deg)
    return model.projector_from_table(ring, z_in=z_in)


def inside_mask(masks, point_px, depth_px=1.0):
    return any(cv2.pointPolygonTest(m.astype(np.float32), (float(point_px[0]), float(point_px[1])), True) >= depth_px
               for m in masks)


def test_the_dark_patch_covers_a_big_tag_on_a_tall_base_on_a_hill_turned_by_its_facing_offset(qtbot, tmp_path):
    from gui.projector_window import ProjectorWindow

    text = SCENARIO_PATH.read_text(encoding="utf-8")
    text = text.replace(f"tag_id = {MAAWS}\n", f"tag_id = {MAAWS}\ntag_size_in = 2.5\nbase_height_in = 3.0\nfacing_offset_deg = 45.0\n", 1)
    scenario = tmp_path / "in_depth.toml"
    scenario.write_text(text, encoding="utf-8")
    session = GameSession.from_scenario_file(scenario)
    gunner, sergeant = session.unit(MAAWS), session.unit(SERGEANT)
    # a 4" hill under the gunner, the sergeant on the flat
    yy, xx = np.mgrid[0:193, 0:289] * 0.25
    heights = np.clip(7.0 - np.hypot(xx - gunner.x_in, yy - gunner.y_in), 0.0, 4.0)  # flat 4" top, 3" across
    assert heights[round(sergeant.y_in * 4), round(sergeant.x_in * 4)] == 0.0
    session.set_ground(Ground(heights, 0.25))
    model = ProjectorModel(*ceiling_projector(TableLayout.default()))
    window = ProjectorWindow(session, projector_calibration=model)
    qtbot.addWidget(window)
    masks = window.tag_mask_polygons()
    assert masks
    # the gunner's 2.5" card, 4" + 3" up, turned 45 degrees from the unit's heading
    big = card_corners_px(model, gunner.x_in, gunner.y_in, 7.0, 2.5, gunner.heading_deg - 45.0)
    assert all(inside_mask(masks, p) for p in big)
    # the sergeant keeps the layout's 1" tag on a 1" base
    small = card_corners_px(model, sergeant.x_in, sergeant.y_in, 1.0, 1.0, sergeant.heading_deg)
    assert all(inside_mask(masks, p) for p in small)
    # ... and the patches are not simply huge: a point 2" beyond the sergeant's card is lit
    beyond = model.projector_from_table(np.array([[sergeant.x_in + card_size_in(1.0) / 2 + 2.0, sergeant.y_in]]), z_in=1.0)[0]
    assert not inside_mask(masks, beyond, depth_px=0.0)
    # what the projector shows is black over the gunner's whole card
    from gui.compositor import bgr_from_qimage

    img = bgr_from_qimage(window.render_image())
    poly = np.rint(big).astype(np.int32)
    card = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(card, [poly], 1)
    assert img[card.astype(bool)].max() == 0
