"""A side without a colour in its scenario is drawn in one colour everywhere: in the window (the live
session and its replay) and in the debrief report, since both read the recording through one reader."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from appmodel.game_session import GameSession
from appmodel.recording.rows import RecordingRows, recording_metadata
from appmodel.replay_model import ReplayModel
from appmodel.scenarios import find_shipped
from debrief.facts import read_debrief_facts


def scenario_with_colors(tmp_path: Path, marines: str | None, opfor: str | None) -> Path:
    """The starter skirmish with its two sides' colours set (None: the side gives none)."""
    text = find_shipped("starter-skirmish").path.read_text(encoding="utf-8")
    colors = iter((marines, opfor))
    text = re.sub(r'^color = "#[0-9a-fA-F]{6}".*$', lambda m: (lambda c: f'color = "{c}"' if c else "")(next(colors)),
                  text, flags=re.M)
    path = tmp_path / "skirmish.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("marines, opfor", [(None, None), (None, "#2f6fd0"), ("#d03a2f", None)])
def test_a_side_without_a_colour_is_the_same_colour_in_the_window_the_replay_and_the_debrief(tmp_path, marines, opfor):
    scenario = scenario_with_colors(tmp_path, marines, opfor)
    live = GameSession.from_scenario_file(scenario)
    rows = RecordingRows.open(tmp_path / "game.sqlite", metadata=recording_metadata("down-range", scenario_path=str(scenario)))
    rows.close()

    replay = ReplayModel(rows.path)
    try:
        replayed = dict(replay.session.side_colors)
    finally:
        replay.close()
    debriefed = read_debrief_facts(rows.path).side_colors

    assert set(live.side_colors) == {"Marines", "OPFOR"}
    assert replayed == dict(live.side_colors)
    assert {side: debriefed[side] for side in live.side_colors} == dict(live.side_colors)
    given = {"Marines": marines, "OPFOR": opfor}
    assert all(live.side_colors[side] == color for side, color in given.items() if color), "a scenario's own colour is kept"
