"""The camera notices that the sand was reshaped since the last scan, and not a passing hand or a
change of light."""
import numpy as np

from calibration.projection import camera_from_table

from calibration.sand_change import SandChangeWatch, sand_mask
from calibration.table_calibration import TableCalibration
from calibration.synthetic import Faults, Hand, SyntheticTable, overhead_pose, webcam_model
from calibration.table_layout import TableLayout
from calibration.terrain import Hill, Terrain

LAYOUT = TableLayout.default()
CAMERA = webcam_model(640, 360)
POSE = overhead_pose(LAYOUT, tilt_deg=20.0)
FAULTS = Faults(noise_sigma=2.0, blur_px=0.6)
SCANNED = Terrain(hills=(Hill(24.0, 30.0, 10.0, 4.0),))
SAND = sand_mask(TableCalibration(model=CAMERA, pose=POSE, layout=LAYOUT, residual_in=0.0, method="pnp"), (360, 640))


def frames(terrain, n, *, hands=(), seed=0, gain=1.0):
    table = SyntheticTable(LAYOUT, CAMERA, POSE, terrain)
    out = []
    for k in range(n):
        img = table.render([], faults=FAULTS, hands=hands, rng=np.random.default_rng([seed, k])).image_bgr
        out.append(np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8))
    return out


def test_the_same_sand_under_other_light_is_not_a_change():
    watch = SandChangeWatch(frames(SCANNED, 1, seed=9)[0], sand=SAND)
    results = [watch.check(f) for f in frames(SCANNED, 4, seed=1, gain=0.7)]
    assert not any(r.changed for r in results)
    assert results[-1].changed_fraction < 0.005


def test_a_new_hill_is_noticed_after_three_frames_and_located():
    watch = SandChangeWatch(frames(SCANNED, 1, seed=9)[0], sand=SAND)
    reshaped = Terrain(hills=SCANNED.hills + (Hill(52.0, 20.0, 6.0, 2.5),))
    results = [watch.check(f) for f in frames(reshaped, 3, seed=2)]
    assert [r.changed for r in results] == [False, False, True]
    where = np.array(results[-1].centre_px)
    hill_px = camera_from_table(np.array([[52.0, 20.0]]), CAMERA, POSE, z_in=1.0)[0]
    assert np.linalg.norm(where - hill_px) < 40


def test_a_hand_passing_over_the_table_is_not_a_change():
    watch = SandChangeWatch(frames(SCANNED, 1, seed=9)[0], sand=SAND)
    hand = (Hand(40.0, 20.0, 3.0),)
    results = [watch.check(f) for f in frames(SCANNED, 2, hands=hand, seed=3) + frames(SCANNED, 3, seed=4)]
    assert not any(r.changed for r in results)
