"""Following the sculptor on the synthetic table: the sand is reshaped, the hands go, the picture is
still, a quick rescan runs and the guidance shows the new height; hands in view start no rescan, and
hands coming back during one stop it."""
from __future__ import annotations

import functools

import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.relief_scan import quick_scan_axis
from calibration.sculpting import guidance_strength
from calibration.sculptor_rescan import RescanFollower, compute_rescan
from calibration.stillness import StillnessWatch
from calibration.structured_light import ScanPatterns
from calibration.synthetic import SyntheticTable
from calibration.synthetic.projected_light import render_lit_sequence
from calibration.terrain import Hill, Terrain
from relief_helpers import CAMERA, CAMERA_POSE, FAULTS, HILLS, LAYOUT, PROJECTOR_MODEL, calibrated_projector, dark_projector, table_calibration

# The sculptor lowers the 4" hill to 2.5" (the target wants it at 2.5").
LOWERED = Terrain(hills=(Hill(24.0, 30.0, 10.0, 2.5), Hill(50.0, 18.0, 8.0, 3.0)))
STILL_COPIES = 6  # distinct noise draws of the overlay frame


@functools.lru_cache(maxsize=1)
def patterns() -> ScanPatterns:
    axis = quick_scan_axis(table_calibration(), calibrated_projector())
    return ScanPatterns(PROJECTOR_MODEL.width_px, PROJECTOR_MODEL.height_px, axes=(axis,))


@functools.lru_cache(maxsize=2)
def filmed(which: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(frames while the projector shows the overlays, frames of each quick-scan pattern) of one sand."""
    terrain = {"hills": HILLS, "lowered": LOWERED}[which]
    images = patterns().images()
    overlay = np.full_like(images[0], 40)  # the guidance's dim light
    frames = render_lit_sequence(SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, terrain), dark_projector(),
                                 [overlay] * STILL_COPIES + images, faults=FAULTS, rng=np.random.default_rng(len(which)))
    return frames[:STILL_COPIES], frames[STILL_COPIES:]


def with_hand(frame: np.ndarray, x_px: int) -> np.ndarray:
    """A hand and forearm over the sand, in the camera's picture."""
    out = frame.copy()
    out[200:330, x_px:x_px + 90] = (90, 120, 170)
    out[300:540, x_px + 20:x_px + 70] = (80, 110, 160)
    return out


class Camera:
    """The camera over the synthetic table: it films whatever the follower has the projector show."""

    def __init__(self, which: str) -> None:
        self.which = which
        self.shown: np.ndarray | None = None
        self.hand_x: int | None = None
        self.count = 0
        self.images = patterns().images()

    def frame(self) -> np.ndarray:
        still, lit = filmed(self.which)
        self.count += 1
        if self.shown is None:
            f = still[self.count % STILL_COPIES]
        else:
            f = lit[next(k for k, img in enumerate(self.images) if np.array_equal(img, self.shown))]
        return f if self.hand_x is None else with_hand(f, self.hand_x)


def run(follower: RescanFollower, camera: Camera, frames: int, *, hands_from: int | None = None) -> list[str]:
    """Offer ``frames`` camera frames, doing what each step asks; the kinds of the steps, in order."""
    kinds = []
    for k in range(frames):
        if hands_from is not None and k >= hands_from:
            camera.hand_x = 300 + 40 * (k % 5)  # hands moving about
        step = follower.offer(camera.frame())
        kinds.append(step.kind)
        camera.shown = step.pattern if step.kind == "show" else None
        if step.kind == "captured":
            follower.captured = step.frames  # type: ignore[attr-defined]
    return kinds


def hill_top_advice(relief) -> float:
    """The guidance's strength at the first hill's top (negative: remove sand) for a 2.5" target."""
    r, c = int(round(30.0 / relief.cell_in)), int(round(24.0 / relief.cell_in))
    target = 2.5
    return float(guidance_strength(np.array([target - relief.heights_in[r, c]]), deadband_in=0.1, saturation_in=0.4)[0])


@pytest.mark.slow
def test_a_still_table_after_sculpting_is_rescanned_and_the_guidance_shows_the_new_height() -> None:
    follower = RescanFollower(patterns(), watch=StillnessWatch(still_frames=4))
    camera = Camera("hills")
    n = follower.pattern_count * follower.frames_per_pattern
    kinds = run(follower, camera, 5 + n)
    assert kinds[:4] == ["watching"] * 4 and kinds[4] == "show" and kinds[-1] == "captured"
    first = compute_rescan(patterns(), follower.captured, table_calibration(), calibrated_projector())  # type: ignore[attr-defined]
    assert hill_top_advice(first) == pytest.approx(-1.0)      # the 4" hill: remove sand, full red
    follower.done()

    # a still table is not scanned again and again
    assert set(run(follower, camera, 30)) == {"watching"}

    # hands reshape the sand: no scan while they move, however long
    camera.which = "lowered"
    assert set(run(follower, camera, 40, hands_from=0)) == {"watching"}
    camera.hand_x = None
    kinds = run(follower, camera, 6 + n)
    assert kinds.count("captured") == 1 and "aborted" not in kinds
    second = compute_rescan(patterns(), follower.captured, table_calibration(), calibrated_projector())  # type: ignore[attr-defined]
    assert abs(second.heights_in[120, 96] - 2.5) < 0.1
    assert hill_top_advice(second) == 0.0                     # now it matches: white


@pytest.mark.slow
def test_hands_coming_back_during_a_rescan_stop_it_and_it_runs_again_once_they_go() -> None:
    follower = RescanFollower(patterns(), watch=StillnessWatch(still_frames=4))
    camera = Camera("hills")
    kinds = run(follower, camera, 5 + 9, hands_from=11)  # still, the scan starts, a hand at its fifth pattern
    assert kinds[4] == "show" and "aborted" in kinds and "captured" not in kinds
    assert follower.state == "watching" and "hands" in follower.last_abort
    camera.hand_x = None
    n = follower.pattern_count * follower.frames_per_pattern
    kinds = run(follower, camera, 5 + n)
    assert kinds.count("captured") == 1                      # the sand is still wanted: scanned once they left


def test_frames_that_are_not_a_scan_are_refused_in_one_line() -> None:
    p = ScanPatterns(128, 64, axes=("columns",))
    grey = np.full((48, 64, 3), 100, np.uint8)
    with pytest.raises(CalibrationError, match="the rescan was not used"):
        compute_rescan(p, tuple(grey for _ in range(p.frame_count)), table_calibration(), calibrated_projector())
    with pytest.raises(CalibrationError, match="frames_per_pattern=0"):
        RescanFollower(p, frames_per_pattern=0)
