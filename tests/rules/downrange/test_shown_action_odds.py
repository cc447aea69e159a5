"""Every Down Range action with dice (a treatment, a task roll, a fall, a hazard, burning, the fire
spreading), resolved thousands of times with seeded dice: how often each thing happened agrees with the
odds the declaration panel shows before the roll (``action_odds``), within sampling error
(tests/odds_sampling.py) -- the actions' half of test_shown_odds_are_what_resolving_does.py.

``p_hit`` is the legend's first figure (back in play, the task succeeds, taken out, catches fire);
a treatment's ``outcomes`` are Table 2-2's results, each checked too; the fire's ``p_kill_any`` is
"caught and taken out".
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from odds_sampling import assert_frequency
from rules_helpers import game, unit

from rules.dice import SeededDice
from rules.downrange.pieces import Status
from rules.downrange.state import GameState
from rules.downrange.table_actions import action_odds, resolve_action
from rules.ruleset import ActionRequest

TRIALS = 2000


def _ward(*, injured: bool = False, sergeant_touching: bool = True) -> GameState:
    return game(unit(1, "Doc", "Blue", 0, 0, type_="specialist combatant", equipment=["medical kit"]),
                unit(2, "Patient", "Blue", 1.2, 0, status="down", injured=injured),
                unit(3, "Sergeant", "Blue", 1.2, 1.2 if sergeant_touching else 9.0),
                unit(9, "Enemy", "Red", 30, 0))


def _fire() -> GameState:
    state = game(unit(1, "Burning truck", "Blue", 0, 0, type_="Light tactical vehicle", weapons=[]),
                 unit(2, "Fuel drum", "Blue", 3.5, 0, type_="Light tactical vehicle", weapons=[], flammable=True),
                 unit(3, "Shed", "Blue", 0, 6.2, type_="Light tactical vehicle", weapons=[], flammable=True))
    return state.update_unit(1, on_fire=True)  # set alight by a blast earlier in the game


def _workshop() -> GameState:
    """A mechanic with repair tools next to a destroyed truck."""
    return game(unit(1, "Mechanic", "Blue", 0, 0, type_="specialist combatant", equipment=["repair tools"]),
                unit(2, "Truck", "Blue", 2.5, 0, type_="Light tactical vehicle", weapons=[], status="down"),
                unit(9, "Enemy", "Red", 30, 0))


@dataclass(frozen=True)
class Case:
    state: Callable[[], GameState]
    request: ActionRequest


CASES: dict[str, Case] = {
    "a treatment": Case(_ward, ActionRequest("treat", 1, {"patient": 2})),
    "a treatment with an assistant touching the patient": Case(
        _ward, ActionRequest("treat", 1, {"patient": 2, "assistants": (3,)})),
    "a treatment of an Injured patient (Injured is permanent)": Case(
        lambda: _ward(injured=True), ActionRequest("treat", 1, {"patient": 2})),
    "a treatment with a declared Disadvantage": Case(_ward, ActionRequest("treat", 1, {"patient": 2, "disadvantages": 1})),
    "a repair of a destroyed vehicle": Case(_workshop, ActionRequest("treat", 1, {"patient": 2})),
    "a task roll against Difficulty 4": Case(_ward, ActionRequest("task", 3, {"difficulty": 4})),
    "a task roll with Advantage and an assistant": Case(
        _ward, ActionRequest("task", 3, {"difficulty": 6, "advantages": 1, "assistants": (1,)})),
    "a 25-inch fall": Case(_ward, ActionRequest("fall", 3, {"distance_in": 25.0})),
    "burning": Case(_fire, ActionRequest("burning", 1)),
    "the fire spreads": Case(_fire, ActionRequest("fire spread", 1)),
}


for _nature in ("lethal", "disabling"):
    _hazard = next(h for h in _ward().catalog.hazards.values() if h.nature == _nature)
    CASES[f"a {_nature} hazard on two units"] = Case(_ward, ActionRequest("hazard", 3, {"hazard": _hazard.name,
                                                                                     "others": (1,)}))


@pytest.mark.parametrize("name", sorted(CASES))
def test_shown_action_odds_are_how_often_resolving_does_it(name: str) -> None:
    case = CASES[name]
    state = case.state()
    odds = {o.unit_id: o for o in action_odds(state, case.request)}
    assert odds and all(o.allowed for o in odds.values())
    firsts = dict.fromkeys(odds, 0)
    seconds = dict.fromkeys(odds, 0)
    outcomes: dict[tuple[int, str], int] = {}
    dice = SeededDice(sum(map(ord, name)))
    for _ in range(TRIALS):
        res = resolve_action(state, case.request, dice)
        after = res.state
        for uid in odds:
            r = res.result
            if case.request.action == "treat":
                outcome = r.outcome.value
                outcomes[(uid, outcome)] = outcomes.get((uid, outcome), 0) + 1
                firsts[uid] += after.unit(uid).status is Status.ACTIVE
            elif case.request.action == "task":
                firsts[uid] += r.skill.success
            elif case.request.action == "fire spread":
                caught = uid in r.ignited
                firsts[uid] += caught
                seconds[uid] += caught and after.unit(uid).status is not Status.ACTIVE
            else:  # taken out: down, or disabled by a disabling hazard
                firsts[uid] += after.unit(uid).status is not Status.ACTIVE or after.unit(uid).disabled
    for uid, o in odds.items():
        assert_frequency(o.p_hit, firsts[uid], TRIALS, f"{name}: {o.name}")
        if case.request.action == "fire spread":
            assert_frequency(o.p_kill_any, seconds[uid], TRIALS, f"{name}: {o.name} taken out")
        for label, p in o.outcomes:
            assert_frequency(p, outcomes.get((uid, label), 0), TRIALS, f"{name}: {o.name} {label}")


def test_an_injured_patient_can_never_be_restored_in_the_odds() -> None:
    odds = action_odds(_ward(injured=True), ActionRequest("treat", 1, {"patient": 2}))
    assert dict(odds[0].outcomes)["restored"] == 0 and dict(odds[0].outcomes)["injured"] > 0


def test_every_action_with_dice_has_its_odds_checked_here() -> None:
    """Each form that rolls, on the tables above and the in-depth example's at every step, is one of
    the actions CASES samples: a new action with odds cannot slip past this property test."""
    from rules.downrange.examples import in_depth
    from rules.downrange.table_actions import actions_for

    states = [_ward(), _ward(injured=True), _fire(), _workshop(), *(r.state for r in in_depth.play(in_depth.STEPS))]
    rolling = {f.key for s in states for u in s.units for f in actions_for(s, u.unit_id) if f.rolls}
    checked = {c.request.action for c in CASES.values()}
    assert rolling and rolling <= checked, f"actions with odds not sampled: {sorted(rolling - checked)}"
