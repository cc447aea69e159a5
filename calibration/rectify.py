"""The camera picture resampled onto the table: a map-like image of the table plane, lens distortion removed.

Three coordinate spaces meet here: camera pixels (distorted, OpenCV's convention: pixel centres at
integers), table inches (+x along the width, +y toward the far edge) and rectified pixels: column
``c``, row ``r`` of the rectified image, ``px_per_in`` to the inch, row 0 at the table's far edge
(y = depth) so the picture reads like a map. Rectified pixel centres are at integers too: pixel
(c, r) shows the table point ((c + 0.5) / px_per_in, depth - (r + 0.5) / px_per_in).

The remap tables depend only on the calibration and the table's size; a caller that rectifies every
frame (the top-down view) keeps them and passes them to :func:`rectify`.

>>> table_from_rectified(np.array([[0.0, 0.0]]), (72.0, 48.0), px_per_in=10.0)
array([[ 0.05, 47.95]])
>>> rectified_size_px((72.0, 48.0), px_per_in=10.0)
(720, 480)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from calibration.errors import CalibrationError

#: Resolution of the rectified camera picture (the top-down view's background), pixels per table inch.
RECTIFIED_PX_PER_IN = 10.0


class CameraFromTable(Protocol):
    """What rectifying needs of a calibration (a :class:`~calibration.table_calibration.TableCalibration`)."""

    def camera_from_table(self, points_in: np.ndarray, *, z_in: float | np.ndarray = 0.0) -> np.ndarray: ...


@dataclass(frozen=True, eq=False)
class RectifyMaps:
    """Camera pixel (x, y) sampled at every rectified pixel: ``cv2.remap``'s tables, float32 (rows, cols)."""

    map_x_px: np.ndarray
    map_y_px: np.ndarray
    table_size_in: tuple[float, float]
    px_per_in: float

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) of the rectified image."""
        rows, cols = self.map_x_px.shape
        return int(cols), int(rows)


def rectified_size_px(table_size_in: tuple[float, float], *, px_per_in: float = RECTIFIED_PX_PER_IN) -> tuple[int, int]:
    """(width, height) in pixels of the rectified picture of a table ``table_size_in`` (width, depth)."""
    w_in, d_in = table_size_in
    if not (w_in > 0 and d_in > 0 and px_per_in > 0):
        raise CalibrationError(f"table size {table_size_in} in at {px_per_in} px/in: all must be above zero")
    return round(w_in * px_per_in), round(d_in * px_per_in)


def table_from_rectified(pixels: np.ndarray, table_size_in: tuple[float, float], *,
                         px_per_in: float = RECTIFIED_PX_PER_IN) -> np.ndarray:
    """Table inches (N, 2) of rectified pixels (N, 2) (column, row; centres at integers)."""
    px = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
    return np.column_stack([(px[:, 0] + 0.5) / px_per_in, table_size_in[1] - (px[:, 1] + 0.5) / px_per_in])


def rectified_from_table(points_in: np.ndarray, table_size_in: tuple[float, float], *,
                         px_per_in: float = RECTIFIED_PX_PER_IN) -> np.ndarray:
    """Rectified pixels (N, 2) of table points (N, 2): the inverse of :func:`table_from_rectified`."""
    pts = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
    return np.column_stack([pts[:, 0] * px_per_in - 0.5, (table_size_in[1] - pts[:, 1]) * px_per_in - 0.5])


def rectify_maps(calibration: CameraFromTable, table_size_in: tuple[float, float], *,
                 px_per_in: float = RECTIFIED_PX_PER_IN) -> RectifyMaps:
    """The remap tables taking ``calibration``'s camera picture onto the table plane (z = 0)."""
    cols, rows = rectified_size_px(table_size_in, px_per_in=px_per_in)
    gc, gr = np.meshgrid(np.arange(cols, dtype=np.float64), np.arange(rows, dtype=np.float64))
    table = table_from_rectified(np.column_stack([gc.ravel(), gr.ravel()]), table_size_in, px_per_in=px_per_in)
    px = np.asarray(calibration.camera_from_table(table), dtype=np.float64)
    map_x = px[:, 0].reshape(rows, cols).astype(np.float32)
    map_y = px[:, 1].reshape(rows, cols).astype(np.float32)
    # read-only: the maps are shared by every frame (and thread) that rectifies with them
    map_x.setflags(write=False)
    map_y.setflags(write=False)
    return RectifyMaps(map_x, map_y, (float(table_size_in[0]), float(table_size_in[1])), float(px_per_in))


def rectify(frame_bgr: np.ndarray, maps: RectifyMaps) -> np.ndarray:
    """``frame_bgr`` resampled onto the table plane (bilinear; black outside the camera's view)."""
    out: np.ndarray = cv2.remap(frame_bgr, maps.map_x_px, maps.map_y_px, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT)
    return out
