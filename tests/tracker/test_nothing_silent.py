"""Nothing silent: detect and track say that tags 0-9 are anchors without a calibration, and track ends by
naming the roster's units it never saw, with the likely reason."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from calibration.synthetic import load_synthetic_scenario
from calibration.table_layout import TableLayout
from tracker.never_seen import never_seen_lines
from tracker.roster import Roster, UnitSpec

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO / "tests" / "data" / "tracker_occlusion.toml"
SANDTABLE = Path(sys.executable).parent / "sandtable"


class _FlatCamera:
    """A calibration stand-in: ``px_per_in`` pixels per inch everywhere on a 72x48 table."""

    def __init__(self, px_per_in: float) -> None:
        self.layout = TableLayout.default()
        self.px_per_in = px_per_in

    def camera_from_table(self, points_in: np.ndarray, *, z_in: float = 0.0) -> np.ndarray:
        return np.asarray(points_in, dtype=float) * self.px_per_in


ROSTER = Roster(units=(UnitSpec(10, "Seen"), UnitSpec(12, "Rifleman"), UnitSpec(13, "Big", tag_size_in=2.0)))


def test_a_unit_whose_tags_are_too_small_is_named_with_the_tag_size_and_what_to_do() -> None:
    lines = never_seen_lines(ROSTER, {10}, calibration=_FlatCamera(15.0))
    assert len(lines) == 2
    rifleman, big = lines
    assert "12 'Rifleman'" in rifleman and "1-inch tags are 15 px" in rifleman and "print 1.7-inch tags" in rifleman
    assert "13 'Big'" in big and "never in view" in big  # 2" tags are 30 px: big enough, so not the size


def test_every_unit_seen_says_nothing() -> None:
    assert never_seen_lines(ROSTER, {10, 12, 13}, calibration=_FlatCamera(15.0)) == []


def test_uncalibrated_the_smallest_tag_seen_gives_the_reason() -> None:
    lines = never_seen_lines(ROSTER, {10, 13}, smallest_seen_px=19.0)
    assert len(lines) == 1 and "as small as 19 px" in lines[0]


def test_track_without_calibration_says_tags_0_to_9_are_anchors_and_lists_units_never_seen(tmp_path: Path) -> None:
    scenario = load_synthetic_scenario(SCENARIO)
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), scenario.render_frame(i).image_bgr)
    roster_file = tmp_path / "game.toml"
    roster_file.write_text(
        SCENARIO.read_text() + '\n[[units]]\ntag_id = 77\nname = "Reserve"\nside = "Blue"\n'
        '  [[units.path]]\n  t_s = 0.0\n  x_in = -30.0\n  y_in = -30.0\n  on_table = false\n'
    )
    done = subprocess.run([str(SANDTABLE), "track", str(tmp_path), "--scenario", str(roster_file), "--no-progress"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    err = done.stderr.splitlines()
    assert sum("tags 0-9 are taken as table anchors" in line for line in err) == 1
    assert any("77 'Reserve': never seen" in line for line in err), done.stderr


def test_detect_without_calibration_says_it_once_on_stderr_and_keeps_json_clean(tmp_path: Path) -> None:
    scenario = load_synthetic_scenario(SCENARIO)
    cv2.imwrite(str(tmp_path / "frame.png"), scenario.render_frame(0).image_bgr)
    done = subprocess.run([str(SANDTABLE), "detect", str(tmp_path / "frame.png"), "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.startswith("{") and "anchors" not in done.stdout
    assert done.stderr.count("tags 0-9 are taken as table anchors") == 1
