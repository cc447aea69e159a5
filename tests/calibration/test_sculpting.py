"""Sculpting guidance: the colour at every cell says how much sand to add or remove; the score says how close."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.sculpting import (
    ADD_RGB, MATCH_RGB, REMOVE_RGB, difference_from_colours, guidance_colours, guidance_strength, match_score,
)


def test_colours_follow_the_height_difference_with_a_deadband_and_saturation() -> None:
    diff = np.linspace(-1.0, 1.0, 401)[None, :]     # target - sand, inches
    rgb = guidance_colours(diff, deadband_in=0.1, saturation_in=0.4)[0]
    d = diff[0]
    assert (rgb[np.abs(d) <= 0.1] == MATCH_RGB).all()           # matches: white
    assert (rgb[d >= 0.4] == ADD_RGB).all()                     # too low by 0.4" or more: full blue
    assert (rgb[d <= -0.4] == REMOVE_RGB).all()                 # too high: full red
    # in between, the colour says the difference to within the rounding of 8-bit colour
    between = (np.abs(d) > 0.1) & (np.abs(d) < 0.4)
    back = difference_from_colours(rgb[None, :], deadband_in=0.1, saturation_in=0.4)[0]
    rounding = 0.3 / 255 / 2 * 2 + 1e-9          # half a grey level on each of the two channels read
    tinted = between & (rgb != MATCH_RGB).any(axis=1)
    assert np.abs(back[tinted] - d[tinted]).max() < rounding
    assert (np.abs(d[between & ~tinted]) < 0.1 + rounding).all()   # only the deadband's edge rounds to white
    # more sand to add is never a paler blue
    blue_side = rgb[d > 0]
    assert (np.diff(blue_side[:, 0].astype(int)) <= 0).all()


def test_unknown_cells_are_left_dark_and_bad_bands_refused() -> None:
    rgb = guidance_colours(np.array([[0.5, 0.5]]), unknown=np.array([[True, False]]))
    assert rgb[0, 0].tolist() == [0, 0, 0] and rgb[0, 1].tolist() == list(ADD_RGB)
    with pytest.raises(CalibrationError, match="saturation_in=0.05"):
        guidance_strength(np.zeros(3), deadband_in=0.1, saturation_in=0.05)


def test_the_match_score_counts_cells_within_tolerance_and_the_sand_to_move() -> None:
    target = np.zeros((10, 10))
    sand = target.copy()
    sand[:2] = 0.5          # 20 cells 0.5" too high: remove 20 * 0.5 * 0.25^2
    sand[2:3] = -0.2        # 10 cells 0.2" too low
    s = match_score(sand, target, tolerance_in=0.1, cell_in=0.25)
    assert s.within_share == pytest.approx(0.7) and s.cells == 100
    assert s.remove_in3 == pytest.approx(20 * 0.5 * 0.0625) and s.add_in3 == pytest.approx(10 * 0.2 * 0.0625)
    assert s.rms_in == pytest.approx(np.sqrt((20 * 0.25 + 10 * 0.04) / 100))
    assert "70% within 0.1\"" in s.summary()
    masked = match_score(sand, target, tolerance_in=0.1, mask=np.arange(100).reshape(10, 10) >= 30)
    assert masked.within_share == 1.0 and masked.cells == 70


def test_grids_of_different_shapes_are_refused() -> None:
    with pytest.raises(CalibrationError, match="same grid"):
        match_score(np.zeros((3, 3)), np.zeros((4, 4)))


@pytest.mark.parametrize("name", ["calibration.sculpting", "calibration.contours", "calibration.stillness"])
def test_docstring_examples_run(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
