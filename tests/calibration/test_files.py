"""Calibration files save and load exactly; broken, foreign or newer files are refused with a fix."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationFileError
from calibration.files import (
    load_camera_model,
    load_table_calibration,
    save_camera_model,
    save_table_calibration,
)
from calibration.table_calibration import TableCalibration
from calibration.table_layout import AnchorTag, TableLayout

finite = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)


def a_calibration(*, k1=-0.28, rvec=(0.3, -0.1, 0.05), tvec=(-36.0, -20.0, 55.0), method="pnp", residual=0.0123) -> TableCalibration:
    model = CameraModel(1920, 1080, 1187.25, 1186.5, 960.1, 541.7, (k1, 0.09, 1e-4, -2e-4, -0.012), "calibrated", 0.21)
    layout = TableLayout(60.0, 44.0, (AnchorTag(0, 1.5, 1.5), AnchorTag(1, 58.5, 1.5, 2.5, 95.0), AnchorTag(7, 30.0, 42.0, 2.0, 270.0, 0.25)), 1.25)
    h = np.array([[31.5, 0.25, 36.0], [-0.5, 30.25, 24.0], [0.001, 0.002, 1.0]])
    return TableCalibration(model, CameraPose(rvec, tvec), layout, residual, method, 0.02, (0, 1, 7), (3,), h, 0.0, ("a note",))


def assert_same(a: TableCalibration, b: TableCalibration) -> None:
    assert a.model == b.model and a.pose == b.pose and a.layout == b.layout
    assert (a.residual_in, a.max_residual_in, a.method) == (b.residual_in, b.max_residual_in, b.method)
    assert (a.anchors_used, a.anchors_rejected, a.notes, a.plane_z_in) == (b.anchors_used, b.anchors_rejected, b.notes, b.plane_z_in)
    assert np.array_equal(a.homography, b.homography)


def test_a_table_calibration_loads_back_exactly(tmp_path):
    cal = a_calibration()
    save_table_calibration(cal, tmp_path / "table.json")
    assert_same(cal, load_table_calibration(tmp_path / "table.json"))


# Any pose a camera can have: a rotation of at most a full turn, the table in front of it (z above the
# table's size), no farther than a hundred tables away.
rotation = st.floats(-1.8, 1.8, allow_nan=False)
across = st.floats(-2500, 2500, allow_nan=False)  # with z up to 4000": inside the 100-table-widths a calibration file may place its camera


@settings(max_examples=40, deadline=None)
@given(k1=st.floats(-1, 1, allow_nan=False), r=st.tuples(rotation, rotation, rotation),
       t=st.tuples(across, across, st.floats(200, 4000, allow_nan=False)),
       residual=st.floats(0, 10, allow_nan=False), method=st.sampled_from(["pnp", "homography"]))
def test_any_calibration_round_trips_bit_for_bit(tmp_path_factory, k1, r, t, residual, method):
    path = tmp_path_factory.mktemp("cal") / "table.json"
    cal = a_calibration(k1=k1, rvec=r, tvec=t, method=method, residual=residual)
    save_table_calibration(cal, path)
    assert_same(cal, load_table_calibration(path))


def test_a_camera_model_loads_back_exactly_and_from_a_table_file_too(tmp_path):
    cal = a_calibration()
    save_camera_model(cal.model, tmp_path / "camera.json", details={"photos_used": 12})
    assert load_camera_model(tmp_path / "camera.json") == cal.model
    save_table_calibration(cal, tmp_path / "table.json")
    assert load_camera_model(tmp_path / "table.json") == cal.model


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "table.json"
    save_table_calibration(a_calibration(), path)
    return path


def test_a_truncated_file_is_refused_saying_calibrate_again(saved):
    text = saved.read_text()
    saved.write_text(text[: len(text) // 2])
    with pytest.raises(CalibrationFileError, match=r"corrupt or truncated .*sandtable calibrate table"):
        load_table_calibration(saved)
    saved.write_text("")
    with pytest.raises(CalibrationFileError, match="is empty"):
        load_table_calibration(saved)


def test_a_newer_or_foreign_file_is_refused(saved, tmp_path):
    data = json.loads(saved.read_text())
    data["version"] = 2
    saved.write_text(json.dumps(data))
    with pytest.raises(CalibrationFileError, match="newer Sandtable Companion"):
        load_table_calibration(saved)
    camera = tmp_path / "camera.json"
    save_camera_model(a_calibration().model, camera)
    with pytest.raises(CalibrationFileError, match="is not a table calibration"):
        load_table_calibration(camera)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d["pose"].pop("rvec"), "'rvec' is missing"),
        (lambda d: d["camera"].__setitem__("fx_px", -3), "'fx_px' = -3 must be greater than 0"),
        (lambda d: d["camera"].__setitem__("dist_coeffs", [0.1, 0.2, 0.3]), "'dist_coeffs'"),
        (lambda d: d.__setitem__("residual_in", "small"), "'residual_in' = 'small' must be a number"),
        (lambda d: d.__setitem__("method", "magic"), "'method' = 'magic' must be one of pnp, homography"),
        (lambda d: d["layout"]["anchors"].append(dict(d["layout"]["anchors"][0])), "anchor ids repeat"),
        (lambda d: d.__setitem__("homography", [[1, 2], [3, 4]]), "'homography'"),
    ],
)
def test_a_damaged_field_is_named(saved, edit, message):
    data = json.loads(saved.read_text())
    edit(data)
    saved.write_text(json.dumps(data))
    with pytest.raises(CalibrationFileError) as info:
        load_table_calibration(saved)
    assert message in str(info.value) and str(saved) in str(info.value)


def test_nan_in_a_file_is_refused(saved):
    saved.write_text(saved.read_text().replace('"residual_in": 0.0123', '"residual_in": NaN'))
    with pytest.raises(CalibrationFileError, match="'residual_in' = nan must be a number"):
        load_table_calibration(saved)


def test_a_failed_save_leaves_the_old_calibration_intact(saved):
    before = saved.read_bytes()
    broken = a_calibration(residual=math.nan)  # cannot be written as JSON
    with pytest.raises(ValueError):
        save_table_calibration(broken, saved)
    assert saved.read_bytes() == before
    assert [p.name for p in saved.parent.iterdir()] == [saved.name]  # no temporary file left behind


def test_a_missing_file_says_how_to_make_one(tmp_path):
    with pytest.raises(CalibrationFileError, match="does not exist; run `sandtable calibrate table"):
        load_table_calibration(tmp_path / "nowhere.json")
