"""Shared synthetic scans for the relief tests: a camera over the near edge, a projector over the far
side, the flat table, a board on 4" blocks, and two hills; each rendered once per test process."""
from __future__ import annotations

import functools

import numpy as np

from calibration.synthetic import Faults, Projector, SyntheticTable, overhead_pose, webcam_model
from calibration.synthetic.projected_light import ceiling_projector, render_lit_sequence
from calibration.structured_light import ScanPatterns
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout
from calibration.terrain import HeightGrid, Hill, Terrain

LAYOUT = TableLayout.default()
CAMERA = webcam_model(960, 540)
CAMERA_POSE = overhead_pose(LAYOUT, tilt_deg=20.0)
PROJECTOR_MODEL, PROJECTOR_POSE = ceiling_projector(LAYOUT)
PATTERNS = ScanPatterns(PROJECTOR_MODEL.width_px, PROJECTOR_MODEL.height_px)
FAULTS = Faults(noise_sigma=2.0, blur_px=0.7)
HILLS = Terrain(hills=(Hill(24.0, 30.0, 10.0, 4.0), Hill(50.0, 18.0, 8.0, 3.0)))
BOARD_HEIGHT_IN = 4.0


def table_calibration() -> TableCalibration:
    return TableCalibration(model=CAMERA, pose=CAMERA_POSE, layout=LAYOUT, residual_in=0.0, method="pnp")


def dark_projector(brightness: float = 0.8, room_light: float = 0.1) -> Projector:
    black = np.zeros((PROJECTOR_MODEL.height_px, PROJECTOR_MODEL.width_px), np.uint8)
    return Projector(PROJECTOR_MODEL, PROJECTOR_POSE, black, brightness=brightness, room_light=room_light)


def board_on_blocks(x0: float, y0: float, x1: float, y1: float, height_in: float, cell_in: float = 0.25) -> Terrain:
    """A flat board lying on blocks: a plateau of ``height_in`` over the rectangle, as a height grid."""
    cols = int(round(LAYOUT.width_in / cell_in)) + 1
    rows = int(round(LAYOUT.depth_in / cell_in)) + 1
    h = np.zeros((rows, cols))
    x = np.arange(cols) * cell_in
    y = np.arange(rows) * cell_in
    h[np.ix_((y >= y0) & (y <= y1), (x >= x0) & (x <= x1))] = height_in
    return Terrain(grid=HeightGrid(h, cell_in))


@functools.lru_cache(maxsize=4)
def scan_frames(what: str) -> tuple[np.ndarray, ...]:
    """Camera frames of a whole scan of ``what``: 'flat', 'board' or 'hills'."""
    terrain = {"flat": None, "board": board_on_blocks(14, 8, 34, 22, BOARD_HEIGHT_IN), "hills": HILLS}[what]
    table = SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, terrain)
    frames = render_lit_sequence(table, dark_projector(), PATTERNS.images(), faults=FAULTS,
                                 rng=np.random.default_rng(["flat", "board", "hills"].index(what)))
    return tuple(frames)


@functools.lru_cache(maxsize=4)
def decoded(what: str):
    return PATTERNS.decode(list(scan_frames(what)))


@functools.lru_cache(maxsize=1)
def calibrated_projector():
    from calibration.projector_model import calibrate_projector_3d

    return calibrate_projector_3d(decoded("flat"), [(decoded("board"), BOARD_HEIGHT_IN)], table_calibration(),
                                  PROJECTOR_MODEL.width_px, PROJECTOR_MODEL.height_px)


def true_ground_hits(terrain: Terrain) -> np.ndarray:
    """(rows, cols, 3) table point each camera pixel centre sees on ``terrain``."""
    from calibration.synthetic.raycast import ground_hits
    from calibration.synthetic.view_geometry import ViewGeometry

    geom = ViewGeometry(CAMERA, CAMERA_POSE)
    dirs = geom.sample_rays((0, 0, CAMERA.width_px, CAMERA.height_px), 1)
    x, y, z, _shade, _valid = ground_hits(geom.center_in, dirs, terrain)
    return np.stack([x, y, z], axis=-1).astype(np.float64)
