"""Placed templates measure as the rules do: a circle catches the units whose bases it touches, a 45-degree
fan the units the rules' own Cone touches, a tape adds its legs; a dropped point snaps onto a unit; a
pinned template cannot be dragged or turned; a removed one is gone."""
from __future__ import annotations

import math

import pytest

from appmodel.overlays.placed_templates import TemplateBoard, snapped
from appmodel.game_session import GameSession
from rules.downrange.examples.in_depth import SCENARIO_PATH


@pytest.fixture(scope="module")
def units():
    session = GameSession.from_scenario_file(SCENARIO_PATH)
    return [u for u in session.units() if u.on_table]


def test_circle_and_fan_cover_the_units_the_rules_geometry_touches(units):
    footprints = {u.unit_id: u.footprint for u in units}
    officer = next(u for u in units if u.name == "Officer")
    board = TemplateBoard().add("circle", (officer.x_in + 2.9, officer.y_in), size_in=2.5)  # base edge 0.4" inside
    assert officer.unit_id in board.get(1).covers(footprints)
    board = board.moved(1, 1.0, 0.0)  # now 1.4" away from the base... 3.9 - 0.5 > 2.5
    assert officer.unit_id not in board.get(1).covers(footprints)
    sergeant = next(u for u in units if u.name == "Sergeant")
    fan = TemplateBoard().add("fan", (sergeant.x_in, sergeant.y_in), size_in=40.0,
                              heading_deg=math.degrees(math.atan2(officer.y_in - sergeant.y_in, officer.x_in - sergeant.x_in)))
    covered = fan.get(1).covers(footprints)
    assert officer.unit_id in covered
    turned = fan.rotated(1, 180.0).get(1).covers(footprints)
    assert officer.unit_id not in turned


def test_tape_with_waypoints_snapping_pinning_and_removing(units):
    sergeant = next(u for u in units if u.name == "Sergeant")
    start = snapped((sergeant.x_in + 0.6, sergeant.y_in - 0.5), units)
    assert start == (sergeant.x_in, sergeant.y_in)
    assert snapped((sergeant.x_in + 3.0, sergeant.y_in), units) == (sergeant.x_in + 3.0, sergeant.y_in)
    board = TemplateBoard().add("tape", start).extend_tape(1, (start[0] + 6, start[1])).extend_tape(1, (start[0] + 6, start[1] + 8))
    tape = board.get(1)
    assert tape.length_in == pytest.approx(14.0) and tape.label == 'Tape 14.0" (2 legs)'
    pinned = board.pinned(1)
    assert pinned.moved(1, 5, 5).get(1).points_in == tape.points_in  # a pinned template stays
    assert pinned.extend_tape(1, (0, 0)).get(1).points_in == tape.points_in
    assert board.at(start[0] + 3, start[1] + 0.3).template_id == 1  # grabbed on its first leg
    assert board.at(start[0] + 3, start[1] + 3) is None
    assert board.removed(1).templates == ()
    with pytest.raises(ValueError, match="one of circle, fan, line, tape"):
        board.add("cone", (0, 0))
