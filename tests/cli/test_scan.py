"""`sandtable scan` from saved camera frames: calibrate the projector in 3-D, scan the relief, rescan
quickly; bad input gets one line."""
import cv2
import numpy as np
import pytest

from calibration.files import save_table_calibration
from calibration.relief_scan import load_relief, load_relief_reference
from calibration.structured_light import ScanPatterns
from calibration.synthetic import SyntheticTable
from calibration.synthetic.projected_light import render_lit_sequence
from cli.main import main
from relief_helpers import (
    CAMERA, CAMERA_POSE, FAULTS, HILLS, LAYOUT, PROJECTOR_MODEL, dark_projector, scan_frames, table_calibration,
)

SIZE = f"{PROJECTOR_MODEL.width_px}x{PROJECTOR_MODEL.height_px}"


def write_frames(folder, frames):
    folder.mkdir()
    for k, f in enumerate(frames):
        cv2.imwrite(str(folder / f"shot-{k:03d}.png"), f)
    return str(folder)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    d = tmp_path_factory.mktemp("scan")
    save_table_calibration(table_calibration(), d / "table.json")
    return d


def test_calibrate_the_projector_then_scan_the_hills_from_saved_frames(setup, capsys):
    d = setup
    flat = write_frames(d / "flat", scan_frames("flat"))
    board = write_frames(d / "board", scan_frames("board"))
    assert main(["scan", "--calibrate-projector", "--frames", flat, "--board-frames", board, "--board-height-in", "4",
                 "--calibration", str(d / "table.json"), "--size", SIZE, "--out", str(d / "projector3d.json")]) == 0
    out = capsys.readouterr().out
    assert "as an inverse camera" in out and 'heights 0", 4"' in out
    hills = write_frames(d / "hills", scan_frames("hills"))
    assert main(["scan", "--frames", hills, "--calibration", str(d / "table.json"), "--projector", str(d / "projector3d.json"),
                 "--out", str(d / "relief.json")]) == 0
    out = capsys.readouterr().out
    assert "estimated error" in out and 'height_map = "relief.heights.csv", cell_in = 0.25' in out
    relief = load_relief(d / "relief.json")
    assert float(relief.terrain().height_at(24.0, 30.0)) == pytest.approx(4.0, abs=0.05)
    assert load_relief_reference(d / "relief.json").shape == (CAMERA.height_px, CAMERA.width_px, 3)


def test_a_quick_rescan_shows_about_half_the_patterns_and_measures_as_well(setup, capsys, tmp_path):
    d = setup
    if not (d / "projector3d.json").exists():
        pytest.skip("needs the projector calibrated by the test before")
    assert main(["scan", "--write-patterns", str(tmp_path / "pats"), "--size", SIZE]) == 0
    full = len(list((tmp_path / "pats").iterdir()))
    from calibration.projector_model import load_projector_model
    from calibration.relief_scan import quick_scan_axis

    axis = quick_scan_axis(table_calibration(), load_projector_model(d / "projector3d.json"))
    quick = ScanPatterns(PROJECTOR_MODEL.width_px, PROJECTOR_MODEL.height_px, axes=(axis,))
    assert quick.frame_count <= full // 2 + 1
    frames = render_lit_sequence(SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, HILLS), dark_projector(), quick.images(), faults=FAULTS)
    folder = write_frames(tmp_path / "quick", frames)
    assert main(["scan", "--quick", "--frames", folder, "--calibration", str(d / "table.json"),
                 "--projector", str(d / "projector3d.json"), "--out", str(tmp_path / "relief.json")]) == 0
    relief = load_relief(tmp_path / "relief.json")
    rows, cols = relief.heights_in.shape
    yy, xx = np.mgrid[0:rows, 0:cols] * relief.cell_in
    inner = relief.seen & (xx > 2) & (xx < 70) & (yy > 2) & (yy < 46)
    err = relief.heights_in[inner] - HILLS.height_at(xx, yy)[inner]
    assert np.sqrt(np.mean(err**2)) <= 0.05


def test_a_folder_with_the_wrong_number_of_frames_gets_one_line(setup, tmp_path, capsys):
    d = setup
    folder = write_frames(tmp_path / "few", scan_frames("flat")[:5])
    code = main(["scan", "--calibrate-projector", "--frames", folder, "--board-frames", folder, "--board-height-in", "4",
                 "--calibration", str(d / "table.json"), "--size", SIZE, "--out", str(tmp_path / "p.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "holds 5 images; the scan has 40 patterns" in err


def test_scanning_without_a_projector_calibration_says_how_to_make_one(setup, capsys, tmp_path):
    code = main(["scan", "--frames", str(tmp_path), "--calibration", str(setup / "table.json"), "--out", str(tmp_path / "r.json")])
    assert code == 2
    assert "sandtable scan --calibrate-projector" in capsys.readouterr().err
