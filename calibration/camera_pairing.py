"""Which calibration file belongs to which camera: each camera's anchors against every calibration.

A table calibration says where each anchor appears in its own camera's picture. Given to the wrong
camera (two ``--calibration`` files swapped), it puts that camera's anchors inches from their marks;
re-registering from the anchors would then hide the mistake behind a small error and a wrong lens.
So before tracking, each camera's first picture is checked against every calibration, and a pairing
that fits where the given one does not is named.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np

from calibration.table_calibration import TableCalibration
from calibration.table_registration import anchor_residuals_in

#: A calibration "fits" a camera's picture when its anchors land within this of their marks.
FIT_IN = 0.5


def anchor_fit_in(cal: TableCalibration, tag_ids: np.ndarray, corners_px: np.ndarray, size_px: tuple[int, int]) -> float:
    """Median anchor error (inches) of a picture under ``cal``: inf for a picture of another size, NaN
    with fewer than two anchors in view (nothing to judge by)."""
    if (cal.model.width_px, cal.model.height_px) != tuple(size_px):
        return math.inf
    per = [v for v in anchor_residuals_in(cal, tag_ids, corners_px).values() if math.isfinite(v)]
    return float(np.median(per)) if len(per) >= 2 else math.nan


def better_pairing(fits_in: Mapping[str, Mapping[str, float]]) -> dict[str, str] | None:
    """``fits_in[camera][calibration]`` -> the camera -> calibration pairing that fits every camera,
    when the given one (each camera with the calibration of its own name) does not; None otherwise.

    >>> better_pairing({"left": {"left": 9.0, "right": 0.02}, "right": {"left": 0.03, "right": 8.0}})
    {'left': 'right', 'right': 'left'}
    >>> better_pairing({"left": {"left": 0.02, "right": 9.0}, "right": {"left": 8.0, "right": 0.03}}) is None
    True
    """
    cameras = list(fits_in)

    def fits(camera: str, cal: str) -> bool:
        v = fits_in[camera][cal]
        return math.isnan(v) or v <= FIT_IN  # a camera without anchors in view is not evidence

    if all(fits(c, c) for c in cameras):
        return None
    for order in itertools.permutations(cameras):
        pairing = dict(zip(cameras, order))
        if any(not math.isnan(fits_in[c][pairing[c]]) for c in cameras) and all(fits(c, pairing[c]) for c in cameras):
            return pairing
    return None
