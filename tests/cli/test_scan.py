"""`sandtable scan` from saved camera frames: calibrate the projector in 3-D, scan the relief, rescan
quickly; bad input gets one line."""
import cv2
import numpy as np
import pytest

from calibration.files import save_table_calibration
from calibration.relief_scan import load_relief, load_relief_reference
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
    # the quick patterns are written by the same command the newcomer used, and are exactly what --quick expects
    assert main(["scan", "--write-patterns", str(tmp_path / "quickpats"), "--quick", "--calibration", str(d / "table.json"),
                 "--projector", str(d / "projector3d.json")]) == 0
    assert "for a quick rescan (white, black and the projector's" in capsys.readouterr().out
    written = sorted((tmp_path / "quickpats").iterdir())
    assert len(written) <= full // 2 + 1
    assert written[0].name == "pattern-000-white.png" and written[1].name == "pattern-001-black.png"
    images = [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in written]
    frames = render_lit_sequence(SyntheticTable(LAYOUT, CAMERA, CAMERA_POSE, HILLS), dark_projector(), images, faults=FAULTS)
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


def test_quick_patterns_without_the_calibrations_say_why_they_are_needed(capsys, tmp_path):
    code = main(["scan", "--write-patterns", str(tmp_path / "q"), "--quick", "--size", SIZE])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "--calibration table.json and --projector projector3d.json" in err
    assert not (tmp_path / "q").exists()


def test_frames_named_img_1_to_img_40_scan_in_their_numbered_order_into_a_new_folder(setup, capsys, tmp_path):
    d = setup
    if not (d / "projector3d.json").exists():
        pytest.skip("needs the projector calibrated by the first test")
    folder = tmp_path / "shots"
    folder.mkdir()
    for k, f in enumerate(scan_frames("hills")):
        cv2.imwrite(str(folder / f"img_{k + 1}.png"), f)  # as a camera app names them: no leading zeros
    out = tmp_path / "not" / "yet" / "relief.json"  # a folder that does not exist: made before the scan, not after
    assert main(["scan", "--frames", str(folder), "--calibration", str(d / "table.json"),
                 "--projector", str(d / "projector3d.json"), "--out", str(out)]) == 0
    relief = load_relief(out)
    assert relief.unseen_fraction < 0.2
    assert float(relief.terrain().height_at(24.0, 30.0)) == pytest.approx(4.0, abs=0.05)


def test_frames_out_of_pattern_order_are_refused_in_one_line_and_nothing_is_written(setup, capsys, tmp_path):
    d = setup
    if not (d / "projector3d.json").exists():
        pytest.skip("needs the projector calibrated by the first test")
    frames = list(scan_frames("hills"))
    folder = tmp_path / "shots"
    folder.mkdir()
    for k, f in enumerate(frames[:2] + frames[3:] + frames[2:3]):  # one stripe frame taken last
        cv2.imwrite(str(folder / f"shot-{k:03d}.png"), f)
    code = main(["scan", "--frames", str(folder), "--calibration", str(d / "table.json"),
                 "--projector", str(d / "projector3d.json"), "--out", str(tmp_path / "relief.json")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "not in pattern order" in err
    assert not (tmp_path / "relief.json").exists()


def test_natural_order_reads_numbers_as_numbers():
    from cli.commands.scan import natural_key

    names = [f"img_{k}.png" for k in range(1, 41)]
    assert sorted(reversed(names), key=natural_key) == names
