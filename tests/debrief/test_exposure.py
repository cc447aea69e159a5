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


def write_walk_across(path: Path) -> Path:
    """Red walks straight at Blue from 70" to 2" and back over 120 s (the rifle's 36" crossed twice, at
    moments between the samples), and Blue turns as it goes."""
    with Recorder(path, metadata={"scenario_toml": SCENARIO, "ruleset": "down-range", "source": "test"}) as rec:
        for i in range(241):
            t = i / 2.0
            red_x = 72.0 - 68.0 * (1.0 - abs(t - 60.0) / 60.0)
            rec.record_frame(i, t, [UnitPose(10, "Blue rifle", "Blue", 2.0, 24.0, 0.0, 3.0 * t % 360, UnitState.SEEN, t, 0.0,
                                             last_seen_t_s=t, moving=True),
                                    UnitPose(11, "Red rifle", "Red", red_x, 24.0 + 0.1 * t, 0.0, 180.0, UnitState.SEEN, t, 0.0,
                                             last_seen_t_s=t, moving=True)])
    return path


def assert_same_exposure(recording: Path, **kwargs: float) -> None:
    facts = read_debrief_facts(recording)
    fast = exposure_of(recording, facts, **kwargs)
    slow = exposure_of(recording, facts, reference=True, **kwargs)
    assert fast is not None and slow is not None
    assert fast.units == slow.units
    assert fast.exposed_grid.keys() == slow.exposed_grid.keys()
    for side, grid in slow.exposed_grid.items():
        assert (fast.exposed_grid[side] == grid).all()


def test_exposure_decided_by_arithmetic_agrees_with_asking_the_rules_at_every_moment_across_the_range_edge(tmp_path: Path) -> None:
    recording = write_walk_across(tmp_path / "across.sqlite")
    assert_same_exposure(recording, min_step_s=0.5)
    exposure = exposure_of(recording, read_debrief_facts(recording), min_step_s=0.5)
    assert exposure is not None
    assert 0 < {u.name: u for u in exposure.units}["Red rifle"].exposed_s < 120  # the edge is crossed: some, not all


def test_exposure_of_the_in_depth_example_agrees_with_asking_the_rules_with_vehicles_casualties_and_every_weapon(tmp_path: Path) -> None:
    from demo.example_recording import record_in_depth_example

    recording = record_in_depth_example(tmp_path / "in_depth.sqlite")
    assert_same_exposure(recording, max_samples=60)
