"""Projection never costs tracking: with overlays projected onto the units, the tags the camera reads
are kept dark, and the tracker finds as many as with the projector off."""
import cv2
import numpy as np

from calibration.projector_mask import TagSpot, mask_tags, tag_mask_polygons
from calibration.projector_model import ProjectorModel
from calibration.synthetic import Faults, Projector, SyntheticTable
from calibration.synthetic.projected_light import busy_overlays, units_apart
from calibration_scenes import detect
from relief_helpers import CAMERA_POSE, HILLS, LAYOUT, PROJECTOR_MODEL, PROJECTOR_POSE

from calibration.synthetic import webcam_model

CAMERA = webcam_model(1280, 720)
MODEL = ProjectorModel(PROJECTOR_MODEL, PROJECTOR_POSE)
FAULTS = Faults(noise_sigma=2.0, blur_px=0.7, jpeg_quality=90)


def units(seed: int = 0, count: int = 30):
    return units_apart(HILLS, count, seed=seed)


def overlays(placements, seed: int = 1) -> np.ndarray:
    return busy_overlays(MODEL, placements, seed=seed)


def recall(image, placements, seeds=(0, 1)) -> float:
    table = SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, HILLS, projector=Projector(PROJECTOR_MODEL, PROJECTOR_POSE, image, brightness=0.9, room_light=0.6))
    hit = total = 0
    for s in seeds:
        frame = table.render(placements, faults=FAULTS, rng=np.random.default_rng(s))
        found = {int(t) for t in detect(frame.image_bgr).tag_ids}
        visible = [u.tag_id for u in placements if u.tag_id in frame.visible_ids]
        hit += sum(t in found for t in visible)
        total += len(visible)
    return hit / total


def spots(placements):
    return [TagSpot(u.x_in, u.y_in, u.z_in, u.size_in, u.heading_deg) for u in placements]


def test_recall_with_every_overlay_projected_and_tags_masked_is_no_lower_than_with_the_projector_off():
    placements = units()
    shown = overlays(placements)
    off = recall(np.zeros_like(shown), placements)
    bare = recall(shown, placements)
    masked = recall(mask_tags(shown, MODEL, spots(placements)), placements)
    assert off > 0.9
    assert bare < off - 0.1  # the overlays really do cost tags when not masked
    assert masked >= off


def test_the_dark_patch_covers_the_card_at_its_height_and_follows_a_moving_unit():
    u = TagSpot(24.0, 30.0, 5.0, 1.5, 30.0)
    lit = np.full((PROJECTOR_MODEL.height_px, PROJECTOR_MODEL.width_px, 3), 255, np.uint8)
    out = mask_tags(lit, MODEL, [u])
    # every point of the card (1.5" tag + quiet zone) at 5" is dark; a point 2" away is still lit
    from calibration.tag_bitmaps import card_size_in

    half = card_size_in(1.5) / 2
    card = np.array([[24.0 + dx, 30.0 + dy, 5.0] for dx in (-half, 0, half) for dy in (-half, 0, half)])
    px = np.rint(MODEL.projector_from_table(card)).astype(int)
    assert (out[px[:, 1], px[:, 0]] == 0).all()
    far = np.rint(MODEL.projector_from_table(np.array([[27.0, 30.0, 5.0]]))).astype(int)[0]
    assert (out[far[1], far[0]] == 255).all()
    # masked at the ground instead of the tag's height, the patch would miss part of the card
    flat = mask_tags(lit, MODEL, [TagSpot(24.0, 30.0, 0.0, 1.5, 30.0)])
    assert not (flat[px[:, 1], px[:, 0]] == 0).all()
    moving = tag_mask_polygons(MODEL, [TagSpot(24.0, 30.0, 5.0, 1.5, 30.0, speed_in_s=10.0)])[0]
    still = tag_mask_polygons(MODEL, [u])[0]
    assert cv2.contourArea(moving.astype(np.float32)) > 1.5 * cv2.contourArea(still.astype(np.float32))
