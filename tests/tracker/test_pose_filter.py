"""The pose filter keeps a still unit still under noise yet follows a moved one at once."""
from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest

from tracker.pose_filter import FilterSettings, PoseFilter


def feed(filter_, xs, ys, hs, t0=0.0):
    return [filter_.update(x, y, h, t0 + i / 30) for i, (x, y, h) in enumerate(zip(xs, ys, hs), start=1)]


def test_noise_well_inside_the_deadband_never_moves_a_still_unit():
    rng = np.random.default_rng(1)
    f = PoseFilter(10.0, 10.0, 90.0, 0.0, settings=FilterSettings())
    steps = feed(f, 10 + rng.normal(0, 0.01, 300), 10 + rng.normal(0, 0.01, 300), 90 + rng.normal(0, 0.5, 300))
    xs = np.array([s.x for s in steps[30:]])
    assert np.ptp(xs) < 0.01 and not any(s.moving for s in steps)
    assert sum(s.travelled for s in steps) == 0.0


def test_a_push_is_followed_within_two_frames_and_the_path_counted():
    f = PoseFilter(10.0, 10.0, 90.0, 0.0, settings=FilterSettings())
    xs = [10.0] * 5 + list(10.0 + 0.2 * np.arange(1, 31)) + [16.0] * 20
    steps = feed(f, xs, [10.0] * len(xs), [90.0] * len(xs))
    start = next(i for i, s in enumerate(steps) if s.moving)
    assert start <= 6  # the first displaced frame (0.2" > jump) already counts
    assert all(abs(s.x - x) < 1e-9 for s, x in zip(steps[start:35], xs[start:35]))  # no lag while moving
    assert any(s.stopped for s in steps) and not steps[-1].moving
    assert sum(s.travelled for s in steps) == pytest.approx(6.0, abs=0.01)


def test_a_single_outlier_frame_is_not_a_move():
    f = PoseFilter(10.0, 10.0, 90.0, 0.0, settings=FilterSettings())
    steps = feed(f, [10.0, 10.1, 10.0, 10.0], [10.0] * 4, [90.0] * 4)
    assert not any(s.moving for s in steps) and steps[-1].x == pytest.approx(10.0)


@pytest.mark.parametrize(
    "module",
    ["tracker.pose_filter", "tracker.search_boxes", "tracker.still_tags", "tracker.decode_policy", "tracker.events", "tracker.unit_pose"],
)
def test_the_examples_in_the_tracker_docstrings_run(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


def test_a_still_unit_seen_through_corrected_decodes_a_few_degrees_off_stays_put():
    # A neighbour's block over a corner of the card: the tag decodes with a corrected bit, its corners
    # are off, the measured heading swings 6 degrees and the centre 0.04" for a third of a second.
    f = PoseFilter(10.0, 10.0, 90.0, 0.0, settings=FilterSettings())
    trusted = [True] * 10 + [False] * 10 + [True] * 10
    xs = [10.0] * 10 + [10.04] * 10 + [10.0] * 10
    hs = [90.0] * 10 + [96.0] * 10 + [90.0] * 10
    steps = [f.update(x, 10.0, h, i / 30, trusted=ok) for i, (x, h, ok) in enumerate(zip(xs, hs, trusted), start=1)]
    assert not any(s.moving or s.started for s in steps)
    assert steps[-1].x == pytest.approx(10.0) and steps[-1].heading_deg == pytest.approx(90.0)
    # the same measurements, trusted, would have been a move: the test is about trust, not thresholds
    g = PoseFilter(10.0, 10.0, 90.0, 0.0, settings=FilterSettings())
    assert any(g.update(x, 10.0, h, i / 30).started for i, (x, h) in enumerate(zip(xs, hs), start=1))


def test_a_unit_slid_fast_enough_to_blur_its_code_is_still_followed():
    # Every decode has corrected bits (motion blur); 0.23" per frame is beyond the jump threshold.
    f = PoseFilter(10.0, 10.0, 90.0, 0.0, settings=FilterSettings())
    xs = list(10.0 + 0.23 * np.arange(1, 16))
    steps = [f.update(x, 10.0, 90.0, i / 30, trusted=False) for i, x in enumerate(xs, start=1)]
    start = next(i for i, s in enumerate(steps) if s.started)
    assert start == 1  # the second displaced frame
    assert all(s.x == pytest.approx(x) for s, x in zip(steps[start:], xs[start:]))  # then no lag
