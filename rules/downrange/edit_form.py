"""Down Range's hand-edit form as data (:class:`rules.ruleset.EditForm`): the flag tokens, Focus, the
movement counted this turn and the status; the Suppressed tokens (untick one to clear it, or add one
by a unit until a side's turn); the emission (Signal) token; ammunition left per weapon that counts it.
:func:`form_changes` turns the filled-in form into the changes :mod:`rules.downrange.hand_edits` takes.

>>> from rules.downrange.scenario import demo_state
>>> form = edit_form(demo_state(), 10, ())
>>> form.title, [s.title for s in form.sections]
('Edit Sergeant', ['', 'Suppressed', 'Emission (Signal) token'])
>>> values = {f.key: f.value for f in form.fields()}
>>> form_changes(form, {**values, "injured": True, "suppress": True, "suppressed by": 31}).unit
{'injured': True, 'suppressed': [{'by_unit': 31, 'until_start_of': 'PLA Marine Corps'}]}
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.downrange.hand_edits import EMISSION_PURPOSES, HAND_SET, suppression_words
from rules.downrange.state import GameState, possessive
from rules.ruleset import EditChanges, EditField, EditForm, EditSection, same_value

#: Tokens a player sets by hand (the editable fields that are on/off flags), and the tokens that show them.
FLAG_EDITS = (("injured", "Injured"), ("reaction_ready", "Reaction ready"), ("main_effort", "Main Effort"),
              ("on_fire", "On fire"), ("overburdened", "Overburdened"), ("overloaded", "Overloaded"),
              ("white_light_on", "White light on"), ("disabled", "Disabled"))
TOKEN_OF_FLAG = {"injured": ("injured", "damaged"), "reaction_ready": ("reaction ready",), "main_effort": ("main effort",),
                 "on_fire": ("on fire",), "overburdened": ("overburdened",), "overloaded": ("overloaded",),
                 "white_light_on": ("white light on",), "disabled": ("disabled",)}
STATUSES = ("active", "down", "removed")


def until_words(side: str) -> str:
    """"the start of the Marines' turn": when a token set until ``side``'s turn lifts."""
    return f"the start of {possessive(side)} turn"


def edit_form(state: GameState, unit_id: int, tokens: tuple[str, ...]) -> EditForm:
    """The form for one unit; ``tokens`` are its tokens as the roster shows them (``UnitView.tokens``)."""
    unit = state.unit(unit_id)
    flags = tuple(EditField(key, label, "bool", any(t in tokens for t in TOKEN_OF_FLAG[key])) for key, label in FLAG_EDITS)
    moved = next((float(t.split()[1].rstrip('"')) for t in tokens if t.startswith("moved ")), 0.0)
    first = EditSection("", (
        *flags,
        EditField("focused", "Focused", "bool", "focused" in tokens, help="Focusing on a task: it must not move this turn"),
        EditField("moved_in", "Moved this turn", "float", moved, minimum=0.0, maximum=999.0, suffix='"',
                  help="Moved this turn (the tracker counts it; correct it for a move the camera missed)"),
        EditField("status", "Status", "choice", unit.status.value, tuple((s, s) for s in STATUSES)),
    ))
    sides = tuple((until_words(s.name), s.name) for s in state.sides)
    # Enemies first: a unit is suppressed by the other side's fire.
    others = [u for u in sorted(state.units, key=lambda u: (u.side == unit.side, u.name)) if u.unit_id != unit.unit_id]
    kept = tuple(EditField(f"suppressed {i}", suppression_words(state, token), "bool", True, inline=True,
                           help="Untick to remove this Suppressed token", data=token)
                 for i, token in enumerate(unit.suppressed))
    suppressed = EditSection("Suppressed", (
        *kept,
        EditField("suppress", "Suppressed by", "bool", False, inline=True, help="Add a Suppressed token by the unit below"),
        EditField("suppressed by", "by", "choice", others[0].unit_id if others else None,
                  tuple((f"{u.name} ({u.unit_id}, {u.side})", u.unit_id) for u in others),
                  links=tuple((u.unit_id, "suppressed until", u.side) for u in others)),
        # Until the start of the suppressing unit's side's next turn (3.1.5), unless another is chosen.
        EditField("suppressed until", "until", "choice", others[0].side if others else None, sides),
    ))
    token = unit.emission
    purposes = (HAND_SET, *EMISSION_PURPOSES)
    emission = EditSection("Emission (Signal) token", (
        EditField("emitting", "Emitting", "bool", token is not None,
                  help="The unit used its radio: enemy SIGINT can locate it until the token lifts",
                  data=(token.purpose, token.until_start_of, token.jamming) if token is not None else None),
        EditField("purpose", "Why", "text", token.purpose if token is not None else purposes[0],
                  tuple((p, p) for p in purposes)),
        EditField("emission until", "until", "choice", token.until_start_of if token is not None else unit.side, sides),
        EditField("jamming", "Jamming", "bool", bool(token is not None and token.jamming),
                  help="Jamming enemy radios within 36\" (EW units only)"),
    ))
    sections = [first, suppressed, emission]
    limited = [w for w in unit.weapons if w.ammo_left is not None]
    if limited:
        sections.append(EditSection("Ammunition left", tuple(
            EditField(f"ammunition {w.name}", w.name, "int", w.ammo_left, minimum=0, maximum=999,
                      help="Uses left; 0 is out of ammunition", data=w.name) for w in limited)))
    return EditForm(f"Edit {unit.name}", tuple(sections))


def form_changes(form: EditForm, values: Mapping[str, Any]) -> EditChanges:
    """The changes the filled-in form makes: flags, Focus, movement and status as they are; the
    Suppressed tokens kept and added; the emission token (None: taken away); ammunition per weapon."""
    fields = {f.key: f for f in form.fields()}
    out: dict[str, Any] = {}

    def changed(key: str) -> bool:
        return key in fields and key in values and not same_value(fields[key], values[key])

    for key, _ in FLAG_EDITS:
        if changed(key):
            out[key] = bool(values[key])
    if changed("focused"):
        out["focused"] = HAND_SET if values["focused"] else None
    if changed("moved_in"):
        out["moved_in"] = float(values["moved_in"])
    if changed("status"):
        out["status"] = values["status"]
    kept = [f for f in form.fields() if f.key.startswith("suppressed ") and f.kind == "bool"]
    adding = bool(values.get("suppress")) and values.get("suppressed by") is not None
    if adding or any(not values.get(f.key, True) for f in kept):
        tokens = [{"by_unit": f.data.by_unit, "until_start_of": f.data.until_start_of} for f in kept if values.get(f.key, True)]
        if adding:
            tokens.append({"by_unit": int(values["suppressed by"]), "until_start_of": str(values["suppressed until"])})
        out["suppressed"] = tokens
    if "emitting" in fields:
        was = fields["emitting"].data
        now = (str(values.get("purpose", "")).strip(), str(values.get("emission until")), bool(values.get("jamming"))) \
            if values.get("emitting") else None
        if now != was:
            out["emission"] = None if now is None else {"purpose": now[0], "until_start_of": now[1], "jamming": now[2]}
    ammo = {f.data: int(values[f.key]) for f in form.fields() if f.key.startswith("ammunition ") and changed(f.key)}
    if ammo:
        out["ammunition"] = ammo
    return EditChanges(out)
