"""`sandtable run` as a user meets it: the full loop on a stand-in camera (the synthetic table filming the
starter skirmish) with a recording and TUIO, the first run that walks through calibrating and the next
one that starts directly, and every mistake as one line with the way on."""
from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from calibration.files import save_table_calibration
from calibration.synthetic import load_synthetic_scenario
from calibration.table_calibration import TableCalibration
from cli.main import main
from appmodel.scenarios import find_shipped
from tuio_helpers import TuioClientModel, osc_server  # noqa: F401  (osc_server: a pytest fixture, a real OSC server, taken by name)
from tracker.recording import RecordingReader

STARTER = find_shipped("starter-skirmish").path


@pytest.fixture(scope="module")
def exact_calibration(tmp_path_factory) -> Path:
    """The starter skirmish's synthetic camera, calibrated exactly (as `sandtable simulate` writes it)."""
    table = load_synthetic_scenario(STARTER).table
    path = tmp_path_factory.mktemp("run") / "table.json"
    save_table_calibration(TableCalibration(table.model, table.pose, table.layout, residual_in=0.0), path)
    return path


def one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.count("\n") == 1, captured.err
    return captured.err


@pytest.fixture
def no_display(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)


@pytest.fixture
def a_display(monkeypatch):
    import cli.display_check

    monkeypatch.setattr(cli.display_check, "display_available", lambda *a, **k: True)


def test_without_a_display_run_says_so_and_points_at_headless_tracking(no_display, capsys):
    assert main(["run", "--camera", "2"]) == 2
    line = one_error_line(capsys)
    assert "no display" in line and "sandtable track 2 --calibration table.json" in line


def test_a_wrong_camera_index_is_one_line_with_the_way_on(a_display, tmp_path, exact_calibration, capsys):
    assert main(["run", "--camera", "57", "--calibration", str(exact_calibration),
                 "--settings", str(tmp_path / "s.ini")]) == 2
    line = one_error_line(capsys)
    assert "camera 57" in line and "--list-cameras" in line


@pytest.mark.parametrize("content, words", [
    ('{"format": "sandtable-table-calibration", "version": 1, "method": "pnp", "cam', "corrupt or truncated"),
    ("", "is empty"),
])
def test_a_corrupt_calibration_is_one_line_with_the_way_on(a_display, tmp_path, capsys, content, words):
    broken = tmp_path / "table.json"
    broken.write_text(content, encoding="utf-8")
    assert main(["run", "--camera", str(STARTER), "--calibration", str(broken), "--settings", str(tmp_path / "s.ini")]) == 2
    line = one_error_line(capsys)
    assert words in line and "table.json" in line and "--recalibrate" in line


def test_a_scenario_typo_and_an_existing_recording_stop_before_any_window(a_display, tmp_path, exact_calibration, capsys):
    broken = tmp_path / "game.toml"
    broken.write_text(STARTER.read_text(encoding="utf-8").replace("facing_offset_deg", "facing_ofset_deg", 1), encoding="utf-8")
    assert main(["run", "--camera", str(STARTER), "--scenario", str(broken), "--calibration", str(exact_calibration),
                 "--settings", str(tmp_path / "s.ini")]) == 2
    assert "did you mean 'facing_offset_deg'" in one_error_line(capsys)
    kept = tmp_path / "game.sqlite"
    kept.write_bytes(b"last week's game")
    assert main(["run", "--camera", str(STARTER), "--record", str(kept), "--settings", str(tmp_path / "s.ini")]) == 2
    assert "never overwritten" in one_error_line(capsys) and kept.read_bytes() == b"last week's game"


