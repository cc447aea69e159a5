"""Every reader against generated bad input, through the real commands: a scenario TOML, a rules data
TOML, a calibration JSON, a recording, an image, the numbers on the command line. Whatever hypothesis
makes, the command either accepts it or refuses it in exactly one line naming the command - never a
traceback, never a crash of the process (images also run in a subprocess, where a segfault shows)."""
from __future__ import annotations

import json
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
import zlib
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, reject, settings
from hypothesis import strategies as st

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_TEXT = (ROOT / "appmodel" / "scenarios" / "starter_skirmish.toml").read_text(encoding="utf-8")
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                      HealthCheck.too_slow])


def run(*argv: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def assert_one_line_or_fine(command: str, code: int, err: str) -> None:
    assert "Traceback" not in err
    if code != 0:
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2, (code, err)
        assert len(lines) == 1 and lines[0].startswith(f"sandtable {command}: error: "), err


def assert_refused(command: str, code: int, err: str) -> None:
    assert code != 0, f"accepted: {err}"
    assert_one_line_or_fine(command, code, err)


# -- values a careless or hostile file holds ----------------------------------------------------------
BAD_LITERALS = st.sampled_from([
    "nan", "inf", "-inf", "-1", "-5", "0", "1e308", "-1e308", "1e12", "1e300", "true", "[]", "[[[[1]]]]", "{}",
    '"not-a-color"', '""', '"' + "x" * 5000 + '"', '"$\\\\alpha$ Team"', "[1, \"a\"]", "2024-01-01", "'\\u0000'",
    '"\\u0007bell"', "99999999999999999",
])


def _mutated_scenario(data: st.DataObject) -> str:
    lines = SCENARIO_TEXT.splitlines()
    assignments = [i for i, line in enumerate(lines) if re.match(r"^\s*[a-z_]+\s*=", line)]
    i = data.draw(st.sampled_from(assignments), label="line")
    key = lines[i].split("=", 1)[0]
    lines[i] = f"{key}= {data.draw(BAD_LITERALS, label='value')}"
    return "\n".join(lines) + "\n"


@FAST
@given(data=st.data())
def test_a_scenario_with_any_field_set_to_a_bad_value_is_fine_or_refused_in_one_line_by_every_reader(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("scenario") / "game.toml"
    path.write_text(_mutated_scenario(data), encoding="utf-8")
    code, _, err = run("scenarios", "--check", str(path))
    assert_one_line_or_fine("scenarios", code, err)
    if code != 0:
        # One validation path: the commands that read a scenario refuse it with the same words.
        reason = err.split("error: ", 1)[1].strip().split("game.toml", 1)[-1]  # the same words after the file's name
        for argv in (("simulate", str(path), "--out", str(path.with_suffix(".mp4"))), ("track", str(path), "--max-frames", "1")):
            code2, _, err2 = run(*argv)
            assert_refused(argv[0], code2, err2)
            assert reason in err2


@FAST
@given(blob=st.binary(min_size=1, max_size=2000))
def test_a_binary_or_random_scenario_file_is_refused_in_one_line(tmp_path_factory, blob):
    path = tmp_path_factory.mktemp("scenario") / "game.toml"
    path.write_bytes(blob)
    code, _, err = run("scenarios", "--check", str(path))
    assert_refused("scenarios", code, err)
    assert str(path) in err or path.name in err


@pytest.mark.parametrize("field, value, words", [
    ("width_in = 72", "width_in = 1e308", "at most"),
    ("width_in = 72", "width_in = -72", "must be greater than 0"),
    ('color = "#2f6fd0"', 'color = "not-a-color"', "is not a colour"),
    ('name = "Marines"', 'name = "' + "M" * 1_000_000 + '"', "characters long"),
])
def test_known_bad_scenario_values_are_refused_by_check_and_by_simulate_alike(tmp_path, field, value, words):
    path = tmp_path / "game.toml"
    path.write_text(SCENARIO_TEXT.replace(field, value, 1), encoding="utf-8")
    for argv in (("scenarios", "--check", str(path)), ("simulate", str(path), "--out", str(tmp_path / "x.mp4"))):
        code, _, err = run(*argv)
        assert_refused(argv[0], code, err)
        assert words in err and len(err) < 600


# -- rules data TOML -------------------------------------------------------------------------------
@FAST
@given(text=st.one_of(st.binary(max_size=500), st.text(max_size=300).map(str.encode),
                      st.integers(1, 3000).map(lambda n: b"a = " + b"[" * n + b"]" * n)))
def test_any_rules_data_file_is_accepted_or_refused_in_one_line(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("data") / "extra.toml"
    path.write_bytes(text)
    for argv in (("odds", "--data", str(path), "--weapon", "M4/M16", "--target", "average combatant"),
                 ("odds", "--data", str(path), "--list", "weapons")):
        code, _, err = run(*argv)
        assert_one_line_or_fine("odds", code, err)


# -- calibration JSON ------------------------------------------------------------------------------
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.floats(), st.integers(-10**20, 10**20), st.text(max_size=20)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def calibration_file(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("cal")
    code, _, err = run("simulate", str(ROOT / "calibration" / "synthetic" / "scenarios" / "skirmish.toml"),
                       "--out", str(folder / "clip.mp4"), "--max-frames", "1")
    assert code == 0, err
    table = next(folder.glob("*table*.json"))
    image = folder / "blank.png"
    cv2.imwrite(str(image), np.full((120, 160), 255, np.uint8))
    return image, json.loads(table.read_text(encoding="utf-8"))


def _set_leaf(doc, path: list, value):
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _leaves(doc, prefix=()):
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _leaves(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _leaves(v, (*prefix, i))
    else:
        yield prefix


@FAST
@given(data=st.data())
def test_a_calibration_with_any_value_replaced_is_accepted_or_refused_in_one_line(tmp_path_factory, calibration_file, data):
    image, good = calibration_file
    doc = json.loads(json.dumps(good))
    leaf = data.draw(st.sampled_from(list(_leaves(doc))), label="field")
    _set_leaf(doc, list(leaf), data.draw(JSON_VALUES, label="value"))
    path = tmp_path_factory.mktemp("cal") / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run("detect", str(image), "--calibration", str(path))
    assert_one_line_or_fine("detect", code, err)


@pytest.mark.parametrize("edit, words", [
    (lambda d: _set_leaf(d, ["camera", "dist_coeffs", 0], 1e300), "distortion"),
    (lambda d: _set_leaf(d, ["layout", "width_in"], 1e308), "table size"),
    (lambda d: (d.__setitem__("method", "homography"), d.__setitem__("homography", [[0] * 3] * 3)), "singular"),
    (lambda d: d["pose"].update(rvec=d["pose"]["tvec_in"], tvec_in=d["pose"]["rvec"]), "swapped"),
])
def test_absurd_calibrations_are_refused_naming_what_is_wrong(tmp_path, calibration_file, edit, words):
    image, good = calibration_file
    doc = json.loads(json.dumps(good))
    edit(doc)
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run("detect", str(image), "--calibration", str(path))
    assert_refused("detect", code, err)
    assert words in err


def test_deeply_nested_json_is_refused_in_one_line_by_every_command_reading_json(tmp_path):
    path = tmp_path / "nested.json"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.full((120, 160), 255, np.uint8))
    for argv in (("resolve", str(path)), ("detect", str(image), "--calibration", str(path))):
        code, _, err = run(*argv)
        assert_refused(argv[0], code, err)
        assert "nested too deeply" in err


# -- recordings --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    from tracker.recording import Recorder
    from tracker.unit_pose import UnitPose, UnitState

    path = tmp_path_factory.mktemp("rec") / "game.sqlite"
    with Recorder(path, metadata={"scenario_toml": SCENARIO_TEXT, "ruleset": "down-range"}) as recorder:
        for i in range(300):
            t = i / 30
            recorder.record_frame(i, t, [UnitPose(tag, f"u{tag}", "Marines", 10 + t, 5.0, 0.0, 90.0, UnitState.SEEN, t, 0.0,
                                                  last_seen_t_s=t) for tag in (10, 11)])
            if i % 50 == 0:
                recorder.add_bookmark(t, f"mark {i}")
    return path


COLUMNS = {"poses": ("t_s", "x_in", "heading_deg", "state", "tag_id", "name"), "frames": ("t_s", "frame_index"),
           "meta": ("value",), "bookmarks": ("t_s", "note"), "units": ("spec_json", "name")}
CELLS = st.one_of(st.none(), st.floats(), st.integers(-2**63, 2**63 - 1), st.text(max_size=30), st.binary(max_size=30))


@FAST
@given(data=st.data())
def test_a_recording_with_garbled_cells_or_bytes_still_debriefs_or_is_refused_in_one_line(tmp_path_factory, recording, data):
    path = tmp_path_factory.mktemp("rec") / "game.sqlite"
    shutil.copyfile(recording, path)
    if data.draw(st.booleans(), label="flip bytes"):
        raw = bytearray(path.read_bytes())
        for _ in range(data.draw(st.integers(1, 40), label="flips")):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
        cut = data.draw(st.integers(100, len(raw)), label="length")
        path.write_bytes(bytes(raw[:cut]))
    else:
        table = data.draw(st.sampled_from(sorted(COLUMNS)), label="table")
        column = data.draw(st.sampled_from(COLUMNS[table]), label="column")
        value = data.draw(CELLS, label="value")
        try:
            with sqlite3.connect(path) as db:
                db.execute(f"UPDATE OR IGNORE {table} SET {column} = ? WHERE rowid % 3 = 0", (value,))
        except sqlite3.IntegrityError:
            reject()  # SQLite itself refuses this cell (a NULL row id): no file to test
    code, _, err = run("debrief", str(path), "--out", str(path.with_suffix(".html")), "--no-progress")
    assert_one_line_or_fine("debrief", code, err.replace("\r", "\n") if code else "")


# -- images ------------------------------------------------------------------------------------------
def _png_header(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


@FAST
@given(shape=st.tuples(st.integers(1, 40), st.integers(1, 40)), fill=st.integers(0, 255))
def test_an_image_of_any_small_shape_is_read_or_refused_in_one_line(tmp_path_factory, shape, fill):
    path = tmp_path_factory.mktemp("img") / "photo.png"
    cv2.imwrite(str(path), np.full(shape, fill, np.uint8))
    for argv in (("detect", str(path)), ("calibrate", "table", str(path), "--out", str(path.with_suffix(".json")))):
        code, _, err = run(*argv)
        assert_one_line_or_fine(argv[0], code, err)
        if min(shape) < 16:
            assert code == 2 and "too small to hold a tag" in err


@FAST
@given(width=st.integers(0, 2**31 - 1), height=st.integers(0, 2**31 - 1))
def test_a_png_header_claiming_any_size_is_refused_before_decoding(tmp_path_factory, width, height):
    assume(not (16 <= width <= 4000 and 16 <= height <= 4000))
    path = tmp_path_factory.mktemp("img") / "photo.png"
    path.write_bytes(_png_header(width, height))
    code, _, err = run("detect", str(path))
    assert_refused("detect", code, err)


@pytest.mark.parametrize("shape", [(1, 1), (100_000, 1), (1, 3000), (5, 5)])
def test_a_one_pixel_image_never_crashes_the_process_in_any_command_reading_images(tmp_path, shape):
    folder = tmp_path / "frames"
    folder.mkdir()
    image = folder / "frame.png"
    cv2.imwrite(str(image), np.zeros(shape, np.uint8))
    for argv in (["detect", str(image)], ["calibrate", "camera", str(image), "--out", str(tmp_path / "c.json")],
                 ["calibrate", "table", str(image), "--out", str(tmp_path / "t.json")], ["track", str(folder), "--no-progress"]):
        done = subprocess.run([sys.executable, "-m", "cli.main", *argv], cwd=ROOT, capture_output=True, text=True, timeout=120)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and "too small to hold a tag" in lines[0], (argv, done.stderr)


# -- command-line numbers ----------------------------------------------------------------------------
NUMBERS = st.one_of(st.floats().map(repr), st.integers(-10**12, 10**12).map(str), st.sampled_from(["nan", "inf", "-inf", "1e308", "-0", "x"]))


@FAST
@given(option=st.sampled_from(["--difficulty", "--assist", "--shots"]), value=NUMBERS)
def test_any_number_on_the_odds_command_line_is_accepted_or_refused_in_one_line(option, value):
    code, _, err = run("odds", "--weapon", "M4/M16", "--target", "average combatant", option, value)
    assert_one_line_or_fine("odds", code, err)


@FAST
@given(argv=st.sampled_from([("track", "0", "--lost-after"), ("track", "0", "--fps"), ("replay", "x.sqlite", "--at"),
                             ("tags", "--ids", "10-12", "--size-in")]),
       value=st.sampled_from(["nan", "inf", "-inf", "-1", "-5", "1e300", "1e308", "abc"]))
def test_nan_inf_negative_and_absurd_numbers_are_refused_before_any_command_runs(argv, value):
    code, _, err = run(*argv, value)
    assert_refused(argv[0], code, err)
    assert argv[-1] in err


def test_odds_refuses_a_negative_defense():
    code, _, err = run("odds", "--skill", "d6", "--difficulty", "3", "--damage", "1d6", "--defense", "-5")
    assert_refused("odds", code, err)
    assert "cannot be negative" in err
