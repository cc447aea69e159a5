"""Units standing still are not searched again while their pixels stay the same, yet the tracker still
reports them where they are: nudged by a pixel, covered by a hand, or taken away, it notices at once."""
from __future__ import annotations

import numpy as np

from calibration.synthetic import Faults, TagPlacement
from tracker_tables import table_under_camera
from tracker.fast_detection import FastDetectorSettings, FastTagDetector

FPS = 30.0
FAULTS = Faults(noise_sigma=2.0, blur_px=0.6, jpeg_quality=85)


UNITS = [TagPlacement(10 + k, 26.0 + 5.0 * (k % 4), 20.0 + 5.0 * (k // 4), 1.0, 23.0 * k) for k in range(8)]


def centre_of(found, tag_id: int) -> np.ndarray | None:
    rows = np.flatnonzero(found.tag_ids == tag_id)
    return None if len(rows) == 0 else found.centers_px[rows[0]]


def truth_centre(rendered, tag_id: int) -> np.ndarray:
    return next(tr.center_px for tr in rendered.truth if tr.tag_id == tag_id)


def run(frames: int, placements_for, detector: FastTagDetector, start: int = 0) -> list:
    out = []
    for i in range(start, start + frames):
        rendered = scene.render(placements_for(i), faults=FAULTS, rng=np.random.default_rng(i))
        out.append((rendered, detector.detect(rendered.image_bgr, frame_index=i, t_s=i / FPS), detector.last_work))
    return out


scene = table_under_camera(texture_seed=6)


def test_still_units_are_reported_every_frame_without_searching_them_again():
    with FastTagDetector() as fast:
        frames = run(40, lambda i: UNITS, fast)
    settled = frames[20:]
    for rendered, found, work in settled:
        assert sorted(found.tag_ids.tolist()) == [u.tag_id for u in UNITS]  # all of them, every frame
        # Most of them were not searched for: their pixels had not changed since they were detected.
        assert work.unchanged >= 6
        for u in UNITS:
            assert np.linalg.norm(centre_of(found, u.tag_id) - truth_centre(rendered, u.tag_id)) < 0.3
    # And they read the same from frame to frame (what a range readout shows).
    for u in UNITS:
        centres = np.array([centre_of(found, u.tag_id) for _, found, _ in settled])
        assert np.ptp(centres, axis=0).max() < 0.05


def test_a_unit_nudged_by_a_fraction_of_an_inch_is_reported_where_it_now_stands_in_that_frame():
    nudged = [TagPlacement(u.tag_id, u.x_in + (0.06 if u.tag_id == 12 else 0.0), u.y_in, u.z_in, u.heading_deg) for u in UNITS]
    with FastTagDetector() as fast:
        run(30, lambda i: UNITS, fast)
        before = fast.last_work
        assert before.unchanged >= 6
        (rendered, found, work), = run(1, lambda i: nudged, fast, start=30)
    # 0.06" is 1.5 px here: the tag is found where it now is, not left at its old place.
    moved = truth_centre(rendered, 12)
    assert np.linalg.norm(centre_of(found, 12) - moved) < 0.3


def test_a_square_tag_nudged_along_the_thumbnails_unsampled_rows_is_still_noticed_at_1080p():
    """At 1080p each thumbnail pixel averages some of its block's rows, not all: a tag with edges along
    the rows, nudged 1.5 px across them, must still change its patch (its bits move on the sampled rows)."""
    big = table_under_camera(1920, 1080, texture_seed=6)
    square = [TagPlacement(10 + k, 26.0 + 5.0 * (k % 4), 20.0 + 5.0 * (k // 4), 1.0, 0.0) for k in range(8)]
    nudged = [TagPlacement(u.tag_id, u.x_in, u.y_in + (0.06 if u.tag_id == 10 else 0.0), u.z_in, 0.0) for u in square]
    with FastTagDetector() as fast:
        for i in range(30):
            fast.detect(big.render(square, faults=FAULTS, rng=np.random.default_rng(i)).image_bgr, frame_index=i, t_s=i / FPS)
        assert fast.last_work.unchanged >= 6
        rendered = big.render(nudged, faults=FAULTS, rng=np.random.default_rng(30))
        found = fast.detect(rendered.image_bgr, frame_index=30, t_s=30 / FPS)
    before = truth_centre(big.render(square, faults=FAULTS, rng=np.random.default_rng(30)), 10)
    now = truth_centre(rendered, 10)
    assert np.linalg.norm(now - before) > 1.0  # it did move by more than a pixel
    assert np.linalg.norm(centre_of(found, 10) - now) < 0.3


def test_a_unit_taken_away_or_covered_is_not_reported_at_its_old_place():
    gone = [u for u in UNITS if u.tag_id != 13]
    with FastTagDetector() as fast:
        run(30, lambda i: UNITS, fast)
        frames = run(3, lambda i: gone, fast, start=30)
    for _, found, _ in frames:
        assert 13 not in found.tag_ids.tolist()
        assert sorted(found.tag_ids.tolist()) == [u.tag_id for u in gone]


def test_without_reuse_every_followed_tag_is_searched_in_every_frame():
    """The comparison setting the benchmark runs beside: nothing is reported unsearched."""
    with FastTagDetector(settings=FastDetectorSettings(reuse_still=False)) as fast:
        frames = run(25, lambda i: UNITS, fast)
    assert all(work.unchanged == 0 for _, _, work in frames)
    assert all(sorted(found.tag_ids.tolist()) == [u.tag_id for u in UNITS] for _, found, _ in frames[1:])


def test_more_worker_threads_find_the_same_tags_at_the_same_places():
    """A machine with more cores: windows started early and the rest of the frame on several threads."""
    moving = lambda i: [TagPlacement(u.tag_id, u.x_in + (0.1 * i if u.tag_id < 12 else 0.0), u.y_in, u.z_in, u.heading_deg)  # noqa: E731  (a one-line local helper reads better as a lambda)
                        for u in UNITS]
    with FastTagDetector() as two, FastTagDetector(settings=FastDetectorSettings(workers=3)) as three:
        for (_r2, found2, _), (r3, found3, _) in zip(run(24, moving, two), run(24, moving, three)):
            assert sorted(found2.tag_ids.tolist()) == sorted(found3.tag_ids.tolist()) == [u.tag_id for u in UNITS]
            for u in UNITS:
                assert np.linalg.norm(centre_of(found3, u.tag_id) - truth_centre(r3, u.tag_id)) < 0.3
