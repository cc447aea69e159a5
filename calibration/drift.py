"""Drift watch: anchors are checked every frame; a moved camera or table is noticed and re-registered.

Each frame's anchors are mapped through the current calibration and compared with the layout. The
typical residual over the anchors (their median, so one bumped anchor cannot fake a drift) above
``threshold_in`` for ``confirm_frames`` frames in a row means the camera or the table moved: the watch
re-registers from that frame's anchors and hands back the new calibration. Units are tracked in table
inches throughout, so nothing about the game is lost; only pixels are re-interpreted. One anchor far
off while the rest agree is reported as bumped and ignored until it is back on its mark.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calibration.errors import CalibrationError, RegistrationError
from calibration.table_calibration import TableCalibration
from calibration.table_registration import anchor_residuals_in, register_table

DEFAULT_DRIFT_THRESHOLD_IN = 0.1


@dataclass(frozen=True)
class DriftStatus:
    """The outcome of checking one frame.

    ``residual_in``: median RMS corner residual of the anchors seen (NaN when none were). ``drifted``:
    the camera or table moved (residual above the threshold in this frame). ``re_registered``: a new
    calibration was made from this frame and is in ``calibration``. ``bumped_ids``: anchors off their
    mark while the others agree. ``message``: one sentence for people, empty when all is well.
    """

    residual_in: float
    drifted: bool
    calibration: TableCalibration
    re_registered: bool = False
    anchors_seen: int = 0
    bumped_ids: tuple[int, ...] = ()
    message: str = ""


class DriftWatch:
    """Checks each frame's anchors against the calibration; re-registers when the camera moved.

    Use::

        watch = DriftWatch(cal, threshold_in=0.1)
        for detections in frames:
            status = watch.check(detections.tag_ids, detections.corners_px)
            cal = status.calibration          # the new one after a re-registration
            if status.message: show(status.message)
    """

    def __init__(
        self,
        calibration: TableCalibration,
        *,
        threshold_in: float = DEFAULT_DRIFT_THRESHOLD_IN,
        confirm_frames: int = 2,
        min_anchors: int = 2,
    ) -> None:
        if not threshold_in > 0:
            raise CalibrationError(f"drift threshold_in={threshold_in}: give a positive distance in inches, e.g. 0.1")
        self.calibration = calibration
        self.threshold_in = float(threshold_in)
        self.confirm_frames = max(1, int(confirm_frames))
        self.min_anchors = int(min_anchors)
        self._over = 0

    def check(self, tag_ids: np.ndarray, corners_px: np.ndarray) -> DriftStatus:
        """Check one frame's detections (all tags; anchors are picked out)."""
        cal = self.calibration
        per = anchor_residuals_in(cal, tag_ids, corners_px)
        per = {k: v for k, v in per.items() if math.isfinite(v)}
        if not per:
            self._over = 0
            return DriftStatus(math.nan, False, cal, anchors_seen=0, message="no anchors in view")
        residual = float(np.median(list(per.values())))
        if residual <= self.threshold_in:
            self._over = 0
            bumped = tuple(sorted(k for k, v in per.items() if v > self.threshold_in)) if len(per) >= 3 else ()
            msg = f"anchor {', '.join(map(str, bumped))} is off its mark; put it back" if bumped else ""
            return DriftStatus(residual, False, cal, anchors_seen=len(per), bumped_ids=bumped, message=msg)
        self._over += 1
        if self._over < self.confirm_frames or len(per) < self.min_anchors:
            return DriftStatus(
                residual, True, cal, anchors_seen=len(per),
                message=f"anchors off by {residual:.2f} in: camera or table moved?",
            )
        try:
            new = register_table(tag_ids, corners_px, cal.model, cal.layout, refine_focal=False)
        except RegistrationError as exc:
            return DriftStatus(residual, True, cal, anchors_seen=len(per), message=f"camera or table moved; cannot re-register: {exc}")
        if new.residual_in > self.threshold_in:
            return DriftStatus(
                residual, True, cal, anchors_seen=len(per),
                message=f"camera or table moved; re-registration residual {new.residual_in:.2f} in is too large, keeping the old one",
            )
        self.calibration = new
        self._over = 0
        return DriftStatus(
            residual, True, new, re_registered=True, anchors_seen=len(per), bumped_ids=new.anchors_rejected,
            message=f"camera or table moved (anchors off by {residual:.2f} in): re-registered, residual now {new.residual_in:.3f} in",
        )
