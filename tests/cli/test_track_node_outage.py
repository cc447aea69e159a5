"""`sandtable track --node ... --jsonl` while its camera node is killed and started again: the outage
is a line of its own when it happens (source_lost, then source_back with its length), not silence
until the node is back; a node that never comes back ends the run after --give-up-after (exit 3)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_track_several_cameras import _free_port, two_cameras  # noqa: E402,F401  (the fixture)
from test_track_stream_outage import Track  # noqa: E402
from tracker.node_keys import own_key_pair  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_killed_camera_node_is_lost_and_back_in_jsonl_and_give_up_after_ends_the_run(two_cameras, tmp_path,
                                                                                       monkeypatch):
    paths, scenario = two_cameras
    folder, calibration = paths["cam0"]
    long = tmp_path / "frames"  # 200 frames: the node runs 20 s at 10 fps unless killed
    long.mkdir()
    pictures = sorted(folder.iterdir())
    for i in range(200):
        shutil.copy(pictures[i % len(pictures)], long / f"{i:04d}.png")
    table_keys, node_keys = tmp_path / "table-keys", tmp_path / "node-keys"
    monkeypatch.setenv("SANDTABLE_KEYS_DIR", str(table_keys))  # inherited by `track`
    own_key_pair(node_keys, "node")
    own_key_pair(table_keys, "table")
    (node_keys / "tables").mkdir()
    (table_keys / "nodes").mkdir()
    shutil.copy(table_keys / "table.key", node_keys / "tables" / "table.key")
    shutil.copy(node_keys / "node.key", table_keys / "nodes" / "cam0.key")
    port = _free_port()

    def node() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "cli.main", "camera-node", str(long), "--name", "cam0",
                                 "--publish", f"tcp://127.0.0.1:{port}", "--fps", "10", "--keys", str(node_keys)],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    first = node()
    track = Track("--node", f"cam0=tcp://127.0.0.1:{port}", "--calibration", str(calibration),
                  "--scenario", str(scenario), "--no-progress", "--give-up-after", "15")
    second = None
    try:
        track.frames(5)
        first.send_signal(signal.SIGKILL)  # no "end" message: the node is just gone
        first.wait(30)
        lost = track.until(lambda line: line.get("type") == "source_lost", "source_lost")
        second = node()  # started again, same keys and address
        back = track.until(lambda line: line.get("type") == "source_back", "source_back")
        track.frames(3)
        second.send_signal(signal.SIGKILL)
        second.wait(30)
        code, err = track.finish()
    finally:
        for process in (first, second, track.process):
            if process is not None and process.poll() is None:
                process.kill()
    assert lost["camera"] == back["camera"] == "cam0"
    assert back["outage_s"] == pytest.approx(back["t_s"] - lost["t_s"], abs=0.01) and back["outage_s"] > 0
    assert code == 3 and "gave up: no frame from cam0" in err, err[-2000:]
    assert "Traceback" not in err
    assert os.environ["SANDTABLE_KEYS_DIR"] == str(table_keys)
