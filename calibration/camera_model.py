"""Camera models: pinhole intrinsics plus OpenCV lens distortion, and the camera's pose over the table.

Pixel convention: OpenCV's, pixel centres at integer coordinates. (pupil-apriltags reports corners with
pixel (i, j) spanning [i, i+1); the tracker converts at its boundary, see ``tracker`` docs.)
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from calibration.errors import CalibrationError

#: Horizontal field of view assumed for an uncalibrated webcam (typical 1080p USB webcams: 65-78 degrees).
DEFAULT_HFOV_DEG = 70.0


#: Bounds no real camera reaches: beyond them a file is corrupt, and OpenCV would overflow or fail.
MAX_SIDE_PX = 100_000
MAX_FOCAL_PX = 1e7
MAX_DIST_COEFF = 1e4


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class CameraModel:
    """Intrinsics of one camera at one resolution.

    ``dist_coeffs`` are OpenCV's (k1, k2, p1, p2, k3[, k4, k5, k6]). ``source`` says where the model came
    from: ``"calibrated"`` (from board photos), ``"default"`` (assumed; costs accuracy) or ``"synthetic"``.
    """

    width_px: int
    height_px: int
    fx_px: float
    fy_px: float
    cx_px: float
    cy_px: float
    dist_coeffs: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)
    source: str = "calibrated"
    reprojection_rms_px: float | None = None

    def __post_init__(self) -> None:
        if self.width_px <= 0 or self.height_px <= 0:
            raise CalibrationError(f"camera size {self.width_px}x{self.height_px} px: both must be positive")
        if not (self.fx_px > 0 and self.fy_px > 0):
            raise CalibrationError(f"focal lengths fx={self.fx_px}, fy={self.fy_px} px must be positive")
        if len(self.dist_coeffs) not in (4, 5, 8, 12, 14):
            raise CalibrationError(
                f"{len(self.dist_coeffs)} distortion coefficients; OpenCV expects 4, 5, 8, 12 or 14"
            )
        if self.width_px > MAX_SIDE_PX or self.height_px > MAX_SIDE_PX:
            raise CalibrationError(f"camera size {self.width_px}x{self.height_px} px: no camera is wider than {MAX_SIDE_PX} px")
        if not (self.fx_px <= MAX_FOCAL_PX and self.fy_px <= MAX_FOCAL_PX):
            raise CalibrationError(f"focal lengths fx={self.fx_px:g}, fy={self.fy_px:g} px: more than {MAX_FOCAL_PX:g} px; "
                                   "calibrate the camera again")
        if not all(math.isfinite(v) and abs(v) <= MAX_SIDE_PX * 10 for v in (self.cx_px, self.cy_px)):
            raise CalibrationError(f"principal point ({self.cx_px:g}, {self.cy_px:g}) px is far outside the image; "
                                   "calibrate the camera again")
        if not all(math.isfinite(k) and abs(k) <= MAX_DIST_COEFF for k in self.dist_coeffs):
            raise CalibrationError(f"lens distortion coefficients {list(self.dist_coeffs)}: each must be a number within "
                                   f"+-{MAX_DIST_COEFF:g} (real lenses stay far below); calibrate the camera again")

    # The derived arrays are made once per (frozen) model and shared, read-only: the tracker asks for
    # them for every frame's new detections.
    @cached_property
    def matrix(self) -> np.ndarray:
        """The 3x3 camera matrix K (read-only)."""
        return _read_only(np.array(
            [[self.fx_px, 0.0, self.cx_px], [0.0, self.fy_px, self.cy_px], [0.0, 0.0, 1.0]], dtype=np.float64
        ))

    @cached_property
    def distortion(self) -> np.ndarray:
        return _read_only(np.array(self.dist_coeffs, dtype=np.float64))

    @property
    def size_px(self) -> tuple[int, int]:
        return (self.width_px, self.height_px)

    @cached_property
    def has_distortion(self) -> bool:
        return any(abs(c) > 0.0 for c in self.dist_coeffs)

    @classmethod
    def default(cls, width_px: int, height_px: int, *, hfov_deg: float = DEFAULT_HFOV_DEG) -> "CameraModel":
        """The assumed model of an uncalibrated camera: square pixels, centred, no distortion.

        >>> CameraModel.default(1920, 1080).source
        'default'
        """
        fx = (width_px / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
        return cls(
            width_px=width_px,
            height_px=height_px,
            fx_px=fx,
            fy_px=fx,
            cx_px=(width_px - 1) / 2.0,
            cy_px=(height_px - 1) / 2.0,
            source="default",
        )

    def scaled_to(self, width_px: int, height_px: int) -> "CameraModel":
        """The same lens at another capture resolution (same aspect ratio assumed)."""
        sx = width_px / self.width_px
        sy = height_px / self.height_px
        return CameraModel(
            width_px=width_px,
            height_px=height_px,
            fx_px=self.fx_px * sx,
            fy_px=self.fy_px * sy,
            cx_px=(self.cx_px + 0.5) * sx - 0.5,
            cy_px=(self.cy_px + 0.5) * sy - 0.5,
            dist_coeffs=self.dist_coeffs,
            source=self.source,
            reprojection_rms_px=self.reprojection_rms_px,
        )


def vec3(values: Iterable[float] | np.ndarray) -> tuple[float, float, float]:
    """Three floats from any three numbers (a rotation or translation vector of any shape).

    >>> vec3(np.array([[1], [2], [3]]))
    (1.0, 2.0, 3.0)
    """
    x, y, z = (float(v) for v in np.asarray(values, dtype=np.float64).reshape(3))
    return x, y, z


@dataclass(frozen=True)
class CameraPose:
    """Where the camera is over the table: ``X_camera = R @ X_table + t`` (table inches, camera frame inches).

    Stored as OpenCV's Rodrigues vector and translation so that solvePnP results drop straight in.
    """

    rvec: tuple[float, float, float]
    tvec_in: tuple[float, float, float]

    @cached_property
    def rotation(self) -> np.ndarray:
        """R (read-only)."""
        import cv2  # local: keeps numpy-only users of the dataclass light

        r, _ = cv2.Rodrigues(np.asarray(self.rvec, dtype=np.float64).reshape(3, 1))
        return _read_only(r)

    @cached_property
    def translation(self) -> np.ndarray:
        return _read_only(np.array(self.tvec_in, dtype=np.float64))

    @cached_property
    def camera_position_in(self) -> np.ndarray:
        """The camera's optical centre in table inches (z is its height over the table; read-only)."""
        return _read_only(-self.rotation.T @ self.translation)

    @classmethod
    def from_rotation(cls, rotation: np.ndarray, translation: np.ndarray) -> "CameraPose":
        import cv2

        rvec, _ = cv2.Rodrigues(np.asarray(rotation, dtype=np.float64))
        t = np.asarray(translation, dtype=np.float64).reshape(3)
        return cls(rvec=vec3(rvec), tvec_in=vec3(t))

    @classmethod
    def looking_at(
        cls,
        eye_in: tuple[float, float, float],
        target_in: tuple[float, float, float],
        *,
        up_hint: tuple[float, float, float] = (0.0, 1.0, 0.0),
        roll_deg: float = 0.0,
    ) -> "CameraPose":
        """A camera at ``eye_in`` looking at ``target_in`` (both table inches).

        The image's top edge faces ``up_hint`` (projected on the image plane): with the default, the
        table's +y points up in the picture and +x to the right, as on a map. ``roll_deg`` turns the
        camera about its viewing axis.
        """
        eye = np.asarray(eye_in, dtype=np.float64)
        forward = np.asarray(target_in, dtype=np.float64) - eye
        norm = np.linalg.norm(forward)
        if norm == 0:
            raise CalibrationError("camera eye and target are the same point")
        z_axis = forward / norm
        up = np.asarray(up_hint, dtype=np.float64)
        # Image y points down, so the camera's y axis is minus the "up" direction.
        y_axis = -(up - np.dot(up, z_axis) * z_axis)
        if np.linalg.norm(y_axis) < 1e-9:
            y_axis = -(np.array([1.0, 0.0, 0.0]) - z_axis[0] * z_axis)
        y_axis /= np.linalg.norm(y_axis)
        x_axis = np.cross(y_axis, z_axis)
        rot = np.vstack([x_axis, y_axis, z_axis])  # rows: camera axes expressed in table frame
        if roll_deg:
            c, s = math.cos(math.radians(roll_deg)), math.sin(math.radians(roll_deg))
            rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]) @ rot
        return cls.from_rotation(rot, -rot @ eye)


@dataclass(frozen=True)
class CameraView:
    """A camera model together with its pose: everything needed to go between pixels and table inches."""

    model: CameraModel
    pose: CameraPose
    notes: tuple[str, ...] = field(default=())
