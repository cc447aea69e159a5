"""The generic miniatures rules (Russell Parkin): the text's tables and the test cases of
../shared/rules/other-systems.md (B.10), reproduced through the rules engine -- every row of the range
table at and around its band edges, the to-hit table, the scatter direction table, damage against
ranged defence, half damage in the area of effect, and the automation's route and firing tables."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from rules.dice import EnteredDice
from rules.generic.automation import decide_fire
from rules.generic.catalog import load_data
from rules.generic.ranged import plan_shot, resolve_shot
from rules.generic.scenario import game_from_scenario
from rules.generic.state import GenericState

DATA = load_data()

#: (delivery, distance, expected band): the text's rows with the proposal's edges (a band holds its
#: near limit, not its far limit; Very Long holds both).
RANGE_ROWS = [
    ("Thrown", 0.0, "Point Blank"), ("Thrown", 0.99, "Point Blank"), ("Thrown", 1.0, "Short"), ("Thrown", 2.0, "Medium"),
    ("Thrown", 4.0, "Long"), ("Thrown", 6.0, "Very Long"), ("Thrown", 8.0, "Very Long"), ("Thrown", 8.01, None),
    ("Handgun", 1.5, "Point Blank"), ("Handgun", 2.0, "Short"), ("Handgun", 4.0, "Medium"), ("Handgun", 8.0, "Long"),
    ("Handgun", 12.0, "Very Long"), ("Handgun", 18.0, "Very Long"), ("Handgun", 19.0, None),
    ("Rifle", 2.9, "Point Blank"), ("Rifle", 3.0, "Short"), ("Rifle", 6.0, "Medium"), ("Rifle", 10.0, "Medium"),
    ("Rifle", 12.0, "Long"), ("Rifle", 18.0, "Very Long"), ("Rifle", 24.0, "Very Long"), ("Rifle", 24.5, None),
    ("Mortar", 5.0, "Point Blank"), ("Mortar", 6.0, "Short"), ("Mortar", 12.0, "Medium"), ("Mortar", 18.0, "Long"),
    ("Mortar", 24.0, "Very Long"), ("Mortar", 30.0, "Very Long"), ("Mortar", 31.0, None),
    ("Artillery", 0.0, "Short"), ("Artillery", 5.0, "Short"), ("Artillery", 12.0, "Medium"), ("Artillery", 24.0, "Long"),
    ("Artillery", 40.0, "Very Long"), ("Artillery", 60.0, "Very Long"), ("Artillery", 61.0, None),
    ("Missile", 10.0, "Short"), ("Missile", 18.0, "Medium"), ("Missile", 30.0, "Long"), ("Missile", 60.0, "Very Long"),
    ("Missile", 90.0, "Very Long"), ("Missile", 90.5, None),
]


@pytest.mark.parametrize("delivery, distance, band", RANGE_ROWS, ids=[f"{d} {x:g}" for d, x, _ in RANGE_ROWS])
def test_range_table_rows_and_band_edges(delivery: str, distance: float, band: str | None) -> None:
    found = DATA.band(delivery, distance)
    assert (found.name if found else None) == band


@pytest.mark.parametrize("level, needs, p", [("Adjacent", 1, Fraction(1)), ("Point Blank", 2, Fraction(5, 6)),
                                              ("Short", 3, Fraction(4, 6)), ("Medium", 4, Fraction(3, 6)),
                                              ("Long", 5, Fraction(2, 6)), ("Very Long", 6, Fraction(1, 6))])
def test_to_hit_table(level: str, needs: int, p: Fraction) -> None:
    lv = DATA.level(level)
    assert lv.to_hit == needs and (Fraction(7 - needs, 6) if needs > 1 else Fraction(1)) == p


def test_the_scatter_table_gives_each_direction_and_the_dud_four_chances_in_36() -> None:
    table = {(a, b): DATA.direction(a, b) for a in range(1, 7) for b in range(1, 7)}
    assert [table[(1, 1)], table[(2, 4)], table[(3, 3)], table[(4, 6)], table[(6, 6)]] == ["NW", "N", "Dud", "E", "SE"]
    assert Counter(table.values()) == {d: 4 for d in ("NW", "N", "NE", "W", "Dud", "E", "SW", "S", "SE")}


def test_the_route_table_gives_each_manoeuvre_three_direct_and_five_easy_chances() -> None:
    counts = Counter(DATA.route(a, b) for a in range(1, 7) for b in range(1, 7))
    for m in ("Adv", "OfL", "OfR", "Ret"):
        assert (counts[f"{m} Dir"], counts[f"{m} Esy"]) == (3, 5)
    assert (counts["Rnd Dir"], counts["Rnd Esy"]) == (2, 2)
    assert [DATA.route(2, 6), DATA.route(4, 1), DATA.route(6, 3)] == ["OfL Esy", "OfR Dir", "Rnd Dir"]


def duel(attacker: dict[str, Any], target: dict[str, Any], distance_in: float, **rules: Any) -> GenericState:
    """Two units facing each other ``distance_in`` apart, base to base (0.5" bases)."""
    doc = {"format": "sandtable-scenario", "version": 1, "ruleset": "generic", "rules": rules,
           "sides": [{"name": "Blue"}, {"name": "Red"}],
           "units": [{"tag_id": 10, "name": "A", "side": "Blue", "unit_name": "A1", "x_in": 0.0, "y_in": 0.0, **attacker},
                     {"tag_id": 20, "name": "T", "side": "Red", "unit_name": "T1", "x_in": distance_in + 1.0, "y_in": 0.0,
                      **target}]}
    return game_from_scenario(doc, source="test.toml")


RIFLES = {"type": "Rifle section"}


def test_b10_rifle_at_ten_units_is_medium_and_hits_on_four() -> None:
    p = plan_shot(duel(RIFLES, RIFLES, 10.0), 10, target_id=20)
    assert (p.band, p.to_hit, p.p_hit) == ("Medium", 4, Fraction(1, 2))


def test_b10_thrown_at_half_a_unit_is_point_blank() -> None:
    p = plan_shot(duel({"type": "Grenadiers"}, RIFLES, 0.6), 10, target_id=20)
    assert (p.band, p.to_hit) == ("Point Blank", 2)


def test_b10_artillery_at_five_units_is_short() -> None:
    p = plan_shot(duel({"type": "Light tank"}, RIFLES, 5.0), 10, target_id=20)
    assert (p.band, p.to_hit) == ("Short", 3)


def test_b10_handgun_at_nineteen_units_cannot_fire() -> None:
    p = plan_shot(duel({"type": "Headquarters"}, RIFLES, 19.0), 10, target_id=20)
    assert not p.allowed and "beyond Very Long" in p.reason


def test_b10_base_contact_is_an_automatic_hit() -> None:
    state = duel(RIFLES, RIFLES, 0.2)
    p = plan_shot(state, 10, target_id=20)
    assert p.adjacent and p.to_hit == 1 and p.band == "Adjacent"
    r = resolve_shot(state, p, EnteredDice([[1]]))  # no to-hit die is asked: only the damage die
    assert r.hit and r.to_hit_face is None


def test_b10_a_mortar_missing_a_point_six_units_away_scatters_at_most_three() -> None:
    state = duel({"type": "Mortar team"}, RIFLES, 20.0)
    p = plan_shot(state, 10, aim_point=(6.5, 0.0))  # 6" from the edge of the mortar's base
    r = resolve_shot(state, p, EnteredDice([1, 5, [2, 4]]))
    assert p.distance_in == 6.0 and r.scatter is not None
    assert (r.scatter.distance_face, r.scatter.distance_in, r.scatter.direction) == (5, 3.0, "N")
    assert (r.impact_x_in, r.impact_y_in) == pytest.approx((6.5, 3.0))


def test_b10_four_points_on_a_vehicle_rolling_1_4_6_3_do_two_levels() -> None:
    heavy = duel({"type": "Light tank", "damage": 4, "aoe_in": 0}, {"type": "Light tank"}, 5.0)
    d4 = resolve_shot(heavy, plan_shot(heavy, 10, target_id=20), EnteredDice([6, [1, 4, 6, 3]])).damages[0]
    assert (d4.points, d4.defence, d4.applied, d4.status_after) == (4, 3, 2, "Damaged")


def test_b10_one_point_on_foot_rolling_one_applies() -> None:
    state = duel(RIFLES, RIFLES, 10.0)
    d = resolve_shot(state, plan_shot(state, 10, target_id=20), EnteredDice([4, [1]])).damages[0]
    assert d.applied == 1 and d.status_after == "Superficial Damage"


def test_b10_high_explosive_does_full_damage_to_the_unit_hit_and_half_to_others_in_the_area() -> None:
    doc = {"format": "sandtable-scenario", "version": 1, "ruleset": "generic", "sides": [{"name": "Blue"}, {"name": "Red"}],
           "units": [{"tag_id": 10, "name": "Gun", "side": "Blue", "type": "Field gun", "x_in": 0, "y_in": 0},
                     {"tag_id": 20, "name": "Target", "side": "Red", "type": "Rifle section", "x_in": 30, "y_in": 0},
                     {"tag_id": 21, "name": "Near", "side": "Red", "type": "Rifle section", "x_in": 36, "y_in": 0},
                     {"tag_id": 22, "name": "Far", "side": "Red", "type": "Rifle section", "x_in": 39, "y_in": 0}]}
    state = game_from_scenario(doc, source="he.toml")
    r = resolve_shot(state, plan_shot(state, 10, target_id=20), EnteredDice([6, [1, 1, 1, 1], [1, 1]]))
    assert [(d.name, d.points, d.full) for d in r.damages] == [("Target", 4, True), ("Near", 2, False)]
    assert r.damages[0].destroyed  # four points on foot (defence 0): Undamaged -> Destroyed


def test_b10_automation_fires_at_medium_on_one_to_five_and_at_long_on_one_to_three() -> None:
    auto = {"name": "Red", "automated": True}

    def fire(distance: float, face: int) -> bool:
        doc = {"format": "sandtable-scenario", "version": 1, "ruleset": "generic", "sides": [{"name": "Blue"}, auto],
               "units": [{"tag_id": 10, "name": "B", "side": "Blue", "type": "Rifle section", "x_in": 0, "y_in": 0},
                         {"tag_id": 20, "name": "R", "side": "Red", "type": "Rifle section", "x_in": distance + 1.0, "y_in": 0}]}
        state = game_from_scenario(doc, source="auto.toml")
        return decide_fire(state, state.unit(20), EnteredDice([face])).fires

    assert not fire(10.0, 6) and fire(10.0, 5)
    assert fire(15.0, 3) and not fire(15.0, 4)
    state = duel(RIFLES, RIFLES, 4.0)
    short = decide_fire(state, state.unit(20), EnteredDice([]))
    assert short.fires and short.face is None  # Short: always, no die
