"""A unit's pose as the tracker reports it, and how it is measured from a tag's corners.

Positions are table inches (calibrated) at the height of the tag: the unit's base height above the
ground it stands on, plus the terrain's height there. Since the terrain height depends on where the
unit is, the mapping alternates "xy at height z" and "z at xy" a few times (it converges at once on
gentle slopes).
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np


class UnitState(str, enum.Enum):
    SEEN = "seen"  # its tag is in view (or was, within the last ``stale_after_s``)
    STALE = "stale"  # hidden (a hand over it); the pose is the last known one
    LOST = "lost"  # hidden for longer than ``lost_after_s``
    LIFTED = "lifted"  # taken off the table (boarded a vehicle, removed as a casualty)


@dataclass(frozen=True)
class UnitPose:
    """Where one unit stands and faces, at time ``t_s``.

    ``x_in``, ``y_in``, ``z_in`` are table inches (``z_in`` is the tag's height: terrain + base);
    ``heading_deg`` is the unit's front (tag heading + the roster's facing offset), counter-clockwise
    from +x. Uncalibrated, the table fields are None and the pose is in the image: ``center_px`` and a
    heading measured with the image's y axis pointing up. ``moved_this_turn_in`` is the path length
    since the last :meth:`UnitTracker.start_turn` (filtered poses, so a still unit accumulates nothing);
    ``turned_this_turn_deg`` the total rotation.

    ``last_seen_t_s`` is when the tag was last measured. A pose whose tag was not measured in this
    frame (``measured`` False: a detector miss bridged as ``seen``, or a stale, lost or lifted unit) is
    *held* at its last measured place, never extrapolated: the rules must not take it as a fresh
    measurement of a move, and every output (``--jsonl``, the recording, TUIO, the window) says so.
    """

    tag_id: int
    name: str
    side: str
    x_in: float | None
    y_in: float | None
    z_in: float | None
    heading_deg: float
    state: UnitState
    t_s: float
    moved_this_turn_in: float | None
    turned_this_turn_deg: float = 0.0
    #: Not given: measured at ``t_s`` (a pose made by hand or by a script is a measurement, not a held one).
    last_seen_t_s: float = math.nan
    moving: bool = False
    conflict: bool = False
    center_px: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if math.isnan(self.last_seen_t_s):
            object.__setattr__(self, "last_seen_t_s", self.t_s)  # frozen: set once, as built

    @property
    def calibrated(self) -> bool:
        return self.x_in is not None

    @property
    def measured(self) -> bool:
        """Whether this pose was measured in its own frame (its tag was seen at ``t_s``); False: held."""
        return self.last_seen_t_s >= self.t_s and self.state is UnitState.SEEN

    @property
    def held(self) -> bool:
        """Reported at its last measured place, not measured in this frame (the opposite of ``measured``)."""
        return not self.measured

    @property
    def last_measured_t_s(self) -> float:
        """When its tag was last measured (the name the outputs use for ``last_seen_t_s``)."""
        return self.last_seen_t_s

    @property
    def moved_this_turn(self) -> bool:
        """Whether the unit moved this turn (beyond the filter's deadband): the rules' "did it move?"."""
        return self.moved_this_turn_in is not None and self.moved_this_turn_in > 0.0

    def to_json(self) -> dict[str, Any]:
        """The shape ``sandtable track --jsonl`` prints for each unit."""
        out: dict[str, Any] = {"tag_id": self.tag_id, "name": self.name}
        if self.side:
            out["side"] = self.side
        if self.calibrated:
            out["x_in"] = round(float(self.x_in), 3)  # type: ignore[arg-type]  # calibrated means x_in, y_in and z_in are set
            out["y_in"] = round(float(self.y_in), 3)  # type: ignore[arg-type]  # calibrated means x_in, y_in and z_in are set
            out["z_in"] = round(float(self.z_in), 3)  # type: ignore[arg-type]  # calibrated means x_in, y_in and z_in are set
        else:
            out["center_px"] = [round(self.center_px[0], 2), round(self.center_px[1], 2)]
        out["heading_deg"] = round(self.heading_deg, 2)
        out["state"] = self.state.value
        # A held pose is its last measurement, not this frame's: say so and since when.
        out["measured"] = self.measured
        if not out["measured"]:
            out["last_measured_t_s"] = round(self.last_seen_t_s, 4)
        if self.moved_this_turn_in is not None:
            out["moved_this_turn_in"] = round(self.moved_this_turn_in, 3)
        if self.moving:
            out["moving"] = True
        if self.conflict:
            out["conflict"] = True
        return out


_FIELD_NAMES = frozenset(UnitPose.__dataclass_fields__)


def unit_pose_from_fields(fields: dict[str, Any]) -> UnitPose:
    """The :class:`UnitPose` with these fields (every one of them, by name), made without calling the
    frozen dataclass's generated ``__init__``: the tracker makes one per unit per frame, and setting
    fifteen fields one by one through ``object.__setattr__`` costs three times as much. Still frozen.

    >>> f = dict(tag_id=11, name="a", side="", x_in=1.0, y_in=2.0, z_in=0.0, heading_deg=90.0,
    ...          state=UnitState.SEEN, t_s=0.5, moved_this_turn_in=0.0, turned_this_turn_deg=0.0,
    ...          last_seen_t_s=0.5, moving=False, conflict=False, center_px=(3.0, 4.0))
    >>> unit_pose_from_fields(f) == UnitPose(**f)
    True
    """
    if __debug__ and fields.keys() != _FIELD_NAMES:
        raise TypeError(f"UnitPose fields missing or unknown: {sorted(fields.keys() ^ _FIELD_NAMES)}")
    pose = object.__new__(UnitPose)
    pose.__dict__.update(fields)
    return pose


class TableMapping(Protocol):
    """What the tracker needs of a table calibration (``calibration.table_calibration.TableCalibration``)."""

    def table_from_camera(self, pixels: np.ndarray, *, z_in: float | np.ndarray = 0.0) -> np.ndarray: ...


class HeightMap(Protocol):
    """Terrain heights (``calibration.terrain.Terrain``): table inches in, inches above the table out."""

    def height_at(self, x_in: Any, y_in: Any) -> Any: ...


def heading_from_corners(corners: np.ndarray) -> float:
    """Heading (deg, [0, 360)) of a tag from four corners in detector order in a y-up frame.

    >>> heading_from_corners(np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]]))
    90.0
    """
    c = np.asarray(corners, dtype=np.float64)
    top = (c[0] + c[1]) / 2.0
    bottom = (c[2] + c[3]) / 2.0
    d = top - bottom
    return math.degrees(math.atan2(d[1], d[0])) % 360.0


def image_pose(corners_px: np.ndarray) -> tuple[float, float, float]:
    """(x_px, y_px, heading_deg) of a tag in the image, heading measured with image y pointing up.

    >>> image_pose(np.array([[11.0, 9.0], [9.0, 9.0], [9.0, 11.0], [11.0, 11.0]]))
    (10.0, 10.0, 90.0)
    """
    c = np.asarray(corners_px, dtype=np.float64)
    x, y = image_centre(c)
    flipped = c * np.array([1.0, -1.0])
    return x, y, heading_from_corners(flipped)


def image_centre(corners_px: np.ndarray) -> tuple[float, float]:
    """Where the tag's centre is in the image: its diagonals' crossing, as the detectors report it.

    Perspective maps the square's centre to the crossing of its diagonals, not to the corners' mean: on a
    tag seen at a slant the mean is off by up to a pixel or two, the whole of the centre's error against
    the detector on tilted real footage. A degenerate quad (parallel diagonals) falls back to the mean.

    >>> image_centre(np.array([[0.0, 0.0], [4.0, 0.0], [3.0, 2.0], [1.0, 2.0]]))
    (2.0, 1.3333333333333333)
    """
    c = np.asarray(corners_px, dtype=np.float64)
    d1, d2 = c[2] - c[0], c[3] - c[1]
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-9 * max(1.0, float(np.dot(d1, d1) + np.dot(d2, d2))):
        m = c.mean(axis=0)
        return float(m[0]), float(m[1])
    w = c[1] - c[0]
    s = (w[0] * d2[1] - w[1] * d2[0]) / denom
    return float(c[0][0] + s * d1[0]), float(c[0][1] + s * d1[1])


def table_pose(
    corners_px: np.ndarray,
    mapping: TableMapping,
    *,
    base_height_in: float,
    terrain: HeightMap | None = None,
    iterations: int = 3,
) -> tuple[float, float, float, float]:
    """(x_in, y_in, z_in, tag_heading_deg) of a tag lying flat at ``base_height_in`` above the terrain.

    The centre is the mean of the four corners mapped to the table (exact for a flat square, unlike
    the image centre, which perspective shifts).
    """
    z = float(base_height_in)
    if terrain is not None:
        guess = mapping.table_from_camera(np.asarray(corners_px, dtype=np.float64), z_in=z).mean(axis=0)
        for _ in range(iterations):
            z = float(base_height_in + float(np.asarray(terrain.height_at(guess[0], guess[1]))))
            guess = mapping.table_from_camera(np.asarray(corners_px, dtype=np.float64), z_in=z).mean(axis=0)
    table = mapping.table_from_camera(np.asarray(corners_px, dtype=np.float64), z_in=z)
    if not np.all(np.isfinite(table)):
        raise ValueError("tag corners do not reach the table plane (calibration does not fit this camera)")
    centre = table.mean(axis=0)
    return float(centre[0]), float(centre[1]), z, heading_from_corners(table)


def table_corners(
    corners_px: np.ndarray,
    mapping: TableMapping,
    *,
    base_heights_in: np.ndarray,
    terrain: HeightMap | None = None,
    iterations: int = 3,
) -> tuple[np.ndarray, np.ndarray]:
    """N tags' corners on the table, (N, 4, 2) inches, and their heights z_in (N,): each tag lies flat
    ``base_heights_in`` above the terrain where it stands (NaN corners where a ray misses)."""
    corners = np.asarray(corners_px, dtype=np.float64).reshape(-1, 4, 2)
    n = len(corners)
    flat = corners.reshape(-1, 2)
    z = base = np.array(base_heights_in, dtype=np.float64).reshape(n)  # a copy; never changed in place
    if n == 0:
        return np.zeros((0, 4, 2)), z
    if terrain is not None:
        for _ in range(iterations):
            table = mapping.table_from_camera(flat, z_in=np.repeat(z, 4)).reshape(n, 4, 2)
            guess = table.mean(axis=1)
            before, z = z, base + np.asarray(terrain.height_at(guess[:, 0], guess[:, 1]), dtype=np.float64).reshape(n)
            if np.array_equal(z, before):
                return table, z  # converged exactly (flat ground at once): more rounds would repeat this one
    return mapping.table_from_camera(flat, z_in=np.repeat(z, 4)).reshape(n, 4, 2), z


def poses_from_table_corners(table: np.ndarray, z_in: np.ndarray) -> np.ndarray:
    """(N, 4) rows of x_in, y_in, z_in, tag_heading_deg from (N, 4, 2) table corners; NaN rows where a
    corner is NaN. The centre is the corners' mean (exact for a flat square, unlike the image centre)."""
    n = len(table)
    if n == 0:
        return np.zeros((0, 4))
    # Few numpy calls: this runs every frame that has new detections.
    out = np.empty((n, 4))
    out[:, :2] = table.sum(axis=1) / 4.0  # the corners' mean
    out[:, 2] = z_in
    # Twice the vector from the back edge's midpoint to the front edge's: the same angle.
    d = (table[:, 0] + table[:, 1]) - (table[:, 2] + table[:, 3])
    out[:, 3] = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 360.0
    if not np.isfinite(out[:, :2]).all():  # a corner that misses the table makes its mean NaN or infinite
        out[~np.isfinite(table).all(axis=(1, 2))] = np.nan
    return out


def table_poses(
    corners_px: np.ndarray,
    mapping: TableMapping,
    *,
    base_heights_in: np.ndarray,
    terrain: HeightMap | None = None,
    iterations: int = 3,
) -> np.ndarray:
    """:func:`table_pose` for N tags at once: (N, 4) rows of x_in, y_in, z_in, tag_heading_deg.

    Rows whose corners do not reach the table are NaN.
    """
    table, z = table_corners(corners_px, mapping, base_heights_in=base_heights_in, terrain=terrain, iterations=iterations)
    return poses_from_table_corners(table, z)
