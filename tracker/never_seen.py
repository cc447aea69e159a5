"""Why a roster unit was never seen: one line per unit, with the likely reason and what to do.

A tag smaller than about 20 px is at the edge of what the detector can decode (and blur or JPEG push it
over); the tag size a unit has on the image follows from the calibration (pixels per inch at the table's
far edge, where tags are smallest) or, uncalibrated, from the tags that were seen.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from tracker.roster import Roster

#: Tags smaller than this on the image are often not decoded (pupil-apriltags at full resolution).
MIN_RELIABLE_TAG_PX = 20.0


def far_edge_px_per_in(calibration: Any) -> float | None:
    """Pixels per table inch at the table's farthest (smallest-looking) edge, or None without a calibration."""
    layout = getattr(calibration, "layout", None)
    if layout is None:
        return None
    w, d = float(layout.width_in), float(layout.depth_in)
    spots = np.array([[0.0, 0.0], [w, 0.0], [w, d], [0.0, d], [w / 2, 0.0], [w / 2, d], [0.0, d / 2], [w, d / 2]])
    scale = []
    for x, y in spots:
        # A 1" step inward from each edge spot, both directions; the smaller pixel length counts.
        sx = -1.0 if x >= w else 1.0
        sy = -1.0 if y >= d else 1.0
        pts = np.array([[x, y], [x + sx, y], [x, y + sy]])
        px = calibration.camera_from_table(pts)
        if not np.all(np.isfinite(px)):
            continue
        scale.append(min(np.linalg.norm(px[1] - px[0]), np.linalg.norm(px[2] - px[0])))
    return float(min(scale)) if scale else None


def smallest_tag_px(calibration: Any, roster: Roster | None) -> float | None:
    """How small a unit tag can look on the image: the far edge's pixels per inch x the smallest tag size
    (the roster's, else the layout's unit tag size). None without a calibration."""
    ppi = far_edge_px_per_in(calibration)
    if ppi is None:
        return None
    default = float(getattr(calibration.layout, "unit_tag_size_in", 1.0))
    sizes = [u.tag_size_in or default for u in (roster.units if roster is not None else ())] or [default]
    return ppi * min(sizes)


def never_seen_lines(
    roster: Roster, seen_ids: Iterable[int], *, calibration: Any = None, smallest_seen_px: float | None = None
) -> list[str]:
    """One line per roster unit never seen, saying the likely reason."""
    seen = {int(i) for i in seen_ids}
    missing = [u for u in roster.units if u.tag_id not in seen]
    if not missing:
        return []
    ppi = far_edge_px_per_in(calibration)
    default_size = float(getattr(getattr(calibration, "layout", None), "unit_tag_size_in", 1.0))
    lines = []
    for unit in missing:
        size_in = unit.tag_size_in or default_size
        label = f"{unit.tag_id} {unit.name!r}"
        if ppi is not None and size_in * ppi < MIN_RELIABLE_TAG_PX:
            px = size_in * ppi
            bigger = MIN_RELIABLE_TAG_PX * 1.25 / ppi
            reason = (
                f"{size_in:g}-inch tags are {px:.0f} px at the far edge at this resolution (under {MIN_RELIABLE_TAG_PX:.0f} px "
                f"they are often not decoded); print {bigger:.1f}-inch tags or move the camera closer"
            )
        elif ppi is None and smallest_seen_px is not None and smallest_seen_px < MIN_RELIABLE_TAG_PX * 1.2:
            reason = (
                f"the tags seen are as small as {smallest_seen_px:.0f} px; smaller ones are not decoded: print bigger tags, "
                "move the camera closer or use a higher resolution"
            )
        else:
            reason = "its tag was never in view: check that it is on the table, uncovered, and printed with its white border"
        lines.append(f"  {label}: never seen; {reason}")
    return lines
