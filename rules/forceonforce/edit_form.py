"""Force on Force's hand-edit form as data (:class:`rules.ruleset.EditForm`): the figure (status -- a
casualty is the players' ruling after a fire, the excerpt stopping before fire combat --, on the table,
the height of the ground under it, and a leader's effect, remote contact and own dice) and its unit
(defensive position, Troop Quality, Morale, Confidence, Supplies, Firepower, Regular or Irregular).
The figure's fields go to ``EditFigure``, the unit's to ``EditTeam``; dice are named as the rules take
them ("d8").

>>> from rules.forceonforce.examples.patrol import load_scenario
>>> from rules.forceonforce.scenario import game_from_scenario
>>> form = edit_form(game_from_scenario(load_scenario()), 14)
>>> form.title, [s.title for s in form.sections], [s.group for s in form.sections]
('Edit Bravo 1', ['The figure: Bravo 1', 'The unit: Bravo'], [False, True])
"""
from __future__ import annotations

from rules.forceonforce.state import FofState
from rules.ruleset import EditField, EditForm, EditSection

STATUSES = ("active", "casualty", "removed")


def _die(sides: int | None) -> str | None:
    return None if sides is None else f"d{sides}"


def edit_form(state: FofState, figure_id: int) -> EditForm:
    fig = state.figure(figure_id)
    data = state.data
    dice = tuple((f"D{d}", f"d{d}") for d in data.ladder)
    figure = [
        EditField("status", "Status", "choice", fig.status.value, tuple((s, s) for s in STATUSES),
                  help="A casualty is the players' ruling after a fire (the excerpt stops before fire combat)"),
        EditField("on_table", "On the table", "bool", fig.on_table),
        EditField("z_in", "Elevation", "float", fig.z_in, minimum=0.0, maximum=48.0, suffix='"',
                  help="The height of the ground under the figure (a rooftop): line of fire is at one elevation"),
    ]
    if fig.is_leader:
        figure += [
            EditField("leader_effect", "Leader effect", "choice", fig.leader_effect,
                      (("+1 (positive)", 1), ("0", 0), ("-1 (negative)", -1))),
            EditField("remote_contact", "Remote contact", "bool", fig.remote_contact,
                      help="Leads his unit from anywhere (radio), not only within cohesion distance"),
            EditField("morale", "His Morale", "choice", _die(fig.morale), (("—", None), *dice)),
            EditField("quality", "His Troop Quality", "choice", _die(fig.quality), (("—", None), *dice)),
        ]
    sections = [EditSection(f"The figure: {fig.name}", tuple(figure))]
    if fig.team is not None:
        t = state.team(fig.team)
        sections.append(EditSection(f"The unit: {t.name}", (
            EditField("defensive", "Defensive position", "bool", t.defensive,
                      help="Wholly occupies a defensive position (Regulars: 2\" cohesion)"),
            EditField("unit quality", "Troop Quality", "choice", _die(t.quality),
                      tuple((f"D{d} ({data.quality_name(d)})", f"d{d}") for d in data.ladder), change="quality"),
            EditField("unit morale", "Morale", "choice", _die(t.morale),
                      tuple((f"D{d} ({data.morale_name(d)})", f"d{d}") for d in data.ladder), change="morale"),
            EditField("confidence", "Confidence", "choice", t.confidence, tuple((c.name, c.name) for c in data.confidences)),
            EditField("supplies", "Supplies", "choice", t.supplies,
                      tuple((f"{s.name} ({s.firepower_dice:+d} Firepower)" if s.firepower_dice else s.name, s.name)
                            for s in data.supplies_levels)),
            EditField("firepower", "Firepower", "int", t.firepower, minimum=0, maximum=30, blank="its figures",
                      help="Basic Firepower dice (blank: one per figure in play)"),
            EditField("troop_type", "Troops", "choice", t.troop_type.value, (("Regular", "regular"), ("Irregular", "irregular"))),
        ), group=True))
    return EditForm(f"Edit {fig.name}", tuple(sections))
