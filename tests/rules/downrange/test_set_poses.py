"""Every unit's tracked pose set at once (the replay does it at every moment it shows) gives the state of
setting the poses one after another: gun teams and their riders, a unit carrying another, vehicles and
remote systems, units lifted off or put back, moves that break the rules (their warnings logged in order)."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules.downrange.examples.in_depth import load_scenario
from rules.downrange.pieces import Status
from rules.ruleset import PoseUpdate, Ruleset, get_ruleset


def _game():
    dr = get_ruleset("down-range")
    state = replace(dr.new_game(load_scenario()), setting_up=False)  # in play: a move past Movement is warned
    state = state.update_unit(14, carrying=13).update_unit(13, carried_by=14)  # the Corpsman carries the MAAWS gunner
    state = state.update_unit(35, status=Status.DOWN, focused="aiming")
    return dr, state


@pytest.mark.parametrize("seed", range(6))
def test_setting_every_pose_at_once_gives_the_state_of_setting_them_in_turn(seed: int) -> None:
    dr, state = _game()
    rng = random.Random(seed)
    ids = [u.unit_id for u in state.units]
    for _ in range(3):  # three moments in a row, each from the state the one before left
        chosen = rng.sample(ids, k=len(ids)) + rng.sample(ids, k=3)  # every unit, some twice
        poses = [PoseUpdate(uid, rng.uniform(0, 72), rng.uniform(0, 48), rng.uniform(-360, 720),
                            moved_in=rng.choice([None, 0.0, rng.uniform(0, 30)]), on_table=rng.random() > 0.15,
                            alone=rng.random() < 0.3) for uid in chosen]
        at_once = dr.set_poses(state, poses)
        in_turn = Ruleset.set_poses(dr, state, poses)  # the base class: set_pose for each in turn
        assert at_once == in_turn
        state = at_once
    assert any(e.kind == "warning" for e in state.events)  # the moves that broke the rules were logged


def test_a_gun_team_moved_by_its_tag_carries_its_rider_and_a_lone_unit_moves_alone() -> None:
    dr, state = _game()
    moved = dr.set_poses(state, [PoseUpdate(11, 30.0, 30.0, 90.0), PoseUpdate(10, 5.0, 6.0, 45.0)])
    gunner, assistant, sergeant = moved.unit(11), moved.unit(12), moved.unit(10)
    assert (gunner.x_in, gunner.y_in) == (assistant.x_in, assistant.y_in) == (30.0, 30.0)
    assert (sergeant.x_in, sergeant.y_in, sergeant.heading_deg) == (5.0, 6.0, 45.0)
    assert moved.unit(30) == state.unit(30)  # a unit with no pose stays where it was
