"""The first-run walkthrough of `sandtable run`, step by step, without Qt: what each step does and says.

:mod:`gui.setup_wizard` shows these steps as pages; this module does the work and words the results,
so the steps are tested on their own (the synthetic table stands in for the camera):

1. **print the tags**: the anchor set for the scenario's table and the unit tags of its roster, as
   exact-size PDFs (:func:`write_tags_for`);
2. **place the anchors**: which anchors the camera sees in a frame, which are missing and where they
   belong (:func:`check_anchors`);
3. **lens (optional)**: a ``camera.json`` from ``sandtable calibrate camera``, or none (the lens is
   then fitted to the anchors, about half an inch of error on a wide-angle webcam);
4. **register the table** from one frame: the residual in inches and a verdict — good, usable, or
   retry, with what to fix (:func:`register_frame`);
5. **projector (optional)**: an existing ``projector.json``, or calibrate it from the window later;
6. **remember** the files in the settings, so the next run starts directly (:func:`remember`).

Finding the calibration to use (:func:`find_calibration`) decides whether the walkthrough is needed.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

#: Registration residuals (RMS, inches) and what they mean to a player measuring ranges.
GOOD_RESIDUAL_IN = 0.05
USABLE_RESIDUAL_IN = 0.15


def verdict_rule() -> str:
    """The verdict's rule in words, as :func:`register_from_frame` applies it (shown before the capture, so
    the words and the verdict never disagree: a small error without a lens file is "usable", not "good")."""
    return (f"Good: under {GOOD_RESIDUAL_IN:g} in with a lens file and three anchors or more; usable: under "
            f"{USABLE_RESIDUAL_IN:g} in (without a lens file even a small error is only usable, since the lens between "
            "the anchors is a guess); above that, capture again.")


@dataclass(frozen=True)
class CalibrationChoice:
    """The table calibration ``sandtable run`` would use: loaded, or why not (``problem``)."""

    path: Path | None
    calibration: Any | None
    problem: str = ""
    explicit: bool = False

    @property
    def needs_walkthrough(self) -> bool:
        return self.calibration is None


def find_calibration(explicit: str | None, remembered: str, *, default_path: Path) -> CalibrationChoice:
    """The calibration given on the command line, else the one remembered from the last run.

    A missing file means "walk the user through calibrating" (saved at that path, or at
    ``default_path`` when none was named). A file that exists but cannot be read is a problem the
    caller reports: given explicitly it is an error (``CalibrationFileError``, one line); remembered,
    the walkthrough starts with a word on why.
    """
    from calibration.errors import CalibrationError
    from calibration.files import load_table_calibration

    if explicit:
        path = Path(explicit).expanduser()
        if not path.exists():
            return CalibrationChoice(path, None, f"{path} does not exist yet: the walkthrough will create it", True)
        return CalibrationChoice(path, load_table_calibration(path), "", True)
    if remembered:
        path = Path(remembered)
        if not path.exists():
            return CalibrationChoice(path, None, f"the table calibration used last time, {path}, is gone; "
                                     "calibrate again (it takes a minute)")
        try:
            return CalibrationChoice(path, load_table_calibration(path))
        except CalibrationError as exc:
            return CalibrationChoice(path, None, f"the table calibration used last time cannot be used ({exc})")
    return CalibrationChoice(default_path, None, "this is the first run with this camera: let us calibrate the table")


# ---------------------------------------------------------------------------------- 1. tags
@dataclass(frozen=True)
class PrintedSheets:
    files: tuple[Path, ...]
    message: str


def write_tags_for(scenario_path: str | Path, folder: str | Path) -> PrintedSheets:
    """The anchor set of the scenario's table and its roster's unit tags (one PDF per tag size) in
    ``folder``; existing files of the same name are replaced (they are printouts, not records)."""
    from calibration.table_setup import load_table_setup
    from appmodel.errors import UsageError
    from printing.roster_labels import roster_labels
    from printing.tag_sheets import anchor_labels, check_one_size, write_tag_sheets

    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"{str(folder)!r} is not a folder; choose where the PDFs go")
    layout = load_table_setup(scenario_path).layout
    size = check_one_size(layout)
    anchors = folder / "anchors.pdf"
    write_tag_sheets(anchors, anchor_labels(layout), size_in=size,
                     title=f"Anchor tags for a {layout.width_in:g} x {layout.depth_in:g} in table ({size:g} in, tag36h11)",
                     hint="Tape each anchor flat where its label says. The origin corner is next to anchor 0; "
                          "+x runs toward anchor 1, +y toward anchor 3.", label_strip_in=0.75, note_lines=4)
    files = [anchors]
    for tag_size, labels in sorted(roster_labels(scenario_path, default_size_in=layout.unit_tag_size_in).items()):
        path = folder / f"unit-tags-{tag_size:g}in.pdf"
        write_tag_sheets(path, labels, size_in=tag_size, title=f"Unit tags of {Path(scenario_path).name} ({tag_size:g} in, tag36h11)")
        files.append(path)
    names = ", ".join(p.name for p in files)
    return PrintedSheets(tuple(files), f"Wrote {names} to {folder}. Print at 100% (actual size, no 'fit to page') and "
                                       "check the 1-inch bar with a ruler.")


# ---------------------------------------------------------------------------------- 2. anchors
@dataclass(frozen=True)
class AnchorCheck:
    """Which of the layout's anchors one frame shows; ``expected_px``: where in the picture each missing
    anchor should be (its four corners, predicted from the anchors seen; empty when too few are seen)."""

    found: tuple[int, ...]
    missing: tuple[int, ...]
    corners_px: dict[int, Any]
    message: str
    expected_px: dict[int, Any] = field(default_factory=dict)

    @property
    def enough(self) -> bool:
        return len(self.found) >= 3

    @property
    def expected_rough(self) -> bool:
        """Whether ``expected_px`` is a rough guess: two anchors seen cannot tell the camera's tilt well."""
        return bool(self.expected_px) and len(self.found) < 3


