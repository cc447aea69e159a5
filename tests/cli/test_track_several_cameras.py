"""`sandtable track` with several cameras, `sandtable camera-node`, `sandtable calibrate coverage`, as a user runs them."""
from __future__ import annotations

import json
import math
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.files import save_table_calibration
from calibration.synthetic import Faults, TagPlacement
from calibration.synthetic.camera_rig import CameraRig, seam_layout
from cli.main import main
from tracker.frames import Frame
from tracker.multi_camera import register_cameras
from tracker.node_keys import own_key_pair
from tuio_helpers import osc_server  # noqa: F401  (a real OSC server)

PLACES = {10: (48.0, 24.0), 11: (14.0, 30.0), 12: (84.0, 12.0)}
SCENARIO = """format = "sandtable-scenario"
version = 1
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


@pytest.fixture(scope="module")
def two_cameras(tmp_path_factory):
    """Five frames of two cameras as image folders, each camera's calibration file, and a scenario."""
    root = tmp_path_factory.mktemp("two_cameras")
    layout = seam_layout(96.0, 48.0)
    rig = CameraRig.side_by_side(layout, cameras=2, size_px=(1280, 720), faults=Faults(noise_sigma=2.0))
    placements = [TagPlacement(i, x, y, 1.0, 30.0) for i, (x, y) in PLACES.items()]
    frames = [rig.render(placements, t_s=i / 10, frame_index=i, rng=np.random.default_rng(i)) for i in range(5)]
    cals = register_cameras({n: Frame(v.image_bgr, 0, 0.0) for n, v in frames[0].views.items()}, {c.name: c.model for c in rig.cameras}, layout)
    paths = {}
    for name in ("cam0", "cam1"):
        folder = root / name
        folder.mkdir()
        for i, f in enumerate(frames):
            cv2.imwrite(str(folder / f"{i:03d}.png"), f.views[name].image_bgr)
        save_table_calibration(cals[name], root / f"{name}.json")
        paths[name] = (folder, root / f"{name}.json")
    scenario = root / "game.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    return paths, scenario


def _check_units(units):
    assert sorted(u["tag_id"] for u in units) == sorted(PLACES)
    for u in units:
        x, y = PLACES[u["tag_id"]]
        assert math.hypot(u["x_in"] - x, u["y_in"] - y) < 0.03, u