def test_a_screenshot_without_any_calibration_says_how_to_make_one(tmp_path, capsys):
    assert main(["run", "--camera", str(STARTER), "--settings", str(tmp_path / "s.ini"),
                 "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "no table calibration" in one_error_line(capsys)


def test_the_full_loop_tracks_records_and_sends_tuio(tmp_path, exact_calibration, osc_server, capsys):
    port, catch = osc_server
    record = tmp_path / "game.sqlite"
    shot = tmp_path / "window.png"
    code = main(["run", "--camera", str(STARTER), "--scenario", str(STARTER), "--calibration", str(exact_calibration),
                 "--record", str(record), "--tuio", f"127.0.0.1:{port}", "--settings", str(tmp_path / "s.ini"),
                 "--screenshot", str(shot), "--settle", "3"])
    out = capsys.readouterr().out
    assert code == 0 and f"saved {shot}" in out and f"recorded to {record}" in out
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    scenario = load_synthetic_scenario(STARTER)
    with RecordingReader(record) as reader:
        assert reader.meta["command"].startswith("sandtable run") and reader.meta["calibration_json"]
        poses = {p.tag_id: p for p in reader.poses_at(0.0)}
        truth = {p.tag_id: p for p in scenario.placements_at(0.0)}
        assert set(truth) <= set(poses)
        for tag, placed in truth.items():  # where the tracker put them in the first frame
            assert math.hypot(poses[tag].x_in - placed.x_in, poses[tag].y_in - placed.y_in) < 0.1
        assert {e.kind.value for e in reader.events_between()} >= {"appeared"}
        assert reader.frame_count >= 2  # the first frame, then the live loop's (how many depends on the machine)
    client = TuioClientModel()
    datagrams = catch.wait_for(3)
    client.feed(datagrams[0])  # the first tracked frame: every unit arrives, its tag id as the class id
    first = client.by_class()
    assert set(first) >= set(truth)
    assert first[10]["x"] == pytest.approx(truth[10].x_in / 72.0, abs=0.002)
    assert first[10]["y"] == pytest.approx(1 - truth[10].y_in / 48.0, abs=0.002)
    for datagram in datagrams[1:]:
        client.feed(datagram)
    assert client.objects == {} and len(client.frames) >= 2  # closing the window tells clients they are gone


def test_the_first_run_walks_through_calibrating_and_the_next_starts_directly(a_display, tmp_path, monkeypatch, capsys):
    """The walkthrough is driven as a user would click through it; the window is not opened."""
    import cli.commands.run as run_command
    from gui.setup_wizard import SetupWizard

    walked, played = [], []

    def walk_through(source, first, scenario, choice):
        table = load_synthetic_scenario(STARTER).table
        wizard = SetupWizard(source, scenario_path=scenario, layout=table.layout, calibration_path=choice.path,
                             intro=choice.problem)
        wizard.camera_model = table.model  # the lens page: the user picked the camera's lens file
        wizard.show()
        wizard.next(), wizard.next(), wizard.next()
        assert wizard.register_page.capture().verdict == "good"
        wizard.next(), wizard.next()
        walked.append(choice.problem)
        result = wizard.result_value()
        wizard.accept()
        return result

    monkeypatch.setattr(run_command, "_walkthrough", walk_through)
    monkeypatch.setattr(run_command, "_play", lambda app, args, source, first, scenario, calibration, *rest:
                        played.append((scenario, calibration)) or 0)
    settings = tmp_path / "settings.ini"
    calibration = tmp_path / "mine" / "table.json"
    assert main(["run", "--camera", str(STARTER), "--scenario", str(STARTER), "--calibration", str(calibration),
                 "--settings", str(settings)]) == 0
    assert walked and "does not exist yet" in walked[0] and calibration.is_file()
    assert played[-1][1].residual_in < 0.05
    # next time: no options at all, the same camera, scenario and calibration, no walkthrough
    assert main(["run", "--settings", str(settings)]) == 0
    assert len(walked) == 1 and played[-1][0] == str(STARTER.resolve())
    assert played[-1][1].residual_in == pytest.approx(played[0][1].residual_in)
    # the calibration went missing: the walkthrough starts again, saying why
    calibration.unlink()
    assert main(["run", "--settings", str(settings)]) == 0
    assert len(walked) == 2 and "is gone" in walked[1]


def test_run_with_video_keeps_the_camera_picture_as_h264_beside_the_recording(tmp_path, exact_calibration, capsys):
    import av

    record = tmp_path / "game.sqlite"
    code = main(["run", "--camera", str(STARTER), "--scenario", str(STARTER), "--calibration", str(exact_calibration),
                 "--record", str(record), "--video", "--settings", str(tmp_path / "s.ini"),
                 "--screenshot", str(tmp_path / "window.png"), "--settle", "2"])
    said = capsys.readouterr().out
    assert code == 0 and f"recorded to {record}" in said
    with RecordingReader(record) as reader:
        video = reader.video_path
        assert video is not None and video.suffix == ".mp4"
        assert f"the camera's video to {video}" in said  # where the video went, said with the recording
        recorded = reader.frame_count
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264"
        frames = [f.to_ndarray(format="gray") for f in container.decode(stream)]
    assert 1 <= len(frames) <= recorded and frames[0].std() > 10  # the camera's picture, not a blank


def test_video_without_a_recording_is_one_line(tmp_path, exact_calibration, capsys):
    code = main(["run", "--camera", str(STARTER), "--scenario", str(STARTER), "--calibration", str(exact_calibration),
                 "--video", "--settings", str(tmp_path / "s.ini"), "--screenshot", str(tmp_path / "w.png")])
    line = one_error_line(capsys)
    assert code != 0 and "--video" in line and "--record" in line


def test_video_with_only_remote_cameras_is_one_line(tmp_path, capsys):
    code = main(["run", "--node", "far=tcp://127.0.0.1:5999", "--record", str(tmp_path / "g.sqlite"), "--video",
                 "--settings", str(tmp_path / "s.ini"), "--screenshot", str(tmp_path / "w.png")])
    line = one_error_line(capsys)
    assert code != 0 and "--video" in line and "another computer" in line
    assert not (tmp_path / "g.sqlite").exists()