def describe_place(anchor: Any, layout: Any) -> str:
    """Where an anchor sits, in words a person at the table uses (the origin corner is near left).

    >>> from calibration.table_layout import TableLayout
    >>> layout = TableLayout.default()
    >>> [describe_place(a, layout) for a in layout.anchors]
    ['near left corner', 'near right corner', 'far right corner', 'far left corner']
    """
    horizontal = "left" if anchor.x_in < layout.width_in / 3 else "right" if anchor.x_in > 2 * layout.width_in / 3 else "middle"
    vertical = "near" if anchor.y_in < layout.depth_in / 3 else "far" if anchor.y_in > 2 * layout.depth_in / 3 else "middle"
    if horizontal == vertical == "middle":
        return "middle of the table"
    if "middle" in (horizontal, vertical):
        return f"{vertical if horizontal == 'middle' else horizontal} edge"
    return f"{vertical} {horizontal} corner"


def check_anchors(image_bgr: Any, layout: Any) -> AnchorCheck:
    """Detect the anchors in a frame and say which are missing and where they belong."""
    import cv2

    from tracker.detections import detect_tags, detector_for_this_thread

    # Full resolution, as the registration reads the same frame: a decimated search missed the far anchors
    # of a 960x540 picture (the walkthrough said anchor 3 was missing while it was plainly in view, and
    # the next page used it).
    detections = detect_tags(detector_for_this_thread(quad_decimate=1.0, nthreads=2), cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY))
    wanted = layout.anchor_ids
    corners = {int(i): c for i, c in zip(detections.tag_ids.tolist(), detections.corners_px) if int(i) in wanted}
    found = tuple(sorted(corners))
    missing = tuple(i for i in sorted(wanted) if i not in corners)
    expected = expected_anchor_corners_px(corners, missing, layout, image_bgr.shape[1::-1])
    if not missing:
        message = f"All {len(found)} anchors are in view."
    else:
        places = "; ".join(f"anchor {i} belongs at the {describe_place(layout.anchor(i), layout)} "
                           f"({layout.anchor(i).x_in:g}, {layout.anchor(i).y_in:g}) in" for i in missing)
        lead = f"Anchors in view: {', '.join(map(str, found))}. " if found else "No anchor is in view. "
        marked = (" The picture marks " + ("about " if len(found) < 3 else "") + "where each should be.") if expected else ""
        message = (f"{lead}Missing: {places}.{marked} Check each is taped flat, uncovered and inside the picture "
                   "(three are enough, four are steadier).")
    return AnchorCheck(found, missing, corners, message, expected)


def expected_anchor_corners_px(seen_px: dict[int, Any], missing: tuple[int, ...], layout: Any,
                               size_px: tuple[int, int]) -> dict[int, Any]:
    """Where the ``missing`` anchors should appear in a ``size_px`` picture: the camera's pose solved from
    the corners of the anchors seen (two or more; one says too little) with a plain lens, since the lens
    is not known at this step. On a wide-angle webcam that lands within a few percent of the picture's
    width with three anchors seen, and in the right part of the picture with two."""
    import cv2
    import numpy as np

    from calibration.camera_model import CameraModel, CameraPose
    from calibration.projection import camera_from_table

    if len(seen_px) < 2 or not missing:
        return {}
    table = np.concatenate([layout.anchor(i).corners_in() for i in seen_px]).astype(np.float64)
    pixels = np.concatenate([np.asarray(c, np.float64).reshape(4, 2) for c in seen_px.values()])
    model = CameraModel.default(int(size_px[0]), int(size_px[1]))
    try:
        # IPPE: the two poses a flat target allows; the first fits the corners best.
        count, rvecs, tvecs, _ = cv2.solvePnPGeneric(table, pixels, model.matrix, model.distortion, flags=cv2.SOLVEPNP_IPPE)
    except cv2.error:
        return {}
    if not count:
        return {}
    pose = CameraPose(tuple(np.ravel(rvecs[0])), tuple(np.ravel(tvecs[0])))
    out = {}
    for i in missing:
        corners = camera_from_table(layout.anchor(i).corners_in(), model, pose)
        if np.all(np.isfinite(corners)):
            out[i] = corners
    return out


