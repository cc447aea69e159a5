"""Hand edits (:class:`~rules.downrange.actions.EditUnit`): what the camera cannot see, set or cleared by
a player from the roster, and logged as an ``edit`` event so the debrief shows who changed what.

Flags and values are set as they are (``{"injured": True}``, ``{"moved_in": 3.0}``,
``{"focused": "set by hand"}`` or ``None``); three tokens take a little structure:

* ``suppressed``: the unit's Suppressed tokens, a list of ``{"by_unit": tag id or name,
  "until_start_of": side}``; ``until_start_of`` defaults to the suppressing unit's side (3.1.5: until
  the start of its player's next turn). ``[]`` clears them.
* ``emission``: the emission (Signal) token, ``{"purpose": ..., "until_start_of": side, "jamming":
  bool}``; ``until_start_of`` defaults to the unit's own side, ``purpose`` to "set by hand"; only an
  EW unit may carry a jamming token. ``None`` clears it.
* ``ammunition``: uses left per weapon the unit carries, ``{"Hand grenade": 0}`` (0: out of
  ammunition).

>>> from rules.downrange.actions import EditUnit
>>> from rules.downrange.scenario import demo_state
>>> s = demo_state().apply(EditUnit(10, {"suppressed": [{"by_unit": 31}], "ammunition": {"M4/M16": 0}}))
>>> s.unit(10).suppressed, s.unit(10).tokens()
((Suppression(by_unit=31, until_start_of='PLA Marine Corps'),), ('suppressed', 'out of ammunition (M4/M16)'))
>>> s.events[-1].summary
"Sergeant: set by hand suppressed by Automatic rifleman (31) until the start of PLA Marine Corps' next turn, M4/M16 ammunition = 0."
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.dice import Dice
from rules.downrange.actions import EditUnit
from rules.downrange.pieces import Compartment, Emission, Status, Suppression, Unit, WeaponState, possessive
from rules.downrange.radio import is_ew
from rules.serialize import to_jsonable

if TYPE_CHECKING:
    from rules.downrange.state import GameState

#: Fields a player may set by hand (the roster's edits), with their types; the three tokens that take
#: structure (Suppression, Emission, ammunition) are read by the functions below.
EDITABLE_FIELDS: dict[str, type] = {
    "overburdened": bool, "overloaded": bool, "white_light_on": bool, "on_fire": bool, "injured": bool,
    "reaction_ready": bool, "main_effort": bool, "disabled": bool, "flammable": bool, "status": str,
    "compartment": str, "equipment": tuple, "untrained": tuple, "moved_in": float, "action_used": str,
    "focused": str, "skill": str, "defense": str, "commander": int, "reports_to": int, "team": str,
    "crew": int, "operator": int, "suppressed": Suppression, "emission": Emission, "ammunition": dict,
}
#: Emission purposes the rules give a token for (5.1-5.3, 4.4); a hand edit may name another.
EMISSION_PURPOSES = ("situational awareness", "other", "fires observation", "main effort", "sigint share",
                     "rpv control", "jamming")
HAND_SET = "set by hand"


def apply_edit(state: GameState, action: EditUnit) -> GameState:
    unit = state.unit(action.unit_id)
    changes: dict[str, object] = {}
    words: list[str] = []
    for key, value in action.changes.items():
        if key not in EDITABLE_FIELDS:
            raise state.illegal(f"{key!r} cannot be edited by hand: editable are {', '.join(sorted(EDITABLE_FIELDS))}")
        kind = EDITABLE_FIELDS[key]
        if key == "suppressed":
            changes[key] = suppressions(state, value)
            words.append(suppressed_words(state, changes[key]))  # type: ignore[arg-type]  # changes holds the value the line above computed (dict[str, object])
            continue
        if key == "emission":
            changes[key] = emission(state, unit, value)
            words.append(emission_words(changes[key]))  # type: ignore[arg-type]  # changes holds the value the line above computed (dict[str, object])
            continue
        if key == "ammunition":
            changes["weapons"] = ammunition(state, unit, value)
            words += [f"{name} ammunition = {count}" for name, count in _canonical(state, value).items()]
            continue
        words.append(f"{key} = {value}")
        if key == "status":
            try:
                value = Status(value)
            except ValueError:
                raise state.illegal(f"status {value!r}: use active, down or removed") from None
        elif key == "compartment":
            try:
                value = Compartment(value)
            except ValueError:
                raise state.illegal(f"compartment {value!r}: use enclosed, open or exposed") from None
        elif key in ("skill", "defense"):
            value = Dice.parse(value, allowed_sides=(4, 6, 8, 10))
        elif kind is tuple:
            value = tuple(value)
            if key == "equipment":
                value = tuple(state.catalog.equipment_item(v).name for v in value)
        elif kind is bool and not isinstance(value, bool):
            raise state.illegal(f"{key} = {value!r}: use true or false")
        elif key == "moved_in" and (isinstance(value, bool) or not isinstance(value, (int, float))
                                    or not 0 <= value < math.inf):
            raise state.illegal(f"moved_in = {value!r}: give the inches moved this turn, 0 or more")
        elif key == "crew" and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise state.illegal(f"crew = {value!r}: give the number of living crew members, 0 or more")
        elif key == "operator" and value is not None:
            value = state.unit(value).unit_id
        elif key == "focused" and value is not None and (not isinstance(value, str) or not value.strip()):
            raise state.illegal(f"focused = {value!r}: name the task it Focuses on (or null to end the Focus)")
        changes[key] = value
    state = state.with_unit(replace(unit, **changes))  # type: ignore[arg-type]  # changes is a dict[str, object] of field values: replace() cannot check keyword dicts
    return state.log("edit", f"{unit.name}: set by hand " + ", ".join(words) + ".", inputs=to_jsonable(action))


# -- the tokens that take structure ------------------------------------------------------------------

def suppressions(state: GameState, value: Any) -> tuple[Suppression, ...]:
    """Suppressed tokens from a hand edit's ``suppressed`` value (see the module's docstring)."""
    if value is None:
        return ()
    items = [value] if isinstance(value, (Mapping, Suppression)) else value
    if not isinstance(items, (list, tuple)):
        raise state.illegal(f"suppressed = {value!r}: give a list like [{{\"by_unit\": 31}}] ([] clears it)")
    out: list[Suppression] = []
    for item in items:
        by: Any
        until: Any
        if isinstance(item, Suppression):
            by, until = item.by_unit, item.until_start_of
        elif isinstance(item, Mapping):
            extra = sorted(set(item) - {"by_unit", "until_start_of", "type"})
            if extra or item.get("type", "Suppression") != "Suppression":
                raise state.illegal(f"suppressed entry {dict(item)!r}: give by_unit and, if it is not the "
                                    "suppressing unit's side, until_start_of")
            by, until = item.get("by_unit"), item.get("until_start_of")
        else:
            raise state.illegal(f"suppressed entry {item!r}: write {{\"by_unit\": 31}} (the suppressing unit)")
        if by is None or isinstance(by, bool):
            raise state.illegal(f"suppressed entry {item!r}: by_unit names the suppressing unit (tag id or name)")
        suppressor = state.unit(by)
        side = suppressor.side if until is None else until
        if not isinstance(side, str):
            raise state.illegal(f"suppressed until_start_of = {side!r}: name a side")
        state.side(side)
        token = Suppression(suppressor.unit_id, side)
        if token not in out:
            out.append(token)
    return tuple(out)


def emission(state: GameState, unit: Unit, value: Any) -> Emission | None:
    """The emission token from a hand edit's ``emission`` value (see the module's docstring)."""
    if value is None:
        return None
    if isinstance(value, Emission):
        purpose, until, jamming = value.purpose, value.until_start_of, value.jamming
    elif isinstance(value, Mapping):
        extra = sorted(set(value) - {"purpose", "until_start_of", "jamming", "type"})
        if extra or value.get("type", "Emission") != "Emission":
            raise state.illegal(f"emission {dict(value)!r}: give purpose, until_start_of and jamming (or null to "
                                "remove the token)")
        purpose, until, jamming = value.get("purpose", HAND_SET), value.get("until_start_of", unit.side), value.get(
            "jamming", False)
    else:
        raise state.illegal(f"emission = {value!r}: write {{\"purpose\": \"other\"}} (or null to remove the token)")
    if not isinstance(purpose, str) or not purpose.strip():
        raise state.illegal(f"emission purpose {purpose!r}: say why it emits, e.g. {EMISSION_PURPOSES[0]!r}")
    if not isinstance(jamming, bool):
        raise state.illegal(f"emission jamming = {jamming!r}: use true or false")
    if not isinstance(until, str):
        raise state.illegal(f"emission until_start_of = {until!r}: name a side")
    state.side(until)
    if jamming:
        if not is_ew(state, unit):
            raise state.illegal(f"{unit.name} has no EW equipment: add 'EW equipment' to its equipment to jam")
    return Emission(purpose.strip(), until, jamming)


def ammunition(state: GameState, unit: Unit, value: Any) -> tuple[WeaponState, ...]:
    """The unit's weapons with the uses left a hand edit's ``ammunition`` value gives."""
    counts = _canonical(state, value)
    carried = {w.name for w in unit.weapons}
    for name, count in counts.items():
        if name not in carried:
            raise state.illegal(f"{unit.name} does not carry the {name}; it carries "
                                f"{', '.join(sorted(carried)) or 'no weapon'}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise state.illegal(f"ammunition {name} = {count!r}: give a whole number of uses left (0 or more)")
    return tuple(replace(w, ammo_left=counts[w.name]) if w.name in counts else w for w in unit.weapons)


def _canonical(state: GameState, value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping) or not value:
        raise state.illegal(f"ammunition = {value!r}: write a table of uses left, e.g. {{\"Hand grenade\": 1}}")
    return {state.catalog.weapon(str(name)).name: count for name, count in value.items()}


# -- in words -------------------------------------------------------------------------------------

def suppression_words(state: GameState, token: Suppression) -> str:
    """``by Automatic rifleman (31) until the start of PLA Marine Corps' next turn``."""
    try:
        by = f"{state.unit(token.by_unit).name} ({token.by_unit})"
    except ValueError:
        by = f"unit {token.by_unit}"
    return f"by {by} until the start of {possessive(token.until_start_of)} next turn"


def suppressed_words(state: GameState, tokens: tuple[Suppression, ...]) -> str:
    if not tokens:
        return "not suppressed"
    return "suppressed " + " and ".join(suppression_words(state, t) for t in tokens)


def emission_words(token: Emission | None) -> str:
    """``emission token (radio call) until the start of Marines' next turn``; ``no emission token``."""
    if token is None:
        return "no emission token"
    what = "jamming token" if token.jamming else f"emission token ({token.purpose_words})"
    return f"{what} until the start of {possessive(token.until_start_of)} next turn"
