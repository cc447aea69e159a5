"""Force on Force: the rulebook excerpt's own examples and tables, as a player would check them.

Each row plays an example of ../shared/rules/other-systems.md (Part A; the text in
../shared/seeds/002_*) through the rules engine and reports what the text says happens.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from rules.dice import EnteredDice
from rules.forceonforce import actions as A
from rules.forceonforce.catalog import load_data
from rules.forceonforce.checks import p_pass, shifted
from rules.forceonforce.cohesion import merged_ratings
from rules.forceonforce.fire import check_fire, firepower
from rules.forceonforce.initiative import dice_pool, resolve_initiative, side_pools
from rules.forceonforce.leaders import morale_for
from rules.forceonforce.scenario import game_from_scenario
from rules.forceonforce.state import FofState


def game(figures: list[dict[str, Any]], *, sides: list[dict[str, Any]], fireteams: list[dict[str, Any]] = (),  # type: ignore[assignment]  # an empty tuple default for a list parameter: never mutated
         rules: dict[str, Any] | None = None) -> FofState:
    doc: dict[str, Any] = {"format": "sandtable-scenario", "version": 1, "ruleset": "force-on-force",
                           "sides": sides, "fireteams": list(fireteams), "units": figures}
    if rules:
        doc["rules"] = rules
    return game_from_scenario(doc, source="test scenario")


def fig(tag: int, side: str, unit: str | None, x: float, y: float, **kw: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"tag_id": tag, "name": kw.pop("name", f"fig {tag}"), "side": side, "x_in": x, "y_in": y, **kw}
    if unit is not None:
        entry["unit"] = unit
    return entry


REGULARS = {"troop_type": "regular", "quality": "d8", "morale": "d8"}


def initiative_example(blue_successes: int) -> dict[str, Any]:
    """Turn 2 of the rulebook's example: Red (6 fireteams, 3 APCs, a +1 Positive Platoon Leader, had
    initiative in turn 1, Initiative Level D8) against Blue (10 fireteams, 6 vehicles, D6)."""
    figures, teams, tag = [], [], 10
    for side, infantry, vehicles, x in (("Red", 6, 3, 5.0), ("Blue", 10, 6, 60.0)):
        for i in range(infantry + vehicles):
            name = f"{side} {'APC' if i >= infantry else 'fireteam'} {i + 1}"
            teams.append({"name": name, "side": side, "kind": "vehicle" if i >= infantry else "infantry"})
            figures.append(fig(tag, side, name, x, 2.0 + 2.5 * i))
            tag += 1
    figures.append(fig(tag, "Red", None, 8.0, 8.0, leader="platoon", leader_effect=1, morale="d10"))
    state = game(figures, fireteams=teams, rules={"first_initiative": "Red"},
                 sides=[{"name": "Red", "initiative_level": "d8", **REGULARS},
                        {"name": "Blue", "initiative_level": "d6", **REGULARS}])
    state = state.apply(A.StartRound(resolve_initiative(state, EnteredDice([]))))  # turn 1: the scenario's
    pools = {p.side: p for p in side_pools(state)}
    red = [8] * 7 + [2]
    blue = [6] * blue_successes + [3] * (11 - blue_successes)
    result = resolve_initiative(state, EnteredDice([red, blue]))
    return {"turn 1 holder": state.initiative,
            "Red dice": f"{pools['Red'].dice}D{pools['Red'].sides}",
            "Blue dice": f"{pools['Blue'].dice}D{pools['Blue'].sides}",
            "Blue basic": (pools["Blue"].basic, pools["Blue"].capped),
            "Red bonuses": [why for why, _ in pools["Red"].bonuses],
            "Blue bonuses": [why for why, _ in pools["Blue"].bonuses],
            "successes": {r.pool.side: r.successes for r in result.rolls},
            "holder": result.holder, "kept": result.kept}


def die_shift_table() -> dict[str, Any]:
    ladder = load_data().ladder
    return {f"D{s}": (f"D{shifted(ladder, s, 1)}", f"D{shifted(ladder, s, -1)}") for s in ladder}


def natural_four_plus() -> dict[str, Any]:
    return {f"D{s}": p_pass(s) for s in (6, 8, 10, 12)}


def supplies_examples() -> dict[str, Any]:
    out = {}
    for supplies in ("Normal", "Poor", "Abundant"):
        state = game([fig(10 + i, "US", "Team", 2.0 * i, 0.0) for i in range(4)] + [fig(30, "Foe", "Foe", 40, 0)],
                     fireteams=[{"name": "Team", "side": "US", "supplies": supplies}],
                     sides=[{"name": "US", **REGULARS}, {"name": "Foe", **REGULARS}])
        out[supplies] = firepower(state, state.team("Team"))
    return out


def merge_examples() -> dict[str, Any]:
    return {"3 D8 + 2 D6": merged_ratings([(8, 8, 3), (6, 6, 2)]), "2 D8 + 2 D6": merged_ratings([(8, 8, 2), (6, 6, 2)])}


def morale_example(leader_morale: str) -> dict[str, Any]:
    state = game([fig(10 + i, "US", "Marines", 1.8 * i, 0.0) for i in range(4)]
                 + [fig(20, "US", None, 10.0, 10.0, leader="squad", morale=leader_morale)]
                 + [fig(30, "Foe", "Foe", 40, 0)],
                 sides=[{"name": "US", **REGULARS}, {"name": "Foe", **REGULARS}])
    in_sight = morale_for(state, "Marines")
    out_of_sight = morale_for(state, "Marines", out_of_sight=(20,))
    return {"in sight": f"D{in_sight.sides}", "out of sight": f"D{out_of_sight.sides}"}


def line_of_sight_example() -> dict[str, Any]:
    """Six Iraqis move round a building; two come into the Americans' sight."""
    iraqis = [fig(30 + i, "Iraqis", "Iraqis", 40.0 + 1.8 * (i % 3), 10.0 + 1.8 * (i // 3)) for i in range(6)]
    us = [fig(10 + i, "US", "US", 1.8 * i, 10.0) for i in range(4)]
    state = game(us + iraqis, sides=[{"name": "US", **REGULARS},
                                     {"name": "Iraqis", "troop_type": "irregular", "quality": "d6", "morale": "d8"}])
    americans = check_fire(state, "US", "Iraqis", target_visible=2)
    iraqis_fire = check_fire(state, "Iraqis", "US", firers_seeing=2)
    return {"Americans may fire": americans.allowed, "Iraqis may fire": iraqis_fire.allowed}


def rooftop_example() -> dict[str, Any]:
    """An initiative unit fires at an RPG gunner on a rooftop over another unit at street level."""
    figures = ([fig(10 + i, "US", "Shooters", 1.8 * i, 10.0) for i in range(4)]
               + [fig(20 + i, "US", "In front", 12.0 + 1.8 * i, 10.0) for i in range(4)]
               + [fig(30, "Foe", "RPG", 30.0, 10.0, z_in=8.0)])
    sides = [{"name": "US", **REGULARS}, {"name": "Foe", "troop_type": "irregular", "quality": "d6", "morale": "d8"}]
    state = game(figures, sides=sides)
    on_roof = check_fire(state, "Shooters", "RPG")
    street = state.apply(A.EditFigure(30, {"z_in": 0.0}))
    at_street = check_fire(street, "Shooters", "RPG")
    return {"rooftop: may fire": on_roof.allowed, "rooftop: in the line": [x.name for x in on_roof.in_line_of_fire],
            "street: may fire": at_street.allowed, "street: in the line": [x.name for x in at_street.in_line_of_fire]}


@dataclass(frozen=True)
class Case:
    example: str
    play: Callable[[], dict[str, Any]]
    expected: dict[str, Any]


CASES = (
    Case("A.4.5 initiative: Blue 8 successes against Red 7", lambda: initiative_example(8),
         {"turn 1 holder": "Red", "Red dice": "8D8", "Blue dice": "11D6", "Blue basic": (11, 10),
          "Red bonuses": ["had initiative last turn", "+1 Positive Leader"], "Blue bonuses": ["outnumbers the opponent"],
          "successes": {"Red": 7, "Blue": 8}, "holder": "Blue", "kept": False}),
    Case("A.4.5 initiative: a 7-7 tie keeps it with Red", lambda: initiative_example(7),
         {"turn 1 holder": "Red", "Red dice": "8D8", "Blue dice": "11D6", "Blue basic": (11, 10),
          "Red bonuses": ["had initiative last turn", "+1 Positive Leader"], "Blue bonuses": ["outnumbers the opponent"],
          "successes": {"Red": 7, "Blue": 7}, "holder": "Red", "kept": True}),
    Case("A.3.1 die shifts (ends hold)", die_shift_table,
         {"D6": ("D8", "D6"), "D8": ("D10", "D6"), "D10": ("D12", "D8"), "D12": ("D12", "D10")}),
    Case("A.3.2 a natural 4+", natural_four_plus,
         {"D6": Fraction(1, 2), "D8": Fraction(5, 8), "D10": Fraction(7, 10), "D12": Fraction(3, 4)}),
    Case("A.2.4 supplies: four riflemen", supplies_examples, {"Normal": 4, "Poor": 3, "Abundant": 5}),
    Case("A.5.3 merging: majority, lower on an even split", merge_examples,
         {"3 D8 + 2 D6": (8, 8), "2 D8 + 2 D6": (6, 6)}),
    Case("A.6.1 Marines D8, squad leader D10 in sight", lambda: morale_example("d10"),
         {"in sight": "D10", "out of sight": "D8"}),
    Case("A.6.1 the same with a D6 squad leader", lambda: morale_example("d6"),
         {"in sight": "D6", "out of sight": "D8"}),
    Case("A.7 two of six Iraqis in sight", line_of_sight_example,
         {"Americans may fire": False, "Iraqis may fire": False}),
    Case("A.8 the rooftop RPG gunner", rooftop_example,
         {"rooftop: may fire": True, "rooftop: in the line": [], "street: may fire": False,
          "street: in the line": ["In front"]}),
)


@pytest.mark.parametrize("case", CASES, ids=[c.example for c in CASES])
def test_the_excerpts_examples_come_out_as_the_text_says(case: Case) -> None:
    assert case.play() == case.expected


def test_the_initiative_example_dice_from_the_counts_alone() -> None:
    data = load_data()
    red = dice_pool(data, "Red", infantry_units=6, vehicles=3, previous=True, positive_leader=1, outnumbers=False, sides=8)
    blue = dice_pool(data, "Blue", infantry_units=10, vehicles=6, previous=False, positive_leader=0, outnumbers=True,
                     sides=6)
    assert (red.dice, red.basic, blue.dice, blue.basic, blue.capped) == (8, 6, 11, 11, 10)
