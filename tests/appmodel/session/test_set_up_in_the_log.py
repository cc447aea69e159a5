"""At a real table the units are put down before the game starts: the session's log then says "Set-up"
and warns of no movement, however far the tracker saw a unit carried to its starting place; once the
first turn has begun a unit carried past its Movement is warned about again, with its round. A
recording keeps the "Set-up" lines, and its replay shows them so."""
from __future__ import annotations

from pathlib import Path

from appmodel.game_session import GameSession
from appmodel.replay_model import ReplayModel
from rules.downrange.examples.in_depth import SCENARIO_PATH
from tracker.unit_pose import UnitPose, UnitState

SERGEANT = 10


def carry(s: GameSession, t_s: float, unit_id: int, x_in: float, y_in: float, walked_in: float) -> None:
    s.apply_poses([UnitPose(unit_id, "", "", x_in, y_in, 1.0, 0.0, UnitState.SEEN, t_s, walked_in)], t_s=t_s)


def test_units_put_down_before_the_first_turn_are_placed_not_moved(tmp_path: Path) -> None:
    s = GameSession.from_scenario_file(SCENARIO_PATH)
    s.start_recording(tmp_path / "game.sqlite")
    start = s.unit(SERGEANT)
    carry(s, 1.0, SERGEANT, start.x_in + 20.0, start.y_in, 20.0)  # carried from the box to its start
    carry(s, 2.0, SERGEANT, start.x_in + 30.0, start.y_in, 30.0)
    assert not [e for e in s.log if e.kind == "warning"], [e.text for e in s.log]
    assert s.unit(SERGEANT).move_left_in == s.unit(SERGEANT).move_in == 8.0
    s.start_round()
    rolled = [e for e in s.log if "initiative" in e.text]
    assert rolled and {e.when for e in rolled} == {"Set-up"}, "initiative is rolled while units are still placed"
    assert "] Set-up Round 1 initiative" in s.game_log.lines_text()
    s.start_turn()
    assert s.log[-1].when == "R1" and "turn begins" in s.log[-1].text
    side = s.state.active_side
    mover = next(u for u in s.units() if u.side == side and u.on_table and u.move_in == 8.0)
    carry(s, 3.0, mover.unit_id, mover.x_in + 12.0, mover.y_in, 12.0)
    warned = [e for e in s.log if e.kind == "warning"]
    assert warned and warned[-1].when == "R1" and "more than its Movement of 8" in warned[-1].text
    s.stop_recording()
    replay = ReplayModel(tmp_path / "game.sqlite")
    try:
        assert {e.when for e in replay.log_at(1e9) if "initiative" in e.text} == {"Set-up"}
    finally:
        replay.close()
