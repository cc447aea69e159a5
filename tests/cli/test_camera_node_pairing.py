"""Pairing as a user meets it on the command line: a node paired with no table, and a table asked to
hear a node it is not paired with, each stop at once with one line naming the file to copy."""
from __future__ import annotations

from cli.main import main


def test_a_camera_node_paired_with_no_table_stops_saying_which_files_to_copy(tmp_path, capsys) -> None:
    code = main(["camera-node", "0", "--name", "left", "--keys", str(tmp_path / "keys"), "--max-frames", "1"])
    err = capsys.readouterr().err
    assert code == 2
    lines = [line for line in err.splitlines() if "error" in line]
    assert len(lines) == 1 and "node.key" in lines[0] and "tables" in lines[0] and "nodes/left.key" in lines[0]
    assert (tmp_path / "keys" / "node.key").exists(), "the node's key pair was not made on its first run"


def test_track_with_a_node_it_is_not_paired_with_stops_naming_the_key_file(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("SANDTABLE_KEYS_DIR", str(tmp_path / "keys"))
    calibration = tmp_path / "left.json"
    calibration.write_text("{}")
    code = main(["track", "--node", "left=tcp://127.0.0.1:5999", "--calibration", str(calibration), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    lines = [line for line in err.splitlines() if "error" in line]
    assert len(lines) == 1 and "nodes/left.key" in lines[0] and "Traceback" not in err
