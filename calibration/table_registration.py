"""Registering the table: the camera's pose over it, from the anchor tags seen in one frame.

All four corners of every visible anchor go into one solvePnP (IPPE for anchors on one plane, then
Levenberg-Marquardt refinement), with the camera model's lens distortion. An anchor that was bumped
(moved or turned on the table) disagrees with the others; it is found by refitting without each
anchor in turn and dropped when the rest agree without it. The residual is reported in table inches.
A plain homography of the anchors' plane is the fallback, used only when the camera model cannot
explain what the camera sees (a wrong or missing lens calibration).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose, vec3
from calibration.errors import RegistrationError
from calibration.projection import _undistort_normalized, table_from_camera
from calibration.table_calibration import TableCalibration
from calibration.table_layout import AnchorTag, TableLayout

#: An anchor whose corners land further than this from where the others put them is "bumped".
DEFAULT_OUTLIER_THRESHOLD_IN = 0.15
#: The pose fit is refused in favour of the homography when it is this much worse (and > 0.25").
_POSE_MISFIT_RATIO = 4.0
_POSE_MISFIT_MIN_IN = 0.25


@dataclass(frozen=True)
class _Fit:
    pose: CameraPose
    per_anchor_in: dict[int, float]  # RMS corner residual of each anchor, inches
    rms_in: float
    max_in: float


def register_table(
    tag_ids: np.ndarray,
    corners_px: np.ndarray,
    model: CameraModel,
    layout: TableLayout,
    *,
    outlier_threshold_in: float = DEFAULT_OUTLIER_THRESHOLD_IN,
    min_anchors: int = 2,
    refine_focal: bool | None = None,
) -> TableCalibration:
    """The table's calibration from one frame's tag detections (any tags; anchors are picked out).

    ``corners_px`` (N, 4, 2) in OpenCV's pixel convention and the detector's corner order, as
    ``tracker.detections.TagDetections`` holds them. ``refine_focal``: also estimate the focal length
    from the anchors (default: only for an uncalibrated ``"default"`` camera model). Raises
    ``RegistrationError`` when fewer than ``min_anchors`` usable anchors are in view.
    """
    ids = np.asarray(tag_ids, dtype=np.int64).reshape(-1)
    corners = np.asarray(corners_px, dtype=np.float64)
    if corners.shape != (len(ids), 4, 2):
        raise RegistrationError(f"corners_px has shape {corners.shape}; expected ({len(ids)}, 4, 2) for {len(ids)} tag ids")
    if not layout.anchors:
        raise RegistrationError("the table layout has no anchors; use the default layout or list [[anchors]] in the layout file")
    seen: dict[int, np.ndarray] = {}
    duplicated: set[int] = set()
    for tag_id, c in zip(ids.tolist(), corners):
        if layout.anchor(tag_id) is None or not np.all(np.isfinite(c)):
            continue
        if tag_id in seen:
            duplicated.add(tag_id)
        seen[tag_id] = c
    for tag_id in duplicated:
        del seen[tag_id]  # two tags claim to be this anchor: trust neither
    expected = ", ".join(str(a.tag_id) for a in layout.anchors)
    if len(seen) < min_anchors:
        got = ", ".join(str(i) for i in sorted(seen)) or "none"
        dup = f" (anchor {', '.join(map(str, sorted(duplicated)))} seen twice: remove the spare copy)" if duplicated else ""
        raise RegistrationError(
            f"only anchor(s) {got} of {expected} usable{dup}; need at least {min_anchors}: "
            "put the anchor tags on the table in view of the camera, uncovered"
        )
    if refine_focal is None:
        refine_focal = model.source == "default"
    if refine_focal:
        model = _refine_focal(model, layout, seen)

    fit = _fit_pose(model, layout, seen)
    used = sorted(seen)
    rejected = sorted(duplicated)
    # A bumped anchor: leave each out in turn; if the others then agree and it does not, drop it.
    while fit is not None and len(used) >= 3 and fit.max_in > outlier_threshold_in:
        best: tuple[float, int, _Fit] | None = None
        for drop in used:
            rest = {i: seen[i] for i in used if i != drop}
            trial = _fit_pose(model, layout, rest)
            if trial is None:
                continue
            dropped_err = _anchor_residuals(model, trial.pose, layout, {drop: seen[drop]})[drop]
            if trial.max_in <= outlier_threshold_in and dropped_err > outlier_threshold_in:
                if best is None or trial.rms_in < best[0]:
                    best = (trial.rms_in, drop, trial)
        if best is None:
            break
        _, drop, fit = best
        used.remove(drop)
        rejected.append(drop)

    kept = {i: seen[i] for i in used}
    homography, h_rms, h_max, plane_z = _fit_homography(model, layout, kept)
    notes: list[str] = []
    if model.source == "default":
        fitted = f"; estimated its focal length ({model.fx_px:.0f} px) and barrel distortion (k1 {model.dist_coeffs[0]:+.3f}) from the anchors"
        notes.append(
            "uncalibrated camera: no lens calibration"
            + (fitted if refine_focal else ", assumed a lens without distortion")
            + "; expect errors of several tenths of an inch with a wide-angle webcam: calibrate the lens (sandtable calibrate camera)"
        )
    if rejected:
        notes.append(
            f"ignored anchor(s) {', '.join(map(str, sorted(rejected)))}: "
            + ("seen twice" if set(rejected) <= duplicated else "moved against the others (bumped?)")
            + "; put it back on its mark or re-calibrate"
        )
    use_homography = fit is None or (
        homography is not None and fit.rms_in > _POSE_MISFIT_MIN_IN and fit.rms_in > _POSE_MISFIT_RATIO * h_rms
    )
    if use_homography:
        if homography is None:
            raise RegistrationError(
                "the anchors do not fit any camera pose and are not on one plane; check the layout file "
                "(anchor positions and sizes) against the table"
            )
        pose = fit.pose if fit is not None else _pose_from_homography(model, homography, plane_z)
        notes.append(
            "the camera model does not fit the anchors"
            + (f" (pose residual {fit.rms_in:.2f} in)" if fit is not None else "")
            + "; fell back to a flat homography that ignores heights: calibrate the lens"
        )
        return TableCalibration(
            model=model, pose=pose, layout=layout, residual_in=h_rms, method="homography", max_residual_in=h_max,
            anchors_used=tuple(used), anchors_rejected=tuple(sorted(rejected)), homography=homography,
            plane_z_in=plane_z, notes=tuple(notes),
        )
    assert fit is not None  # use_homography is True whenever there is no fit
    return TableCalibration(
        model=model, pose=fit.pose, layout=layout, residual_in=fit.rms_in, method="pnp", max_residual_in=fit.max_in,
        anchors_used=tuple(used), anchors_rejected=tuple(sorted(rejected)), homography=homography,
        plane_z_in=plane_z, notes=tuple(notes),
    )


def anchor_residuals_in(cal: TableCalibration, tag_ids: np.ndarray, corners_px: np.ndarray) -> dict[int, float]:
    """RMS corner residual (inches) of each anchor seen in a frame under an existing calibration."""
    seen = {
        int(i): np.asarray(c, dtype=np.float64)
        for i, c in zip(np.asarray(tag_ids).reshape(-1).tolist(), np.asarray(corners_px, dtype=np.float64))
        if cal.layout.anchor(int(i)) is not None and np.all(np.isfinite(c))
    }
    out = {}
    for tag_id, c in seen.items():
        anchor = cal.layout.anchor(tag_id)
        assert anchor is not None  # seen holds only the layout's anchors
        got = cal.table_from_camera(c, z_in=anchor.z_in)
        want = anchor.corners_in()[:, :2]
        out[tag_id] = float(np.sqrt(np.mean(np.sum((got - want) ** 2, axis=1))))
    return out


def _object_and_image_points(layout: TableLayout, seen: dict[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    obj = np.concatenate([_anchor(layout, i).corners_in() for i in sorted(seen)])
    img = np.concatenate([seen[i] for i in sorted(seen)])
    return obj, img


def _anchor(layout: TableLayout, tag_id: int) -> AnchorTag:
    """The layout's anchor ``tag_id``: every id in ``seen`` is one (registration drops the others)."""
    anchor = layout.anchor(tag_id)
    assert anchor is not None
    return anchor


