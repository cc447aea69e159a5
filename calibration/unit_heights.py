"""A unit's height from the relief under it, with the tag's size as a cross-check.

The scanned relief says how high the ground is wherever a unit stands; its tag is at that height plus
its base, so parallax correction needs no typing. The tag's apparent size says the same thing another
way (a tag closer to the camera looks bigger): less precise (tenths of an inch for big tags, inches for
small ones: ``size_precision_in``), but independent. When the two disagree by more than that, something is off (the base height
typed for the unit, the sand reshaped since the scan, a unit standing on a box) and the window says so.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.table_calibration import TableCalibration
from calibration.terrain import Terrain

#: How far the two heights may always differ before it is shown, inches (the least the size method is
#: off by, for big tags in sharp pictures).
DEFAULT_TOLERANCE_IN = 0.6
#: How far a tag's apparent edge may be off, pixels: the detector's corners are good to about a quarter
#: pixel each. An error of e pixels on an edge of E moves the height by e/E of the camera's height, so
#: small tags are checked loosely (1" tags at 720p: about 2"; a wrong tag size is still tens of percent).
EDGE_ERROR_PX = 0.5


def size_precision_in(cal: TableCalibration, corners_px: np.ndarray) -> float:
    """How far the height a tag's size gives may be off, inches, for a tag seen with these corners."""
    c = np.asarray(corners_px, dtype=np.float64).reshape(4, 2)
    edge_px = float(np.mean(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)))
    return float(cal.pose.camera_position_in[2]) * EDGE_ERROR_PX / max(edge_px, 1.0)


@dataclass(frozen=True)
class UnitHeight:
    """Where a unit's tag is (``x_in``, ``y_in``, ``z_in`` = ground + base), the ground under it, the
    height its size suggests (None when unknown), and whether the two agree."""

    tag_id: int
    x_in: float
    y_in: float
    z_in: float
    ground_in: float
    size_z_in: float | None
    agrees: bool
    message: str = ""

    @property
    def disagreement_in(self) -> float:
        return 0.0 if self.size_z_in is None else self.size_z_in - self.z_in


def unit_height(cal: TableCalibration, tag_id: int, corners_px: np.ndarray, *, base_height_in: float,
                terrain: Terrain | None, size_in: float, tolerance_in: float = DEFAULT_TOLERANCE_IN) -> UnitHeight:
    """The unit's tag located on the relief, cross-checked against its apparent size."""
    where = cal.locate_tag(corners_px, base_height_in=base_height_in, terrain=terrain)
    ground = where.z_in - base_height_in
    size_z = cal.tag_height_from_size(corners_px, size_in)
    if size_z is None:
        return UnitHeight(tag_id, where.x_in, where.y_in, where.z_in, ground, None, True)
    diff = size_z - where.z_in
    agrees = abs(diff) <= max(tolerance_in, size_precision_in(cal, corners_px))
    message = "" if agrees else (
        f"tag {tag_id} looks {abs(diff):.1f}\" {'higher' if diff > 0 else 'lower'} than the ground under it "
        f"({ground:.1f}\") plus its {base_height_in:g}\" base: check its base height, or rescan the sand"
    )
    return UnitHeight(tag_id, where.x_in, where.y_in, where.z_in, ground, float(size_z), agrees, message)
