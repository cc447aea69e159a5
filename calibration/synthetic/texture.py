"""The look of the synthetic sand table: a seeded sand texture, the floor around it, and hill shading."""
from __future__ import annotations

import cv2
import numpy as np

#: Texture resolution on the table, pixels per inch (the floor around it is coarser).
TEXTURE_PX_PER_IN = 20.0
FLOOR_PX_PER_IN = 2.0
#: How far the floor reaches past the table edges, inches (beyond: the same colour, smeared).
FLOOR_MARGIN_IN = 120.0
_TABLE_MARGIN_IN = 1.0

SAND_BGR = np.array([112.0, 168.0, 204.0])
FLOOR_BGR = np.array([62.0, 72.0, 84.0])
RIM_BGR = np.array([40.0, 60.0, 88.0])
RIM_IN = 0.75
#: Sunlight direction for shading hills and the sides of unit blocks (unit vector, table frame).
LIGHT_DIR = np.array([-0.35, 0.45, 0.82]) / np.linalg.norm([-0.35, 0.45, 0.82])
AMBIENT = 0.25


def _value_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    coarse = rng.standard_normal((cells[1] + 1, cells[0] + 1)).astype(np.float32)
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


class TableLook:
    """The colours of the sand table and the floor around it, for any table points.

    Seeded: the same ``seed`` gives the same sand. The table occupies [0, width_in] x [0, depth_in] and
    a dark rim marks its edge.
    """

    def __init__(self, width_in: float, depth_in: float, *, seed: int) -> None:
        rng = np.random.default_rng([seed, 7919])
        self.width_in, self.depth_in = float(width_in), float(depth_in)
        ppi, m = TEXTURE_PX_PER_IN, _TABLE_MARGIN_IN
        w = int(np.ceil((width_in + 2 * m) * ppi))
        h = int(np.ceil((depth_in + 2 * m) * ppi))
        # Sand: broad dunes of colour plus finer ripples and grain, smooth enough to look like sand at
        # camera resolution and rough enough that the table is not one flat colour.
        tone = (
            0.05 * _value_noise(rng, (h, w), (max(2, w // 200), max(2, h // 200)))
            + 0.04 * _value_noise(rng, (h, w), (max(2, w // 40), max(2, h // 40)))
            + 0.03 * _value_noise(rng, (h, w), (max(2, w // 7), max(2, h // 7)))
            + 0.035 * rng.standard_normal((h, w), dtype=np.float32)
        )
        x = (np.arange(w, dtype=np.float32) + 0.5) / ppi - m
        y = (np.arange(h, dtype=np.float32) + 0.5) / ppi - m
        rim = (
            (x[None, :] < RIM_IN) | (x[None, :] > width_in - RIM_IN) | (y[:, None] < RIM_IN) | (y[:, None] > depth_in - RIM_IN)
        )
        base = np.where(rim[:, :, None], RIM_BGR.astype(np.float32), SAND_BGR.astype(np.float32))
        self._table = (base * (1.0 + tone)[:, :, None]).astype(np.float32)
        fw = int(np.ceil((width_in + 2 * FLOOR_MARGIN_IN) * FLOOR_PX_PER_IN))
        fh = int(np.ceil((depth_in + 2 * FLOOR_MARGIN_IN) * FLOOR_PX_PER_IN))
        ftone = 0.08 * _value_noise(rng, (fh, fw), (max(2, fw // 30), max(2, fh // 30)))
        self._floor = (FLOOR_BGR.astype(np.float32) * (1.0 + ftone)[:, :, None]).astype(np.float32)

    def sample(self, x_in: np.ndarray, y_in: np.ndarray) -> np.ndarray:
        """BGR float32 colours at table points (float32 arrays of any 2-D shape)."""
        ppi, m = TEXTURE_PX_PER_IN, _TABLE_MARGIN_IN
        colour = cv2.remap(
            self._table, (x_in + m) * ppi - 0.5, (y_in + m) * ppi - 0.5, cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        off = (x_in < 0) | (x_in > self.width_in) | (y_in < 0) | (y_in > self.depth_in)
        if np.any(off):
            fppi, fm = FLOOR_PX_PER_IN, FLOOR_MARGIN_IN
            floor = cv2.remap(
                self._floor, (x_in + fm) * fppi - 0.5, (y_in + fm) * fppi - 0.5, cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
            colour[off] = floor[off]
        return colour


def shading(normal_x: np.ndarray | float, normal_y: np.ndarray | float, normal_z: np.ndarray | float) -> np.ndarray:
    """Brightness of a matte surface with the given normal, relative to the flat table (1.0)."""
    lam = normal_x * LIGHT_DIR[0] + normal_y * LIGHT_DIR[1] + normal_z * LIGHT_DIR[2]
    flat = AMBIENT + (1 - AMBIENT) * LIGHT_DIR[2]
    return (AMBIENT + (1 - AMBIENT) * np.maximum(lam, 0.0)) / flat
