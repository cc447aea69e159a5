"""The scan's patterns, decoded from the synthetic camera, say which projector pixel lights each camera
pixel: checked against the projector's true lens and pose, hills and shadows included."""
import numpy as np
import pytest

from calibration.structured_light import ScanDecodeError, ScanPatterns
from calibration.synthetic.projected_light import projector_pixels, shadowed
from relief_helpers import HILLS, PATTERNS, PROJECTOR_MODEL, PROJECTOR_POSE, decoded, true_ground_hits


def test_decoded_projector_pixels_match_the_true_projector_to_a_tenth_of_a_pixel_on_hills():
    scan = decoded("hills")
    hits = true_ground_hits(HILLS)
    truth, _ = projector_pixels(hits.astype(np.float32), PROJECTOR_MODEL, PROJECTOR_POSE)
    m = scan.valid
    err = np.hypot(scan.u_px[m] - truth[..., 0][m], scan.v_px[m] - truth[..., 1][m])
    assert m.mean() > 0.5  # the table fills most of the picture
    assert np.median(err) < 0.1
    # off by more than a pixel: only camera pixels straddling a hill's silhouette, which see two surfaces at once
    assert np.mean(err > 1.0) < 0.01


def test_pixels_the_projector_does_not_light_are_refused_not_guessed():
    scan = decoded("hills")
    hits = true_ground_hits(HILLS)
    truth, front = projector_pixels(hits.astype(np.float32), PROJECTOR_MODEL, PROJECTOR_POSE)
    w, h = PROJECTOR_MODEL.width_px, PROJECTOR_MODEL.height_px
    outside = ~front | (truth[..., 0] < -3) | (truth[..., 0] > w + 2) | (truth[..., 1] < -3) | (truth[..., 1] > h + 2)
    assert outside.sum() > 1000  # the floor beyond the picture
    assert scan.valid[outside].mean() < 0.01


def test_the_projectors_shadow_behind_a_steep_block_gets_no_light():
    from calibration.terrain import HeightGrid, Terrain

    heights = np.zeros((49, 73))
    heights[20:24, 30:34] = 6.0  # a 6" tower, 1" cells
    tower = Terrain(grid=HeightGrid(heights, 1.0))
    centre = PROJECTOR_POSE.camera_position_in
    # the ground just beyond the tower, seen from the projector (over the far side): toward the near edge
    behind = np.array([[31.5, 19.0, 0.0], [31.5, 18.0, 0.0]])
    beside = np.array([[40.0, 19.0, 0.0], [20.0, 30.0, 0.0]])
    assert shadowed(behind, centre, tower).all()
    assert not shadowed(beside, centre, tower).any()


def test_a_scan_with_a_missing_frame_is_refused_with_the_count():
    frames = [np.zeros((8, 8), np.uint8)] * (PATTERNS.frame_count - 1)
    with pytest.raises(ScanDecodeError, match=f"a scan has {PATTERNS.frame_count} frames; got {PATTERNS.frame_count - 1}"):
        PATTERNS.decode(frames)


def test_patterns_encode_every_projector_column_uniquely():
    p = ScanPatterns(256, 128, axes=("columns",))
    imgs = p.images()
    bits = imgs[2 : 2 + 2 * p.column_bits : 2]
    codes = sum((img[0].astype(int) > 127) << (len(bits) - 1 - k) for k, img in enumerate(bits))
    stripes = np.unique(codes)
    assert len(stripes) == 256 // p.gray_step_px


def test_frames_in_pattern_order_pass_the_sequence_check():
    from relief_helpers import scan_frames

    assert PATTERNS.sequence_problems(list(scan_frames("hills"))) == ()


def test_frames_sorted_as_text_img_1_img_10_img_11_are_refused_as_out_of_order():
    from relief_helpers import scan_frames

    frames = list(scan_frames("hills"))
    as_text = sorted(range(len(frames)), key=lambda k: f"img_{k + 1}.png")  # img_1, img_10, img_11, ..., img_2
    problems = PATTERNS.sequence_problems([frames[k] for k in as_text])
    assert len(problems) == 1 and "not in pattern order" in problems[0]


def test_a_camera_that_brightened_the_stripe_frames_is_told_to_lock_its_exposure():
    from relief_helpers import scan_frames

    frames = list(scan_frames("hills"))
    # automatic exposure: the half-lit patterns come out 30% brighter than the white and black frames
    drifted = frames[:2] + [np.clip(f.astype(np.float32) * 1.3, 0, 255).astype(np.uint8) for f in frames[2:]]
    problems = PATTERNS.sequence_problems(drifted)
    assert len(problems) == 1 and "exposure changed" in problems[0] and "lock the camera's exposure" in problems[0]
    import re

    assert 25 <= int(re.search(r"\+(\d+)%", problems[0]).group(1)) <= 30  # a little under 30: the brightest pixels clip


def test_pattern_names_say_what_each_image_shows():
    names = PATTERNS.pattern_names()
    assert len(names) == PATTERNS.frame_count == len(set(names))
    assert names[:4] == ["white", "black", f"columns-bit{PATTERNS.column_bits - 1}", f"columns-bit{PATTERNS.column_bits - 1}-inverse"]
    assert names[-1] == f"rows-phase{PATTERNS.phase_steps - 1}"
