"""The generic rules' hand-edit form as data (:class:`rules.ruleset.EditForm`): a counter's status
level, hidden and identified (B.6), shots left, on the table -- the fields ``EditUnit`` takes.

>>> from rules.generic.examples.solo import initial_state
>>> form = edit_form(initial_state(), 30)
>>> form.title, [f.key for f in form.fields()]
('Edit T1', ['status', 'hidden', 'identified', 'on_table'])
"""
from __future__ import annotations

from rules.generic.state import GenericState
from rules.ruleset import EditField, EditForm, EditSection


def edit_form(state: GenericState, unit_id: int) -> EditForm:
    u = state.unit(unit_id)
    ladder = tuple(state.data.status_ladder)
    fields = [
        EditField("status", "Status", "choice", ladder[u.status_level], tuple((name, name) for name in ladder),
                  help="The status ladder: the last level takes the unit out of the fight"),
        EditField("hidden", "Hidden", "bool", u.hidden, help="A hidden unit shows only its counter until it is identified"),
        EditField("identified", "Identified", "bool", u.identified),
    ]
    if u.shots_left is not None:
        fields.append(EditField("shots_left", "Shots left", "int", u.shots_left, minimum=0, maximum=999))
    fields.append(EditField("on_table", "On the table", "bool", u.on_table))
    note = "Anonymous: the other side sees only its counter until it is identified." if u.anonymous else ""
    return EditForm(f"Edit {u.short_id}", (EditSection("", tuple(fields), note),))
