"""Scenario files drive the synthetic table: paths, lifted units, hands, faults, reproducible frames."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration.errors import ScenarioFileError
from calibration.synthetic import load_synthetic_scenario

EXAMPLE = Path(__file__).resolve().parents[3] / "calibration" / "synthetic" / "scenarios" / "skirmish.toml"

HEADER = 'format = "sandtable-scenario"\nversion = 1\n'


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "scenario.toml"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def example():
    return load_synthetic_scenario(EXAMPLE, width_px=640, height_px=360)


def test_the_example_scenario_has_its_frames_units_and_hand(example):
    assert example.fps == 30 and example.frame_count == round(example.duration_s * 30)
    ids = {p.tag_id for p in example.placements_at(0.0)}
    assert {10, 11, 12, 13, 14, 20, 21, 22, 23} == ids
    # Haas (12) is lifted by the hand between 5 s and 6 s
    assert 12 not in {p.tag_id for p in example.placements_at(5.5)}
    assert example.hands_at(5.5) and not example.hands_at(2.0)


def test_units_move_linearly_between_keyframes_and_turn_the_short_way(tmp_path):
    scenario = load_synthetic_scenario(write(tmp_path, """
[[units]]
tag_id = 10
  [[units.path]]
  t_s = 0.0
  x_in = 10.0
  y_in = 10.0
  heading_deg = 350.0
  [[units.path]]
  t_s = 2.0
  x_in = 20.0
  y_in = 14.0
  heading_deg = 10.0
[simulation]
width_px = 320
height_px = 180
"""))
    (p,) = scenario.placements_at(1.0)
    assert (p.x_in, p.y_in) == pytest.approx((15.0, 12.0))
    assert p.heading_deg == pytest.approx(0.0, abs=1e-9) or p.heading_deg == pytest.approx(360.0)
    assert p.velocity_in_s == pytest.approx((5.0, 2.0))
    (end,) = scenario.placements_at(9.0)
    assert (end.x_in, end.y_in, end.velocity_in_s) == (20.0, 14.0, (0.0, 0.0))


def test_a_unit_on_a_hill_stands_at_hill_plus_base_height(tmp_path):
    scenario = load_synthetic_scenario(write(tmp_path, """
[[units]]
tag_id = 10
base_height_in = 1.25
  [[units.path]]
  t_s = 0.0
  x_in = 40.0
  y_in = 30.0
[terrain]
[[terrain.hills]]
x_in = 40.0
y_in = 30.0
radius_in = 8.0
height_in = 3.0
"""))
    (p,) = scenario.placements_at(0.0)
    assert p.z_in == pytest.approx(4.25)


def test_frames_are_reproducible_and_carry_their_time(example):
    a = example.render_frame(40)
    b = example.render_frame(40)
    assert np.array_equal(a.image_bgr, b.image_bgr)
    assert a.t_s == pytest.approx(40 / 30) and a.frame_index == 40
    assert not np.array_equal(a.image_bgr, example.render_frame(41).image_bgr)


def test_the_hand_reaching_for_a_unit_hides_it_before_lifting_it(example):
    before = example.render_frame(int(4.0 * 30))
    reaching = example.render_frame(int(4.8 * 30))
    lifted = example.render_frame(int(5.5 * 30))
    assert 12 in before.visible_ids
    assert reaching.truth_of(12).occluded and 12 not in reaching.visible_ids
    assert lifted.truth_of(12) is None  # off the table: not in the truth at all


@pytest.mark.parametrize(
    "body, message",
    [
        ("[simulation]\nfsp = 30\n", "unknown field 'fsp'; did you mean 'fps'?"),
        ("[simulation]\nfps = -5\n", "'fps' = -5 must be greater than 0"),
        ("[table]\nwidth_in = \"wide\"\n", "'width_in' = 'wide' must be a number"),
        ("[[units]]\ntag_id = 3\n  [[units.path]]\n  t_s = 0\n  x_in = 1\n  y_in = 1\n", "'tag_id' = 3 must be at least 10"),
        ("[[units]]\ntag_id = 10\n  [[units.path]]\n  t_s = 2\n  x_in = 1\n  y_in = 1\n  [[units.path]]\n  t_s = 1\n  x_in = 1\n  y_in = 1\n",
         "must be later than the previous keyframe"),
        ("[[units]]\ntag_id = 10\n  [[units.path]]\n  t_s = 0\n  x_in = 1\n", "field 'y_in' is missing"),
        ("[terrain]\n[[terrain.hills]]\nx_in = 1\ny_in = 1\nradius_in = 0\nheight_in = 2\n", "'radius_in' = 0 must be greater than 0"),
        ("[simulation.faults]\njpeg_quality = 120\n", "'jpeg_quality' = 120 must be at most 100"),
    ],
)
def test_mistakes_in_the_file_are_refused_naming_the_field(tmp_path, body, message):
    with pytest.raises(ScenarioFileError, match=None) as info:
        load_synthetic_scenario(write(tmp_path, body))
    assert message in str(info.value)
    assert "scenario.toml" in str(info.value)


def test_wrong_version_and_missing_files_are_refused_with_a_fix(tmp_path):
    bad = tmp_path / "old.toml"
    bad.write_text('format = "sandtable-scenario"\nversion = 7\n', encoding="utf-8")
    with pytest.raises(ScenarioFileError, match="version = 7; this program reads scenario version 1"):
        load_synthetic_scenario(bad)
    with pytest.raises(ScenarioFileError, match="does not exist"):
        load_synthetic_scenario(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text('format = "sandtable-scenario"\nversion = \n', encoding="utf-8")
    with pytest.raises(ScenarioFileError, match="not valid TOML"):
        load_synthetic_scenario(broken)


def test_a_layout_file_next_to_the_scenario_places_the_anchors(tmp_path):
    (tmp_path / "layout.toml").write_text(
        'format = "sandtable-layout"\nversion = 1\nwidth_in = 60\ndepth_in = 44\n'
        "[[anchors]]\ntag_id = 0\nx_in = 2\ny_in = 2\n[[anchors]]\ntag_id = 1\nx_in = 58\ny_in = 2\n"
        "[[anchors]]\ntag_id = 5\nx_in = 30\ny_in = 42\nsize_in = 3\n",
        encoding="utf-8",
    )
    scenario = load_synthetic_scenario(write(tmp_path, '[table]\nlayout = "layout.toml"\n[simulation]\nwidth_px = 320\nheight_px = 180\n'))
    assert scenario.layout.width_in == 60 and sorted(scenario.layout.anchor_ids) == [0, 1, 5]
    assert scenario.layout.anchor(5).size_in == 3
