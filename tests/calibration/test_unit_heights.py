"""A unit's height comes from the scanned relief under it; the tag's size cross-checks it and a
disagreement is shown."""
import numpy as np
import pytest

from calibration.synthetic import Faults, SyntheticTable, TagPlacement, overhead_pose, webcam_model
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout
from calibration.terrain import Hill, Terrain
from calibration.unit_heights import unit_height
from calibration_scenes import detect

LAYOUT = TableLayout.default()
CAMERA = webcam_model(1280, 720)
POSE = overhead_pose(LAYOUT, tilt_deg=20.0)
HILLS = Terrain(hills=(Hill(24.0, 30.0, 10.0, 4.0), Hill(50.0, 18.0, 8.0, 3.0)))


@pytest.fixture(scope="module")
def seen():
    table = SyntheticTable(LAYOUT, CAMERA, POSE, HILLS)
    # 11 and 12 stand on 1" bases on the hills; 13 stands on a 3" box on the hill but is typed as 1"
    placements = [TagPlacement(11, 24.0, 30.0, 4.0 + 1.0, 90.0, 2.0), TagPlacement(12, 52.0, 19.0, float(HILLS.height_at(52.0, 19.0)) + 1.0, 30.0, 2.0),
                  TagPlacement(13, 27.0, 33.0, float(HILLS.height_at(27.0, 33.0)) + 3.0, 0.0, 2.0)]
    frame = table.render(placements, faults=Faults(noise_sigma=1.0, blur_px=0.5), rng=np.random.default_rng(2))
    found = detect(frame.image_bgr)
    cal = TableCalibration(model=CAMERA, pose=POSE, layout=LAYOUT, residual_in=0.0, method="pnp")
    corners = {int(t): c for t, c in zip(found.tag_ids, found.corners_px)}
    return cal, corners, {p.tag_id: p for p in placements}


def test_units_on_the_relief_get_their_height_from_the_ground_and_stand_where_they_are(seen):
    cal, corners, truth = seen
    for tag in (11, 12):
        h = unit_height(cal, tag, corners[tag], base_height_in=1.0, terrain=HILLS, size_in=2.0)
        assert h.z_in == pytest.approx(truth[tag].z_in, abs=0.02)
        assert (h.x_in, h.y_in) == pytest.approx((truth[tag].x_in, truth[tag].y_in), abs=0.03)
        assert h.agrees and h.message == ""


def test_a_unit_whose_size_says_it_stands_higher_than_the_ground_allows_is_flagged(seen):
    cal, corners, truth = seen
    h = unit_height(cal, 13, corners[13], base_height_in=1.0, terrain=HILLS, size_in=2.0)
    assert not h.agrees
    # 2" too low as typed; where the wrong height puts it on the slope adds its own part
    assert 1.2 < h.disagreement_in < 3.5
    assert "tag 13 looks" in h.message and "higher than the ground under it" in h.message and "check its base height" in h.message
