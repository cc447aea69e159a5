"""A small Down Range game with a radio on each side and an EW jammer, recorded as the window records
it: shared by the review-event tests of the replay and of the report."""
from __future__ import annotations

from typing import Any

JAMMING_SCENARIO = """format = "sandtable-scenario"
version = 1
ruleset = "down-range"
[[sides]]
name = "Blue"
[[sides]]
name = "Red"
[[units]]
tag_id = 1
name = "Sergeant"
side = "Blue"
type = "average combatant"
x_in = 10.0
y_in = 10.0
equipment = ["radio"]
[[units]]
tag_id = 4
name = "Sparks"
side = "Blue"
type = "average combatant"
x_in = 8.0
y_in = 10.0
equipment = ["EW equipment"]
[[units]]
tag_id = 9
name = "Enemy radioman"
side = "Red"
type = "average combatant"
x_in = 28.0
y_in = 10.0
equipment = ["radio"]
"""


def recorded_jamming_game(tmp_path, name: str, *, extra: str = "", clock: Any = None):
    """A game session on JAMMING_SCENARIO (``extra``: more of the scenario's TOML), recording to NAME.sqlite."""
    from appmodel.game_session import GameSession

    scenario = tmp_path / f"{name}.toml"
    scenario.write_text(JAMMING_SCENARIO + extra, encoding="utf-8")
    session = GameSession.from_scenario_file(scenario, seed=1, clock=clock)
    session.start_recording(tmp_path / f"{name}.sqlite")
    return session
