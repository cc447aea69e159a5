"""Shaping the sand to a target terrain: how much to add or remove at every cell, as colours the
projector throws on the sand, and a score of how well it matches.

The difference is ``target - sand`` in inches at each node of the table's grid: positive where sand
must be **added** (the sand is too low), negative where it must be **removed** (too high). Within the
``deadband_in`` the sand matches and is lit white; beyond it the colour runs from white to full blue
(add) or full red (remove), saturating at ``saturation_in`` — the AR Sandbox's DEM tool's convention
(white where it matches, saturating at 1 cm), so what an instructor learnt there reads the same here.

>>> diff = np.array([[0.0, 0.2, 0.5, -0.2, -0.5]])
>>> guidance_colours(diff, deadband_in=0.1, saturation_in=0.4)[0].tolist()
[[255, 255, 255], [170, 170, 255], [0, 0, 255], [255, 170, 170], [255, 0, 0]]
>>> s = match_score(np.zeros((2, 2)), np.array([[0.0, 0.05], [0.3, -0.3]]), tolerance_in=0.1)
>>> round(s.rms_in, 3), s.within_share, s.add_in3 > 0, s.remove_in3 > 0
(0.214, 0.5, True, True)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.errors import CalibrationError

#: RGB of the three states: the sand matches, sand to add (too low), sand to remove (too high).
MATCH_RGB = (255, 255, 255)
ADD_RGB = (0, 0, 255)
REMOVE_RGB = (255, 0, 0)


def _check_band(deadband_in: float, saturation_in: float) -> None:
    if not (deadband_in >= 0 and saturation_in > deadband_in):
        raise CalibrationError(f"deadband_in={deadband_in}, saturation_in={saturation_in}: give a deadband of 0 or more "
                               "and a saturation height above it (e.g. 0.1\" and 0.4\")")


def guidance_strength(difference_in: np.ndarray, *, deadband_in: float = 0.1, saturation_in: float = 0.4) -> np.ndarray:
    """Signed strength in [-1, 1] of each cell's guidance: 0 inside the deadband, +1 at or beyond
    ``saturation_in`` of sand to add, -1 of sand to remove; linear in between."""
    _check_band(deadband_in, saturation_in)
    d = np.asarray(difference_in, dtype=np.float64)
    mag = np.clip((np.abs(d) - deadband_in) / (saturation_in - deadband_in), 0.0, 1.0)
    return np.sign(d) * mag


def guidance_colours(difference_in: np.ndarray, *, deadband_in: float = 0.1, saturation_in: float = 0.4,
                     unknown: np.ndarray | None = None) -> np.ndarray:
    """RGB (uint8, rows x cols x 3) the projector lights each cell with; cells marked ``unknown``
    (not scanned, off the target map) and NaN differences are black: no light, no false advice."""
    d = np.asarray(difference_in, dtype=np.float64)
    k = np.nan_to_num(guidance_strength(d, deadband_in=deadband_in, saturation_in=saturation_in))
    white = np.array(MATCH_RGB, np.float64)
    add, remove = np.array(ADD_RGB, np.float64), np.array(REMOVE_RGB, np.float64)
    a = np.clip(k, 0, 1)[..., None]
    r = np.clip(-k, 0, 1)[..., None]
    rgb = white * (1 - a - r) + add * a + remove * r
    out = np.rint(rgb).astype(np.uint8)
    dark = ~np.isfinite(d) if unknown is None else ~np.isfinite(d) | np.asarray(unknown, bool)
    out[dark] = 0
    return out


def difference_from_colours(rgb: np.ndarray, *, deadband_in: float = 0.1, saturation_in: float = 0.4) -> np.ndarray:
    """What a colour tells the sculptor, in inches (the inverse of :func:`guidance_colours` up to
    rounding; saturated colours read as ``saturation_in``, white as 0): for checking the picture."""
    _check_band(deadband_in, saturation_in)
    c = np.asarray(rgb, dtype=np.float64)
    add = (255.0 - c[..., 0]) / 255.0 * (c[..., 2] >= c[..., 0])
    remove = (255.0 - c[..., 2]) / 255.0 * (c[..., 0] > c[..., 2])
    k = add - remove
    return np.sign(k) * (deadband_in + np.abs(k) * (saturation_in - deadband_in)) * (np.abs(k) > 0)


@dataclass(frozen=True)
class MatchScore:
    """How well the sand matches the target: ``rms_in`` of the difference, the share of the compared
    cells within ``tolerance_in``, the sand still to add and to remove (cubic inches), and how many
    cells were compared."""

    rms_in: float
    within_share: float
    tolerance_in: float
    add_in3: float
    remove_in3: float
    cells: int

    def summary(self) -> str:
        return (f"{100 * self.within_share:.0f}% within {self.tolerance_in:g}\"; RMS {self.rms_in:.2f}\"; "
                f"add {self.add_in3:.0f} in³, remove {self.remove_in3:.0f} in³")


def match_score(sand_in: np.ndarray, target_in: np.ndarray, *, tolerance_in: float = 0.1,
                mask: np.ndarray | None = None, cell_in: float = 1.0) -> MatchScore:
    """Score the sand (the scan's heights) against the target's on the same grid; ``mask``: True on
    the cells to compare (seen by the scan, covered by the target); ``cell_in`` for the volumes."""
    sand = np.asarray(sand_in, dtype=np.float64)
    target = np.asarray(target_in, dtype=np.float64)
    if sand.shape != target.shape:
        raise CalibrationError(f"the scan is {sand.shape} cells and the target {target.shape}; sample both on the same grid")
    if not tolerance_in > 0:
        raise CalibrationError(f"tolerance_in={tolerance_in}: give a positive tolerance in inches")
    use = np.isfinite(sand) & np.isfinite(target)
    if mask is not None:
        use &= np.asarray(mask, bool)
    d = (target - sand)[use]
    if d.size == 0:
        return MatchScore(float("nan"), 0.0, tolerance_in, 0.0, 0.0, 0)
    area = cell_in * cell_in
    return MatchScore(float(np.sqrt(np.mean(d**2))), float(np.mean(np.abs(d) <= tolerance_in)), tolerance_in,
                      float(d[d > 0].sum() * area), float(-d[d < 0].sum() * area), int(d.size))
