"""The synthetic sand table: camera frames of a table with known ground truth.

It is the test oracle for calibration and tracking (every tag's true corners in pixels and position in
table inches come with each frame) and a camera-free source for the demo. See docs/synthetic-table.md.

>>> from calibration.synthetic import SyntheticTable, TagPlacement
>>> table = SyntheticTable()                       # 1280x720 wide-angle webcam over a 72"x48" table
>>> frame = table.render([TagPlacement(10, 36.0, 24.0, 1.0, 90.0)])
>>> frame.image_bgr.shape, sorted(frame.visible_ids)
((720, 1280, 3), [0, 1, 2, 3, 10])
"""
from calibration.synthetic.renderer import SyntheticTable, overhead_pose, webcam_model
from calibration.synthetic.scenario import SyntheticScenario, load_synthetic_scenario
from calibration.synthetic.scene import Faults, Hand, Projector, RenderedFrame, TagPlacement, TagTruth

__all__ = [
    "Faults",
    "Hand",
    "Projector",
    "RenderedFrame",
    "SyntheticScenario",
    "SyntheticTable",
    "TagPlacement",
    "TagTruth",
    "load_synthetic_scenario",
    "overhead_pose",
    "webcam_model",
]
