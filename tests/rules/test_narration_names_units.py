"""The narration names the units a target takes down with it, as players know them (the newcomer's
review, #9: "3 more go down with ZBL-09 (units 30, 36, 37)")."""
from __future__ import annotations

import re

from rules.downrange.examples import in_depth


def test_units_going_down_with_a_vehicle_are_named():
    lines = [line for record in in_depth.play() for line in record.lines]
    down_with = [line for line in lines if " down with " in line]
    assert down_with
    assert "3 more go down with ZBL-09: Officer, Rifleman 4, Rifleman 5." in down_with
    assert not any(re.search(r"\(units [0-9]", line) for line in lines)
