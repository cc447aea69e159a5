"""Projector calibration: where on the table each projector pixel lands, and back.

The projector shows a grid of AprilTags (ids 400-499, a range no anchor, unit or lens board uses)
full-screen; the camera, already registered to the table, sees them on the table. Every tag corner
is then known twice: in projector pixels (where it was drawn) and in table inches (where the camera
saw it land). A homography fitted to all of them, with outliers (a corner on a miniature, a
reflection) rejected, is the mapping table inches -> projector pixels; its error is reported in
inches. Overlays drawn through ``projector_from_table`` land where the rules put them.

The core, :func:`calibrate_projector`, is a pure function of the pattern, the detections and the
table calibration; the GUI shows the pattern on a real projector, the command line works from a photo.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.board import TAG_ID_RANGES
from calibration.errors import CalibrationError, ProjectorCalibrationError
from calibration.files import PROJECTOR_FORMAT, VERSION, _guard, _now, read_calibration_json, write_json_atomically
from calibration.table_calibration import TableCalibration
from calibration.tag_bitmaps import TAG_CELLS
from calibration.terrain import Terrain

PATTERN_FIRST_ID = TAG_ID_RANGES["projector pattern"][0]
PATTERN_LAST_ID = TAG_ID_RANGES["projector pattern"][1]
MIN_PATTERN_TAGS = 4


@dataclass(frozen=True)
class ProjectorPattern:
    """A grid of ``cols`` x ``rows`` tags drawn on a ``width_px`` x ``height_px`` projector image.

    Tags are black on white (white light makes the table bright around them), ``tag_px`` pixels
    across (a multiple of 8, so each cell is whole pixels), centred in equal grid cells.

    >>> p = ProjectorPattern(1280, 720)
    >>> p.tag_ids[0], p.tag_ids[-1], p.tag_px
    (400, 439, 80)
    """

    width_px: int
    height_px: int
    cols: int = 8
    rows: int = 5
    first_id: int = PATTERN_FIRST_ID

    def __post_init__(self) -> None:
        if self.width_px < 64 or self.height_px < 64:
            raise CalibrationError(f"projector size {self.width_px}x{self.height_px} px is too small for a pattern")
        if self.cols < 2 or self.rows < 2:
            raise CalibrationError(f"pattern of {self.cols}x{self.rows} tags: use at least 2x2")
        if self.first_id < PATTERN_FIRST_ID or self.first_id + self.cols * self.rows - 1 > PATTERN_LAST_ID:
            raise CalibrationError(f"pattern ids must stay within {PATTERN_FIRST_ID}-{PATTERN_LAST_ID}")
        if self.tag_px < 16:
            raise CalibrationError(
                f"{self.cols}x{self.rows} tags on {self.width_px}x{self.height_px} px leaves {self.tag_px} px per tag; use fewer tags"
            )

    @property
    def cell_px(self) -> tuple[float, float]:
        return self.width_px / self.cols, self.height_px / self.rows

    @property
    def tag_px(self) -> int:
        """Edge of each tag's black square, pixels: 60% of the smaller grid cell, rounded down to 8s."""
        return int(0.6 * min(self.cell_px) // TAG_CELLS * TAG_CELLS)

    @property
    def tag_ids(self) -> tuple[int, ...]:
        return tuple(range(self.first_id, self.first_id + self.cols * self.rows))

    def has(self, tag_id: int) -> bool:
        return self.first_id <= tag_id < self.first_id + self.cols * self.rows

    def _origin(self, tag_id: int) -> tuple[int, int]:
        k = tag_id - self.first_id
        row, col = divmod(k, self.cols)
        cw, ch = self.cell_px
        x0 = int(round(col * cw + (cw - self.tag_px) / 2))
        y0 = int(round(row * ch + (ch - self.tag_px) / 2))
        return x0, y0

    def corners_px(self, tag_id: int) -> np.ndarray:
        """(4, 2) projector-pixel corners of a tag's black square in detector order, OpenCV convention
        (the square covers pixel columns x0..x0+size-1, so its edges are half a pixel outside)."""
        if not self.has(tag_id):
            raise CalibrationError(f"tag {tag_id} is not in this pattern ({self.first_id}-{self.tag_ids[-1]})")
        x0, y0 = self._origin(tag_id)
        s = self.tag_px
        left, right, top, bottom = x0 - 0.5, x0 + s - 0.5, y0 - 0.5, y0 + s - 0.5
        return np.array([[right, top], [left, top], [left, bottom], [right, bottom]], dtype=np.float64)

    def image(self) -> np.ndarray:
        """The pattern as a (height, width) uint8 image: white, with black-bordered tags."""
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
        img = np.full((self.height_px, self.width_px), 255, np.uint8)
        for tag_id in self.tag_ids:
            x0, y0 = self._origin(tag_id)
            tag = cv2.aruco.generateImageMarker(dictionary, tag_id, self.tag_px, borderBits=1)
            img[y0 : y0 + self.tag_px, x0 : x0 + self.tag_px] = tag
        return img


@dataclass(frozen=True, eq=False)
class ProjectorCalibration:
    """Table inches <-> projector pixels on the table plane, with how well it fits.

    ``homography``: 3x3, projector pixels (OpenCV convention) from table inches (x, y, 1).
    ``residual_in`` / ``max_residual_in``: RMS / largest distance (inches) between where pattern
    corners were seen on the table and where the mapping puts them.
    """

    width_px: int
    height_px: int
    homography: np.ndarray = field(repr=False)
    residual_in: float
    max_residual_in: float
    points_used: int
    points_rejected: int = 0
    tags_seen: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        h = np.asarray(self.homography, dtype=np.float64)
        if h.shape != (3, 3) or not np.all(np.isfinite(h)) or abs(np.linalg.det(h)) < 1e-18:
            raise CalibrationError("projector homography must be a finite, invertible 3x3 matrix")
        object.__setattr__(self, "homography", h)

    def projector_from_table(self, points_in: np.ndarray) -> np.ndarray:
        """Projector pixels (N, 2) where table points (N, 2) inches are lit.

        >>> cal = ProjectorCalibration(1280, 720, np.diag([10.0, 10.0, 1.0]), 0.0, 0.0, 16)
        >>> cal.projector_from_table(np.array([[3.0, 4.0]])).tolist()
        [[30.0, 40.0]]
        """
        return _apply(self.homography, points_in)

    def table_from_projector(self, pixels: np.ndarray) -> np.ndarray:
        """Table inches (N, 2) lit by projector pixels (N, 2)."""
        return _apply(np.linalg.inv(self.homography), pixels)

    def px_per_in_at(self, x_in: float, y_in: float) -> float:
        """How many projector pixels one table inch spans around a point (for line widths, text)."""
        p = self.projector_from_table(np.array([[x_in, y_in], [x_in + 1.0, y_in], [x_in, y_in + 1.0]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)

    def summary(self) -> str:
        return (
            f"projector {self.width_px}x{self.height_px}: {self.points_used} pattern corners from {len(self.tags_seen)} tags, "
            f"error {self.residual_in:.3f} in RMS, {self.max_residual_in:.3f} in max"
            + (f"; {self.points_rejected} stray corners ignored" if self.points_rejected else "")
        )


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ h.T
    return q[:, :2] / q[:, 2:3]


def calibrate_projector(
    pattern: ProjectorPattern,
    tag_ids: np.ndarray,
    corners_px: np.ndarray,
    table: TableCalibration,
    *,
    terrain: Terrain | None = None,
    outlier_in: float = 0.25,
) -> ProjectorCalibration:
    """The projector's mapping from the pattern tags the camera saw on the table.

    ``tag_ids`` / ``corners_px``: the camera frame's detections (other tags are ignored). Corners are
    mapped to the table through ``table`` at the ground's height (``terrain``, or the table plane).
    """
    ids = np.asarray(tag_ids).reshape(-1)
    corners = np.asarray(corners_px, dtype=np.float64).reshape(-1, 4, 2)
    keep = [k for k, t in enumerate(ids.tolist()) if pattern.has(int(t))]
    seen_ids = [int(ids[k]) for k in keep]
    if len(set(seen_ids)) != len(seen_ids):
        dup = sorted({t for t in seen_ids if seen_ids.count(t) > 1})
        raise ProjectorCalibrationError(f"pattern tag(s) {dup} seen twice; is a printed copy lying on the table?")
    if len(keep) < MIN_PATTERN_TAGS:
        raise ProjectorCalibrationError(
            f"the camera saw {len(keep)} of the {len(pattern.tag_ids)} projected pattern tags (need {MIN_PATTERN_TAGS}); "
            "dim the room, focus the projector and check that the camera sees the projected area"
        )
    cam_px = corners[keep].reshape(-1, 2)
    proj_px = np.concatenate([pattern.corners_px(t) for t in seen_ids])
    table_xy = _ground_points(table, cam_px, terrain)
    # corners that fall off the table edge land on the floor, far below: not on the table plane
    w, d = table.layout.width_in, table.layout.depth_in
    ok = np.all(np.isfinite(table_xy), axis=1)
    ok &= (table_xy[:, 0] > -0.5) & (table_xy[:, 0] < w + 0.5) & (table_xy[:, 1] > -0.5) & (table_xy[:, 1] < d + 0.5)
    table_xy, proj_px = table_xy[ok], proj_px[ok]
    if len(table_xy) < 4 * MIN_PATTERN_TAGS:
        raise ProjectorCalibrationError("too few pattern corners land on the table; aim the projector at the table")
    # Robust first fit (a corner falling on a miniature lands elsewhere), then least squares on the rest.
    h, mask = cv2.findHomography(table_xy, proj_px, cv2.LMEDS)
    if h is None:
        raise ProjectorCalibrationError("the pattern corners do not fit a projector mapping; is the pattern on the table?")
    inv = np.linalg.inv(h)
    err = np.linalg.norm(_apply(inv, proj_px) - table_xy, axis=1)
    inliers = err < max(outlier_in, 4.0 * float(np.median(err)))
    h, _ = cv2.findHomography(table_xy[inliers], proj_px[inliers], 0)
    err = np.linalg.norm(_apply(np.linalg.inv(h), proj_px[inliers]) - table_xy[inliers], axis=1)
    return ProjectorCalibration(
        width_px=pattern.width_px,
        height_px=pattern.height_px,
        homography=h / h[2, 2],
        residual_in=float(np.sqrt(np.mean(err**2))),
        max_residual_in=float(err.max()),
        points_used=int(inliers.sum()),
        points_rejected=int((~inliers).sum() + (~ok).sum()),
        tags_seen=tuple(sorted(seen_ids)),
    )


def _ground_points(table: TableCalibration, pixels: np.ndarray, terrain: Terrain | None) -> np.ndarray:
    """Where camera pixels meet the ground (terrain or the table plane), table inches."""
    if terrain is None or terrain.is_flat or not table.height_aware:
        return table.table_from_camera(pixels, z_in=0.0)
    z = np.zeros(len(pixels))
    xy = table.table_from_camera(pixels, z_in=z)
    for _ in range(40):
        z_next = 0.5 * z + 0.5 * terrain.height_at(xy[:, 0], xy[:, 1])
        xy = table.table_from_camera(pixels, z_in=z_next)
        if np.nanmax(np.abs(z_next - z), initial=0.0) < 1e-5:
            break
        z = z_next
    return xy


# ---------------------------------------------------------------------------------- files
def save_projector_calibration(cal: ProjectorCalibration, path: str | Path) -> None:
    write_json_atomically(
        path,
        {
            "format": PROJECTOR_FORMAT,
            "version": VERSION,
            "created_utc": _now(),
            "width_px": cal.width_px,
            "height_px": cal.height_px,
            "projector_from_table": cal.homography.tolist(),
            "residual_in": cal.residual_in,
            "max_residual_in": cal.max_residual_in,
            "points_used": cal.points_used,
            "points_rejected": cal.points_rejected,
            "tags_seen": list(cal.tags_seen),
        },
    )


def load_projector_calibration(path: str | Path) -> ProjectorCalibration:
    f = read_calibration_json(path, PROJECTOR_FORMAT)

    def build() -> ProjectorCalibration:
        raw = f.data.get("projector_from_table")
        try:
            h = np.array(raw, dtype=np.float64)
        except (TypeError, ValueError):
            raise f.fail("projector_from_table", "must be a 3x3 list of numbers") from None
        if h.shape != (3, 3) or not np.all(np.isfinite(h)):
            raise f.fail("projector_from_table", "must be a 3x3 list of numbers")
        tags = f.data.get("tags_seen", [])
        if not isinstance(tags, list) or any(isinstance(t, bool) or not isinstance(t, int) for t in tags):
            raise f.fail("tags_seen", "must be a list of tag ids")
        return ProjectorCalibration(
            width_px=f.integer("width_px", minimum=1),
            height_px=f.integer("height_px", minimum=1),
            homography=h,
            residual_in=f.number("residual_in", minimum=0),
            max_residual_in=f.number("max_residual_in", minimum=0),
            points_used=f.integer("points_used", minimum=0),
            points_rejected=f.integer("points_rejected", 0, minimum=0),
            tags_seen=tuple(tags),
        )

    return _guard(path, PROJECTOR_FORMAT, build)


__all__ = [
    "ProjectorCalibration",
    "ProjectorCalibrationError",
    "ProjectorPattern",
    "calibrate_projector",
    "load_projector_calibration",
    "save_projector_calibration",
]
