"""The registry of rule systems and the neutral defaults of :class:`rules.ruleset.Ruleset`: a rule system
registered by name is found by scenarios, saved states and ``--ruleset``, and one that overrides nothing
optional still answers every question a front end asks."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from rules.errors import IllegalActionError, UnknownNameError
from rules.events import RulesEvent
from rules.geometry import Circle
from rules.ruleset import (HIT_AND_KILL, AttackRequest, Ruleset, UnitView, available_rulesets, edit_form,
                           form_changes, get_ruleset, register_ruleset, ruleset_of, unregister_ruleset)
from rules.ruleset_state import RulesetState


@dataclass(frozen=True)
class Side:
    name: str


@dataclass(frozen=True)
class Counting(RulesetState[Side]):
    """A game whose only action is a number added to ``total``; it has no ``apply`` of its own."""

    sides: tuple[Side, ...]
    total: int = 0
    round: int = 0
    order: tuple[str, ...] = ()
    turn_index: int = -1
    in_turn: bool = False
    events: tuple[RulesEvent, ...] = ()
    ruleset_name = "counting"
    state_format = "sandtable-counting-state"
    state_version = 1
    state_title = "Counting"


class CountingRules(Ruleset):
    name, title = "counting", "Counting (a test rule system)"

    def apply(self, state: Counting, action: Any) -> Counting:
        if not isinstance(action, int):
            raise IllegalActionError(f"counting adds whole numbers, not {action!r}")
        return Counting(state.sides, state.total + action)

    def units(self, state: Any) -> tuple[UnitView, ...]:
        return (UnitView(7, "Abacus", "Blue", "Counter", 1.0, 2.0, 0.0, Circle(1.0, 2.0, 0.5), True, "down",
                         ("tired", "bored"), 6.0, 6.0, ()),)


@pytest.fixture
def counting() -> Iterator[str]:
    register_ruleset("Counting", CountingRules)
    try:
        yield "counting"
    finally:
        unregister_ruleset("counting")


def test_a_registered_rule_system_is_found_by_name_and_by_its_states(counting: str) -> None:
    assert counting in available_rulesets() and available_rulesets()[:3] == ("down-range", "force-on-force", "generic")
    assert isinstance(get_ruleset(" COUNTING "), CountingRules)
    assert isinstance(ruleset_of(Counting((Side("Blue"),))), CountingRules)


def test_a_state_applies_an_action_through_its_registered_rule_system(counting: str) -> None:
    state = Counting((Side("Blue"),)).apply(3).apply(4)
    assert state.total == 7
    with pytest.raises(IllegalActionError, match="counting adds whole numbers, not 'x'"):
        state.apply("x")


def test_an_unregistered_name_is_refused_naming_the_registered_ones(counting: str) -> None:
    unregister_ruleset(counting)
    assert counting not in available_rulesets()
    with pytest.raises(UnknownNameError, match="unknown ruleset 'counting': use one of down-range, force-on-force, generic"):
        get_ruleset("counting")


def test_registering_again_replaces_the_rule_system(counting: str) -> None:
    class Recounting(CountingRules):
        title = "Recounting"

    first = get_ruleset(counting)
    register_ruleset(counting, Recounting)
    assert get_ruleset(counting).title == "Recounting" and first.title == "Counting (a test rule system)"


def test_the_built_in_rule_systems_are_ruleset_subclasses() -> None:
    for name in ("down-range", "force-on-force", "generic"):
        ruleset = get_ruleset(name)
        assert isinstance(ruleset, Ruleset) and ruleset.name == name


def test_a_rule_system_that_overrides_nothing_optional_answers_neutrally(counting: str) -> None:
    rules, state = CountingRules(), Counting((Side("Blue"),))
    request = AttackRequest(7, "abacus bead", (8,))
    assert (rules.has_groups, rules.has_hidden_units, rules.has_turn_box, rules.has_emissions) == (False,) * 4
    assert rules.groups(state) == () and rules.attack_overlays(state, request) == ()
    assert rules.odds_legend(state, request) is HIT_AND_KILL
    assert rules.token_texts(state, rules.units(state)[0]) == ("tired, bored", "")
    assert rules.edit_action(7, {"status": "active"}) is None and rules.group_edit_action("Abacus", {}) is None
    assert rules.turn_box(state, {}) is None and rules.turn_command(state, "Go", {}) is None
    event = RulesEvent(0, "note", 0, None, "Blue counts.", {}, {}, (), ())
    assert rules.engagements(event) == () and rules.casualties(event) == () and rules.emissions(event) == ()
    assert rules.recorded_rolls(event) == () and rules.locators(state) == ()
    with pytest.raises(IllegalActionError, match="the counting rules have no hidden units to identify"):
        rules.identify(state, 7)


def test_the_plain_edit_form_offers_the_status_and_reads_back_what_changed() -> None:
    rules, state = CountingRules(), Counting((Side("Blue"),))
    form = edit_form(rules, state, rules.units(state)[0])
    (status,) = form.fields()
    assert form.title == "Edit Abacus" and status.value == "down"
    assert [v for _, v in status.choices] == ["active", "down", "removed"]
    assert form_changes(rules, form, {"status": "removed"}).unit == {"status": "removed"}
    assert form_changes(rules, form, {"status": "down"}).unit == {}
