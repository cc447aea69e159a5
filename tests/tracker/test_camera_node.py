"""A camera node sends its detections (not its video) over ZeroMQ; the table's computer fuses them."""
import math
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.synthetic import Faults, TagPlacement
from calibration.synthetic.camera_rig import CameraRig, seam_layout
from tracker.camera_node import DetectionReceiver, decode_detections, encode_detections
from tracker.detections import TagDetections
from tracker.errors import TrackerError
from tracker.frames import Frame
from tracker.multi_camera import MultiCameraTracker, register_cameras
from tracker.node_keys import own_key_pair
from tracker.roster import Roster, UnitSpec

REPO = Path(__file__).resolve().parents[2]


def pair(tmp_path: Path, name: str):
    """A node's and a table's keys folders, paired as docs/tracker.md says: (node keys, table keys)."""
    node_dir, table_dir = tmp_path / "node-keys", tmp_path / "table-keys"
    node_keys, _ = own_key_pair(node_dir, "node")
    table_keys, _ = own_key_pair(table_dir, "table")
    (node_dir / "tables").mkdir(exist_ok=True)
    (table_dir / "nodes").mkdir(exist_ok=True)
    shutil.copy(table_dir / "table.key", node_dir / "tables" / "table.key")
    shutil.copy(node_dir / "node.key", table_dir / "nodes" / f"{name}.key")
    return node_keys, table_keys


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_batch_survives_the_message_to_a_thousandth_of_a_pixel():
    corners = np.array([[[10.12345, 20.5], [0.25, 20.5], [0.25, 30.0], [10.0, 30.0]]])
    dets = TagDetections(np.array([12]), corners, corners.mean(axis=1), np.array([55.5]), np.array([1]), frame_index=7, t_s=0.25, frame_size_px=(1920, 1080))
    name, back = decode_detections(encode_detections("left", dets))
    assert name == "left" and back.tag_ids.tolist() == [12] and back.hammings.tolist() == [1]
    assert np.abs(back.corners_px - corners).max() <= 0.0005
    assert (back.frame_index, back.t_s, back.frame_size_px) == (7, 0.25, (1920, 1080))
    empty = decode_detections(encode_detections("left", TagDetections.empty(frame_index=3)))[1]
    assert len(empty) == 0 and empty.frame_index == 3
    assert decode_detections(encode_detections("left", TagDetections.empty(), end=True)) == ("left", None)


def test_foreign_or_newer_messages_are_refused_with_what_to_do():
    with pytest.raises(TrackerError, match="another program"):
        decode_detections(b"GET / HTTP/1.1")
    with pytest.raises(TrackerError, match="same sandtable version"):
        decode_detections(b'{"format": "sandtable-detections", "version": 9, "camera": "left"}')


NODE_SCRIPT = textwrap.dedent("""
    import sys
    from pathlib import Path
    from tracker.camera_node import DetectionSender, run_camera_node
    from tracker.node_keys import own_key_pair, paired_tables
    from tracker.sources import ImageFolderSource
    folder = Path(sys.argv[4])
    sender = DetectionSender(sys.argv[2], keys=own_key_pair(folder, "node")[0], tables=paired_tables(folder))
    with ImageFolderSource(sys.argv[1], fps=10.0) as source:
        run_camera_node(source, sender, camera=sys.argv[3])
    sender.close()
""")


@pytest.mark.slow
def test_a_camera_node_in_another_process_feeds_the_fusion_over_loopback(tmp_path):
    layout = seam_layout(96.0, 48.0)
    rig = CameraRig.side_by_side(layout, cameras=2, size_px=(1280, 720), faults=Faults(noise_sigma=2.0))
    placements = [TagPlacement(10, 48.0, 24.0, 1.0, 30.0), TagPlacement(11, 14.0, 30.0, 1.0, 90.0), TagPlacement(12, 84.0, 12.0, 1.0, 0.0)]
    frames = [rig.render(placements, t_s=i / 10, frame_index=i) for i in range(5)]
    folder = tmp_path / "cam0"
    folder.mkdir()
    for i, f in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:03d}.png"), f.views["cam0"].image_bgr)
    cals = register_cameras({n: Frame(v.image_bgr, 0, 0.0) for n, v in frames[0].views.items()}, {c.name: c.model for c in rig.cameras}, layout)
    roster = Roster(units=tuple(UnitSpec(tag_id=i, name=f"u{i}") for i in (10, 11, 12)))
    address = f"tcp://127.0.0.1:{_free_port()}"

    node_keys, table_keys = pair(tmp_path, "cam0")
    node = subprocess.Popen([sys.executable, "-c", NODE_SCRIPT, str(folder), address, "cam0", str(tmp_path / "node-keys")],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    received = []
    try:
        with DetectionReceiver([("cam0", address, node_keys.public_z85)], keys=table_keys) as receiver:
            while "cam0" not in receiver.ended:
                # Only a broken node makes this wait run out: the node's start (Python, OpenCV, the
                # detector) took over 20 s on a loaded 2-core machine.
                got = receiver.receive(timeout_s=120.0)
                assert got or "cam0" in receiver.ended, "the node sent nothing within 120 s"
                received += got
        assert node.wait(timeout=120) == 0, node.stderr.read().decode()
    finally:
        if node.poll() is None:
            node.kill()
    assert [name for name, _ in received] == ["cam0"] * len(frames)
    assert [d.frame_index for _, d in received] == list(range(len(frames)))

    with MultiCameraTracker(cals, roster=roster) as remote, MultiCameraTracker(cals, roster=roster) as local:
        for f, (_, dets) in zip(frames, received):
            cam1 = Frame(f.views["cam1"].image_bgr, f.frame_index, f.t_s)
            over_network = remote.process({"cam1": cam1}, detections={"cam0": dets})
            here = local.process({"cam0": Frame(f.views["cam0"].image_bgr, f.frame_index, f.t_s), "cam1": cam1})
    assert over_network.seen_by[10] == ("cam0", "cam1") and over_network.seen_by[11] == ("cam0",)
    for p in over_network.poses:
        truth = next(q for q in placements if q.tag_id == p.tag_id)
        assert math.hypot(p.x_in - truth.x_in, p.y_in - truth.y_in) < 0.03
        same = here.pose(p.tag_id)
        assert math.hypot(p.x_in - same.x_in, p.y_in - same.y_in) < 0.001, "the network changes nothing"
