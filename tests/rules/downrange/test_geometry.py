"""The geometry the rules decide (and the GUI draws): closest-point ranges, cones, blasts, voice chains,
jamming, with boundary rows exactly at the limits."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import EnteredDice
from rules.downrange.attack import plan_attack
from rules.downrange.declarations import AttackSetup, TargetSpec
from rules.geometry import (Circle, CommsNode, Cone, OrientedRect, Reach, angular_extent_deg, common_cone_axis_deg,
                            comms_graph, distance_to_point_in, gap_in, units_in_blast, units_within)
from rules_helpers import game, unit

INF = float("inf")


def _rifle_at(distance_in: float, weapon: str = "M4/M16"):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    """An attacker and a target whose bases are ``distance_in`` apart (both 0.5" round bases)."""
    s = game(unit(10, "Shooter", "Blue", 0, 0, weapons=[weapon]), unit(20, "Target", "Red", distance_in + 1.0, 0))
    return plan_attack(s, AttackSetup(10, weapon, (TargetSpec(20),)))


# Boundary rows: (what, weapon, base-to-base distance, allowed)
RANGE_ROWS = [
    ("well inside range", "M4/M16", 20.0, True),
    ("exactly at maximum range", "M4/M16", 36.0, True),
    ("a hair beyond maximum range", "M4/M16", 36.001, False),
    ("pistol exactly at 8", "Pistol", 8.0, True),
    ("bayonet in contact", "Bayonet", 0.0, True),
    ("bayonet exactly at 1", "Bayonet", 1.0, True),
    ("bayonet at 1.01", "Bayonet", 1.01, False),
]


@pytest.mark.parametrize("row", RANGE_ROWS, ids=[r[0] for r in RANGE_ROWS])
def test_range_is_measured_base_to_base_with_the_limit_included(row: tuple) -> None:  # type: ignore[type-arg]  # a parametrize row of mixed values
    _, weapon, distance, allowed = row
    plan = _rifle_at(distance, weapon)
    assert plan.targets[0].allowed is allowed
    assert plan.targets[0].distance_in == pytest.approx(distance)


def test_unlimited_range_artillery_reaches_the_far_corner_of_a_big_table() -> None:
    s = game(unit(10, "Battery", "Blue", 0, 0, weapons=["Tube artillery"]), unit(20, "Target", "Red", 500, 300))
    plan = plan_attack(s, AttackSetup(10, "Tube artillery", (TargetSpec(20),)))
    assert not plan.problems and plan.targets[0].allowed


def test_an_explosive_reaches_range_plus_radius_only_through_its_blast() -> None:
    # Hand grenade: Range 8, Radius 4. The aim point must be within 8" of the thrower's base;
    # a unit 11" away is still caught when the point is 8" out.
    s = game(unit(10, "Thrower", "Blue", 0, 0, weapons=["Hand grenade"]), unit(20, "Target", "Red", 12.0, 0))
    at_limit = plan_attack(s, AttackSetup(10, "Hand grenade", (TargetSpec(20),), aim_x_in=8.5, aim_y_in=0.0))
    assert not at_limit.problems and [t.unit_id for t in at_limit.targets] == [20]
    beyond = plan_attack(s, AttackSetup(10, "Hand grenade", (TargetSpec(20),)))  # aimed at the target itself
    assert any("beyond" in p and "Range + Radius = 12" in p for p in beyond.problems)


def test_a_unit_exactly_at_the_blast_radius_is_caught_and_one_beyond_is_not() -> None:
    fps = {1: Circle(4.5, 0, 0.5), 2: Circle(4.5001 + 0.0001, 0, 0.5), 3: OrientedRect(0, 6, 0, 4, 2)}
    assert units_in_blast((0.0, 0.0), 4.0, fps) == (1,)
    assert units_in_blast((0.0, 0.0), 5.0, fps) == (1, 2, 3)


@pytest.mark.parametrize("offset_deg, inside", [(0.0, True), (-22.5, True), (22.5, True), (22.6, False), (25.0, False)])
def test_a_point_target_exactly_on_the_edge_of_the_45_degree_fan_is_inside(offset_deg: float, inside: bool) -> None:
    h = math.radians(offset_deg)
    point_target = Circle(20 * math.cos(h), 20 * math.sin(h), 0.0)
    cone = Cone.from_attacker(Circle(0, 0, 0.5), axis_deg=0.0, range_in=30)
    assert cone.touches(point_target) is inside


def test_a_round_base_straddling_the_fan_edge_counts_as_inside() -> None:
    cone = Cone.from_attacker(Circle(0, 0, 0.5), axis_deg=90.0, range_in=48)
    # Centre 23.9 degrees off the axis, but the 0.5" base pokes into the cone at 20" away.
    h = math.radians(90.0 + 23.9)
    assert cone.touches(Circle(20 * math.cos(h), 20 * math.sin(h), 0.5))
    h = math.radians(90.0 + 25.0)
    assert not cone.touches(Circle(20 * math.cos(h), 20 * math.sin(h), 0.5))


def test_the_cone_ends_at_the_weapons_range_measured_from_the_base() -> None:
    cone = Cone.from_attacker(Circle(0, 0, 0.5), axis_deg=0.0, range_in=48)
    assert cone.touches(Circle(49.0, 0, 0.5))   # base to base exactly 48
    assert not cone.touches(Circle(49.01, 0, 0.5))


def test_targets_in_front_and_behind_do_not_fit_one_fan() -> None:
    attacker = Circle(0, 0, 0.5)
    assert common_cone_axis_deg(attacker, [Circle(20, 0, 0.5), Circle(-20, 0, 0.5)], range_in=48) is None
    # 44 degrees apart (plus bases) fit; 50 do not.
    a, b = (Circle(20 * math.cos(math.radians(t)), 20 * math.sin(math.radians(t)), 0.0) for t in (0, 44))
    assert common_cone_axis_deg(attacker, [a, b], range_in=48) is not None
    c = Circle(20 * math.cos(math.radians(50)), 20 * math.sin(math.radians(50)), 0.0)
    assert common_cone_axis_deg(attacker, [a, c], range_in=48) is None


def test_the_chosen_fan_axis_prefers_the_units_facing() -> None:
    attacker = Circle(0, 0, 0.5)
    axis = common_cone_axis_deg(attacker, [Circle(30, 0, 0.5)], range_in=48, prefer_deg=10.0)
    assert axis == pytest.approx(10.0)


def test_a_fan_from_a_vehicle_hull_uses_its_centre_and_its_hull_for_range() -> None:
    s = game(unit(10, "IFV", "Red", 0, 0, "ZBL-09", heading=0.0),
             unit(20, "A", "Blue", 66.75, 0.0), unit(21, "B", "Blue", 66.7, 3.0))
    plan = plan_attack(s, AttackSetup(10, "Autocannon", (TargetSpec(20), TargetSpec(21))))
    # Hull front at x = 2.25: base to base 64.0 exactly for A.
    assert plan.targets[0].distance_in == pytest.approx(64.0)
    assert plan.targets[0].allowed and plan.axis_deg is not None


@settings(max_examples=200, deadline=None)
@given(x=st.floats(-50, 50), y=st.floats(-50, 50), h=st.floats(0, 360), l=st.floats(0.5, 6), w=st.floats(0.5, 3),
       px=st.floats(-60, 60), py=st.floats(-60, 60))
def test_distance_to_a_hull_agrees_with_a_dense_sampling_of_its_outline(x, y, h, l, w, px, py):  # type: ignore[no-untyped-def]  # noqa: E741 - l is OrientedRect's length, named as in its signature
    rect = OrientedRect(x, y, h, l, w)
    exact = distance_to_point_in(rect, px, py)
    corners = rect.corners_in()
    samples = []
    for i in range(4):
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
        samples += [(ax + (bx - ax) * k / 400, ay + (by - ay) * k / 400) for k in range(401)]
    sampled = min(math.hypot(px - sx, py - sy) for sx, sy in samples)
    inside = exact == 0.0
    if not inside:
        assert exact == pytest.approx(sampled, abs=max(l, w) / 400 + 1e-9)
    else:
        assert sampled <= math.hypot(l, w)


@settings(max_examples=100, deadline=None)
@given(ax=st.floats(-20, 20), ay=st.floats(-20, 20), ah=st.floats(0, 360), bx=st.floats(-20, 20), by=st.floats(-20, 20),
       bh=st.floats(0, 360))
def test_gap_between_hulls_is_symmetric_and_never_more_than_centre_distance(ax, ay, ah, bx, by, bh):  # type: ignore[no-untyped-def]  # untyped helper: this folder is not in MYPY_PACKAGES yet
    a, b = OrientedRect(ax, ay, ah, 4, 2), OrientedRect(bx, by, bh, 3, 1.5)
    assert gap_in(a, b) == pytest.approx(gap_in(b, a), abs=1e-9)
    assert gap_in(a, b) <= math.hypot(ax - bx, ay - by) + 1e-9


def test_range_ring_outline_lies_at_the_reach_distance_from_the_base() -> None:
    for base in (Circle(3, 4, 0.5), OrientedRect(3, 4, 30, 4, 2)):
        ring = Reach(base, 36.0)
        for x, y in ring.outline_in(64):
            assert distance_to_point_in(base, x, y) == pytest.approx(36.0, abs=1e-9)


def test_cone_outline_is_drawn_where_the_cone_ends() -> None:
    cone = Cone.from_attacker(OrientedRect(0, 0, 0, 4.5, 2), axis_deg=0.0, range_in=64)
    outline = cone.outline_in(24)
    assert outline[0] == (0.0, 0.0)
    for x, y in outline[1:]:
        assert distance_to_point_in(cone.reach.around, x, y) == pytest.approx(64.0, abs=1e-6)


def test_angular_extent_of_a_base_seen_from_afar_is_its_half_width() -> None:
    mid, half = angular_extent_deg(Circle(10, 0, 1), 0, 0)  # type: ignore[misc]  # unpacks the (mid, half) pair the function returns
    assert mid == pytest.approx(0.0) and half == pytest.approx(math.degrees(math.asin(0.1)))
    assert angular_extent_deg(Circle(0, 0, 1), 0.5, 0) is None  # apex inside the base


def test_voice_chain_is_directed_by_each_units_own_move() -> None:
    # A (Move 8) hears B 7" away; B (Move 5) cannot reach A back; C 30" away is alone.
    g = comms_graph([CommsNode(1, Circle(0, 0, 0.5), 8), CommsNode(2, Circle(8, 0, 0.5), 5),
                     CommsNode(3, Circle(38, 0, 0.5), 8)])
    assert g.edges == ((1, 2),)
    assert g.reachable_from(1) == {1, 2} and g.reachable_from(2) == {2}
    assert g.groups == (frozenset({1, 2}), frozenset({3}))
    assert g.segments_in() == [((0, 0), (8, 0))]


def test_jamming_coverage_is_36_inches_base_to_base() -> None:
    reach = Reach(Circle(0, 0, 0.5), 36.0)
    got = units_within(reach, {1: Circle(37.0, 0, 0.5), 2: Circle(37.01, 0, 0.5), 3: OrientedRect(0, 37.5, 0, 4, 2)})
    assert got == (1, 3)


def test_range_of_infinity_has_no_outline_to_draw() -> None:
    assert Reach(Circle(0, 0, 0.5), INF).outline_in() == []
    assert Reach(Circle(0, 0, 0.5), INF).touches(Circle(1e6, 0, 0.5))


def test_dice_feed_the_same_geometry_the_odds_used() -> None:
    # What is ruled in range is what the odds call allowed, and what resolution accepts.
    from rules.downrange.attack import attack_odds, resolve_attack

    s = game(unit(10, "Shooter", "Blue", 0, 0, weapons=["M4/M16"]), unit(20, "Target", "Red", 37.0, 0))
    setup = AttackSetup(10, "M4/M16", (TargetSpec(20, stationary=False),))
    assert attack_odds(s, setup)[0].allowed
    assert resolve_attack(s, setup, EnteredDice([4, 6])).killed == (20,)