# ---------------------------------------------------------------------------------- 4. register
@dataclass(frozen=True)
class Registration:
    """A registration from one frame and what it means: ``verdict`` is "good", "usable" or "retry"."""

    calibration: Any | None
    verdict: str
    message: str

    @property
    def residual_in(self) -> float | None:
        return None if self.calibration is None else float(self.calibration.residual_in)


def register_frame(image_bgr: Any, layout: Any, camera_model: Any | None = None) -> Registration:
    """Register the table from ``image_bgr``'s anchors (with the lens model, or fitting one)."""
    import math

    import cv2

    from calibration.camera_model import CameraModel
    from calibration.errors import CalibrationError
    from calibration.table_registration import register_table
    from tracker.detections import detect_tags, detector_for_this_thread

    h, w = image_bgr.shape[:2]
    if camera_model is None:
        model = CameraModel.default(w, h)
    elif tuple(camera_model.size_px) != (w, h):
        if abs(camera_model.width_px / camera_model.height_px - w / h) > 0.01:
            return Registration(None, "retry", f"The camera gives {w}x{h} pictures but the lens file was made at "
                                f"{camera_model.width_px}x{camera_model.height_px}, another shape: calibrate the lens at "
                                "this resolution, or go back and skip the lens file.")
        model = camera_model.scaled_to(w, h)
    else:
        model = camera_model
    detections = detect_tags(detector_for_this_thread(nthreads=2), cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY))
    try:
        cal = register_table(detections.tag_ids, detections.corners_px, model, layout)
    except CalibrationError as exc:
        return Registration(None, "retry", f"The table could not be registered: {exc}")
    cam = cal.pose.camera_position_in
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, -cal.pose.rotation[2][2]))))
    where = (f"The camera is {cam[2]:.0f} in above the table at ({cam[0] + 0.0:.0f}, {cam[1] + 0.0:.0f}) in, tilted "
             f"{tilt:.0f} degrees. "
             f"Anchors used: {', '.join(map(str, cal.anchors_used))}"
             + (f"; set aside: {', '.join(map(str, cal.anchors_rejected))} (moved or doubled: check them)"
                if cal.anchors_rejected else "") + ".")
    # the registration's notes are clauses ("uncalibrated camera: ..."): sentences here, after the verdict's
    notes = " ".join(n[:1].upper() + n[1:] + ("" if n.endswith(".") else ".") for n in cal.notes)
    residual = f"Registration error {cal.residual_in:.3f} in RMS ({cal.max_residual_in:.3f} in at worst)."
    if cal.residual_in <= GOOD_RESIDUAL_IN and len(cal.anchors_used) >= 3 and camera_model is not None:
        verdict, advice = "good", "Ranges will be measured to a few hundredths of an inch."
    elif cal.residual_in <= USABLE_RESIDUAL_IN:
        # Without a lens file the anchors fit well but the lens between them is a guess.
        verdict, advice = "usable", ("Usable for a game. For ranges to a few hundredths of an inch, use a lens file "
                                     "(sandtable board, sandtable calibrate camera)" + (", make sure all four anchors "
                                     "are flat and in view," if len(cal.anchors_used) < 3 or camera_model is not None else "")
                                     + " and capture again.")
    else:
        verdict, advice = "retry", ("Too far off to measure ranges: check the anchors are where their labels say and "
                                    "flat, that the table size is right, then capture again.")
    return Registration(cal, verdict, " ".join(x for x in (residual, advice, where, notes) if x))


# ---------------------------------------------------------------------------------- 6. remember
def save_calibration(calibration: Any, path: str | Path) -> Path:
    """Write the table calibration (atomically; the folder is created when missing)."""
    from calibration.files import save_table_calibration

    path = Path(path).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    save_table_calibration(calibration, path)
    return path


def remember(settings: Any, *, camera: str, scenario: str | Path, calibration: str | Path,
             projector: str | Path | None = None) -> Any:
    """The settings with this run's files, so the next `sandtable run` starts directly."""
    changes: dict[str, Any] = {"camera": str(camera), "scenario_path": str(Path(scenario).resolve()),
                               "calibration_path": str(Path(calibration).resolve())}
    if projector:
        changes["projector_calibration_path"] = str(Path(projector).resolve())
    return replace(settings, **changes)


def default_calibration_path() -> Path:
    """Where the walkthrough keeps the table calibration when none is named: the application's data
    folder (``~/.local/share/Sandtable/Sandtable Companion`` on Linux)."""
    from PySide6.QtCore import QStandardPaths

    from gui.settings import APPLICATION, ORGANIZATION

    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(base or Path.home()) / ORGANIZATION / APPLICATION / "table.json"


__all__ = ["AnchorCheck", "CalibrationChoice", "PrintedSheets", "Registration", "check_anchors", "default_calibration_path",
           "describe_place", "expected_anchor_corners_px",
           "find_calibration", "register_frame", "remember", "save_calibration", "write_tags_for"]
