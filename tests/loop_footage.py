"""Footage the tracking loop's tests share: one camera's (the occlusion scenario, a unit under a hand and
a unit lifted) and two cameras' over one table (synthetic rig; a hand over the seam unit that only the
left camera's view has under it), written as image folders with their calibration files, as a user
would hand them to `sandtable track` and `sandtable run`."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.files import save_table_calibration
from calibration.synthetic import Faults, TagPlacement, load_synthetic_scenario
from calibration.synthetic.camera_rig import CameraRig, seam_layout
from calibration.synthetic.scene import Hand
from calibration.table_calibration import TableCalibration
from tracker.frames import Frame
from tracker.multi_camera import register_cameras

OCCLUSION = Path(__file__).parent / "data" / "tracker_occlusion.toml"
#: Every 5th frame of the 30 frames/s scenario: 6 frames/s over 4 s (a hand, a lift, a return).
STEP = 5
ONE_CAMERA_FPS = 30.0 / STEP

TWO_CAMERA_FPS = 10.0
#: Units of the two-camera table: one on the seam (both cameras), one in each camera's own part.
PLACES = {10: (48.0, 24.0), 11: (14.0, 30.0), 12: (84.0, 12.0)}
#: From 0.5 s on, a hand over the seam unit hides it from the left camera only (parallax).
HAND = Hand(45.0, 24.0, 2.0, 6.0)
HAND_FROM_S = 0.5

SCENARIO = """format = "sandtable-scenario"
version = 1
[table]
layout = "layout.toml"
[[sides]]
name = "Blue"
[[units]]
tag_id = 10
name = "Seam"
side = "Blue"
[[units]]
tag_id = 11
name = "Left"
side = "Blue"
[[units]]
tag_id = 12
name = "Right"
side = "Blue"
"""


def one_camera_footage(folder: Path, frames: int = 24) -> tuple[Path, Path]:
    """(image folder, calibration file) of the occlusion scenario at 6 frames/s."""
    scenario = load_synthetic_scenario(OCCLUSION)
    images = folder / "frames"
    images.mkdir(parents=True)
    for k in range(frames):
        cv2.imwrite(str(images / f"{k:03d}.png"), scenario.render_frame(k * STEP).image_bgr)
    calibration = folder / "table.json"
    save_table_calibration(TableCalibration(scenario.table.model, scenario.table.pose, scenario.layout, residual_in=0.0),
                           calibration)
    return images, calibration


@dataclass(frozen=True)
class TwoCameras:
    folders: dict[str, Path]  # camera name -> its image folder (named as the camera)
    calibrations: dict[str, Path]
    scenario: Path
    frames: int
    models: dict[str, Any]  # each camera's lens (what the walkthrough's lens page would load)

    def argv(self) -> list[str]:
        """`--camera A --camera B --calibration a.json --calibration b.json --scenario game.toml`."""
        out = []
        for name in self.folders:
            out += ["--camera", str(self.folders[name])]
        for name in self.folders:
            out += ["--calibration", str(self.calibrations[name])]
        return out + ["--scenario", str(self.scenario)]


def two_camera_footage(root: Path, frames: int = 10) -> TwoCameras:
    """Two cameras side by side over a 96x48" table at 10 frames/s; the hand from :data:`HAND_FROM_S`."""
    layout = seam_layout(96.0, 48.0)
    rig = CameraRig.side_by_side(layout, cameras=2, size_px=(1280, 720), faults=Faults(noise_sigma=2.0))
    placements = [TagPlacement(i, x, y, 1.0, 30.0) for i, (x, y) in PLACES.items()]
    rendered = []
    for i in range(frames):
        t = i / TWO_CAMERA_FPS
        hands = [HAND] if t >= HAND_FROM_S else []
        rendered.append(rig.render(placements, t_s=t, frame_index=i, hands=hands, rng=np.random.default_rng(i)))
    assert rendered[-1].seen_by(10) == ("cam1",), "the hand must hide the seam unit from the left camera only"
    empty = rig.render([], rng=np.random.default_rng(99))
    cals = register_cameras({n: Frame(v.image_bgr, 0, 0.0) for n, v in empty.views.items()},
                            {c.name: c.model for c in rig.cameras}, layout)
    folders, calibrations = {}, {}
    for name in ("cam0", "cam1"):
        folders[name] = root / name
        folders[name].mkdir(parents=True)
        for i, f in enumerate(rendered):
            cv2.imwrite(str(folders[name] / f"{i:03d}.png"), f.views[name].image_bgr)
        calibrations[name] = root / f"{name}.json"
        save_table_calibration(cals[name], calibrations[name])
    scenario = root / "game.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    anchors = "".join(f"[[anchors]]\ntag_id = {a.tag_id}\nx_in = {a.x_in}\ny_in = {a.y_in}\nsize_in = {a.size_in}\n"
                      for a in layout.anchors)
    (root / "layout.toml").write_text(f'format = "sandtable-layout"\nversion = 1\nwidth_in = {layout.width_in}\n'
                                      f"depth_in = {layout.depth_in}\n{anchors}", encoding="utf-8")
    return TwoCameras(folders, calibrations, scenario, frames, {c.name: c.model for c in rig.cameras})
