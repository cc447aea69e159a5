"""The viewshed is the rules' own line-of-sight query asked of every cell: they must agree everywhere."""
from __future__ import annotations

import numpy as np
import pytest

from rules.terrain_sight import Ground, propose_sight
from rules.viewshed import Sight, viewshed, viewshed_by_queries


def hills(rows: int, cols: int, cell_in: float, seed: int) -> Ground:
    """A few random cosine hills and a ridge: crests that hide, slopes that give cover."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:rows, 0:cols] * cell_in
    h = np.zeros((rows, cols))
    for _ in range(5):
        cx, cy = rng.uniform(0, cols * cell_in), rng.uniform(0, rows * cell_in)
        radius, height = rng.uniform(2, 6), rng.uniform(0.5, 3.0)
        r = np.hypot(x - cx, y - cy)
        h = np.maximum(h, np.where(r < radius, height * (1 + np.cos(np.pi * np.minimum(r / radius, 1))) / 2, 0))
    h += rng.normal(0, 0.02, h.shape)  # the scan's grain
    return Ground(h, cell_in)


@pytest.mark.parametrize("seed,observer,eye,target,range_in", [
    (1, (3.0, 4.0), 1.0, 1.0, None),
    (2, (10.0, 6.0), 0.5, 1.0, 8.0),
    (3, (0.0, 0.0), 1.5, 0.0, None),      # the ground itself (a figure of no height)
    (4, (7.3, 9.1), 0.5, 0.5, 12.0),      # between nodes
])
def test_every_cell_agrees_with_the_rules_query(seed, observer, eye, target, range_in) -> None:
    g = hills(24, 32, 0.5, seed)
    fast = viewshed(g, observer, eye_height_in=eye, target_height_in=target, range_in=range_in)
    slow = viewshed_by_queries(g, observer, eye_height_in=eye, target_height_in=target, range_in=range_in)
    disagree = np.argwhere(fast.sight != slow)
    assert len(disagree) == 0, f"{len(disagree)} cells disagree, first at (row, col) {tuple(disagree[0])}"
    # and the comparison means something: the relief hides some cells and shows others
    assert fast.hidden.any() and fast.seen.any()


def test_a_hill_hides_what_is_behind_it_and_gives_cover_on_its_far_slope() -> None:
    y, x = np.mgrid[0:49, 0:97] * 0.25
    ridge = 3.0 * np.exp(-((x - 12.0) / 1.0) ** 2)          # a 3" ridge along x = 12"
    v = viewshed(Ground(ridge, 0.25), (4.0, 6.0), eye_height_in=1.0, target_height_in=1.0)
    assert v.at(8.0, 6.0) is Sight.SEEN                      # in front of the ridge
    assert v.at(20.0, 6.0) is Sight.HIDDEN                   # behind it
    assert Sight.COVER in {v.at(x_in, 6.0) for x_in in np.arange(12.0, 20.0, 0.25)} or v.cover.any()
    # the picture's cells behind the ridge are exactly those the rules call out of sight
    p = propose_sight(Ground(ridge, 0.25), (4.0, 6.0), (20.0, 6.0))
    assert not p.line_of_sight


def test_cells_beyond_the_range_are_out_of_range() -> None:
    g = Ground(np.zeros((41, 41)), 0.5)
    v = viewshed(g, (10.0, 10.0), range_in=5.0)
    assert v.at(10.0, 14.5) is Sight.SEEN and v.at(10.0, 15.5) is Sight.OUT_OF_RANGE
    assert v.seen.sum() == pytest.approx(np.pi * (5.0 / 0.5) ** 2, rel=0.05)


def test_bad_heights_and_ranges_are_refused_with_the_value() -> None:
    g = Ground(np.zeros((4, 4)), 1.0)
    with pytest.raises(ValueError, match="range_in=-1"):
        viewshed(g, (1.0, 1.0), range_in=-1)
    with pytest.raises(ValueError, match="eye_height_in=-0.5"):
        viewshed(g, (1.0, 1.0), eye_height_in=-0.5)


def test_docstring_example_runs() -> None:
    import doctest

    import rules.viewshed

    result = doctest.testmod(rules.viewshed)
    assert result.failed == 0 and result.attempted > 0
