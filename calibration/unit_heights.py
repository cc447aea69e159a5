"""A unit's height from the relief under it, with the tag's size as a cross-check.

The scanned relief says how high the ground is wherever a unit stands; its tag is at that height plus
its base, so parallax correction needs no typing. The tag's apparent size says the same thing another
way (a tag closer to the camera looks bigger): less precise (tenths of an inch), but independent. When
the two disagree by more than the size method's own precision, something is off (the base height
typed for the unit, the sand reshaped since the scan, a unit standing on a box) and the window says so.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.table_calibration import TableCalibration
from calibration.terrain import Terrain

#: How far the two heights may differ before it is shown, inches (the size method's precision at 720p
#: for 1" tags is 0.1-0.4").
DEFAULT_TOLERANCE_IN = 0.6


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
    agrees = abs(diff) <= tolerance_in
    message = "" if agrees else (
        f"tag {tag_id} looks {abs(diff):.1f}\" {'higher' if diff > 0 else 'lower'} than the ground under it "
        f"({ground:.1f}\") plus its {base_height_in:g}\" base: check its base height, or rescan the sand"
    )
    return UnitHeight(tag_id, where.x_in, where.y_in, where.z_in, ground, float(size_z), agrees, message)
