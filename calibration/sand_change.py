"""Has the sand been reshaped since the last scan? The camera compares the sand's texture with the
scan's reference frame.

Reshaping moves the grains: the sand's fine texture (each pixel against its neighbourhood) no longer
matches. Light does not fool it: each block of the picture is compared by normalised correlation of
that texture, which a brighter or dimmer light (room lamps, a projected overlay over the whole block)
leaves unchanged. Blocks where the comparison means nothing are left out by the caller's mask: units and
hands standing there, edges of projected overlays. A block that stays different for ``confirm_frames``
frames in a row is changed; a hand passing over the table does not stay.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.table_calibration import TableCalibration


@dataclass(frozen=True)
class SandChange:
    """One frame's verdict: ``changed`` once enough blocks stayed different long enough; the share of
    the compared sand that differs, and the changed blocks' centre in camera pixels (None when none)."""

    changed: bool
    changed_fraction: float
    blocks_compared: int
    centre_px: tuple[float, float] | None = None


def _texture(grey: np.ndarray) -> np.ndarray:
    g = grey.astype(np.float32)
    return g - cv2.GaussianBlur(g, (0, 0), 3.0)


class SandChangeWatch:
    """Compare camera frames with the reference frame of the last scan.

    ``block_px``: size of the compared blocks; ``min_correlation``: below it a block differs;
    ``min_fraction``: share of compared blocks that must differ; ``confirm_frames``: for how many frames
    in a row.
    """

    def __init__(self, reference_grey: np.ndarray, *, sand: np.ndarray | None = None, block_px: int = 32,
                 min_correlation: float = 0.5, min_fraction: float = 0.01, confirm_frames: int = 3) -> None:
        ref = np.asarray(reference_grey)
        if ref.ndim == 3:
            ref = cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY)
        if ref.ndim != 2 or min(ref.shape) < 2 * block_px:
            raise CalibrationError("the sand's reference frame is missing or too small; scan the relief again")
        self.shape = ref.shape
        self.block_px = int(block_px)
        self.min_correlation = float(min_correlation)
        self.min_fraction = float(min_fraction)
        self.confirm_frames = int(confirm_frames)
        self._ref = self._blocks(_texture(ref))
        self._ref_energy = np.sqrt(np.sum(self._ref**2, axis=(2, 3)))
        self._streak = np.zeros(self._ref_energy.shape, np.int32)
        # only blocks wholly on the sand: the floor and the table's rim have no grains to compare
        self._sand = np.ones(self._ref_energy.shape, bool)
        if sand is not None:
            self._sand = self._blocks(np.asarray(sand, dtype=np.float32)).min(axis=(2, 3)) > 0

    def _blocks(self, tex: np.ndarray) -> np.ndarray:
        b = self.block_px
        rows, cols = tex.shape[0] // b, tex.shape[1] // b
        return tex[: rows * b, : cols * b].reshape(rows, b, cols, b).transpose(0, 2, 1, 3)

    def check(self, frame: np.ndarray, ignore: np.ndarray | None = None) -> SandChange:
        """Compare one frame (BGR or grey, the reference's size); ``ignore``: True on pixels to leave out
        (units, hands, edges of projected overlays)."""
        g = np.asarray(frame)
        if g.ndim == 3:
            g = cv2.cvtColor(g, cv2.COLOR_BGR2GRAY)
        if g.shape != self.shape:
            raise CalibrationError(f"the frame is {g.shape[1]}x{g.shape[0]}, the scan's reference {self.shape[1]}x{self.shape[0]}")
        cur = self._blocks(_texture(g))
        energy = np.sqrt(np.sum(cur**2, axis=(2, 3)))
        with np.errstate(invalid="ignore", divide="ignore"):
            corr = np.sum(cur * self._ref, axis=(2, 3)) / (energy * self._ref_energy)
        usable = self._sand & (self._ref_energy > 1e-3 * self.block_px) & (energy > 0)
        if ignore is not None:
            usable &= ~self._blocks(np.asarray(ignore, dtype=np.float32)).max(axis=(2, 3)).astype(bool)
        differs = usable & (corr < self.min_correlation)
        self._streak = np.where(differs, self._streak + 1, np.where(usable, 0, self._streak))
        lasting = self._streak >= self.confirm_frames
        compared = int(usable.sum())
        fraction = float(lasting.sum() / compared) if compared else 0.0
        centre = None
        if lasting.any():
            r, c = np.nonzero(lasting)
            centre = (float((c.mean() + 0.5) * self.block_px), float((r.mean() + 0.5) * self.block_px))
        return SandChange(fraction >= self.min_fraction and lasting.sum() >= 2, fraction, compared, centre)


def sand_mask(table: TableCalibration, shape: tuple[int, int], *, inset_in: float = 1.5) -> np.ndarray:
    """True on camera pixels (rows, cols) that see the table's sand, ``inset_in`` inside its edges."""
    w, d = table.layout.width_in, table.layout.depth_in
    t = np.linspace(0.0, 1.0, 40)
    edge = np.concatenate([
        np.column_stack([inset_in + t * (w - 2 * inset_in), np.full_like(t, inset_in)]),
        np.column_stack([np.full_like(t, w - inset_in), inset_in + t * (d - 2 * inset_in)]),
        np.column_stack([w - inset_in - t * (w - 2 * inset_in), np.full_like(t, d - inset_in)]),
        np.column_stack([np.full_like(t, inset_in), d - inset_in - t * (d - 2 * inset_in)]),
    ])
    px = table.camera_from_table(edge, z_in=0.0)
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.rint(px).astype(np.int32)], 1)
    return mask.astype(bool)
