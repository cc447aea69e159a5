"""Line of sight over the ground: the relief between two figures hides one from the other (or part
of it), and Down Range's and Force on Force's attacks take that as the proposed declaration."""
import numpy as np
import pytest

from rules.downrange.ground_sight import propose_from_ground as dr_propose
from rules.forceonforce.examples.patrol import initial_state
from rules.forceonforce.fire import check_fire
from rules.forceonforce.ground_sight import propose_from_ground as fof_propose
from rules.terrain_sight import Ground, propose_sight, sight_over_ground
from rules_helpers import game, unit

CELL = 0.25


def ridge_across(x_in: float, height_in: float, *, width_in: float = 72.0, depth_in: float = 48.0, half_in: float = 1.0) -> Ground:
    """A ridge along y at x = ``x_in``: a triangle ``half_in`` wide each side."""
    xs = np.arange(int(width_in / CELL) + 1) * CELL
    profile = np.clip(1.0 - np.abs(xs - x_in) / half_in, 0.0, None) * height_in
    return Ground(np.tile(profile, (int(depth_in / CELL) + 1, 1)), CELL)


def test_a_ridge_higher_than_both_eyes_blocks_and_says_where():
    g = ridge_across(30.0, 3.0)
    s = sight_over_ground(g, (10.0, 20.0), 1.0, (50.0, 20.0), 1.0)
    assert not s.clear
    (start, end), = s.blocked_spans_in
    assert 19.0 < start < 19.5 and 20.5 < end < 21.0  # inches from the eye: where the ridge stands above 1"
    ((x0, _), (x1, _)), = s.blocked_segments_xy()
    assert x0 == pytest.approx(10.0 + start) and x1 == pytest.approx(10.0 + end)


def test_figures_on_hilltops_see_over_a_lower_ridge_and_flat_ground_never_blocks():
    g = ridge_across(30.0, 3.0)
    assert sight_over_ground(g, (10.0, 20.0), 4.0, (50.0, 20.0), 4.0).clear
    flat = Ground(np.zeros((10, 10)), 1.0)
    assert sight_over_ground(flat, (1.0, 1.0), 0.2, (8.0, 8.0), 0.2).clear


def test_a_crest_that_hides_only_the_targets_foot_is_proposed_as_cover():
    # a 0.8" bank just in front of the target: its 1" figure shows over it
    p = propose_sight(ridge_across(48.5, 0.8), (10.0, 20.0), (50.0, 20.0), eye_height_in=1.0, target_height_in=1.0)
    assert p.line_of_sight and p.partly_hidden and "cover" in p.reason
    blocked = propose_sight(ridge_across(30.0, 3.0), (10.0, 20.0), (50.0, 20.0))
    assert not blocked.line_of_sight and "blocks the line of sight" in blocked.reason


def test_down_range_targets_behind_the_ridge_are_proposed_without_line_of_sight_and_the_attack_then_needs_a_spotter():
    from rules.downrange.attack import plan_attack
    from rules.downrange.declarations import AttackSetup, TargetSpec

    state = game(unit(10, "Rifleman", "Blue", 20.0, 20.0), unit(20, "Hidden", "Red", 40.0, 20.0),
                 unit(21, "Seen", "Red", 20.0, 40.0))
    proposal = dr_propose(state, 10, (20, 21), ridge_across(30.0, 3.0, half_in=1.0))
    assert proposal.targets[20] == {"line_of_sight": False, "cover": "none"}
    assert proposal.targets[21] == {"line_of_sight": True, "cover": "none"}
    assert not proposal.sights[20].clear
    plan = plan_attack(state, AttackSetup(10, "rifle", (TargetSpec(20, line_of_sight=proposal.targets[20]["line_of_sight"]),)))
    assert "no line of sight" in plan.targets[0].reason


def test_force_on_force_line_of_sight_and_visible_figures_come_from_the_ground():
    state = initial_state()
    alpha, cell = state.team(10), state.team(30)
    a, c = state.centre(alpha), state.centre(cell)
    mid_x = (a.x_in + c.x_in) / 2
    ground = ridge_across(mid_x, 4.0, half_in=1.5) if abs(c.x_in - a.x_in) > 6 else None
    if ground is None:
        pytest.skip("the patrol's units do not stand apart along x")
    proposal = fof_propose(state, 10, (30,), ground)
    assert proposal.targets[30]["line_of_sight"] is False
    assert proposal.targets[30]["target_visible"] == 0
    assert proposal.attack["firers_seeing"] == 0
    check = check_fire(state, alpha, cell, line_of_sight=proposal.targets[30]["line_of_sight"])
    assert not check.allowed
    flat = fof_propose(state, 10, (30,), Ground(np.zeros((193, 289)), CELL))
    assert flat.targets[30]["line_of_sight"] is True
    assert flat.targets[30]["target_visible"] == len(state.in_play_members(cell))


def test_both_rulesets_offer_the_ground_proposal_behind_the_neutral_interface():
    from rules.ruleset import AttackRequest, get_ruleset
    from rules.terrain_sight import GroundSightProposals

    dr, fof = get_ruleset("down-range"), get_ruleset("force-on-force")
    assert isinstance(dr, GroundSightProposals) and isinstance(fof, GroundSightProposals)
    assert not isinstance(get_ruleset("generic"), GroundSightProposals)
    state = game(unit(10, "Rifleman", "Blue", 20.0, 20.0), unit(20, "Hidden", "Red", 40.0, 20.0))
    got = dr.propose_from_ground(state, AttackRequest(10, "rifle", (20,)), ridge_across(30.0, 3.0))
    assert got.targets[20]["line_of_sight"] is False
