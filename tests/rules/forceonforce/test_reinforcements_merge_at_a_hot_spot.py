"""Reinforcements arriving at a Hot Spot a friendly unit already occupies "may merge with that unit
automatically" (Force on Force A.4.4): at full strength too, which the general merge (A.5.3) refuses."""
from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalActionError
from rules.forceonforce import actions as A
from rules.forceonforce.scenario import game_from_scenario
from rules.forceonforce.state import FofState

REG = {"troop_type": "regular", "quality": "d8", "morale": "d8"}


def _at_hot_spot(reinforcement_x_in: float = 11.8) -> FofState:
    def fig(tag: int, unit: str, x: float) -> dict[str, Any]:
        return {"tag_id": tag, "name": f"fig {tag}", "side": "Blue", "unit": unit, "x_in": x, "y_in": 10.0}

    doc: dict[str, Any] = {
        "format": "sandtable-scenario", "version": 1, "ruleset": "force-on-force",
        "sides": [{"name": "Blue", **REG}, {"name": "Red", **REG}], "fireteams": [],
        "rules": {"first_initiative": "Blue", "hot_spots": [[10.0, 10.0], [40.0, 10.0], [10.0, 40.0], [40.0, 40.0],
                                                             [25.0, 25.0]]},
        "units": [fig(10, "Holders", 8.2), fig(11, "Holders", 10.0),
                  fig(20, "Arrivals", reinforcement_x_in), fig(21, "Arrivals", reinforcement_x_in + 1.8),
                  {"tag_id": 30, "name": "red", "side": "Red", "x_in": 60.0, "y_in": 60.0}]}
    return game_from_scenario(doc, source="test.toml")


def test_full_strength_units_may_not_merge_in_general() -> None:
    with pytest.raises(IllegalActionError, match="half strength"):
        _at_hot_spot().apply(A.Merge("Holders", "Arrivals"))


def test_reinforcements_at_an_occupied_hot_spot_merge_at_full_strength() -> None:
    merged = _at_hot_spot().apply(A.Merge("Holders", "Arrivals", at_hot_spot=1))
    assert merged.team("Holders").strength == 4
    assert {f.team for f in merged.figures if f.figure_id in (20, 21)} == {"Holders"}
    assert "at Hot Spot 1 (reinforcements, A.4.4)" in merged.events[-1].summary


def test_the_hot_spot_merge_needs_both_units_at_that_hot_spot() -> None:
    with pytest.raises(IllegalActionError, match="Arrivals is not at Hot Spot 2"):
        _at_hot_spot().apply(A.Merge("Holders", "Arrivals", at_hot_spot=2))
    with pytest.raises(IllegalActionError, match="no Hot Spot 9"):
        _at_hot_spot().apply(A.Merge("Holders", "Arrivals", at_hot_spot=9))


def test_a_hot_spot_merge_round_trips_as_an_action_and_an_ordinary_one_is_saved_as_before() -> None:
    merge = A.Merge("Holders", "Arrivals", at_hot_spot=1)
    assert A.action_from_json(A.action_to_json(merge)) == merge
    assert A.action_to_json(A.Merge("A", "B")) == {"type": "Merge", "team": "A", "other": "B"}