def _anchor_residuals(model: CameraModel, pose: CameraPose, layout: TableLayout, seen: dict[int, np.ndarray]) -> dict[int, float]:
    out = {}
    for tag_id, c in seen.items():
        anchor = _anchor(layout, tag_id)
        got = table_from_camera(c, model, pose, z_in=anchor.z_in)
        err = np.sum((got - anchor.corners_in()[:, :2]) ** 2, axis=1)
        out[tag_id] = float(np.sqrt(np.mean(err))) if np.all(np.isfinite(err)) else math.inf
    return out


def _fit_pose(model: CameraModel, layout: TableLayout, seen: dict[int, np.ndarray]) -> _Fit | None:
    """Best camera pose for these anchors, or None when no pose puts the camera above them."""
    obj, img = _object_and_image_points(layout, seen)
    k, d = model.matrix, model.distortion
    planar = np.ptp(obj[:, 2]) < 1e-9
    candidates = []
    try:
        if planar:
            z0 = obj[0, 2]
            flat = obj - np.array([0.0, 0.0, z0])
            _, rvecs, tvecs, _ = cv2.solvePnPGeneric(flat, img, k, d, flags=cv2.SOLVEPNP_IPPE)
            for r, t in zip(rvecs, tvecs):
                # back from the z0-plane frame to the table frame: X_cam = R (X - z0 e3) + t
                rot, _ = cv2.Rodrigues(r)
                candidates.append((r.reshape(3), (t.reshape(3) - rot @ np.array([0.0, 0.0, z0]))))
        else:
            _, rvecs, tvecs, _ = cv2.solvePnPGeneric(obj, img, k, d, flags=cv2.SOLVEPNP_SQPNP)
            candidates = [(r.reshape(3), t.reshape(3)) for r, t in zip(rvecs, tvecs)]
    except cv2.error:
        return None
    best: _Fit | None = None
    rvec: np.ndarray  # OpenCV types the refined vectors as Mat | ndarray
    tvec: np.ndarray
    for r, t in candidates:
        rvec, tvec = r.reshape(3, 1).astype(np.float64), t.reshape(3, 1).astype(np.float64)
        try:
            rvec, tvec = cv2.solvePnPRefineLM(obj, img, k, d, rvec, tvec, (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 100, 1e-12))
        except cv2.error:
            pass
        pose = CameraPose(rvec=vec3(rvec), tvec_in=vec3(tvec))
        if pose.camera_position_in[2] <= float(obj[:, 2].max()):
            continue  # the mirror solution below the table
        cam_pts = obj @ pose.rotation.T + pose.translation
        if np.any(cam_pts[:, 2] <= 0):
            continue
        per = _anchor_residuals(model, pose, layout, seen)
        errs = np.array(list(per.values()))
        if not np.all(np.isfinite(errs)):
            continue
        fit = _Fit(pose, per, float(np.sqrt(np.mean(errs**2))), float(errs.max()))
        if best is None or fit.rms_in < best.rms_in:
            best = fit
    return best


