"""A registered table: pixels of one camera <-> table inches, height-aware.

``TableCalibration`` is what ``register_table`` produces and ``files.save_table_calibration`` stores.
With ``method == "pnp"`` (the normal case) it holds the camera's pose over the table, and a pixel seen at
height z maps to the table along its viewing ray (parallax corrected). With ``method == "homography"``
(the fallback when the camera model does not fit the anchors) it maps through a plane-to-plane
homography of the anchors' plane and cannot correct for height; ``notes`` says so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationError
from calibration.projection import _undistort_normalized, camera_from_table, rays_from_camera, table_from_camera
from calibration.table_layout import TableLayout, heading_from_corners_in
from calibration.terrain import Terrain

METHODS = ("pnp", "homography")


@dataclass(frozen=True)
class TagLocation:
    """Where a tag is on the table: centre (inches), the height of its surface, and its heading."""

    x_in: float
    y_in: float
    z_in: float
    heading_deg: float


@dataclass(frozen=True, eq=False)
class TableCalibration:
    """The camera's model and pose over a table of ``layout``, with how well the anchors fit.

    ``residual_in``: RMS distance (inches) between the anchors' corners as seen and as laid out, over
    the anchors used. ``anchors_used`` / ``anchors_rejected``: anchor ids kept, and those refused as
    bumped or duplicated. ``homography``: 3x3, undistorted normalized camera coordinates -> table
    inches on the anchors' plane (used by the homography method; kept for both).
    """

    model: CameraModel
    pose: CameraPose
    layout: TableLayout
    residual_in: float
    method: str = "pnp"
    max_residual_in: float = 0.0
    anchors_used: tuple[int, ...] = ()
    anchors_rejected: tuple[int, ...] = ()
    homography: np.ndarray | None = field(default=None, repr=False)
    plane_z_in: float = 0.0
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise CalibrationError(f"calibration method {self.method!r}: use one of {', '.join(METHODS)}")
        if self.method == "homography" and self.homography is None:
            raise CalibrationError("a homography calibration needs its 3x3 homography")
        if self.homography is not None:
            h = np.asarray(self.homography, dtype=np.float64)
            if h.shape != (3, 3) or not np.all(np.isfinite(h)):
                raise CalibrationError(f"homography must be a finite 3x3 matrix, got shape {h.shape}")
            scale = float(np.abs(h).max())
            if scale == 0.0 or abs(float(np.linalg.det(h / scale))) < 1e-12:
                raise CalibrationError("the homography is singular (all zero, or it folds the table onto a line); "
                                       "calibrate the table again")
            object.__setattr__(self, "homography", h)
        if self.method == "pnp":
            self._check_pose()

    def _check_pose(self) -> None:
        """A pose the camera could have: rotation and translation sensible, the table in front of it
        (rvec and tvec swapped, or signs flipped, fail here instead of mapping units to nonsense)."""
        rvec, tvec = np.asarray(self.pose.rvec, dtype=np.float64), np.asarray(self.pose.tvec_in, dtype=np.float64)
        if not (np.all(np.isfinite(rvec)) and np.all(np.isfinite(tvec))):
            raise CalibrationError("the camera pose (rvec, tvec_in) must be finite numbers; calibrate the table again")
        if float(np.linalg.norm(rvec)) > 2 * math.pi + 1e-6:
            raise CalibrationError(f"the camera rotation rvec {rvec.tolist()} turns more than a full turn: it is no "
                                   "rotation vector (rvec and tvec_in swapped?); calibrate the table again")
        if float(np.linalg.norm(tvec)) > 100 * max(self.layout.width_in, self.layout.depth_in, 1.0):
            raise CalibrationError(f"the camera is {float(np.linalg.norm(tvec)):g} in from the table, far beyond "
                                   "any room; calibrate the table again")
        centre = np.array([self.layout.width_in / 2, self.layout.depth_in / 2, self.plane_z_in], dtype=np.float64)
        if float((self.pose.rotation @ centre + tvec)[2]) <= 0:
            raise CalibrationError("the camera pose puts the table behind the camera (rvec and tvec_in swapped?); "
                                   "calibrate the table again")

    # ------------------------------------------------------------------ mapping
    @property
    def height_aware(self) -> bool:
        """True when heights are corrected for parallax (the pose method)."""
        return self.method == "pnp"

    def table_from_camera(self, pixels: np.ndarray, *, z_in: float | np.ndarray = 0.0) -> np.ndarray:
        """Table inches (N, 2) of distorted pixels (N, 2) whose scene points are ``z_in`` above the table.

        NaN where a viewing ray never reaches that height.
        """
        px = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
        if self.method == "pnp":
            return table_from_camera(px, self.model, self.pose, z_in=z_in)
        if len(px) == 0:
            return np.zeros((0, 2))
        norm = _undistort_normalized(px.reshape(-1, 1, 2), self.model)
        assert self.homography is not None  # method "homography" always carries one (checked when built)
        h = np.column_stack([norm, np.ones(len(norm))]) @ self.homography.T
        return h[:, :2] / h[:, 2:3]

    def camera_from_table(self, points_in: np.ndarray, *, z_in: float | np.ndarray = 0.0) -> np.ndarray:
        """Distorted pixels (N, 2) of table points ((N, 2) at height ``z_in``, or (N, 3))."""
        pts = np.asarray(points_in, dtype=np.float64)
        if pts.ndim == 1:
            pts = pts.reshape(1, -1)
        if self.method == "pnp":
            return camera_from_table(pts, self.model, self.pose, z_in=z_in)
        import cv2

        assert self.homography is not None  # method "homography" always carries one (checked when built)
        xy = np.column_stack([pts[:, :2], np.ones(len(pts))]) @ np.linalg.inv(self.homography).T
        norm = xy[:, :2] / xy[:, 2:3]
        obj = np.column_stack([norm, np.ones(len(norm))]).reshape(-1, 1, 3)
        px, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), self.model.matrix, self.model.distortion)
        return px.reshape(-1, 2)

    def tag_pose_in(self, corners_px: np.ndarray, *, z_in: float = 0.0) -> tuple[float, float, float]:
        """(x_in, y_in, heading_deg) of a flat tag whose surface is ``z_in`` above the table, from its
        four corners in detector order."""
        corners = self.table_from_camera(np.asarray(corners_px, dtype=np.float64).reshape(4, 2), z_in=z_in)
        centre = _square_centre(corners)
        return float(centre[0]), float(centre[1]), heading_from_corners_in(corners)

    def locate_tag(
        self, corners_px: np.ndarray, *, base_height_in: float = 0.0, terrain: Terrain | None = None
    ) -> TagLocation:
        """A unit's tag on the table, standing ``base_height_in`` above the ground of ``terrain``.

        The ground height depends on where the unit is, and where it is depends (through parallax) on
        its height, so both are solved together along the corners' viewing rays. Without terrain
        the tag is simply ``base_height_in`` above the table plane.
        """
        c = np.asarray(corners_px, dtype=np.float64).reshape(4, 2)
        if self.method != "pnp":
            x, y, heading = self.tag_pose_in(c)  # the homography knows only the anchors' plane
            z = base_height_in + (float(terrain.height_at(x, y)) if terrain is not None else 0.0)
            return TagLocation(x, y, z, heading)
        if terrain is None or terrain.is_flat:
            x, y, heading = self.tag_pose_in(c, z_in=base_height_in)
            return TagLocation(x, y, float(base_height_in), heading)
        origin, dirs = rays_from_camera(c, self.model, self.pose)

        def corners_at(z: float) -> np.ndarray:
            s = (z - origin[2]) / dirs[:, 2]
            return origin[None, :2] + s[:, None] * dirs[:, :2]

        z = base_height_in
        for _ in range(60):
            centre = _square_centre(corners_at(z))
            ground = float(terrain.height_at(centre[0], centre[1]))
            # damped fixed point: converges for any slope a model can stand on
            z_next = 0.5 * z + 0.5 * (ground + base_height_in)
            if abs(z_next - z) < 1e-6:
                z = z_next
                break
            z = z_next
        corners = corners_at(z)
        centre = _square_centre(corners)
        return TagLocation(float(centre[0]), float(centre[1]), float(z), heading_from_corners_in(corners))

    def tag_height_from_size(self, corners_px: np.ndarray, size_in: float) -> float | None:
        """The height (inches) of a flat tag of edge ``size_in`` from how large it looks.

        A tag twice as far from the camera looks half as big, so its four corners, mapped onto the
        plane at height z, span ``size_in`` only at the right z. The side mapped onto the table plane
        shrinks linearly as z rises toward the camera, which gives z in closed form. None when the
        calibration cannot tell (homography method) or the corners do not make a sensible square.
        Precision: a size error of e% moves z by about e% of the camera's height.
        """
        if self.method != "pnp" or not size_in > 0:
            return None
        corners = self.table_from_camera(np.asarray(corners_px, dtype=np.float64).reshape(4, 2), z_in=0.0)
        if not np.all(np.isfinite(corners)):
            return None
        edges = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
        diagonals = np.linalg.norm(corners[:2] - corners[2:], axis=1) / math.sqrt(2.0)
        side0 = float(np.mean(np.concatenate([edges, diagonals])))
        if side0 <= 0:
            return None
        cam_z = float(self.pose.camera_position_in[2])
        z = cam_z * (1.0 - size_in / side0)
        if not (-cam_z < z < cam_z):
            return None
        return z

    # ------------------------------------------------------------------ variants
    def for_frame_size(self, width_px: int, height_px: int) -> "TableCalibration":
        """The same calibration for frames captured at another resolution of the same camera."""
        if (width_px, height_px) == self.model.size_px:
            return self
        if abs(width_px / height_px - self.model.width_px / self.model.height_px) > 0.01:
            raise CalibrationError(
                f"frames are {width_px}x{height_px} but the calibration was made at "
                f"{self.model.width_px}x{self.model.height_px} with another aspect ratio; calibrate at this resolution"
            )
        return replace(self, model=self.model.scaled_to(width_px, height_px))

    def summary(self) -> str:
        """One line for people: method, residual, anchors."""
        used = ", ".join(str(i) for i in self.anchors_used) or "none"
        text = f"{self.method} registration from anchors {used}: residual {self.residual_in:.3f} in RMS, {self.max_residual_in:.3f} in max"
        if self.anchors_rejected:
            text += f"; ignored anchor(s) {', '.join(str(i) for i in self.anchors_rejected)}"
        return text


def _square_centre(corners: np.ndarray) -> np.ndarray:
    """Intersection of the diagonals of a quadrilateral (the centre of a square seen in any projection)."""
    p0, p1, p2, p3 = corners
    d1, d2 = p2 - p0, p3 - p1
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-12:
        return corners.mean(axis=0)
    s = ((p1[0] - p0[0]) * d2[1] - (p1[1] - p0[1]) * d2[0]) / denom
    return p0 + s * d1
