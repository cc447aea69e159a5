"""The tape measure as a player reads it: point to point, snapped to a base, base to base between units
-- worked out from unit views alone, with no ruleset and no session."""
from __future__ import annotations

import math

import pytest

from appmodel.session.tape import measure_tape, unit_at
from rules.geometry import Circle, OrientedRect
from rules.ruleset import UnitView


def view(unit_id: int, x_in: float, y_in: float, *, radius_in: float = 0.5, on_table: bool = True) -> UnitView:
    return UnitView(unit_id, f"U{unit_id}", "Blue", "rifle", x_in, y_in, 0.0, Circle(x_in, y_in, radius_in),
                    on_table, "active", (), 6.0, 6.0, ())


def test_open_table_measures_the_straight_line_between_the_points() -> None:
    tape = measure_tape([view(1, 50, 50)], (0.0, 0.0), (3.0, 4.0))
    assert tape.distance_in == pytest.approx(5.0)
    assert (tape.start_unit, tape.end_unit) == (None, None)
    assert (tape.start_in, tape.end_in) == ((0.0, 0.0), (3.0, 4.0))


def test_two_units_are_measured_base_to_base_from_their_centres() -> None:
    a, b = view(1, 10, 10, radius_in=0.5), view(2, 20, 10, radius_in=1.0)
    tape = measure_tape([a, b], (10.3, 10.1), (19.5, 10.4))
    assert (tape.start_unit, tape.end_unit) == (1, 2)
    assert tape.distance_in == pytest.approx(10 - 0.5 - 1.0)
    assert (tape.start_in, tape.end_in) == ((10.0, 10.0), (20.0, 10.0)), "the tape's ends snap to the units"


def test_a_unit_to_a_point_is_measured_from_the_edge_of_its_base() -> None:
    hull = UnitView(7, "Tank", "Red", "tank", 0, 0, 0, OrientedRect(0, 0, 0, 4, 2), True, "active", (), 6, 6, ())
    tape = measure_tape([hull], (5.0, 0.0), (1.0, 0.5))
    assert tape.end_unit == 7 and tape.start_unit is None
    assert tape.distance_in == pytest.approx(3.0), "from the hull's front edge at x=2 to the point at x=5"
    assert tape.end_in == (0.0, 0.0)


def test_a_unit_off_the_table_is_not_snapped_to() -> None:
    lifted = view(3, 10, 10, on_table=False)
    assert unit_at([lifted], 10, 10) is None
    assert measure_tape([lifted], (10, 10), (13, 14)).distance_in == pytest.approx(5.0)


def test_a_click_snaps_to_the_nearest_base_within_the_slack() -> None:
    units = [view(1, 10, 10), view(2, 11.6, 10)]
    assert unit_at(units, 10.7, 10) == 1
    assert unit_at(units, 11.0, 10) == 2, "0.1 inch from unit 2's base, 0.5 from unit 1's"
    assert unit_at(units, 10, 11.2) is None, "0.7 inch from the base is beyond the default half inch"
    assert unit_at(units, 10, 11.2, slack_in=1.0) == 1


def test_both_ends_on_one_unit_measure_from_its_base_to_the_far_end() -> None:
    tape = measure_tape([view(1, 0, 0, radius_in=1.0)], (0.2, 0.0), (0.0, 0.9))
    assert tape.start_unit == tape.end_unit == 1
    assert tape.distance_in == pytest.approx(0.0)
    assert math.isfinite(tape.distance_in)
