"""The one tracking loop: several cameras' files in lockstep, every frame of each, until the last one ends;
its subscribers (the recorder, TUIO) get one stream."""
import math

import cv2
import numpy as np

from calibration.synthetic import Faults, TagPlacement
from calibration.synthetic.camera_rig import CameraRig, seam_layout
from tracker.frames import Frame
from tracker.multi_camera import MultiCameraTracker, register_cameras
from tracker.roster import Roster, UnitSpec
from tracker.sources import ImageFolderSource
from tracker.tracking_loop import Listener, TrackingLoop


def test_two_videos_are_tracked_frame_by_frame_until_the_longer_one_ends(tmp_path):
    layout = seam_layout(96.0, 48.0)
    rig = CameraRig.side_by_side(layout, cameras=2, size_px=(1280, 720), faults=Faults(noise_sigma=2.0))
    placements = [TagPlacement(10, 48.0, 24.0, 1.0, 30.0), TagPlacement(11, 14.0, 30.0, 1.0, 90.0)]
    frames = [rig.render(placements, t_s=i / 10, frame_index=i, rng=np.random.default_rng(i)) for i in range(6)]
    for name, count in (("cam0", 6), ("cam1", 3)):  # camera 1's video is shorter
        (tmp_path / name).mkdir()
        for i in range(count):
            cv2.imwrite(str(tmp_path / name / f"{i:03d}.png"), frames[i].views[name].image_bgr)
    cals = register_cameras({n: Frame(v.image_bgr, 0, 0.0) for n, v in frames[0].views.items()}, {c.name: c.model for c in rig.cameras}, layout)
    roster = Roster(units=(UnitSpec(10, "seam"), UnitSpec(11, "left")))
    results = []
    with MultiCameraTracker(cals, roster=roster) as tracker, \
            ImageFolderSource(tmp_path / "cam0", fps=10.0) as a, ImageFolderSource(tmp_path / "cam1", fps=10.0) as b:
        loop = TrackingLoop(tracker, {"cam0": a, "cam1": b})
        loop.subscribe(Listener(on_frame=lambda r: results.append(r.tracked)))
        rounds = loop.run()
    assert rounds == 6 and [r.t_s for r in results] == [i / 10 for i in range(6)]
    assert [r.seen_by[10] for r in results] == [("cam0", "cam1")] * 3 + [("cam0",)] * 3
    for r in results:
        for p in r.poses:
            truth = next(q for q in placements if q.tag_id == p.tag_id)
            assert math.hypot(p.x_in - truth.x_in, p.y_in - truth.y_in) < 0.03
