"""The table frame and where the tags are: anchors that register the table, unit tags that ride on models.

Conventions (the README repeats them):

* Table frame: inches, origin at the table corner next to anchor 0, +x toward anchor 1, +y toward
  anchor 3, +z up. Headings in degrees, counter-clockwise from +x.
* Tags: AprilTag family tag36h11. A tag's ``size_in`` is the edge of its black square (the detector's
  ``tag_size``), not of the white margin around it.
* A tag's heading is the direction its printed top edge faces. Seen by a camera that shows the table
  like a map (+x right, +y up), a tag with heading 90 looks upright.
* Anchors 0-3 by default: 2" tags whose centres sit 1.5" in from each corner (0 at the origin corner,
  1 at +x, 2 at +x+y, 3 at +y). Ids 4-9 are reserved for extra anchors given in a layout file. Unit
  tags start at id 10 and are 1" by default.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from calibration.errors import CalibrationError

TAG_FAMILY = "tag36h11"
FIRST_UNIT_TAG_ID = 10
MAX_ANCHOR_TAG_ID = 9
DEFAULT_TABLE_IN = (72.0, 48.0)
#: The longest table side read (about 250 m): beyond it a file is wrong, and areas would overflow.
MAX_TABLE_IN = 10_000.0
DEFAULT_ANCHOR_SIZE_IN = 2.0
DEFAULT_ANCHOR_INSET_IN = 1.5
DEFAULT_UNIT_TAG_SIZE_IN = 1.0


@dataclass(frozen=True)
class AnchorTag:
    """One anchor tag lying flat on the table (z = ``z_in``, usually 0)."""

    tag_id: int
    x_in: float
    y_in: float
    size_in: float = DEFAULT_ANCHOR_SIZE_IN
    heading_deg: float = 90.0
    z_in: float = 0.0

    def corners_in(self) -> np.ndarray:
        """(4, 3) table-frame corners in the detector's corner order."""
        xy = tag_corners_in((self.x_in, self.y_in), self.size_in, self.heading_deg)
        return np.column_stack([xy, np.full(4, self.z_in)])


@dataclass(frozen=True)
class TableLayout:
    """Table size and anchor placement."""

    width_in: float = DEFAULT_TABLE_IN[0]
    depth_in: float = DEFAULT_TABLE_IN[1]
    anchors: tuple[AnchorTag, ...] = field(default=())
    unit_tag_size_in: float = DEFAULT_UNIT_TAG_SIZE_IN

    def __post_init__(self) -> None:
        if not (self.width_in > 0 and self.depth_in > 0):
            raise CalibrationError(f"table size {self.width_in}x{self.depth_in} in: both must be positive")
        if not (self.width_in <= MAX_TABLE_IN and self.depth_in <= MAX_TABLE_IN):
            raise CalibrationError(f"table size {self.width_in:g}x{self.depth_in:g} in: at most {MAX_TABLE_IN:g} in a side; "
                                   "give the table's size in inches")
        ids = [a.tag_id for a in self.anchors]
        if len(set(ids)) != len(ids):
            raise CalibrationError(f"anchor ids repeat in the layout: {sorted(ids)}; give each anchor its own id")
        for a in self.anchors:
            if not all(math.isfinite(v) and abs(v) <= 2 * MAX_TABLE_IN for v in (a.x_in, a.y_in, a.z_in, a.size_in, a.heading_deg)):
                raise CalibrationError(f"anchor {a.tag_id} at ({a.x_in:g}, {a.y_in:g}, {a.z_in:g}) in, size {a.size_in:g} in, "
                                       f"heading {a.heading_deg:g} deg: every number must lie within +-{2 * MAX_TABLE_IN:g}")
            if not 0 <= a.tag_id <= MAX_ANCHOR_TAG_ID:
                raise CalibrationError(
                    f"anchor id {a.tag_id} is outside 0-{MAX_ANCHOR_TAG_ID}; unit tags start at {FIRST_UNIT_TAG_ID}"
                )

    @classmethod
    def default(cls, width_in: float = DEFAULT_TABLE_IN[0], depth_in: float = DEFAULT_TABLE_IN[1]) -> "TableLayout":
        """Four 2" anchors 1.5" in from the corners of a ``width_in`` x ``depth_in`` table."""
        inset = DEFAULT_ANCHOR_INSET_IN
        spots = [(inset, inset), (width_in - inset, inset), (width_in - inset, depth_in - inset), (inset, depth_in - inset)]
        anchors = tuple(AnchorTag(i, x, y) for i, (x, y) in enumerate(spots))
        return cls(width_in=width_in, depth_in=depth_in, anchors=anchors)

    def anchor(self, tag_id: int) -> AnchorTag | None:
        for a in self.anchors:
            if a.tag_id == tag_id:
                return a
        return None

    @property
    def anchor_ids(self) -> frozenset[int]:
        return frozenset(a.tag_id for a in self.anchors)

    def unknown_anchor_ids(self, tag_ids: Iterable[int]) -> tuple[int, ...]:
        """Anchor ids (0-9) among ``tag_ids`` that this layout does not place: a sign the table was laid
        out from another layout file (a camera calibrated without ``--layout`` would register in the
        wrong table frame from the anchors it does know).

        >>> TableLayout.default().unknown_anchor_ids([0, 1, 4, 5, 12])
        (4, 5)
        """
        known = self.anchor_ids
        return tuple(sorted({int(t) for t in tag_ids if is_anchor_id(int(t)) and int(t) not in known}))


def is_anchor_id(tag_id: int) -> bool:
    return 0 <= tag_id <= MAX_ANCHOR_TAG_ID


def tag_corners_in(center_xy_in: tuple[float, float], size_in: float, heading_deg: float) -> np.ndarray:
    """(4, 2) corners of a flat tag, in the order pupil-apriltags reports them.

    In the tag's own frame (u to the right of the printed image, v toward its top edge) the detector
    returns top-right, top-left, bottom-left, bottom-right; the tag frame is then turned so that +v
    faces ``heading_deg``.

    >>> tag_corners_in((0.0, 0.0), 2.0, 90.0).round(6).tolist()
    [[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]]
    """
    h = size_in / 2.0
    local = np.array([[h, h], [-h, h], [-h, -h], [h, -h]])
    a = math.radians(heading_deg - 90.0)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return local @ rot.T + np.asarray(center_xy_in, dtype=np.float64)


def heading_from_corners_in(corners_in: np.ndarray) -> float:
    """Heading (degrees in [0, 360)) of a tag from its four table-frame corners in detector order."""
    c = np.asarray(corners_in, dtype=np.float64)[:, :2]
    top = (c[0] + c[1]) / 2.0
    bottom = (c[2] + c[3]) / 2.0
    d = top - bottom
    return math.degrees(math.atan2(d[1], d[0])) % 360.0
