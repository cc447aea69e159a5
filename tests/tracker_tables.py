"""The synthetic table the tracker tests look at: a camera 60" over a 6' table, tilted 8 degrees."""
from __future__ import annotations

import math

from calibration.camera_model import CameraModel, CameraPose
from calibration.synthetic import SyntheticTable


def table_under_camera(width: int = 960, height: int = 540, *, tag_px: float = 25.0, texture_seed: int) -> SyntheticTable:
    """The focal length chosen so that a 1" tag in mid table is about ``tag_px`` wide (25 px: a 1080p
    camera's; at 960x540 that is 1080p's tag size on a quarter of the pixels, cheap to render and search)."""
    fx = (1920 / 2) / math.tan(math.radians(32.0)) * tag_px / 25.0
    model = CameraModel(width, height, fx, fx, (width - 1) / 2, (height - 1) / 2, (0.0,) * 5, source="synthetic")
    pose = CameraPose.looking_at((36.0, 24.0 - 60.0 * math.tan(math.radians(8.0)), 60.0), (36.0, 24.0, 0.0))
    return SyntheticTable(model=model, pose=pose, texture_seed=texture_seed)
