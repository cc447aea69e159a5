"""Table inches to projector pixels on the ground: the projector's 3-D model and the relief together.

The window draws overlays in table inches (x, y); the light must land on the sand, whose height the
relief scan measured. :class:`GroundProjection` offers the same calls as the plane calibration
(``projector_from_table``, ``table_from_projector``, ``px_per_in_at``, ``width_px``/``height_px``), so the
projector window takes either; lines are not straight in the picture any more (``affine`` is False), so
they are drawn subdivided and follow the hillside.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from calibration.projector_model import ProjectorModel
from calibration.terrain import Terrain

if TYPE_CHECKING:  # load_projector_for_ground imports these when called
    from pathlib import Path

    from calibration.projector import ProjectorCalibration


class GroundProjection:
    """``model`` lighting the ground of ``terrain`` (None: the flat table)."""

    affine = False

    def __init__(self, model: ProjectorModel, terrain: Terrain | None = None) -> None:
        self.model = model
        self.terrain = terrain

    @property
    def width_px(self) -> int:
        return self.model.width_px

    @property
    def height_px(self) -> int:
        return self.model.height_px

    def ground_in(self, x_in: float | np.ndarray, y_in: float | np.ndarray) -> np.ndarray:
        if self.terrain is None:
            return np.zeros(np.shape(x_in))
        return self.terrain.height_at(x_in, y_in)

    def projector_from_table(self, points_in: np.ndarray, *, z_in: float | np.ndarray | None = None) -> np.ndarray:
        """Projector pixels (N, 2) lighting table points (N, 2) on the ground (or at ``z_in`` when given:
        a tag's surface)."""
        p = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
        z = self.ground_in(p[:, 0], p[:, 1]) if z_in is None else z_in
        return self.model.projector_from_table(p, z_in=z)

    def table_from_projector(self, pixels: np.ndarray) -> np.ndarray:
        """Where projector pixels (N, 2) land on the ground, table inches (N, 2): the ray followed down to
        the relief (fixed-point steps; the slopes of sand are far below the rays' steepness)."""
        px = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
        xy = self.model.table_from_projector(px, z_in=0.0)
        for _ in range(20):
            z = self.ground_in(xy[:, 0], xy[:, 1])
            nxt = self.model.table_from_projector(px, z_in=z)
            if np.nanmax(np.abs(nxt - xy), initial=0.0) < 1e-4:
                return nxt
            xy = nxt
        return xy

    def px_per_in_at(self, x_in: float, y_in: float) -> float:
        return self.model.px_per_in_at(x_in, y_in, float(self.ground_in(x_in, y_in)))


def load_projector_for_ground(path: str | Path, terrain: Terrain | None = None) -> GroundProjection | ProjectorCalibration:
    """A projector calibration file of either kind: the 3-D model (``sandtable scan
    --calibrate-projector``) as a :class:`GroundProjection` over ``terrain``, or the plane homography
    (``sandtable calibrate projector``) as it is."""
    import json
    from pathlib import Path

    from calibration.projector import load_projector_calibration
    from calibration.projector_model import PROJECTOR_MODEL_FORMAT, load_projector_model

    try:
        fmt = json.loads(Path(path).read_text(encoding="utf-8")).get("format")
    except (OSError, ValueError, AttributeError):
        fmt = None  # the loader below says what is wrong with the file
    if fmt == PROJECTOR_MODEL_FORMAT:
        return GroundProjection(load_projector_model(path), terrain)
    return load_projector_calibration(path)
