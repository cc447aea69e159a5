"""Every rule system's hand-edit form offers only what its edit takes: change any one field of any
unit's form, and the rules apply the change it makes (or refuse it with a reason the player can act
on, never an unknown field); leave the form as it is, and it changes nothing."""
from __future__ import annotations

import math
from typing import Any

import pytest

from rules.downrange.examples import in_depth
from rules.errors import RulesError
from rules.forceonforce.examples import patrol
from rules.generic.examples import solo
from rules.ruleset import EditField, Ruleset, edit_form, form_changes, get_ruleset

GAMES = {"down-range": in_depth, "force-on-force": patrol, "generic": solo}


def game(name: str) -> tuple[Any, Any]:
    return get_ruleset(name), GAMES[name].initial_state()


def another_value(f: EditField) -> Any:
    """A value of ``f`` other than its current one, as a player could enter it."""
    if f.kind == "bool":
        return not f.value
    if f.kind == "int":
        return int(f.minimum) if f.value is not None and f.value > f.minimum else int(f.minimum) + 1
    if f.kind == "float":
        return round(float(f.value or 0.0) + 1.0, f.decimals)
    if f.kind == "choice":
        return next(v for _, v in f.choices if v != f.value)
    return f"{f.value} (by hand)"


def apply(ruleset: Any, state: Any, unit_id: int, changes: Any) -> Any:
    if changes.unit:
        state = ruleset.apply(state, ruleset.edit_action(unit_id, changes.unit))
    if changes.group:
        assert ruleset.has_groups
        group = next(v.group for v in ruleset.units(state) if v.unit_id == unit_id)
        state = ruleset.apply(state, ruleset.group_edit_action(group, changes.group))
    return state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_field_of_every_units_form_is_one_the_rules_take(name: str) -> None:
    ruleset, state = game(name)
    assert type(ruleset).edit_form is not Ruleset.edit_form  # its own form, not the plain status one
    tried = 0
    for view in ruleset.units(state):
        form = edit_form(ruleset, state, view)
        values = {f.key: f.value for f in form.fields()}
        assert form_changes(ruleset, form, values).unit == {} and form_changes(ruleset, form, values).group == {}
        for f in form.fields():
            if f.kind == "choice" and len(f.choices) < 2:
                continue
            changes = form_changes(ruleset, form, {**values, f.key: another_value(f)})
            if not changes.unit and not changes.group:
                continue  # a field that only says something with another (a suppressor before ticking "Suppressed by")
            try:
                after = apply(ruleset, state, view.unit_id, changes)
            except RulesError as exc:  # a value the rules refuse here (a jamming token without EW): said, not unknown
                assert "cannot be edited" not in str(exc) and "cannot edit" not in str(exc), (f.key, exc)
                continue
            assert after is not state and after.events[-1].kind == "edit", f.key
            tried += 1
    assert tried > 10


def test_the_edit_a_form_makes_is_the_one_the_players_see_next_time() -> None:
    ruleset, state = game("down-range")
    form = ruleset.edit_form(state, 10)
    values = {f.key: f.value for f in form.fields()}
    changes = form_changes(ruleset, form, {**values, "moved_in": 2.5, "emitting": True, "purpose": "other"})
    after = apply(ruleset, state, 10, changes)
    again = {f.key: f.value for f in ruleset.edit_form(after, 10).fields()}
    assert math.isclose(again["moved_in"], 2.5) and again["emitting"] and again["purpose"] == "other"
