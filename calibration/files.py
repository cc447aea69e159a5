"""Calibration files: versioned JSON that loads back exactly, or is refused with a clear message.

Three kinds, each with ``"format"`` and ``"version"`` fields (field lists in docs/calibration.md):

* camera model (``sandtable-camera-model``): lens intrinsics and distortion from board photos;
* table calibration (``sandtable-table-calibration``): camera model + pose over the table + layout;
* projector calibration (``sandtable-projector-calibration``): table inches -> projector pixels.

Floats are written with Python's shortest round-trip repr, so a loaded file equals what was saved.
Files are written to a temporary name and renamed over the old one, so a crash mid-write never
leaves a truncated calibration behind. A corrupt, truncated, foreign or newer-version file raises
``CalibrationFileError`` saying which file and what to do (usually: calibrate again); callers treat
that as "not calibrated" rather than measuring with something wrong.
"""
from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime, UTC
from pathlib import Path
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from calibration.camera_model import CameraModel, CameraPose, vec3
from calibration.errors import CalibrationError, CalibrationFileError
from calibration.table_calibration import METHODS, TableCalibration
from calibration.table_layout import MAX_ANCHOR_TAG_ID, AnchorTag, TableLayout
from calibration.toml_fields import Fields

CAMERA_FORMAT = "sandtable-camera-model"
TABLE_FORMAT = "sandtable-table-calibration"
PROJECTOR_FORMAT = "sandtable-projector-calibration"
VERSION = 1

_REDO = {
    CAMERA_FORMAT: "run `sandtable calibrate camera PHOTO... --out FILE` again",
    TABLE_FORMAT: "run `sandtable calibrate table ... --out FILE` again",
    PROJECTOR_FORMAT: "run `sandtable calibrate projector` again",
    "sandtable-projector-model": "run `sandtable scan --calibrate-projector` again",
    "sandtable-relief": "run `sandtable scan` again",
}


# ---------------------------------------------------------------------------------- writing
def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it: put it straight back
    os.umask(mask)
    return mask


