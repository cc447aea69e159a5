"""Each tracked unit's height two ways, and a line for the window when they disagree (Qt-free).

The tracker puts a unit's tag at the ground under it (the scanned relief, or the table) plus the base
height the roster gives. How big the tag looks says the same thing independently (a tag nearer the
camera looks bigger; ``TableCalibration.tag_height_from_size``), provided the roster's tag size is the
printed one. When the two disagree by more than the size method's precision (which depends on how
many pixels the tag spans: ``calibration.unit_heights.size_precision_in``), something a player can
fix is wrong: a tag printed at another size than the roster says, a base height typed wrong, sand
reshaped since the scan. :class:`HeightCheck` looks at still, seen units about once a second (cheap: no
search, one closed-form height per tag), keeps the median of each unit's last few looks so a noisy
frame or a hand lifting a unit for a moment raises nothing, and says which unit and both heights:

    UTV (tag 15): the tag size says 17.6" high, the base height says 1" -- check the roster's
    tag_size_in (1" now) and base_height_in
"""
from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from calibration.unit_heights import DEFAULT_TOLERANCE_IN, size_precision_in

#: Seconds between two looks at the units (the status is shown twice a second; heights change slowly).
LOOK_EVERY_S = 1.0
#: Looks per unit the median is taken over; a disagreement is shown once at least MIN_LOOKS agree on it.
LOOKS_KEPT = 7
MIN_LOOKS = 3


@dataclass(frozen=True)
class HeightDisagreement:
    """A unit whose tag's size puts it ``size_says_in`` above the ground under it, where the roster's
    base height says ``base_says_in``; ``tag_size_in`` is the size the roster (or the layout) gives."""

    tag_id: int
    name: str
    size_says_in: float
    base_says_in: float
    tag_size_in: float
    on_relief: bool = False

    def text(self) -> str:
        sand = ", or rescan the sand if it was reshaped" if self.on_relief else ""
        says = (f"says {self.size_says_in:.1f}\" high" if self.size_says_in >= 0.0 else
                f"puts it {-self.size_says_in:.1f}\" below the ground")
        return (f"{self.name} (tag {self.tag_id}): the tag size {says}, the base height "
                f"says {self.base_says_in:g}\" — check the roster's tag_size_in ({self.tag_size_in:g}\" now) and "
                f"base_height_in{sand}")


@dataclass(frozen=True)
class _Unit:
    name: str
    base_height_in: float
    tag_size_in: float


class HeightCheck:
    """Cross-checks the tracked units' heights against their tags' sizes (mutable; bounded memory).

    ``calibration``: returns the tracker's current table calibration (it may be swapped for another
    frame size); ``units``: (tag id, name, base height, tag size) of the roster's units.
    """

    def __init__(self, calibration: Callable[[], Any], units: Iterable[tuple[int, str, float, float]], *,
                 on_relief: bool = False, tolerance_in: float = DEFAULT_TOLERANCE_IN, every_s: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._calibration = calibration
        self._units = {int(t): _Unit(name, float(base), float(size)) for t, name, base, size in units}
        self._on_relief = on_relief
        self._tolerance_in = tolerance_in
        self._every_s = LOOK_EVERY_S if every_s is None else every_s
        self._clock = clock
        self._looked_at: float | None = None
        #: per unit, its last looks: (height above the ground by the tag's size, how far that may be off)
        self._looks: dict[int, deque[tuple[float, float]]] = {}

    @classmethod
    def for_tracker(cls, tracker: Any, **kwargs: Any) -> "HeightCheck | None":
        """The check for a live tracker (``tracker.pipeline.Tracker``), or None where it cannot tell:
        no roster, or a calibration that knows no camera pose (the homography method)."""
        units = getattr(tracker, "units", None)
        roster = getattr(units, "roster", None)
        calibration = getattr(tracker, "calibration", None)
        if roster is None or not getattr(roster, "units", ()) or getattr(calibration, "method", None) != "pnp":
            return None
        default_size = float(getattr(getattr(calibration, "layout", None), "unit_tag_size_in", 1.0))
        rows = [(u.tag_id, u.name, u.base_height_in, u.tag_size_in or default_size) for u in roster.units]
        terrain = getattr(units, "terrain", None)
        relief = terrain is not None and not getattr(terrain, "is_flat", False)
        return cls(lambda: tracker.calibration, rows, on_relief=relief, **kwargs)

    def add(self, tracked: Any) -> None:
        """One tracked frame (``tracker.pipeline.TrackedFrame``); looked at about once a second."""
        now = self._clock()
        if self._looked_at is not None and now - self._looked_at < self._every_s:
            return
        detections = getattr(tracked, "detections", None)
        if not hasattr(detections, "tag_ids"):  # several cameras: each its own calibration (not checked here)
            return
        self._looked_at = now
        calibration = self._calibration()
        corners_of = {int(t): np.asarray(c, float) for t, c in zip(detections.tag_ids, detections.corners_px)}
        for pose in tracked.poses:
            unit = self._units.get(int(pose.tag_id))
            corners = corners_of.get(int(pose.tag_id))
            state = getattr(pose.state, "value", pose.state)
            if state in ("lost", "lifted"):  # off the table: what it looked like there says nothing now
                self._looks.pop(int(pose.tag_id), None)
                continue
            # a carried or moving unit is off its base; only a still, seen unit stands where its base says
            if unit is None or corners is None or state != "seen" or pose.moving or pose.z_in is None:
                continue
            size_z = calibration.tag_height_from_size(corners, unit.tag_size_in)
            if size_z is None:
                continue
            ground = float(pose.z_in) - unit.base_height_in
            tolerance = max(self._tolerance_in, size_precision_in(calibration, corners))
            self._looks.setdefault(int(pose.tag_id), deque(maxlen=LOOKS_KEPT)).append((size_z - ground, tolerance))

    def disagreements(self) -> tuple[HeightDisagreement, ...]:
        out = []
        for tag, looks in sorted(self._looks.items()):
            if len(looks) < MIN_LOOKS:
                continue
            unit = self._units[tag]
            says, tolerance = (float(v) for v in np.median(np.array(looks), axis=0))
            if abs(says - unit.base_height_in) > tolerance:
                out.append(HeightDisagreement(tag, unit.name, says, unit.base_height_in, unit.tag_size_in, self._on_relief))
        return tuple(out)

    def notes(self) -> tuple[str, ...]:
        """One line per unit whose two heights disagree (for the Tracking panel)."""
        return tuple(d.text() for d in self.disagreements())


def heights_summary(notes: tuple[str, ...]) -> str:
    """A few words for the status strip ('' when every unit's heights agree)."""
    if not notes:
        return ""
    return f"{len(notes)} unit height{'s' if len(notes) > 1 else ''} in doubt (see Tracking)"


__all__ = ["HeightCheck", "HeightDisagreement", "LOOK_EVERY_S", "heights_summary"]
