"""Building small Down Range games for the rules tests (not collected as tests)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.downrange.scenario import game_from_scenario
from rules.downrange.state import GameState


def unit(tag: int, name: str, side: str, x: float, y: float, type_: str = "average combatant",
         heading: float = 0.0, **fields: Any) -> dict[str, Any]:
    """A [[units]] entry standing at (x, y)."""
    return {"tag_id": tag, "name": name, "side": side, "type": type_, "x_in": x, "y_in": y, "heading_deg": heading,
            **fields}


def game(*units: dict[str, Any], rules: dict[str, Any] | None = None) -> GameState:
    """A game with the given units, already in play (past its set-up: a unit's move counts), as the
    rulebook's examples are set; sides in order of first appearance."""
    sides = [{"name": n} for n in dict.fromkeys(u["side"] for u in units)]
    doc: dict[str, Any] = {"format": "sandtable-scenario", "version": 1, "sides": sides, "units": list(units)}
    if rules:
        doc["rules"] = rules
    return replace(game_from_scenario(doc, source="test scenario"), setting_up=False)
