"""`sandtable detect` and `sandtable track` as a user runs them: JSON shapes, recording, replay, errors."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from calibration.files import save_table_calibration
from calibration.synthetic import load_synthetic_scenario
from calibration.table_calibration import TableCalibration
from cli.main import main
from tracker.recording import RecordingReader

SCENARIO = Path(__file__).parents[1] / "data" / "tracker_occlusion.toml"


@pytest.fixture(scope="module")
def footage(tmp_path_factory):
    """Frames 0-19 of the occlusion scenario as PNGs, and the camera's calibration file."""
    folder = tmp_path_factory.mktemp("frames")
    scenario = load_synthetic_scenario(SCENARIO)
    truth = None
    for i in range(20):
        rendered = scenario.render_frame(i)
        cv2.imwrite(str(folder / f"frame{i}.png"), rendered.image_bgr)
        truth = truth or {t.tag_id: t for t in rendered.truth}
    cal_path = folder.parent / "table.json"
    save_table_calibration(TableCalibration(scenario.table.model, scenario.table.pose, scenario.layout, residual_in=0.0), cal_path)
    return folder, cal_path, truth


def test_detect_prints_one_json_object_with_pixels_and_table_inches(footage, capsys):
    folder, cal, truth = footage
    assert main(["detect", str(folder / "frame0.png"), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    ids = [d["tag_id"] for d in plain["detections"]]
    assert ids == sorted(ids) and {10, 11, 12, 13, 14} <= set(ids)
    first = plain["detections"][0]
    assert len(first["corners_px"]) == 4 and len(first["center_px"]) == 2 and "table_in" not in first
    assert main(["detect", str(folder / "frame0.png"), "--calibration", str(cal), "--scenario", str(SCENARIO), "--json"]) == 0
    calibrated = {d["tag_id"]: d for d in json.loads(capsys.readouterr().out)["detections"]}
    still_b = calibrated[14]  # base 1.5" from the scenario: height-aware
    assert still_b["name"] == "Still B" and still_b["z_in"] == 1.5
    assert abs(still_b["table_in"][0] - truth[14].x_in) < 0.05 and abs(still_b["table_in"][1] - truth[14].y_in) < 0.05
    assert abs(calibrated[10]["heading_deg"] - 90.0) < 1.0
    assert {calibrated[i]["kind"] for i in (10, 11, 12, 13, 14)} == {"unit"}


def test_track_prints_one_json_line_per_frame_and_records_the_session(footage, tmp_path, capsys):
    folder, cal, truth = footage
    record = tmp_path / "session.sqlite"
    code = main(["track", str(folder), "--calibration", str(cal), "--scenario", str(SCENARIO), "--record", str(record), "--video", "--jsonl"])
    assert code == 0
    out = capsys.readouterr()
    lines = [json.loads(line) for line in out.out.splitlines()]
    assert [line["frame"] for line in lines] == list(range(20))  # every frame, none skipped
    assert lines[1]["t_s"] == pytest.approx(1 / 30, abs=1e-3)
    unit = next(u for u in lines[-1]["units"] if u["tag_id"] == 13)
    assert unit["name"] == "Still A" and unit["state"] == "seen"
    assert abs(unit["x_in"] - truth[13].x_in) < 0.05 and abs(unit["y_in"] - truth[13].y_in) < 0.05
    assert "frames" in out.err  # the progress bar
    with RecordingReader(record) as rec:
        assert rec.problems == [] and rec.frame_count == 20
        assert {p.tag_id for p in rec.poses_at(0.5)} == {10, 11, 12, 13, 14}
        assert [e.kind.value for e in rec.events_between() if e.tag_id == 13] == ["appeared"]
        assert "Still A" in rec.meta["scenario_toml"]
    # the recording is a source again: re-tracking its video gives the same units
    assert main(["track", str(record), "--scenario", str(SCENARIO), "--jsonl", "--no-progress"]) == 0
    replayed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(replayed) == 20 and {u["tag_id"] for u in replayed[-1]["units"]} == {10, 11, 12, 13, 14}


def test_track_reads_a_video_file_grey_and_finds_the_units_where_they_are(footage, tmp_path, capsys):
    from tracker.h264_video import H264Writer
    from tracker.sources import open_source

    folder, cal, truth = footage
    video = tmp_path / "table.mp4"
    frames = [cv2.imread(str(folder / f"frame{i}.png")) for i in range(20)]
    with H264Writer(video, 30.0, (frames[0].shape[1], frames[0].shape[0])) as writer:
        for frame in frames:
            writer.write(frame)
    with open_source(str(video), gray=True) as source:
        assert source.read().image_bgr.ndim == 2  # the decoder's luma plane: no colour conversion
    assert main(["track", str(video), "--calibration", str(cal), "--scenario", str(SCENARIO), "--jsonl", "--no-progress"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 20
    unit = next(u for u in lines[-1]["units"] if u["tag_id"] == 13)
    assert unit["state"] == "seen" and abs(unit["x_in"] - truth[13].x_in) < 0.05 and abs(unit["y_in"] - truth[13].y_in) < 0.05


@pytest.mark.parametrize(
    "argv, message",
    [
        (["track", "no/such/footage.mp4"], "no file or folder 'no/such/footage.mp4'"),
        (["track", "FOLDER", "--scenario", "missing.toml"], "no scenario file at 'missing.toml'"),
        (["track", "FOLDER", "--video"], "--video keeps the camera video next to a recording; add --record FILE"),
        (["detect", "nothing.png"], "no image at 'nothing.png'"),
    ],
)
def test_a_user_mistake_is_one_line_and_exit_code_2(footage, capsys, argv, message):
    folder, _, _ = footage
    argv = [str(folder) if a == "FOLDER" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_camera_that_is_not_there_is_one_line_on_stderr_without_opencvs_own_warnings():
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "cli.main", "track", "57", "--jsonl"], capture_output=True, text=True,
                          cwd=Path(__file__).parents[2], timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("sandtable track: error: cannot open camera 57")


def test_a_scenario_with_only_tags_and_names_is_enough_to_track(footage, tmp_path, capsys):
    """The tracker reads which tag is which unit; sides and unit types are the rules' and must not be demanded."""
    folder, cal, truth = footage
    bare = tmp_path / "tags.toml"
    bare.write_text('format = "sandtable-scenario"\nversion = 1\n\n'
                    + "".join(f'[[units]]\ntag_id = {t}\nname = "Unit {t}"\n\n' for t in (10, 11, 12, 13, 14)),
                    encoding="utf-8")
    assert main(["track", str(folder), "--calibration", str(cal), "--scenario", str(bare), "--jsonl", "--no-progress"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    unit = next(u for u in lines[-1]["units"] if u["tag_id"] == 13)
    assert unit["name"] == "Unit 13" and abs(unit["x_in"] - truth[13].x_in) < 0.05


def test_track_record_video_from_files_says_where_the_video_is_and_keeps_every_frame(footage, tmp_path, capsys):
    folder, cal, _ = footage
    out = tmp_path / "t.sqlite"
    assert main(["track", str(folder), "--calibration", str(cal), "--scenario", str(SCENARIO), "--record", str(out),
                 "--video", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert f"its video: {tmp_path / 't.mp4'} (20 frames)" in err and "left out" not in err
    with RecordingReader(out) as reader:
        assert reader.meta["video_frames_dropped"] == "0"
