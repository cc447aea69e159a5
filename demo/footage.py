"""Filming the story: the synthetic table's simulated webcam over the demo table, and its registration.

The camera is a wide-angle webcam over the middle of the table's near edge, tilted 20 degrees, with
the faults of real footage (sensor noise, focus blur, motion blur of moving tags, uneven light, JPEG).
At 1920x1080 a 1" unit tag is about 22 px wide, which the tracker reads reliably (docs/tracker.md);
at 1280x720 it is 15 px and half of them are missed, so the demo films in 1080p and keeps the
scenario's 1" tags (bases must be able to touch: a medic treats a unit next to it).

The table carries the scenario's terrain (``[terrain]``: the patrol's rooftop is a 3" rise): the
footage shows tags standing on it, and :attr:`DemoCamera.terrain` is what the tracker is given to
measure them there (the rules of Force on Force read the elevation).

The table is registered the way a user does it (:func:`register_demo_table`): the anchors are
found in the first frame and :func:`calibration.table_registration.register_table` fits the camera's
pose. Only the lens model is taken as known, standing in for the user's ``camera.json`` from
``sandtable calibrate camera``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from calibration.synthetic import Faults, SyntheticScenario, SyntheticTable, overhead_pose, webcam_model
from calibration.table_layout import TableLayout
from calibration.terrain import Terrain
from demo.story import DemoStory

#: The demo camera's picture size.
DEMO_SIZE_PX = (1920, 1080)
#: A webcam's faults (as the synthetic table's hill-203 footage has them).
DEMO_FAULTS = Faults(noise_sigma=2.0, blur_px=0.7, motion_blur=True, jpeg_quality=85, uneven_light=0.25,
                     exposure_s=1.0 / 60.0)
CAMERA_TILT_DEG = 20.0


@dataclass(frozen=True)
class DemoCamera:
    """The film crew: the story's units on the synthetic table, seen by the demo webcam."""

    scenario: SyntheticScenario

    @property
    def size_px(self) -> tuple[int, int]:
        return self.scenario.table.size_px

    @property
    def model(self) -> Any:
        return self.scenario.table.model

    @property
    def layout(self) -> TableLayout:
        return self.scenario.table.layout

    @property
    def terrain(self) -> Terrain | None:
        """The table's terrain for the tracker (None for a flat table: nothing to correct)."""
        terrain = self.scenario.table.terrain
        return None if terrain.is_flat else terrain


def demo_camera(story: DemoStory, *, size_px: tuple[int, int] = DEMO_SIZE_PX, faults: Faults = DEMO_FAULTS,
                seed: int = 6) -> DemoCamera:
    """The synthetic footage of ``story``: frame i shows the table at t = i / fps."""
    from calibration.table_setup import load_table_setup

    table_cfg = story.scenario.get("table", {})
    layout = TableLayout.default(float(table_cfg.get("width_in", 72.0)), float(table_cfg.get("depth_in", 48.0)))
    terrain = load_table_setup(story.scenario_path).terrain
    model = webcam_model(*size_px)
    table = SyntheticTable(layout=layout, model=model, pose=overhead_pose(layout, tilt_deg=CAMERA_TILT_DEG),
                           terrain=None if terrain.is_flat else terrain, texture_seed=seed, supersample=2,
                           background_supersample=1)
    scenario = SyntheticScenario(path="<demo>", name=str(story.scenario.get("name", "demo")), fps=story.timing.fps,
                                 duration_s=story.frame_count / story.timing.fps, seed=seed, table=table,
                                 faults=faults, units=story.paths)
    return DemoCamera(scenario)


def register_demo_table(camera: DemoCamera, image_bgr: Any) -> Any:
    """The table calibration from one frame's anchors (``RegistrationError`` if too few are seen)."""
    import cv2

    from calibration.table_registration import register_table
    from tracker.detections import detect_tags, detector_for_this_thread

    detections = detect_tags(detector_for_this_thread(), cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY))
    return register_table(detections.tag_ids, detections.corners_px, camera.model, camera.layout)


__all__ = ["DEMO_FAULTS", "DEMO_SIZE_PX", "DemoCamera", "demo_camera", "register_demo_table"]
