"""The files a user keeps, as a user breaks them: a scenario with a typo, a missing or corrupt calibration,
a wrong camera. Each gives one line naming what is wrong and the way on, exit code 2, no traceback."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from appmodel.scenarios import shipped_scenarios

STARTER = next(s for s in shipped_scenarios() if s.name == "starter-skirmish").path
OCCLUSION = Path(__file__).parents[1] / "data" / "tracker_occlusion.toml"


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    err = [line for line in err if not line.startswith("[ WARN")]  # OpenCV's own chatter about devices
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    return err[0]


TYPOS = [
    # (what the user changed, into what, words the one line must contain)
    ("base_radius_in = 0.5 ", "base_raduis_in = 0.5 ", ["starter_skirmish.toml", "Sgt. Reyes", "'base_raduis_in'", "did you mean 'base_radius_in'"]),
    ('weapons = ["M249 SAW"]', 'weapons = ["M429 SAW"]', ["starter_skirmish.toml", "LCpl. Ortiz", "'weapons'", "did you mean 'M249 SAW'"]),
    ('type = "UTV" ', 'type = "UVT" ', ["starter_skirmish.toml", "UTV", "'type'", "UVT"]),
    ('lighting = "day"', 'lighting = "dya"', ["starter_skirmish.toml", "[rules]", "'lighting'", "day, partial darkness, pitch black"]),
    ("  hfov_deg = 70.0 ", "  hfov_dgr = 70.0 ", ["starter_skirmish.toml", "[simulation]", "'hfov_dgr'", "did you mean 'hfov_deg'"]),
    ("tag_id = 12\n", "tag_id = 11\n", ["starter_skirmish.toml", "11"]),
    ("  x_in = 24.0\n", '  x_in = "24"\n', ["starter_skirmish.toml", "'x_in'", "must be a number"]),
    ('color = "#c0392b"', 'color = "#c0392b', ["starter_skirmish.toml", "not valid TOML", "line"]),
]


@pytest.mark.parametrize("old, new, words", TYPOS, ids=[t[1].strip()[:20] for t in TYPOS])
def test_a_scenario_with_a_typo_is_one_line_naming_file_entry_and_field(tmp_path, capsys, old, new, words):
    text = STARTER.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / STARTER.name
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert main(["scenarios", "--check", str(broken)]) == 2
    line = _one_error_line(capsys)
    for word in words:
        assert word in line, (word, line)


def test_every_shipped_scenario_passes_the_check(capsys):
    for scenario in shipped_scenarios():
        assert main(["scenarios", "--check", str(scenario.path)]) == 0
        assert "fine" in capsys.readouterr().out


def test_a_roster_typo_stops_tracking_before_it_starts(tmp_path, capsys):
    broken = tmp_path / "game.toml"
    broken.write_text(STARTER.read_text(encoding="utf-8").replace("facing_offset_deg = 0", "facing_ofset_deg = 0", 1), encoding="utf-8")
    record = tmp_path / "game.sqlite"
    assert main(["track", str(STARTER), "--scenario", str(broken), "--record", str(record), "--max-frames", "1"]) == 2
    assert "did you mean 'facing_offset_deg'" in _one_error_line(capsys)
    assert not record.exists()  # nothing half-made left behind


CALIBRATIONS = [
    ("truncated", '{"format": "sandtable-table-calibration", "version": 1, "method": "pnp", "camera": {', "corrupt or truncated"),
    ("empty", "", "is empty"),
    ("newer", '{"format": "sandtable-table-calibration", "version": 9}', "newer"),
    ("camera model instead", '{"format": "sandtable-camera-model", "version": 1}', "is not a table calibration"),
    ("field missing", '{"format": "sandtable-table-calibration", "version": 1, "method": "pnp"}', "field 'camera' is missing"),
]


@pytest.mark.parametrize("what, content, words", CALIBRATIONS, ids=[c[0] for c in CALIBRATIONS])
def test_a_corrupt_calibration_is_one_line_with_the_way_on(tmp_path, capsys, what, content, words):
    cal = tmp_path / "table.json"
    cal.write_text(content, encoding="utf-8")
    assert main(["track", str(OCCLUSION), "--calibration", str(cal), "--max-frames", "1", "--no-progress"]) == 2
    line = _one_error_line(capsys)
    assert words in line and "table.json" in line
    assert "sandtable calibrate table" in line  # the way on


def test_a_missing_calibration_file_says_how_to_make_one(tmp_path, capsys):
    assert main(["track", str(OCCLUSION), "--calibration", str(tmp_path / "nowhere.json"), "--max-frames", "1"]) == 2
    line = _one_error_line(capsys)
    assert "does not exist" in line and "sandtable calibrate table" in line


def test_a_wrong_camera_index_is_one_line(capsys):
    assert main(["track", "57", "--max-frames", "1"]) == 2
    line = _one_error_line(capsys)
    assert "camera 57" in line and "plugged in" in line


def test_a_corrupt_calibration_in_a_recording_does_not_stop_the_debrief(tmp_path):
    from debrief.report import write_debrief_report
    from tracker.recording import Recorder

    path = tmp_path / "game.sqlite"
    with Recorder(path, metadata={"calibration_json": "{not json", "scenario_toml": "this is = = not toml"}):
        pass
    facts = write_debrief_report(path, tmp_path / "game.html")
    assert any("not valid TOML" in p for p in facts.problems)
    assert facts.table_size_in == (72.0, 48.0)
    assert json.dumps(facts.problems)  # plain sentences, shown in the report's notes
