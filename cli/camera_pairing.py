"""Before several cameras are tracked: is each ``--calibration`` file the one of its camera?

Only file sources are looked at (a video or a folder is opened a second time for its first picture);
a live camera is not opened twice, and a camera node sends no pictures.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any


def check_calibration_order(plan: Any, calibrations: dict[str, Any]) -> None:
    """One line naming which file goes with which camera when the files were given in the wrong order."""
    import cv2

    from appmodel.errors import UsageError
    from calibration.camera_pairing import anchor_fit_in, better_pairing
    from tracker.detections import detect_tags, detector_for_this_thread
    from tracker.sources import open_source

    fits: dict[str, dict[str, float]] = {}
    for name, spec in zip(plan.local_names, plan.specs):
        if not Path(str(spec)).exists():
            return  # a live camera: not opened twice
        source = open_source(str(spec))
        try:
            frame = source.read()
        finally:
            source.close()
        image = getattr(frame, "image_bgr", None)
        if image is None:  # nothing to look at (an empty file, a recording's poses): tracking will say so
            return
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        found = detect_tags(detector_for_this_thread(), grey)
        size = (image.shape[1], image.shape[0])
        fits[name] = {other: anchor_fit_in(cal, found.tag_ids, found.corners_px, size) for other, cal in calibrations.items()
                      if other in plan.local_names}
    pairing = better_pairing(fits) if len(fits) > 1 else None
    if pairing is None:
        return
    files = dict(zip(plan.names, plan.calibration_files))
    wanted = [files[pairing[n]] if n in pairing else files[n] for n in plan.names]
    raise UsageError("the --calibration files are not in the cameras' order: "
                     + "; ".join(f"{n} goes with {Path(files[pairing[n]]).name}" for n in plan.local_names if pairing[n] != n)
                     + " — give " + " ".join(f"--calibration {w}" for w in wanted))
