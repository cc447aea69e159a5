"""The guidance a scan gives on the synthetic table, cell by cell, against the true height difference."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.relief_scan import scan_relief
from calibration.sculpting import difference_from_colours, guidance_colours, guidance_strength, match_score
from calibration.terrain import Hill, Terrain
from relief_helpers import HILLS, LAYOUT, calibrated_projector, decoded, table_calibration

# The sand is the relief helpers' two hills (4" and 3"); the target wants the first lower, the second
# higher and a new 2" mound: every kind of advice appears.
TARGET = Terrain(hills=(Hill(24.0, 30.0, 10.0, 3.0), Hill(50.0, 18.0, 8.0, 3.6), Hill(40.0, 36.0, 5.0, 2.0)))


@pytest.mark.slow
def test_the_guidance_from_a_scan_is_the_guidance_the_truth_calls_for() -> None:
    scan = scan_relief(decoded("hills"), table_calibration(), calibrated_projector())
    rows, cols = scan.heights_in.shape
    yy, xx = np.mgrid[0:rows, 0:cols] * scan.cell_in
    target = TARGET.height_at(xx, yy)
    truth = target - HILLS.height_at(xx, yy)
    use = scan.seen & (xx > 2) & (xx < LAYOUT.width_in - 2) & (yy > 2) & (yy < LAYOUT.depth_in - 2)
    shown = guidance_colours(target - scan.heights_in, deadband_in=0.1, saturation_in=0.4)
    said = difference_from_colours(shown, deadband_in=0.1, saturation_in=0.4)
    kind_shown = np.sign(np.round(guidance_strength(target - scan.heights_in), 9))
    kind_true = np.sign(np.round(guidance_strength(truth), 9))
    assert {-1.0, 0.0, 1.0} <= set(np.unique(kind_true[use]))       # remove, match and add all appear
    assert (kind_shown == kind_true)[use].mean() > 0.99
    clipped = np.where(np.abs(truth) <= 0.1, 0.0, np.clip(truth, -0.4, 0.4))
    assert np.sqrt(np.mean((said - clipped)[use] ** 2)) < 0.02          # inches of advice, against the truth
    s_scan = match_score(scan.heights_in, target, tolerance_in=0.1, mask=use)
    s_true = match_score(HILLS.height_at(xx, yy), target, tolerance_in=0.1, mask=use)
    assert s_scan.within_share == pytest.approx(s_true.within_share, abs=0.01)
    assert s_scan.rms_in == pytest.approx(s_true.rms_in, abs=0.01)
