"""Never fewer tags than the bare detector (issue 27, items 2 and 3) on rendered sequences: the whole-frame
search's seam, a unit pushed slowly, a bumped camera, an auto-exposure step. Deterministic (seeded)."""
from __future__ import annotations

import numpy as np
import pytest

from bench.motion_scenes import bump, exposure, push
from tests.tracker_helpers import paste_tag, textured_background
from tracker.fast_detection import FastTagDetector
from tracker.frames import Frame
from tracker.pipeline import Tracker
from tracker.search_boxes import tile_overlap_px


def big_tag_on_the_seam() -> np.ndarray:
    image = textured_background(960, 540, seed=3)
    paste_tag(image, 17, (480.0, 270.0), 100.0, angle_deg=45.0)  # 100 px wide, turned: 170 px across the seam
    return image


def test_a_tag_across_the_bands_seam_is_found_by_the_whole_frame_search() -> None:
    with FastTagDetector() as detector:
        found = detector.detect(big_tag_on_the_seam())
    assert found.tag_ids.tolist() == [17]


def test_with_the_old_overlap_the_tag_on_the_seam_was_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: bands overlapping by the old fixed 48 px cut the tag in both."""
    monkeypatch.setattr(FastTagDetector, "_band_overlap_px", lambda self, width: tile_overlap_px(width))
    with FastTagDetector() as detector:
        found = detector.detect(big_tag_on_the_seam())
    assert found.tag_ids.tolist() == []


def track(frames) -> list[tuple[object, dict]]:
    """Each frame's result and its truth (visible unit tags' centres)."""
    out = []
    with Tracker() as tracker:
        for f in frames:
            result = tracker.process(Frame(f.image_bgr, f.frame_index, f.t_s))
            truth = {t.tag_id: t.center_px for t in f.truth if t.visible and t.tag_id >= 10}
            out.append((result, truth))
    return out


def test_a_unit_pushed_slowly_is_reported_where_it_is_from_its_third_frame_of_motion() -> None:
    late = []
    for i, (result, truth) in enumerate(track(push(frames=75))):
        pose = result.pose(30)
        assert pose is not None and pose.measured
        error = float(np.linalg.norm(np.array(pose.center_px) - truth[30]))
        if i >= 45 + 2 and error > 1.0:  # the push starts at frame 45
            late.append((i, round(error, 2)))
    assert late == []


@pytest.mark.parametrize("scene", [bump, exposure])
def test_every_visible_tag_is_measured_in_every_frame(scene) -> None:
    for result, truth in track(scene(frames=60)):
        measured = {p.tag_id for p in result.poses if p.measured}
        assert set(truth) <= measured, f"frame {result.frame_index}: {sorted(set(truth) - measured)} not measured"
        for p in result.poses:
            if p.tag_id in truth:
                assert np.linalg.norm(np.array(p.center_px) - truth[p.tag_id]) < 1.0
