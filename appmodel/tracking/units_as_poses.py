"""The units where the game state has them, as the poses a recording keeps: what a session without a
tracked camera (the synthetic table, units placed by hand) records as its frames, so that its
recording replays and debriefs like a tracked one."""
from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from tracker.unit_pose import UnitPose, UnitState


def poses_from_units(units: Iterable[Any], t_s: float) -> tuple[UnitPose, ...]:
    """One pose per unit on the table (rules' UnitView: table inches, degrees), seen at ``t_s``."""
    poses = []
    for u in units:
        if not u.on_table:
            continue
        moved = None if math.isinf(u.move_in) or math.isinf(u.move_left_in) else max(0.0, u.move_in - u.move_left_in)
        poses.append(UnitPose(u.unit_id, u.name, u.side, float(u.x_in), float(u.y_in), float(u.z_in),
                              float(u.heading_deg), UnitState.SEEN, float(t_s), moved, last_seen_t_s=float(t_s)))
    return tuple(poses)


__all__ = ["poses_from_units"]
