"""The calibration commands as a user runs them: files in, one clear line per mistake, files out."""
from __future__ import annotations

import contextlib
import io
import json

import cv2
import numpy as np
import pytest

from calibration.files import load_camera_model, load_table_calibration, save_camera_model
from calibration.projector import ProjectorPattern, load_projector_calibration
from calibration.synthetic import Faults, Projector, SyntheticTable, TagPlacement, overhead_pose, webcam_model
from calibration.synthetic.board_photos import board_photo_poses, render_board_photo
from calibration.board import BoardSpec
from calibration.camera_model import CameraModel, CameraPose
from calibration.table_layout import TableLayout
from cli.main import main

LENS = webcam_model(960, 540)
LAYOUT = TableLayout.default()
POSE = overhead_pose(LAYOUT, tilt_deg=15.0, height_in=44.0)


def one_line_error(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.fixture(scope="module")
def camera_json(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    paths = []
    for k, pose in enumerate(board_photo_poses(LENS, BoardSpec(), 8, seed=2)):
        photo = render_board_photo(LENS, pose, faults=Faults(noise_sigma=1.5, blur_px=0.5), rng=np.random.default_rng(k))
        paths.append(folder / f"board{k}.png")
        cv2.imwrite(str(paths[-1]), photo.image_bgr)
    cv2.imwrite(str(folder / "wall.png"), np.full((540, 960, 3), 90, np.uint8))
    out = folder / "camera.json"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["calibrate", "camera", *map(str, paths), str(folder / "wall.png"), "--out", str(out)]) == 0
    return out, printed.getvalue()


def test_calibrate_camera_says_how_many_photos_were_usable_and_the_error(camera_json):
    path, printed = camera_json
    model = load_camera_model(path)
    assert model.source == "calibrated" and model.fx_px == pytest.approx(LENS.fx_px, rel=0.01)
    details = json.loads(path.read_text())["details"]
    assert len(details["photos_used"]) == 8 and details["photos_rejected"][0]["photo"].endswith("wall.png")
    assert "8 of 9 photos usable; reprojection error" in printed
    assert "set aside" in printed and "wall.png: no board tags found" in printed
    assert "this lens bends the picture by up to" in printed and "wrote" in printed


def test_calibrate_table_from_a_frame_prints_the_residual_in_inches(tmp_path, capsys, camera_json):
    camera_json, _ = camera_json
    frame = SyntheticTable(LAYOUT, LENS, POSE).render([TagPlacement(10, 30.0, 20.0, 1.0, 0.0, 1.5)], faults=Faults(noise_sigma=1.5))
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), frame.image_bgr)
    out = tmp_path / "table.json"
    assert main(["calibrate", "table", str(image), "--camera-model", str(camera_json), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "pnp registration from anchors 0, 1, 2, 3: residual" in text and "tilted 15 degrees" in text
    cal = load_table_calibration(out)
    assert cal.residual_in < 0.05
    assert np.linalg.norm(cal.pose.camera_position_in - POSE.camera_position_in) < 1.0
    # without a lens model it still works, and says what that costs
    assert main(["calibrate", "table", str(image), "--out", str(tmp_path / "t2.json")]) == 0
    text = capsys.readouterr().out
    assert "no --camera-model" in text and "note: uncalibrated camera" in text


def test_calibrate_table_mistakes_are_one_line(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((360, 640, 3), 128, np.uint8))
    one_line_error(capsys, ["calibrate", "table", str(blank), "--out", str(tmp_path / "t.json")], "only anchor(s) none of 0, 1, 2, 3 usable")
    one_line_error(capsys, ["calibrate", "table", str(tmp_path / "nope.png"), "--out", str(tmp_path / "t.json")], "no image at")
    one_line_error(capsys, ["calibrate", "table", str(blank), "--table", "72by48", "--out", str(tmp_path / "t.json")], "write it as WIDTHxDEPTH")
    broken = tmp_path / "camera.json"
    broken.write_text('{"format": "sandtable-camera-model", "version": 1, "width_px": 6')
    one_line_error(capsys, ["calibrate", "table", str(blank), "--camera-model", str(broken), "--out", str(tmp_path / "t.json")],
                   "corrupt or truncated")
    assert not (tmp_path / "t.json").exists()


def test_calibrate_projector_headless_from_a_photo_of_the_pattern(tmp_path, capsys):
    pattern_png = tmp_path / "pattern.png"
    assert main(["calibrate", "projector", "--write-pattern", str(pattern_png), "--size", "1280x720"]) == 0
    pattern = cv2.imread(str(pattern_png))
    assert np.array_equal(pattern[:, :, 0], ProjectorPattern(1280, 720).image())
    camera, pose = LENS, overhead_pose(LAYOUT, tilt_deg=20.0)
    save_camera_model(camera, tmp_path / "camera.json")
    table_frame = tmp_path / "table.png"
    cv2.imwrite(str(table_frame), SyntheticTable(LAYOUT, camera, pose).render([]).image_bgr)
    assert main(["calibrate", "table", str(table_frame), "--camera-model", str(tmp_path / "camera.json"),
                 "--out", str(tmp_path / "table.json")]) == 0
    projector = Projector(CameraModel(1280, 720, 1300.0, 1300.0, 639.5, 700.0), CameraPose.looking_at((36.0, 1.0, 80.0), (36.0, 1.0, 0.0)),
                          pattern, room_light=0.35)
    seen = tmp_path / "seen.png"
    cv2.imwrite(str(seen), SyntheticTable(LAYOUT, camera, pose, projector=projector).render([], faults=Faults(noise_sigma=1.5)).image_bgr)
    capsys.readouterr()
    out = tmp_path / "projector.json"
    assert main(["calibrate", "projector", "--photo", str(seen), "--calibration", str(tmp_path / "table.json"),
                 "--size", "1280x720", "--out", str(out)]) == 0
    assert "pattern corners from" in capsys.readouterr().out
    assert load_projector_calibration(out).residual_in < 0.05
    one_line_error(capsys, ["calibrate", "projector", "--photo", str(table_frame), "--calibration", str(tmp_path / "table.json"),
                            "--size", "1280x720", "--out", str(tmp_path / "p2.json")], "saw 0 of the 40 projected pattern tags")
    one_line_error(capsys, ["calibrate", "projector", "--write-pattern", str(pattern_png)], "give --size as WIDTHxHEIGHT")


def test_simulate_writes_video_ground_truth_and_the_true_calibration(tmp_path, capsys):
    scenario = tmp_path / "walk.toml"
    scenario.write_text(
        'format = "sandtable-scenario"\nversion = 1\n[[sides]]\nname = "Blue"\n'
        '[[units]]\ntag_id = 10\nside = "Blue"\n  [[units.path]]\n  t_s = 0\n  x_in = 20\n  y_in = 20\n'
        "  [[units.path]]\n  t_s = 1\n  x_in = 30\n  y_in = 20\n"
        "[simulation]\nfps = 10\nduration_s = 1.0\nwidth_px = 320\nheight_px = 180\n",
        encoding="utf-8",
    )
    video = tmp_path / "walk.mp4"
    assert main(["simulate", str(scenario), "--out", str(video)]) == 0
    captured = capsys.readouterr()
    assert "simulate: frame 10/10 (100%)" in captured.err
    capture = cv2.VideoCapture(str(video))
    frames = 0
    while capture.read()[0]:
        frames += 1
    assert frames == 10
    import av

    with av.open(str(video)) as container:  # H.264, which browsers play (not OpenCV's MPEG-4 Part 2)
        assert container.streams.video[0].codec_context.name == "h264"
    lines = (tmp_path / "walk.truth.jsonl").read_text().splitlines()
    header, first, last = json.loads(lines[0]), json.loads(lines[1]), json.loads(lines[-1])
    assert header["format"] == "sandtable-synthetic-truth" and header["frame_count"] == 10 and len(lines) == 11
    unit_first = next(t for t in first["tags"] if t["tag_id"] == 10)
    unit_last = next(t for t in last["tags"] if t["tag_id"] == 10)
    assert unit_first["x_in"] == 20 and unit_last["x_in"] == pytest.approx(29.0)
    cal = load_table_calibration(tmp_path / "walk.table.json")
    assert np.allclose(cal.camera_from_table(np.array([[29.0, 20.0]]), z_in=1.0), [unit_last["center_px"]], atol=1e-6)
    one_line_error(capsys, ["simulate", str(scenario), "--out", str(tmp_path / "walk.gif")], "write a .mp4 or .avi video")
    one_line_error(capsys, ["simulate", str(tmp_path / "none.toml"), "--out", str(video)], "no scenario file at")
