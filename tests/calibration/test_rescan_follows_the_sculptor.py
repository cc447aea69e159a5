"""Following the sculptor on the synthetic table: the sand is reshaped, the hands go, the picture is
still, a quick rescan runs and the guidance shows the new height; hands in view start no rescan, and
hands coming back during one stop it."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.sculpting import guidance_strength
from calibration.sculptor_rescan import RescanFollower, compute_rescan
from calibration.stillness import StillnessWatch
from calibration.structured_light import ScanPatterns
from relief_helpers import calibrated_projector, table_calibration
from sculptor_helpers import HILL_TOP_IN, SculptedTable, patterns

class Sculpting:
    """The follower watching the synthetic table, the projector showing what it asks for."""

    def __init__(self, follower: RescanFollower, camera: SculptedTable) -> None:
        self.follower, self.camera = follower, camera
        self.shown: np.ndarray | None = None
        self.captured: tuple[np.ndarray, ...] = ()

    def run(self, frames: int, *, hands_from: int | None = None) -> list[str]:
        """Offer ``frames`` camera frames, doing what each step asks; the kinds of the steps, in order."""
        kinds = []
        for k in range(frames):
            if hands_from is not None and k >= hands_from:
                self.camera.hand_x = 300 + 40 * (k % 5)  # hands moving about
            step = self.follower.offer(self.camera.frame(self.shown))
            kinds.append(step.kind)
            self.shown = step.pattern if step.kind == "show" else None
            if step.kind == "captured":
                self.captured = step.frames
        return kinds


def hill_top_advice(relief) -> float:
    """The guidance's strength at the first hill's top (negative: remove sand) for a 2.5" target."""
    r, c = int(round(HILL_TOP_IN[1] / relief.cell_in)), int(round(HILL_TOP_IN[0] / relief.cell_in))
    target = 2.5
    return float(guidance_strength(np.array([target - relief.heights_in[r, c]]), deadband_in=0.1, saturation_in=0.4)[0])


@pytest.mark.slow
def test_a_still_table_after_sculpting_is_rescanned_and_the_guidance_shows_the_new_height() -> None:
    follower = RescanFollower(patterns(), watch=StillnessWatch(still_frames=4))
    camera = SculptedTable("hills")
    table = Sculpting(follower, camera)
    n = follower.pattern_count * follower.frames_per_pattern
    kinds = table.run(5 + n)
    assert kinds[:4] == ["watching"] * 4 and kinds[4] == "show" and kinds[-1] == "captured"
    first = compute_rescan(patterns(), table.captured, table_calibration(), calibrated_projector())
    assert hill_top_advice(first) == pytest.approx(-1.0)      # the 4" hill: remove sand, full red
    follower.done()

    # a still table is not scanned again and again, nor for the new guidance the projector then shows
    calm = table.run(2)
    camera.overlay_level = 90          # the projector draws the new guidance a frame or two later
    assert set(calm + table.run(30)) == {"watching"}

    # the caller changes the projector's picture (a unit selected): held off, that is no sculptor either
    follower.hold_off()
    camera.overlay_level = 60
    assert set(table.run(30)) == {"watching"}

    # hands reshape the sand: no scan while they move, however long
    camera.which = "lowered"
    assert set(table.run(40, hands_from=0)) == {"watching"}
    camera.hand_x = None
    kinds = table.run(6 + n)
    assert kinds.count("captured") == 1 and "aborted" not in kinds, kinds
    second = compute_rescan(patterns(), table.captured, table_calibration(), calibrated_projector())
    assert abs(second.heights_in[120, 96] - 2.5) < 0.1
    assert hill_top_advice(second) == 0.0                     # now it matches: white


@pytest.mark.slow
def test_hands_coming_back_during_a_rescan_stop_it_and_it_runs_again_once_they_go() -> None:
    follower = RescanFollower(patterns(), watch=StillnessWatch(still_frames=4))
    camera = SculptedTable("hills")
    table = Sculpting(follower, camera)
    kinds = table.run(5 + 9, hands_from=11)  # still, the scan starts, a hand at its fifth pattern
    assert kinds[4] == "show" and "aborted" in kinds and "captured" not in kinds
    assert follower.state == "watching" and "hands" in follower.last_abort
    camera.hand_x = None
    n = follower.pattern_count * follower.frames_per_pattern
    kinds = table.run(5 + n)
    assert kinds.count("captured") == 1                      # the sand is still wanted: scanned once they left


def test_frames_that_are_not_a_scan_are_refused_in_one_line() -> None:
    p = ScanPatterns(128, 64, axes=("columns",))
    grey = np.full((48, 64, 3), 100, np.uint8)
    with pytest.raises(CalibrationError, match="the rescan was not used"):
        compute_rescan(p, tuple(grey for _ in range(p.frame_count)), table_calibration(), calibrated_projector())
    with pytest.raises(CalibrationError, match="frames_per_pattern=0"):
        RescanFollower(p, frames_per_pattern=0)
