"""Exposure: the time a unit stood within an enemy weapon's reach, by the rules' own target proposal."""
from __future__ import annotations

from pathlib import Path

import pytest

from debrief.exposure import exposure_of
from debrief.facts import read_debrief_facts
from tracker.recording import Recorder
from tracker.unit_pose import UnitPose, UnitState

SCENARIO = """format = "sandtable-scenario"
version = 1
name = "Two riflemen"
ruleset = "down-range"
[table]
width_in = 72
depth_in = 48
[[sides]]
name = "Blue"
[[sides]]
name = "Red"
[[units]]
tag_id = 10
name = "Blue rifle"
side = "Blue"
type = "average combatant"
weapons = ["M4/M16"]
[[units]]
tag_id = 11
name = "Red rifle"
side = "Red"
type = "average combatant"
weapons = ["M4/M16"]
"""


def write_walk_in(path: Path) -> Path:
    """Red stands 60" from Blue (beyond the rifle's 36") for 30 s, then 20" from it for 30 s."""
    with Recorder(path, metadata={"scenario_toml": SCENARIO, "ruleset": "down-range", "source": "test"}) as rec:
        for i in range(61):
            t = float(i)
            red_x = 65.0 if t < 30.0 else 25.0
            rec.record_frame(i, t, [UnitPose(10, "Blue rifle", "Blue", 5.0, 24.0, 0.0, 0.0, UnitState.SEEN, t, 0.0, last_seen_t_s=t),
                                    UnitPose(11, "Red rifle", "Red", red_x, 24.0, 0.0, 180.0, UnitState.SEEN, t, 0.0, last_seen_t_s=t)])
    return path


def test_a_unit_is_exposed_only_while_an_enemy_rifle_reaches_it(tmp_path: Path) -> None:
    recording = write_walk_in(tmp_path / "walk.sqlite")
    facts = read_debrief_facts(recording)
    exposure = exposure_of(recording, facts)
    assert exposure is not None and exposure.step_s == 1.0
    by_name = {u.name: u for u in exposure.units}
    for name, enemy in (("Blue rifle", "Red rifle"), ("Red rifle", "Blue rifle")):
        u = by_name[name]
        assert u.on_table_s == pytest.approx(61.0)
        assert u.exposed_s == pytest.approx(31.0)  # from 30 s to 60 s, both ends sampled
        assert u.most_from == enemy
    assert "flat table" in exposure.line_of_sight
    # The heat map puts Blue's exposed seconds where Blue stood: (5, 24) is the cell (row 12, column 2).
    blue = exposure.exposed_grid["Blue"]
    assert blue.sum() == pytest.approx(31.0) and blue[12, 2] == pytest.approx(31.0)
