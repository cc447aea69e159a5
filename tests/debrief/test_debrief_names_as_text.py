"""Players' text is text: a unit called "$5 bounty$" or "$\\frac{$ team" reaches the report's plots as
written, never parsed as mathematics (an unbalanced "$" used to stop the whole report)."""
from __future__ import annotations

from pathlib import Path

from cli.main import main
from tracker.recording import Recorder
from tracker.roster import Roster, UnitSpec
from tracker.unit_pose import UnitPose, UnitState

ROOT = Path(__file__).resolve().parents[2]


def test_unit_names_with_dollars_and_backslashes_make_a_report(tmp_path, capsys):
    names = {12: "$5 bounty$ squad", 13: "Cpl. $Hale", 14: r"$\frac{$ team"}
    roster = Roster(units=tuple(UnitSpec(tag_id=t, name=n, side="Blue") for t, n in names.items()))
    path = tmp_path / "game.sqlite"
    with Recorder(path, roster=roster) as recorder:
        for i in range(60):
            t = i / 30
            recorder.record_frame(i, t, [UnitPose(tag, name, "Blue", 10.0 + tag + t, 5.0 + tag, 0.0, 90.0, UnitState.SEEN, t, t,
                                                  last_seen_t_s=t) for tag, name in names.items()])
    assert main(["debrief", str(path), "--out", str(tmp_path / "r.html"), "--no-progress"]) == 0, capsys.readouterr().err
    assert (tmp_path / "r.html").stat().st_size > 10_000  # the plots are in it
