"""A game's set-up, the same in every rule system: from a scenario's start until the first turn begins
the players place their units, and nothing a unit does then counts as movement (no "moved more than its
Movement" warning, its whole Move still left for its first turn); the first turn ends it, and from then
on a move counts. The rulebook's worked examples are set in play, not in a set-up (tests/rules_helpers)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.dice import SeededDice
from rules.downrange.examples import in_depth
from rules.forceonforce.examples import patrol
from rules.generic.examples import solo
from rules.ruleset import get_ruleset

START: dict[str, Callable[[], Any]] = {"down-range": in_depth.initial_state, "force-on-force": patrol.initial_state,
                                       "generic": solo.initial_state}
#: How far a unit has moved this turn, as each rule system keeps it.
MOVED_IN: dict[str, Callable[[Any, int], float]] = {
    "down-range": lambda s, uid: s.unit(uid).moved_in,
    "force-on-force": lambda s, uid: s.figure(uid).moved_in,
    "generic": lambda s, uid: s.unit(uid).moved_in,
}


def _carry(ruleset: Any, state: Any, unit_id: int, by_in: float) -> Any:
    """The unit carried ``by_in`` inches along the table's x axis, as the tracker reports it."""
    u = next(v for v in ruleset.units(state) if v.unit_id == unit_id)
    return ruleset.set_pose(state, unit_id, u.x_in + by_in, u.y_in, u.heading_deg, moved_in=by_in)


def _warnings(state: Any) -> list[str]:
    return [w for e in state.events for w in e.warnings]


@pytest.mark.parametrize("name", sorted(START))
def test_units_placed_before_the_first_turn_are_not_moved(name: str) -> None:
    ruleset, state = get_ruleset(name), START[name]()
    assert state.setting_up, "a game fresh from its scenario starts in its set-up"
    unit = next(u for u in ruleset.units(state) if u.on_table)
    placed = _carry(ruleset, _carry(ruleset, state, unit.unit_id, 30.0), unit.unit_id, -12.0)
    assert not _warnings(placed), "placing units is not moving them"
    assert MOVED_IN[name](placed, unit.unit_id) == 0.0
    view = next(v for v in ruleset.units(placed) if v.unit_id == unit.unit_id)
    assert view.move_left_in == view.move_in and view.x_in == pytest.approx(unit.x_in + 18.0)
    # initiative is rolled for the first round: units may still be placed until its first turn begins
    rolled = ruleset.start_round(placed, SeededDice(3)).state
    assert rolled.setting_up and rolled.round == 1
    assert MOVED_IN[name](_carry(ruleset, rolled, unit.unit_id, 5.0), unit.unit_id) == 0.0


@pytest.mark.parametrize("name", sorted(START))
def test_the_first_turn_ends_the_set_up_and_a_move_counts_from_then_on(name: str) -> None:
    ruleset = get_ruleset(name)
    state = ruleset.start_turn(ruleset.start_round(START[name](), SeededDice(3)).state, SeededDice(4)).state
    assert not state.setting_up
    mover = next(u for u in ruleset.units(state) if u.on_table and u.side == state.active_side)
    moved = _carry(ruleset, state, mover.unit_id, 3.0)
    assert MOVED_IN[name](moved, mover.unit_id) == pytest.approx(3.0)
    saved = type(moved).loads(moved.dumps())
    assert not saved.setting_up


@pytest.mark.parametrize("name", ["down-range", "generic"])
def test_a_move_beyond_the_movement_in_a_turn_is_still_warned(name: str) -> None:
    ruleset = get_ruleset(name)
    state = ruleset.start_turn(ruleset.start_round(START[name](), SeededDice(3)).state, SeededDice(4)).state
    mover = next(u for u in ruleset.units(state) if u.on_table and u.side == state.active_side and u.move_in < 20)
    assert _warnings(_carry(ruleset, state, mover.unit_id, mover.move_in + 10.0))


@pytest.mark.parametrize("name", ["down-range", "generic"])
def test_the_movement_ring_says_set_up_while_units_are_placed(name: str) -> None:
    ruleset, state = get_ruleset(name), START[name]()
    unit = next(u for u in ruleset.units(state) if u.on_table and u.move_in < 20)
    ring = next(o for o in ruleset.overlays(state, unit.unit_id) if o.kind == "movement")
    assert ring.label == f'Set-up: Move {unit.move_in:g}"'
    in_play = ruleset.start_turn(ruleset.start_round(state, SeededDice(3)).state, SeededDice(4)).state
    ring = next(o for o in ruleset.overlays(in_play, unit.unit_id) if o.kind == "movement")
    assert ring.label.startswith("Move left ")


@pytest.mark.parametrize("name", sorted(START))
def test_a_saved_set_up_loads_as_a_set_up(name: str) -> None:
    state = START[name]()
    assert type(state).loads(state.dumps()).setting_up
