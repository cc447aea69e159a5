"""The lens-calibration board: a grid of tag36h11 tags printed at exact size on one sheet.

Tag ids are chosen from a range no game uses (see ``TAG_ID_RANGES``), so a board left on the table
can never be mistaken for a unit or an anchor. The board frame is like the table's: inches, x to the
right of the printed sheet, y toward its top, origin at the bottom-left corner of the tag grid.

Every tag's four corners are known on the board, so each photo of it gives dozens of exact point
correspondences from which OpenCV's calibrateCamera fits the lens.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.errors import CalibrationError
from calibration.table_layout import tag_corners_in
from calibration.tag_bitmaps import MAX_TAG_ID

#: Which tag36h11 ids are for what. Units may use any id from 10 up to the projector range.
TAG_ID_RANGES = {
    "anchors": (0, 9),
    "units": (10, 399),
    "projector pattern": (400, 499),
    "lens board": (500, 586),
}
BOARD_FIRST_ID = TAG_ID_RANGES["lens board"][0]


@dataclass(frozen=True)
class BoardSpec:
    """A ``cols`` x ``rows`` grid of tags of edge ``tag_size_in`` with ``gap_in`` between them.

    The default (7 x 5 tags of 1", 0.4" apart: 9.4" x 6.6") fits a Letter or A4 sheet in landscape.

    >>> b = BoardSpec()
    >>> b.width_in, b.height_in, b.tag_ids[:3], b.tag_ids[-1]
    (9.4, 6.6, (500, 501, 502), 534)
    """

    cols: int = 7
    rows: int = 5
    tag_size_in: float = 1.0
    gap_in: float = 0.4
    first_id: int = BOARD_FIRST_ID

    def __post_init__(self) -> None:
        if self.cols < 2 or self.rows < 2:
            raise CalibrationError(f"board of {self.cols}x{self.rows} tags: use at least 2x2")
        if not (self.tag_size_in > 0 and self.gap_in > 0):
            raise CalibrationError(f"board tag_size_in={self.tag_size_in}, gap_in={self.gap_in}: both must be positive")
        last = self.first_id + self.cols * self.rows - 1
        if self.first_id < 0 or last > MAX_TAG_ID:
            raise CalibrationError(f"board ids {self.first_id}-{last} leave the tag36h11 family (0-{MAX_TAG_ID})")

    @property
    def pitch_in(self) -> float:
        return self.tag_size_in + self.gap_in

    @property
    def width_in(self) -> float:
        return round(self.cols * self.tag_size_in + (self.cols - 1) * self.gap_in, 9)

    @property
    def height_in(self) -> float:
        return round(self.rows * self.tag_size_in + (self.rows - 1) * self.gap_in, 9)

    @property
    def tag_ids(self) -> tuple[int, ...]:
        """Ids in reading order: left to right, top row first."""
        return tuple(range(self.first_id, self.first_id + self.cols * self.rows))

    def has(self, tag_id: int) -> bool:
        return self.first_id <= tag_id < self.first_id + self.cols * self.rows

    def tag_center_in(self, tag_id: int) -> tuple[float, float]:
        if not self.has(tag_id):
            raise CalibrationError(f"tag {tag_id} is not on this board ({self.first_id}-{self.tag_ids[-1]})")
        k = tag_id - self.first_id
        row, col = divmod(k, self.cols)
        x = col * self.pitch_in + self.tag_size_in / 2
        y = (self.rows - 1 - row) * self.pitch_in + self.tag_size_in / 2
        return x, y

    def corners_in(self, tag_id: int) -> np.ndarray:
        """(4, 3) board-frame corners of a tag (z = 0), in the detector's corner order."""
        xy = tag_corners_in(self.tag_center_in(tag_id), self.tag_size_in, 90.0)
        return np.column_stack([xy, np.zeros(4)])

    def to_dict(self) -> dict[str, float | int]:
        return {"cols": self.cols, "rows": self.rows, "tag_size_in": self.tag_size_in, "gap_in": self.gap_in, "first_id": self.first_id}