def _fit_homography(model: CameraModel, layout: TableLayout, seen: dict[int, np.ndarray]) -> tuple[np.ndarray | None, float, float, float]:
    """Least-squares homography undistorted-normalized -> table inches on the anchors' plane."""
    obj, img = _object_and_image_points(layout, seen)
    plane_z = float(obj[0, 2])
    if np.ptp(obj[:, 2]) > 1e-9 or len(obj) < 4:
        return None, math.inf, math.inf, plane_z
    norm = _undistort_normalized(img.reshape(-1, 1, 2), model)
    h, _ = cv2.findHomography(norm, obj[:, :2], 0)
    if h is None:
        return None, math.inf, math.inf, plane_z
    mapped: np.ndarray = np.column_stack([norm, np.ones(len(norm))]) @ h.T
    mapped = mapped[:, :2] / mapped[:, 2:3]
    err = np.sum((mapped - obj[:, :2]) ** 2, axis=1).reshape(-1, 4)
    per_anchor = np.sqrt(err.mean(axis=1))
    return h, float(np.sqrt(np.mean(per_anchor**2))), float(per_anchor.max()), plane_z


def _pose_from_homography(model: CameraModel, homography: np.ndarray, plane_z: float) -> CameraPose:
    """An approximate pose from the plane homography (for display only; the homography method maps)."""
    m = np.linalg.inv(homography)  # table -> normalized camera
    scale = 1.0 / np.linalg.norm(m[:, 0])
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    if t[2] < 0:
        r1, r2, t = -r1, -r2, -t
    rot = np.column_stack([r1, r2, np.cross(r1, r2)])
    u, _, vt = np.linalg.svd(rot)
    rot = u @ vt
    return CameraPose.from_rotation(rot, t - rot @ np.array([0.0, 0.0, plane_z]))


def _refine_focal(model: CameraModel, layout: TableLayout, seen: dict[int, np.ndarray]) -> CameraModel:
    """The default model fitted to the anchors: focal length (square pixels, centred principal point)
    and, with four or more anchors, the main radial distortion term k1 too. Kept only when the fit is
    sane; a camera looking straight down cannot tell focal length from height, but the fitted pair
    still maps the table plane well."""
    obj, img = _object_and_image_points(layout, seen)
    if len(seen) < 3 or np.ptp(obj[:, 2]) > 1e-9:
        return model
    flags = (
        cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
        | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3
    )
    if len(seen) < 4:
        flags |= cv2.CALIB_FIX_K1
    flat = (obj - np.array([0.0, 0.0, obj[0, 2]])).astype(np.float32)
    try:
        rms, k, dist, _, _ = cv2.calibrateCamera(
            [flat], [img.astype(np.float32)], model.size_px, model.matrix.copy(), np.zeros(5), flags=flags
        )
    except cv2.error:
        return model
    f = float(k[0, 0])
    k1 = float(np.asarray(dist).reshape(-1)[0])
    if not (0.5 * model.fx_px < f < 2.0 * model.fx_px) or not math.isfinite(rms) or not -0.6 < k1 < 0.3:
        return model
    return CameraModel(
        width_px=model.width_px, height_px=model.height_px, fx_px=f, fy_px=f, cx_px=model.cx_px, cy_px=model.cy_px,
        dist_coeffs=(k1, 0.0, 0.0, 0.0, 0.0), source=model.source, reprojection_rms_px=model.reprojection_rms_px,
    )
