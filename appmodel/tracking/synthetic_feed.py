"""Camera frames of the game as it stands, rendered by the synthetic table (no camera needed).

The companion's camera-free mode (``sandtable gui --synthetic``), its screenshots and tests: every
on-table unit of the session is drawn as a tagged block where the rules state has it, seen by a
simulated wide-angle webcam whose exact :class:`~calibration.table_calibration.TableCalibration` is
known, so overlays drawn through that calibration must land on the right pixels. Qt-free.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from calibration.synthetic import SyntheticTable, TagPlacement, overhead_pose, webcam_model
from calibration.table_calibration import TableCalibration
from calibration.table_layout import TableLayout
from rules.geometry import OrientedRect

#: Height of a unit's tag above the table (the synthetic block under it).
UNIT_TAG_HEIGHT_IN = 1.0


class SyntheticFeed:
    """A simulated camera over a ``table_size_in`` table (mutable: it caches rendered unit blocks)."""

    def __init__(self, table_size_in: tuple[float, float] = (72.0, 48.0), *, width_px: int = 1280, height_px: int = 720,
                 tilt_deg: float = 20.0, texture_seed: int = 0) -> None:
        layout = TableLayout.default(*table_size_in)
        model = webcam_model(width_px, height_px)
        pose = overhead_pose(layout, tilt_deg=tilt_deg)
        self.table = SyntheticTable(layout=layout, model=model, pose=pose, texture_seed=texture_seed,
                                    supersample=2, background_supersample=1)
        self.calibration = TableCalibration(model, pose, layout, residual_in=0.0)

    def placements(self, units: Iterable[Any]) -> list[TagPlacement]:
        """One tagged block per token. Units standing exactly on one spot share one token (a gun team:
        the assistant rides on the gunner's), which carries the lowest tag id of them, as on a real
        table (``team`` in docs/rules-down-range.md)."""
        tokens: dict[tuple[float, float], Any] = {}
        for u in units:
            if u.on_table and 0.0 <= u.x_in <= self.table.layout.width_in and 0.0 <= u.y_in <= self.table.layout.depth_in:
                spot = (float(u.x_in), float(u.y_in))
                if spot not in tokens or u.unit_id < tokens[spot].unit_id:
                    tokens[spot] = u
        return [TagPlacement(int(u.unit_id), float(u.x_in), float(u.y_in), UNIT_TAG_HEIGHT_IN, float(u.heading_deg),
                             size_in=1.5 if isinstance(u.footprint, OrientedRect) else 1.0)
                for u in tokens.values()]

    def render(self, units: Iterable[Any]) -> np.ndarray:
        """A BGR frame of the table with ``units`` (the session's ``UnitView`` values) on it."""
        return self.table.render(self.placements(units)).image_bgr