def write_json_atomically(path: str | Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` via a temporary file and a rename (never half a file)."""
    p = Path(path)
    text = json.dumps(data, indent=2, allow_nan=False) + "\n"
    directory = p.parent if str(p.parent) else Path(".")
    if not directory.is_dir():
        raise CalibrationError(f"cannot write {str(p)!r}: folder {str(directory)!r} does not exist; create it first")
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=directory)
    try:
        # mkstemp makes the file private (0600); a calibration is an ordinary file others on the machine read
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def camera_model_to_dict(model: CameraModel) -> dict[str, Any]:
    return {
        "width_px": model.width_px,
        "height_px": model.height_px,
        "fx_px": model.fx_px,
        "fy_px": model.fy_px,
        "cx_px": model.cx_px,
        "cy_px": model.cy_px,
        "dist_coeffs": list(model.dist_coeffs),
        "source": model.source,
        "reprojection_rms_px": model.reprojection_rms_px,
    }


def layout_to_dict(layout: TableLayout) -> dict[str, Any]:
    return {
        "width_in": layout.width_in,
        "depth_in": layout.depth_in,
        "unit_tag_size_in": layout.unit_tag_size_in,
        "anchors": [
            {"tag_id": a.tag_id, "x_in": a.x_in, "y_in": a.y_in, "size_in": a.size_in, "heading_deg": a.heading_deg, "z_in": a.z_in}
            for a in layout.anchors
        ],
    }


def table_calibration_to_dict(cal: TableCalibration) -> dict[str, Any]:
    return {
        "format": TABLE_FORMAT,
        "version": VERSION,
        "created_utc": _now(),
        "method": cal.method,
        "camera": camera_model_to_dict(cal.model),
        "pose": {"rvec": list(cal.pose.rvec), "tvec_in": list(cal.pose.tvec_in)},
        "layout": layout_to_dict(cal.layout),
        "residual_in": cal.residual_in,
        "max_residual_in": cal.max_residual_in,
        "anchors_used": list(cal.anchors_used),
        "anchors_rejected": list(cal.anchors_rejected),
        "homography": None if cal.homography is None else np.asarray(cal.homography).tolist(),
        "plane_z_in": cal.plane_z_in,
        "notes": list(cal.notes),
    }


def save_camera_model(model: CameraModel, path: str | Path, *, details: dict[str, Any] | None = None) -> None:
    """Save a camera model; ``details`` (photos used, board, per-photo errors) are kept for people."""
    data = {"format": CAMERA_FORMAT, "version": VERSION, "created_utc": _now(), **camera_model_to_dict(model)}
    if details:
        data["details"] = details
    write_json_atomically(path, data)


def save_table_calibration(cal: TableCalibration, path: str | Path) -> None:
    write_json_atomically(path, table_calibration_to_dict(cal))


# ---------------------------------------------------------------------------------- reading
def read_calibration_json(path: str | Path, expected_format: str) -> Fields:
    """Open a calibration file and check its format and version; fields come back as ``Fields``."""
    p = Path(path)
    redo = _REDO.get(expected_format, "calibrate again")
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationFileError(f"calibration file {str(p)!r} does not exist; {redo}") from None
    except (IsADirectoryError, PermissionError) as exc:
        raise CalibrationFileError(f"calibration file {str(p)!r} cannot be read ({exc.__class__.__name__})") from None
    except UnicodeDecodeError:
        raise CalibrationFileError(f"calibration file {str(p)!r} is not text (corrupt?); {redo}") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise CalibrationFileError(f"calibration file {str(p)!r} is nested too deeply to be a calibration; {redo}") from None
    except json.JSONDecodeError as exc:
        what = "is empty" if not text.strip() else f"is corrupt or truncated (bad JSON at line {exc.lineno}, column {exc.colno})"
        raise CalibrationFileError(f"calibration file {str(p)!r} {what}; {redo}") from None
    if not isinstance(data, dict):
        raise CalibrationFileError(f"calibration file {str(p)!r} holds no calibration; {redo}")
    fmt = data.get("format")
    if fmt != expected_format:
        kind = {CAMERA_FORMAT: "a camera model", TABLE_FORMAT: "a table calibration", PROJECTOR_FORMAT: "a projector calibration"}
        raise CalibrationFileError(
            f"{str(p)!r} is not {kind.get(expected_format, expected_format)} (format = {fmt!r}); give the right file or {redo}"
        )
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise CalibrationFileError(f"{str(p)!r}: version = {version!r} is not a version number; {redo}")
    if version > VERSION:
        raise CalibrationFileError(
            f"{str(p)!r} was written by a newer Sandtable Companion (version {version}; this one reads {VERSION}); "
            f"update the program or {redo}"
        )
    return Fields(data, repr(str(p)), error=CalibrationFileError)


_T = TypeVar("_T")


def _guard(path: str | Path, expected_format: str, build: Callable[[], _T]) -> _T:
    """Run ``build``; any inconsistency inside a well-formed file becomes a CalibrationFileError."""
    try:
        return build()
    except CalibrationFileError:
        raise
    except CalibrationError as exc:
        raise CalibrationFileError(f"calibration file {str(path)!r} is inconsistent: {exc}; {_REDO[expected_format]}") from None


def camera_model_from_fields(f: Fields) -> CameraModel:
    rms = f.data.get("reprojection_rms_px")
    if rms is not None:
        rms = f.number("reprojection_rms_px", minimum=0)
    dist = f.numbers("dist_coeffs", (4, 5, 8, 12, 14))
    return CameraModel(
        width_px=f.integer("width_px", minimum=1),
        height_px=f.integer("height_px", minimum=1),
        fx_px=f.number("fx_px", positive=True),
        fy_px=f.number("fy_px", positive=True),
        cx_px=f.number("cx_px"),
        cy_px=f.number("cy_px"),
        dist_coeffs=dist,
        source=f.string("source", "calibrated"),
        reprojection_rms_px=rms,
    )


def layout_from_dict_fields(f: Fields) -> TableLayout:
    anchors = []
    for a in f.tables("anchors"):
        anchors.append(
            AnchorTag(
                tag_id=a.integer("tag_id", minimum=0, maximum=MAX_ANCHOR_TAG_ID),
                x_in=a.number("x_in"),
                y_in=a.number("y_in"),
                size_in=a.number("size_in", positive=True),
                heading_deg=a.number("heading_deg"),
                z_in=a.number("z_in"),
            )
        )
    return TableLayout(
        width_in=f.number("width_in", positive=True),
        depth_in=f.number("depth_in", positive=True),
        anchors=tuple(anchors),
        unit_tag_size_in=f.number("unit_tag_size_in", positive=True),
    )


def load_camera_model(path: str | Path) -> CameraModel:
    """A camera model saved by ``save_camera_model`` (or the ``camera`` of a table calibration file)."""
    p = Path(path)
    try:
        f = read_calibration_json(p, CAMERA_FORMAT)
    except CalibrationFileError as exc:
        # A table calibration holds a camera model too: accept it where a camera model is asked for.
        try:
            return load_table_calibration(p).model
        except CalibrationFileError:
            raise exc from None
    return _guard(p, CAMERA_FORMAT, lambda: camera_model_from_fields(f))


def load_table_calibration(path: str | Path) -> TableCalibration:
    """A table calibration saved by ``save_table_calibration``; refuses anything else with a fix."""
    p = Path(path)
    f = read_calibration_json(p, TABLE_FORMAT)

    def build() -> TableCalibration:
        method = f.string("method")
        if method not in METHODS:
            raise f.fail("method", f"must be one of {', '.join(METHODS)}")
        camera = f.table("camera")
        pose = f.table("pose")
        layout = f.table("layout")
        for name, part in (("camera", camera), ("pose", pose), ("layout", layout)):
            if part is None:
                raise CalibrationFileError(f"calibration file {str(p)!r}: field {name!r} is missing; {_REDO[TABLE_FORMAT]}")
        assert camera is not None and pose is not None and layout is not None  # the loop above raised otherwise
        h = f.data.get("homography")
        homography = None
        if h is not None:
            arr = np.asarray(h, dtype=object)
            try:
                homography = np.array(h, dtype=np.float64)
            except (TypeError, ValueError):
                raise f.fail("homography", "must be a 3x3 list of numbers or null") from None
            if arr.shape != (3, 3) or not np.all(np.isfinite(homography)):
                raise f.fail("homography", "must be a 3x3 list of numbers or null")
        ids = []
        for key in ("anchors_used", "anchors_rejected"):
            value = f.data.get(key, [])
            if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
                raise f.fail(key, "must be a list of anchor ids")
            ids.append(tuple(value))
        notes = f.data.get("notes", [])
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            raise f.fail("notes", "must be a list of strings")
        return TableCalibration(
            model=camera_model_from_fields(camera),
            pose=CameraPose(rvec=vec3(pose.numbers("rvec", 3)), tvec_in=vec3(pose.numbers("tvec_in", 3))),
            layout=layout_from_dict_fields(layout),
            residual_in=f.number("residual_in", minimum=0),
            method=method,
            max_residual_in=f.number("max_residual_in", 0.0, minimum=0),
            anchors_used=ids[0],
            anchors_rejected=ids[1],
            homography=homography,
            plane_z_in=f.number("plane_z_in", 0.0),
            notes=tuple(notes),
        )

    return _guard(p, TABLE_FORMAT, build)

