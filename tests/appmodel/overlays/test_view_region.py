"""Overlays are cut to what the camera sees, in table inches, before they meet the lens model.

The newcomer's review (#1): a 72" mortar ring around a unit near the table's edge, drawn through the
camera, came out as two straight lines crossing the table — the distortion polynomial folds back past
the picture's edge, so points far outside the view land inside it.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from appmodel.overlays.clip_geometry import clip_to_convex
from appmodel.overlays.transforms import CameraTransform, densify
from appmodel.overlays.view_region import contains
from calibration.camera_model import CameraModel, CameraPose
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout

W, H = 1920, 1080


def _calibration(dist: tuple[float, ...], *, eye=(36.0, 10.0, 40.0), target=(36.0, 24.0, 0.0)) -> TableCalibration:
    model = CameraModel(W, H, 1100.0, 1100.0, W / 2, H / 2, dist_coeffs=dist)
    pose = CameraPose.looking_at(eye, target)
    return TableCalibration(model=model, pose=pose, layout=TableLayout(), residual_in=0.0)


def _ring(center: tuple[float, float], radius_in: float, n: int = 400) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([center[0] + radius_in * np.cos(a), center[1] + radius_in * np.sin(a)])


def _stray_segments(px: np.ndarray, cal: TableCalibration, center, radius_in: float) -> int:
    """Drawn segments inside the picture whose points, seen back on the table, are not on the circle."""
    a, b = px, np.roll(px, -1, axis=0)
    mid = (a + b) / 2
    in_picture = (mid[:, 0] >= 0) & (mid[:, 0] < W) & (mid[:, 1] >= 0) & (mid[:, 1] < H)
    if not in_picture.any():
        return 0
    back = cal.table_from_camera(mid[in_picture])
    off = np.abs(np.hypot(back[:, 0] - center[0], back[:, 1] - center[1]) - radius_in)
    return int(np.count_nonzero(~(off < 1.0)))


#: Lenses whose fitted model holds over the whole picture (as a calibrated one does: it was fitted to
#: board photos reaching the corners) and folds back somewhere beyond it.
LENSES = {
    "strong barrel, never folds": (-0.42, 0.12, 0.0, 0.0, 0.0),
    "barrel, k1 only": (-0.12, 0.0, 0.0, 0.0, 0.0),
    "pincushion folding (k2 < 0)": (0.05, -0.08, 0.0, 0.0, 0.0),
    "tangential": (-0.35, 0.1, 0.004, -0.003, 0.0),
}


@pytest.mark.parametrize("lens", LENSES)
def test_a_ring_larger_than_the_view_draws_only_the_circle(lens):
    cal = _calibration(LENSES[lens])
    view = CameraTransform(cal)
    center, radius = (8.0, 44.0), 72.0  # a mortar near the table's corner
    ring = _ring(center, radius)
    drawn = view.device_from_table(densify(view.clipped_to_view(ring, closed=True), closed=True))
    assert _stray_segments(drawn, cal, center, radius) == 0
    # and every part of the circle the camera sees is still drawn
    in_view = _in_picture(drawn)
    assert in_view.any()
    back = cal.table_from_camera(drawn[in_view])
    drawn_deg = np.degrees(np.arctan2(back[:, 1] - center[1], back[:, 0] - center[0]))
    truly_seen = _truly_seen(cal, ring)
    assert truly_seen.any()
    seen_deg = np.degrees(np.arctan2(ring[truly_seen, 1] - center[1], ring[truly_seen, 0] - center[0]))
    gap = np.abs((seen_deg[:, None] - drawn_deg[None, :] + 180) % 360 - 180).min(axis=1)
    assert gap.max() < 2.0


def _in_picture(px: np.ndarray) -> np.ndarray:
    return (px[:, 0] >= 0) & (px[:, 0] < W) & (px[:, 1] >= 0) & (px[:, 1] < H)


def _truly_seen(cal: TableCalibration, points_in: np.ndarray) -> np.ndarray:
    """Points the camera really sees: in front of it, and their pixel maps back to them."""
    px = cal.camera_from_table(points_in)
    ok = _in_picture(px)
    back = cal.table_from_camera(px[ok])
    good = np.zeros(len(points_in), dtype=bool)
    good[np.flatnonzero(ok)] = np.hypot(*(back - points_in[ok]).T) < 0.05
    return good


@pytest.mark.parametrize("lens", ["barrel, k1 only", "pincushion folding (k2 < 0)"])
def test_without_the_cut_the_lens_folds_the_ring_across_the_picture(lens):
    """The same ring projected point by point (as before the cut) crosses the picture through lenses
    whose polynomial turns over past the picture: the test above would catch it."""
    cal = _calibration(LENSES[lens])
    center, radius = (8.0, 44.0), 72.0
    naive = cal.camera_from_table(densify(_ring(center, radius), closed=True))
    assert _stray_segments(naive, cal, center, radius) > 0


def test_a_ring_inside_the_view_is_not_changed():
    cal = _calibration(LENSES["tangential"])
    view = CameraTransform(cal)
    ring = _ring((36.0, 24.0), 6.0)
    assert view.clipped_to_view(ring, closed=True) is ring


def test_the_region_covers_the_whole_picture():
    """Nothing the camera sees is cut: every pixel of the picture maps into the region."""
    for dist in LENSES.values():
        cal = _calibration(dist)
        region = CameraTransform(cal).view_region_in(0.0)
        assert region is not None
        u, v = np.meshgrid(np.linspace(1, W - 2, 25), np.linspace(1, H - 2, 15))
        table = cal.table_from_camera(np.column_stack([u.ravel(), v.ravel()]))
        seen = np.isfinite(table).all(axis=1)
        assert contains(region, table[seen]).all()


@pytest.mark.parametrize("lens", ["barrel, k1 only", "pincushion folding (k2 < 0)"])
def test_a_label_point_past_the_fold_lands_outside_the_picture(lens):
    cal = _calibration(LENSES[lens])
    ring = _ring((8.0, 44.0), 72.0)
    folded = _in_picture(cal.camera_from_table(ring)) & ~_truly_seen(cal, ring)
    assert folded.any()  # the lens alone would put these far points inside the picture
    px = CameraTransform(cal).device_from_table(ring[folded])
    assert not _in_picture(px).any()
    seen = _truly_seen(cal, ring)
    assert np.allclose(CameraTransform(cal).device_from_table(ring[seen]), cal.camera_from_table(ring[seen]))


def test_open_outlines_and_heights_are_cut_too():
    square = np.array([[0, 0], [4, 0], [4, 4], [0, 4]], float)
    line = np.array([[-2.0, 2.0, 1.0], [2.0, 2.0, 2.0], [6.0, 2.0, 3.0]])
    cut = clip_to_convex(line, square, closed=False)
    assert cut.tolist() == [[0.0, 2.0, 1.5], [2.0, 2.0, 2.0], [4.0, 2.0, 2.5]]


def test_a_calibration_that_cannot_be_hashed_still_projects_and_cuts():
    """A stand-in calibration (plain attributes, an unhashable value among them) works as well."""
    from types import SimpleNamespace

    real = _calibration(LENSES["barrel, k1 only"])
    stand_in = SimpleNamespace(model=real.model, pose=real.pose, method="pnp", homography=None, notes=[],
                               camera_from_table=real.camera_from_table)  # SimpleNamespace: unhashable
    view = CameraTransform(stand_in)
    ring = _ring((8.0, 44.0), 72.0)
    cut = view.clipped_to_view(ring, closed=True)
    assert 0 < len(cut) and len(view.device_from_table(cut)) == len(cut)