def test_two_videos_with_a_calibration_each_give_one_pose_per_unit_per_frame(two_cameras, capsys):
    paths, scenario = two_cameras
    (a, cal_a), (b, cal_b) = paths["cam0"], paths["cam1"]
    code = main(["track", str(a), str(b), "--calibration", str(cal_a), "--calibration", str(cal_b),
                 "--scenario", str(scenario), "--jsonl", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 5 and [line["frame"] for line in lines] == list(range(5))
    _check_units(lines[-1]["units"])
    seam = next(u for u in lines[-1]["units"] if u["tag_id"] == 10)
    assert seam["name"] == "Seam" and seam["cameras"] == ["cam0", "cam1"]
    assert [c["name"] for c in lines[-1]["cameras"]] == ["cam0", "cam1"]
    assert "see 100% of the 96x48 in table" in err


def test_a_calibration_missing_for_a_camera_is_one_line_saying_so(two_cameras, capsys):
    paths, _ = two_cameras
    (a, cal_a), (b, _) = paths["cam0"], paths["cam1"]
    assert main(["track", str(a), str(b), "--calibration", str(cal_a)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "2 cameras" in err and "1 --calibration" in err and "Traceback" not in err
    assert main(["track", str(a), "--node", "tcp://somewhere", "--calibration", str(cal_a)]) == 2
    assert "NAME=tcp://HOST:PORT" in capsys.readouterr().err


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_two_camera_nodes_in_their_own_processes_feed_sandtable_track_over_loopback(two_cameras, capsys, tmp_path,
                                                                                     monkeypatch):
    paths, scenario = two_cameras
    ports = {name: _free_port() for name in paths}
    table_keys = tmp_path / "table-keys"
    monkeypatch.setenv("SANDTABLE_KEYS_DIR", str(table_keys))
    for name in paths:  # paired as docs/tracker.md says: public key files copied both ways
        own_key_pair(tmp_path / name, "node")
        own_key_pair(table_keys, "table")
        (tmp_path / name / "tables").mkdir(exist_ok=True)
        (table_keys / "nodes").mkdir(exist_ok=True)
        shutil.copy(table_keys / "table.key", tmp_path / name / "tables" / "table.key")
        shutil.copy(tmp_path / name / "node.key", table_keys / "nodes" / f"{name}.key")
    nodes = [
        subprocess.Popen([sys.executable, "-m", "cli.main", "camera-node", str(paths[name][0]), "--name", name,
                          "--publish", f"tcp://127.0.0.1:{ports[name]}", "--fps", "10", "--keys", str(tmp_path / name)],
                         cwd=Path(__file__).resolve().parents[2], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for name in paths
    ]
    try:
        # `track` waits for its nodes as long as it takes (a user may start them later): the test does
        # not, so that a node that died says why instead of the suite hanging.
        outcome: dict[str, int] = {}
        args = ["track", "--node", f"cam0=tcp://127.0.0.1:{ports['cam0']}", "--node", f"cam1=tcp://127.0.0.1:{ports['cam1']}",
                "--calibration", str(paths["cam0"][1]), "--calibration", str(paths["cam1"][1]),
                "--scenario", str(scenario), "--jsonl", "--no-progress"]
        runner = threading.Thread(target=lambda: outcome.update(code=main(args)), daemon=True)
        runner.start()
        runner.join(timeout=180)
        if runner.is_alive():
            ended = [node.stderr.read().decode()[-400:] for node in nodes if node.poll() is not None]
            pytest.fail(f"sandtable track still waiting for its nodes after 180 s; nodes that ended said: {ended}")
        code = outcome["code"]
        for node in nodes:
            assert node.wait(timeout=30) == 0, node.stderr.read().decode()
    finally:
        for node in nodes:
            if node.poll() is None:
                node.kill()
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines, "no frame was tracked"
    _check_units(lines[-1]["units"])
    assert "5 frames sent" in nodes[0].stderr.read().decode()


def test_calibrate_coverage_says_and_draws_which_camera_sees_what(two_cameras, tmp_path, capsys):
    paths, _ = two_cameras
    out_png = tmp_path / "views.png"
    assert main(["calibrate", "coverage", str(paths["cam0"][1]), str(paths["cam1"][1]), "--out", str(out_png)]) == 0
    text = capsys.readouterr().out
    assert "2 camera(s) see 100% of the 96x48 in table" in text and "cam0" in text
    image = cv2.imread(str(out_png))
    assert image is not None and image.shape[1] > image.shape[0]


def test_two_cameras_send_their_fused_units_over_tuio_and_record_with_the_first_cameras_video(two_cameras, tmp_path, osc_server, capsys):
    from tracker.recording import RecordingReader
    from tuio_helpers import TuioClientModel

    port, catch = osc_server
    paths, scenario = two_cameras
    (a, cal_a), (b, cal_b) = paths["cam0"], paths["cam1"]
    record = tmp_path / "game.sqlite"
    code = main(["track", str(a), str(b), "--calibration", str(cal_a), "--calibration", str(cal_b), "--scenario", str(scenario),
                 "--record", str(record), "--video", "--tuio", f"127.0.0.1:{port}", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "sending TUIO" in err and "keeps camera cam0's video" in err
    client = TuioClientModel()
    datagrams = catch.wait_for(6)
    for datagram in datagrams[:5]:
        client.feed(datagram)
    assert len(client.frames) == 5
    for tag, obj in client.by_class().items():  # one object per unit, where the fused pose has it
        x, y = PLACES[tag]
        assert obj["x"] == pytest.approx(x / 96.0, abs=1e-3) and obj["y"] == pytest.approx(1 - y / 48.0, abs=1e-3)
    assert set(client.by_class()) == set(PLACES)
    with RecordingReader(record) as reader:
        assert reader.frame_count == 5 and reader.meta["video_camera"] == "cam0"
        assert [c["name"] for c in json.loads(reader.meta["cameras"])] == ["cam0", "cam1"]
        assert reader.video_path is not None and reader.video_path.is_file()
        capture = cv2.VideoCapture(str(reader.video_path))
        ok, image = capture.read()
        capture.release()
        assert ok and image.shape[:2] == (720, 1280)


def test_bare_with_several_cameras_is_one_line_saying_why(two_cameras, capsys):
    paths, _ = two_cameras
    (a, cal_a), (b, cal_b) = paths["cam0"], paths["cam1"]
    assert main(["track", str(a), str(b), "--calibration", str(cal_a), "--calibration", str(cal_b), "--bare"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--bare" in err and "one camera" in err and "Traceback" not in err


def test_calibration_files_given_in_the_wrong_order_are_one_line_naming_which_goes_with_which(two_cameras, capsys):
    """The newcomer's swapped files were tracked 0.17" off with only "anchor 4 is off its mark; put it back"."""
    paths, scenario = two_cameras
    (a, cal_a), (b, cal_b) = paths["cam0"], paths["cam1"]
    code = main(["track", str(a), str(b), "--calibration", str(cal_b), "--calibration", str(cal_a),
                 "--scenario", str(scenario), "--jsonl", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "cam0 goes with cam0.json" in err and "cam1 goes with cam1.json" in err
    assert f"--calibration {cal_a} --calibration {cal_b}" in err


def test_calibrating_a_camera_without_the_layout_names_the_anchors_it_does_not_know(two_cameras, tmp_path, capsys):
    """Forgetting --layout on one camera registered it from anchors 0-3 alone, in the wrong table frame."""
    paths, _ = two_cameras
    folder, _ = paths["cam0"]
    code = main(["calibrate", "table", str(folder / "000.png"), "--table", "96x48", "--out", str(tmp_path / "t.json")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "anchors 4, 5" in err or "anchor 4," in err or "anchor 4 " in err
    assert "--layout FILE" in err and not (tmp_path / "t.json").exists()
