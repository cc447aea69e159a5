"""The projector in three dimensions: an inverse camera with a lens and a pose over the table.

A plane homography (calibration/projector.py) maps the table plane only: an overlay for a point on a
4" hill lands where the plane would be, an inch or more off. Here the projector is calibrated as a
camera run backwards: focal lengths, principal point (lens shift), distortion, and its pose in table
inches, so any table point (x, y, z) has the projector pixel that lights it, and overlays are drawn at
the ground height under each point.

Calibration (as the AR Sandbox does with tie points at several heights): the scan's Gray-code patterns
give, for every camera pixel, the projector pixel lighting it. Where that pixel sees a flat surface of
known height (the table plane, a board laid on blocks of known height), the camera's ray meets that
plane at a known 3-D point. Each correspondence is assigned to the plane it fits (a robust smooth
mapping per plane; a point that fits none, or two, is left out), the points of all heights together are
no longer coplanar, and they fix the projector's 3x4 projection (DLT), refined with its lens by
``cv2.calibrateCamera``. The error is reported in projector pixels and in table inches.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose, vec3
from calibration.errors import CalibrationError, ProjectorCalibrationError
from calibration.files import _guard, _now, camera_model_from_fields, camera_model_to_dict, read_calibration_json, write_json_atomically
from calibration.projection import _undistort_normalized
from calibration.structured_light import DecodedScan
from calibration.table_calibration import TableCalibration
from calibration.terrain import Terrain

PROJECTOR_MODEL_FORMAT = "sandtable-projector-model"
VERSION = 1


@dataclass(frozen=True, eq=False)
class ProjectorModel:
    """A calibrated projector: lens (``model``), pose over the table, and how well it fits.

    ``residual_px`` / ``residual_in``: RMS distance between where the calibration's points were lit
    and where the model puts them, in projector pixels and in table inches on the ground.
    """

    model: CameraModel
    pose: CameraPose
    residual_px: float = 0.0
    residual_in: float = 0.0
    points_used: int = 0
    heights_in: tuple[float, ...] = ()

    @property
    def width_px(self) -> int:
        return self.model.width_px

    @property
    def height_px(self) -> int:
        return self.model.height_px

    @property
    def position_in(self) -> np.ndarray:
        return self.pose.camera_position_in

    def projector_from_table(self, points_in: np.ndarray, *, z_in: float | np.ndarray = 0.0) -> np.ndarray:
        """Projector pixels (N, 2) lighting table points ((N, 2) at ``z_in``, or (N, 3))."""
        pts = np.asarray(points_in, dtype=np.float64)
        pts = pts.reshape(-1, pts.shape[-1]) if pts.size else np.zeros((0, 2))
        if pts.shape[1] == 2:
            z = np.broadcast_to(np.asarray(z_in, dtype=np.float64), (len(pts),))
            pts = np.column_stack([pts, z])
        if len(pts) == 0:
            return np.zeros((0, 2))
        px, _ = cv2.projectPoints(pts.reshape(-1, 1, 3), np.asarray(self.pose.rvec), np.asarray(self.pose.tvec_in),
                                  self.model.matrix, self.model.distortion)
        return px.reshape(-1, 2)

    def projector_from_ground(self, points_in: np.ndarray, terrain: Terrain | None) -> np.ndarray:
        """Projector pixels (N, 2) lighting the ground (``terrain``'s height, or the table) at table
        points (N, 2): a fan drawn on a hillside lands on the hillside."""
        pts = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
        z = terrain.height_at(pts[:, 0], pts[:, 1]) if terrain is not None else 0.0
        return self.projector_from_table(pts, z_in=z)

    def rays(self, pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The light's rays out of projector pixels (N, 2): origin (3,) and unit directions (N, 3), table inches."""
        px = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
        norm = _undistort_normalized(px, self.model)
        dirs = np.column_stack([norm, np.ones(len(norm))]) @ self.pose.rotation
        dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
        return self.position_in, dirs

    def table_from_projector(self, pixels: np.ndarray, *, z_in: float | np.ndarray = 0.0) -> np.ndarray:
        """Where projector pixels (N, 2) land on the plane ``z_in``, table inches (N, 2)."""
        origin, dirs = self.rays(pixels)
        z = np.broadcast_to(np.asarray(z_in, dtype=np.float64), (len(dirs),))
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (z - origin[2]) / dirs[:, 2]
        s = np.where(s > 0, s, np.nan)
        return (origin[None, :] + s[:, None] * dirs)[:, :2]

    def px_per_in_at(self, x_in: float, y_in: float, z_in: float = 0.0) -> float:
        """Projector pixels per table inch around a point (line widths, text)."""
        p = self.projector_from_table(np.array([[x_in, y_in, z_in], [x_in + 1.0, y_in, z_in], [x_in, y_in + 1.0, z_in]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)

    def summary(self) -> str:
        heights = ", ".join(f'{h:g}"' for h in self.heights_in)
        return (f"projector {self.width_px}x{self.height_px} as an inverse camera: {self.points_used} points at heights {heights}, "
                f"error {self.residual_px:.2f} px = {self.residual_in:.3f} in RMS; "
                f"lens f {self.model.fx_px:.0f} px, centre ({self.model.cx_px:.0f}, {self.model.cy_px:.0f}); "
                f"at ({self.position_in[0]:.1f}, {self.position_in[1]:.1f}, {self.position_in[2]:.1f}) in")


def tie_points(flat: DecodedScan, raised: Sequence[tuple[DecodedScan, float]], table: TableCalibration, *, max_points: int = 20000, moved_px: float = 2.0,
               seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """3-D table points (N, 3) and the projector pixels (N, 2) lighting them.

    ``flat``: the scan's decoding (:class:`~calibration.structured_light.DecodedScan`) of the flat table
    (z = 0). ``raised``: (decoding, height_in) of the same table with a flat board laid on blocks of
    that height somewhere in the picture. A single plane cannot tell a projector's distance from its
    focal length, and through the camera every plane maps to the projector by a homography, so a
    surface's height cannot be read from its own points: the board is found as the camera pixels whose
    projector pixel moved when it was laid down (more than ``moved_px``), kept where they follow one
    plane's mapping (its edges and the shadow it throws do not).
    """
    rng = np.random.default_rng(seed)
    cam_px, proj_px = flat.correspondences()
    pick = rng.choice(len(cam_px), min(len(cam_px), max_points), replace=False)
    pts3 = [np.column_stack([table.table_from_camera(cam_px[pick], z_in=0.0), np.zeros(len(pick))])]
    projs = [proj_px[pick]]
    for scan, height in raised:
        if scan.u_px is None or scan.v_px is None or flat.u_px is None or flat.v_px is None:
            raise ProjectorCalibrationError("a projector calibration needs full scans (column and row patterns)")
        with np.errstate(invalid="ignore"):
            moved = np.hypot(scan.u_px - flat.u_px, scan.v_px - flat.v_px) > moved_px  # NaN: unread, False
        rows, cols = np.nonzero(moved)
        if len(rows) < 50:
            raise ProjectorCalibrationError(
                f'the board at {height:g}" moved the projected pattern on {len(rows)} camera pixels; lay it in the '
                "projected area, away from the spot right under the projector, and scan again"
            )
        pick = rng.choice(len(rows), min(len(rows), max_points), replace=False)
        cam = np.column_stack([cols[pick], rows[pick]]).astype(np.float64)
        proj = np.column_stack([scan.u_px[rows[pick], cols[pick]], scan.v_px[rows[pick], cols[pick]]])
        xy = table.table_from_camera(cam, z_in=float(height))
        _, mask = cv2.findHomography(xy, proj, cv2.RANSAC, 3.0, maxIters=4000)
        keep = mask.ravel().astype(bool) if mask is not None else np.zeros(len(xy), bool)
        pts3.append(np.column_stack([xy[keep], np.full(int(keep.sum()), float(height))]))
        projs.append(proj[keep])
    return np.concatenate(pts3), np.concatenate(projs)


def calibrate_projector_3d(flat: DecodedScan, raised: Sequence[tuple[DecodedScan, float]], table: TableCalibration, width_px: int, height_px: int, *, seed: int = 0) -> ProjectorModel:
    """The projector as an inverse camera, from scans of the flat table and of a board at known heights
    (see :func:`tie_points`)."""
    if not table.height_aware:
        raise ProjectorCalibrationError("the table calibration is a flat homography; calibrate the table with a camera model first")
    X, U = tie_points(flat, raised, table, seed=seed)
    heights = sorted({float(z) for z in np.unique(X[:, 2])}) if len(X) else []
    if len(heights) < 2 or len(X) < 100:
        raise ProjectorCalibrationError(
            f"the projector's pattern was found on {len(heights)} flat height(s) with {len(X)} points; it needs two or more "
            "heights: lay a flat board on blocks of known height in the projected area and give its height"
        )
    P = _dlt(X, U)
    k, r, c_h = cv2.decomposeProjectionMatrix(P)[:3]
    k = k / k[2, 2]
    k[0, 1] = 0.0  # projectors have square pixels: no skew (and calibrateCamera refuses one)
    if not (np.isfinite(k).all() and k[0, 0] > 0 and k[1, 1] > 0):
        raise ProjectorCalibrationError("the projector's tie points do not fit a projector (are the heights right?)")
    rng = np.random.default_rng(seed)
    keep = np.ones(len(X), bool)
    # two rounds: fit, then drop the stray tie points (a board's edge, a grain the decoding misread)
    for _ in range(2):
        idx = np.flatnonzero(keep)
        sub = rng.choice(idx, min(len(idx), 20000), replace=False)
        flags = cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_K3
        rms, kk, dist, rvecs, tvecs = cv2.calibrateCamera(
            [X[sub].astype(np.float32)], [U[sub].astype(np.float32)], (width_px, height_px), k, np.zeros(5), flags=flags
        )
        model = CameraModel(width_px, height_px, float(kk[0, 0]), float(kk[1, 1]), float(kk[0, 2]), float(kk[1, 2]),
                            dist_coeffs=tuple(float(v) for v in dist.reshape(-1)[:5]), source="calibrated",
                            reprojection_rms_px=float(rms))
        pose = CameraPose(vec3(rvecs[0]), vec3(tvecs[0]))
        err_px = np.linalg.norm(ProjectorModel(model, pose).projector_from_table(X) - U, axis=1)
        keep = err_px < max(1.0, 3.0 * float(np.median(err_px)))
        k = kk
    X, U = X[keep], U[keep]
    fitted = ProjectorModel(model, pose)
    err_px = np.linalg.norm(fitted.projector_from_table(X) - U, axis=1)
    # the same error on the ground: where the lit pixel's ray lands against where it should
    landed = fitted.table_from_projector(U, z_in=X[:, 2])
    err_in = np.linalg.norm(landed - X[:, :2], axis=1)
    return ProjectorModel(model, pose, residual_px=float(np.sqrt(np.mean(err_px**2))),
                          residual_in=float(np.sqrt(np.nanmean(err_in**2))), points_used=len(X),
                          heights_in=tuple(heights))


def _dlt(X: np.ndarray, U: np.ndarray) -> np.ndarray:
    """3x4 projection matrix from 3-D points and their pixels (normalised direct linear transform)."""
    mx, sx = X.mean(axis=0), X.std() * np.sqrt(3) / np.sqrt(3)
    mu, su = U.mean(axis=0), U.std()
    T3 = np.diag([1 / sx] * 3 + [1.0])
    T3[:3, 3] = -mx / sx
    T2 = np.diag([1 / su, 1 / su, 1.0])
    T2[:2, 2] = -mu / su
    Xn = (np.column_stack([X, np.ones(len(X))]) @ T3.T)
    Un = (np.column_stack([U, np.ones(len(U))]) @ T2.T)
    n = len(X)
    A = np.zeros((2 * n, 12))
    A[0::2, 0:4] = Xn
    A[0::2, 8:12] = -Un[:, 0:1] * Xn
    A[1::2, 4:8] = Xn
    A[1::2, 8:12] = -Un[:, 1:2] * Xn
    _, _, vt = np.linalg.svd(A, full_matrices=False)
    Pn = vt[-1].reshape(3, 4)
    P = np.linalg.inv(T2) @ Pn @ T3
    if np.linalg.det(P[:, :3]) < 0:
        P = -P
    return P / np.linalg.norm(P[2, :3])


# ---------------------------------------------------------------------------------- files
def save_projector_model(cal: ProjectorModel, path: str | Path) -> None:
    write_json_atomically(path, {
        "format": PROJECTOR_MODEL_FORMAT,
        "version": VERSION,
        "created_utc": _now(),
        "lens": camera_model_to_dict(cal.model),
        "pose": {"rvec": list(cal.pose.rvec), "tvec_in": list(cal.pose.tvec_in)},
        "residual_px": cal.residual_px,
        "residual_in": cal.residual_in,
        "points_used": cal.points_used,
        "heights_in": list(cal.heights_in),
    })


def load_projector_model(path: str | Path) -> ProjectorModel:
    f = read_calibration_json(path, PROJECTOR_MODEL_FORMAT)

    def build() -> ProjectorModel:
        lens = f.table("lens")
        pose = f.table("pose")
        if lens is None or pose is None:
            raise CalibrationError("it has no lens or no pose")
        heights = f.data.get("heights_in", [])
        if not isinstance(heights, list) or not all(isinstance(h, (int, float)) and not isinstance(h, bool) for h in heights):
            raise CalibrationError("heights_in must be a list of numbers")
        return ProjectorModel(
            model=camera_model_from_fields(lens),
            pose=CameraPose(vec3(pose.numbers("rvec", (3,))), vec3(pose.numbers("tvec_in", (3,)))),
            residual_px=f.number("residual_px", minimum=0),
            residual_in=f.number("residual_in", minimum=0),
            points_used=f.integer("points_used", minimum=0),
            heights_in=tuple(float(h) for h in heights),
        )

    return _guard(path, PROJECTOR_MODEL_FORMAT, build)
