"""Ring snapshots: the grey values around a unit that tell a lifted unit from one under a hand."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tracker.visibility import MIN_RING_PIXELS, ring_similarity, take_ring


def textured_background(width: int, height: int, *, seed: int, colour: bool) -> np.ndarray:
    """Gravel: every pixel its own grey (or colour)."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (height, width, 3) if colour else (height, width), dtype=np.uint8)


def by_definition(gray: np.ndarray, cx: float, cy: float, lo: float, hi: float) -> np.ndarray:
    """Grey values (float32, row by row) of the pixels whose centres lie between ``lo`` and ``hi`` of (cx, cy)."""
    yy, xx = np.mgrid[0 : gray.shape[0], 0 : gray.shape[1]]
    d2 = (xx - cx) ** 2 + (yy - cy) ** 2
    return gray[(d2 >= lo**2) & (d2 <= hi**2)].astype(np.float32)


@pytest.mark.parametrize("centre", [(320.3, 240.7), (12.5, 30.2), (630.0, 470.9)], ids=["inside", "at the left", "at a corner"])
@pytest.mark.parametrize("colour", [False, True], ids=["grey", "colour"])
def test_a_snapshot_holds_the_grey_values_of_the_ring_and_of_the_spot_around_the_unit(centre, colour):
    image = textured_background(640, 480, seed=1, colour=colour)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if colour else image
    ring = take_ring(image, np.array(centre), inner_px=40.8, outer_px=64.8, t_s=1.5, spot_px=10.8)
    assert ring is not None and ring.t_s == 1.5
    cx, cy = centre
    np.testing.assert_array_equal(ring.values, by_definition(gray, cx, cy, 40.8, 64.8))
    np.testing.assert_array_equal(ring.spot_values, by_definition(gray, cx, cy, 0.0, 10.8))


def test_a_snapshot_keeps_the_pixels_as_they_were_when_it_was_taken():
    image = textured_background(640, 480, seed=1, colour=False)
    expected = by_definition(image, 320.0, 240.0, 40.0, 64.0)
    ring = take_ring(image, np.array([320.0, 240.0]), inner_px=40.0, outer_px=64.0, t_s=0.0, spot_px=10.0)
    image[:] = 0  # the camera reuses its buffer for the next frame
    np.testing.assert_array_equal(ring.values, expected)


def test_snapshots_of_a_unit_at_the_same_place_each_hold_their_own_moment():
    before = textured_background(640, 480, seed=1, colour=False)
    after = textured_background(640, 480, seed=2, colour=False)
    first = take_ring(before, np.array([320.0, 240.0]), inner_px=40.0, outer_px=64.0, t_s=0.0, spot_px=10.0)
    second = take_ring(after, np.array([320.0, 240.0]), inner_px=40.0, outer_px=64.0, t_s=0.5, spot_px=10.0, like=first)
    np.testing.assert_array_equal(second.values, by_definition(after, 320.0, 240.0, 40.0, 64.0))
    np.testing.assert_array_equal(first.values, by_definition(before, 320.0, 240.0, 40.0, 64.0))
    assert ring_similarity(first, before) == pytest.approx((1.0, 1.0))
    assert ring_similarity(second, before)[0] < 0.6  # another table around it


def test_an_earlier_snapshot_somewhere_else_does_not_lend_its_place():
    image = textured_background(640, 480, seed=1, colour=False)
    elsewhere = take_ring(image, np.array([100.0, 100.0]), inner_px=40.0, outer_px=64.0, t_s=0.0, spot_px=10.0)
    ring = take_ring(image, np.array([320.5, 240.0]), inner_px=40.0, outer_px=64.0, t_s=0.5, spot_px=10.0, like=elsewhere)
    np.testing.assert_array_equal(ring.values, by_definition(image, 320.5, 240.0, 40.0, 64.0))


@pytest.mark.parametrize(
    "centre, inner, outer",
    [((-70.0, 240.0), 40.0, 64.0), ((320.0, 240.0), 1.0, 3.0), ((-5.0, -5.0), 8.0, 11.0)],
    ids=["off the image", "too small", "mostly off at a corner"],
)
def test_a_ring_with_too_few_pixels_in_the_image_is_not_snapshotted(centre, inner, outer):
    image = textured_background(640, 480, seed=1, colour=False)
    assert len(by_definition(image, *centre, inner, outer)) < MIN_RING_PIXELS
    assert take_ring(image, np.array(centre), inner_px=inner, outer_px=outer, t_s=0.0) is None


def test_a_thin_ring_with_enough_pixels_is_snapshotted():
    image = textured_background(640, 480, seed=1, colour=False)
    assert len(by_definition(image, 320.2, 240.6, 12.0, 13.0)) >= MIN_RING_PIXELS
    ring = take_ring(image, np.array([320.2, 240.6]), inner_px=12.0, outer_px=13.0, t_s=0.0)
    np.testing.assert_array_equal(ring.values, by_definition(image, 320.2, 240.6, 12.0, 13.0))
