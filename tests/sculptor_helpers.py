"""The synthetic table filmed while someone sculpts it: the relief helpers' rig, a quick rescan's
patterns, the sand before and after the 4" hill was lowered to 2.5", and a hand over the sand; each
rendered once per test process (the rescan tests, in calibration/ and in the window)."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from calibration.relief_scan import quick_scan_axis
from calibration.structured_light import ScanPatterns
from calibration.synthetic import SyntheticTable
from calibration.synthetic.projected_light import render_lit_sequence
from calibration.terrain import Hill, Terrain
from relief_helpers import CAMERA, CAMERA_POSE, FAULTS, HILLS, LAYOUT, PROJECTOR_MODEL, calibrated_projector, dark_projector, table_calibration

# The sculptor lowers the 4" hill to 2.5" (the target wants it at 2.5").
LOWERED = Terrain(hills=(Hill(24.0, 30.0, 10.0, 2.5), Hill(50.0, 18.0, 8.0, 3.0)))
HILL_TOP_IN = (24.0, 30.0)
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
    out[200:330, x_px:x_px + 90] = (190, 205, 235)  # lit by the projector: nearer it than the sand
    out[300:540, x_px + 20:x_px + 70] = (180, 195, 225)
    return out


class SculptedTable:
    """The camera over the synthetic table while it is sculpted: ``which`` sand, lit by ``shown``
    (a quick-scan pattern, or None: the overlays), with a hand at ``hand_x`` (None: no hands)."""

    def __init__(self, which: str = "hills") -> None:
        self.which = which
        self.hand_x: int | None = None
        self.count = 0
        #: the projector's overlay picture changes (brighter light on the sand)
        self.overlay_level = 0
        self.images = patterns().images()
        self._by_bytes = {img.tobytes(): k for k, img in enumerate(self.images)}

    def frame(self, shown: np.ndarray | bytes | None) -> np.ndarray:
        still, lit = filmed(self.which)
        self.count += 1
        if shown is None:
            f = still[self.count % STILL_COPIES]
            if self.overlay_level:
                f = np.clip(f.astype(np.int16) + self.overlay_level, 0, 255).astype(np.uint8)
        else:
            f = lit[self._by_bytes[shown if isinstance(shown, bytes) else np.ascontiguousarray(shown).tobytes()]]
        return f if self.hand_x is None else with_hand(f, self.hand_x)


@dataclass(frozen=True)
class Tracked:
    poses: tuple
    t_s: float


class CameraOverTheSculptedTable:
    """The window's live feed: the synthetic table filmed with whatever the projector window shows (a
    rescan's pattern, else the overlays), a hand over it when the test puts one there."""

    def __init__(self) -> None:
        self.table = SculptedTable("hills")
        self.window: Any = None
        self.patterns_under_hands = 0
        self.polls_while_computing = 0
        self.lit = False

    def poll(self) -> Any:
        from appmodel.tracking.live_tracking import LiveUpdate

        pattern = None if self.window is None or self.window.projector is None else self.window.projector.pattern
        shown = None if pattern is None else bytes(pattern.constBits())[: pattern.sizeInBytes()]
        if shown is not None and self.table.hand_x is not None:
            self.patterns_under_hands += 1
        if self.table.hand_x is not None:
            self.table.hand_x = 300 + (self.table.hand_x + 37) % 200  # hands moving about
        rescans = self.window.live_presenter.rescans if self.window is not None else None
        if rescans is not None and rescans.computing:
            self.polls_while_computing += 1  # the live tick goes on while the worker computes
        self.lit = shown is not None
        # the tracker's poses of this very frame (none found: what matters is whether they reach the session)
        return LiveUpdate(self.table.frame(shown), Tracked(poses=(), t_s=self.table.count / 30.0), ())

    def stop(self) -> None:
        pass


def sculpting_window() -> tuple[Any, CameraOverTheSculptedTable]:
    """The companion window on the sculpted synthetic table (not yet shown): the target is the
    lowered hill, the live feed films the projector window's picture, the projector is calibrated in
    3-D (the relief helpers' rig)."""
    from appmodel.game_session import GameSession
    from calibration.ground_projection import GroundProjection
    from gui.app import create_application
    from gui.main_window import MainWindow
    from gui.settings import AppSettings
    from rules.downrange.examples.in_depth import SCENARIO_PATH
    from rules.terrain_sight import Ground

    create_application()
    session = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
    yy, xx = np.mgrid[0:193, 0:289] * 0.25
    session.set_sand_map(session.sand.with_(target_ground=Ground(LOWERED.height_at(xx, yy), 0.25)))
    feed = CameraOverTheSculptedTable()
    w = MainWindow(session, settings=AppSettings(projector_screen=0), store=None, calibration=table_calibration(),
                   projector_calibration=GroundProjection(calibrated_projector()), live=feed)
    feed.window = w
    return w, feed
