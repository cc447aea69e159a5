"""Down Range's part of a scenario file: ``[[sides]]``, the rules fields of ``[[units]]`` and ``[rules]``.

See docs/scenario-format.md for the shared file and docs/rules-down-range.md for the fields read here.
Every problem names the file, the unit and the field.

>>> state = game_from_scenario({"format": "sandtable-scenario", "version": 1,
...     "sides": [{"name": "Blue"}, {"name": "Red"}],
...     "units": [{"tag_id": 10, "name": "Ann", "side": "Blue", "type": "average combatant",
...                "weapons": ["M4/M16"], "equipment": ["body armor"]},
...               {"tag_id": 11, "name": "Bo", "side": "Red", "type": "average combatant"}]})
>>> str(state.effective_defense(state.unit("Ann")))
'5'
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rules.dice import Dice
from rules.downrange.catalog import SIDES, Catalog, load_catalog
from rules.downrange.options import RulesOptions
from rules.downrange.state import Compartment, GameState, SideState, Status, Unit, UnitKind, WeaponState
from rules.errors import DiceError, RulesError, ScenarioRulesError
from rules.record_fields import SHARED_UNIT_FIELDS, Fields, start_pose
from rules.scenario_reading import load_scenario_with

#: Keys of [[units]] Down Range adds (documented in docs/rules-down-range.md).
RULES_UNIT_FIELDS = frozenset({"skill", "defense", "move_in", "specialty", "specialty_skill", "ammunition",
                               "reports_to", "team", "crew", "capacity", "aboard", "compartment", "operator",
                               "untrained", "flammable", "injured", "overburdened", "overloaded", "length_in",
                               "width_in", "x_in", "y_in", "heading_deg", "on_table", "status"})
SIDE_FIELDS = frozenset({"name", "color", "age_rank"})
LIGHTING = ("day", "partial darkness", "pitch black")


class _Reader:
    def __init__(self, source: str, where: str, data: Mapping[str, Any]) -> None:
        self.source, self.where, self.data = source, where, data

    def fail(self, field: str, message: str) -> ScenarioRulesError:
        return ScenarioRulesError(f"{self.source}: {self.where}, field {field!r}: {message}")

    def dice(self, field: str, *, single: bool = False) -> Dice | None:
        if field not in self.data:
            return None
        try:
            d = Dice.parse(self.data[field], allowed_sides=SIDES)
        except DiceError as exc:
            raise self.fail(field, str(exc)) from None
        if single and (d.count != 1 or d.bonus):
            raise self.fail(field, f"{self.data[field]!r}: a Skill is one die such as '1d6'")
        return d

    def number(self, field: str, default: float | None, *, allow_inf: bool = False) -> float | None:
        value = self.data.get(field, default)
        if value is None:
            return None
        if allow_inf and value in ("inf", "unlimited"):
            return math.inf
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (math.isinf(value) and not allow_inf):
            raise self.fail(field, f"{value!r} is not a number")
        return float(value)

    def integer(self, field: str) -> int | None:
        value = self.data.get(field)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, f"{value!r} is not a whole number")
        return value

    def flag(self, field: str) -> bool:
        value = self.data.get(field, False)
        if not isinstance(value, bool):
            raise self.fail(field, f"{value!r} is not true or false")
        return value

    def names(self, field: str) -> list[str]:
        value = self.data.get(field, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(field, f"{value!r} is not a list of names in quotes")
        return value

    def text(self, field: str) -> str | None:
        value = self.data.get(field)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, f"{value!r} is not text in quotes")
        return value.strip()


def _unit(catalog: Catalog, r: _Reader, sides: Sequence[str]) -> Unit:
    tag = r.data.get("tag_id")
    if isinstance(tag, bool) or not isinstance(tag, int):
        raise r.fail("tag_id", f"{tag!r} is not a whole number (the unit's AprilTag id)")
    name = r.text("name") or f"unit {tag}"
    side = r.text("side")
    if side is None:
        raise r.fail("side", "missing: every unit belongs to a side")
    if sides and side not in sides:
        raise r.fail("side", f"{side!r} is not one of the [[sides]]: {', '.join(sides)}")
    type_name = r.text("type") or "average combatant"
    try:
        if catalog.is_vehicle(type_name):
            vt = catalog.vehicle(type_name)
            kind, move, skill, defense = UnitKind.VEHICLE, vt.move_in, vt.skill or Dice(1, 6), vt.defense
            specialty_skill = None
            type_name, crew, capacity, mobility, control = vt.name, vt.crew, vt.passengers, vt.mobility, vt.control
            weapons_default = list(vt.weapons)
            length, width, radius = vt.length_in, vt.width_in, vt.radius_in
        else:
            ut = catalog.unit_type(type_name)
            kind, move, skill, defense = UnitKind.TROOP, ut.move_in, ut.skill, ut.defense
            specialty_skill = ut.specialty_skill
            type_name, crew, capacity, mobility, control = ut.name, 1, 0, "foot", "crewed"
            weapons_default = []
            length = width = radius = None
    except RulesError as exc:
        raise r.fail("type", str(exc)) from None
    weapons = r.names("weapons") if "weapons" in r.data else weapons_default
    ammo_field = r.data.get("ammunition", {})
    loadout = []
    limited = []
    for wname in weapons:
        try:
            w = catalog.weapon(wname)
        except RulesError as exc:
            raise r.fail("weapons", str(exc)) from None
        loadout.append(WeaponState(w.name, w.ammunition))
        if w.ammunition is not None:
            limited.append(w.name)
    if isinstance(ammo_field, int) and not isinstance(ammo_field, bool):
        if len(limited) != 1:
            raise r.fail("ammunition", f"{ammo_field} applies to one limited weapon, but the unit has "
                         f"{len(limited)} ({', '.join(limited) or 'none'}); write ammunition = {{ \"Weapon\" = {ammo_field} }}")
        ammo_field = {limited[0]: ammo_field}
    if not isinstance(ammo_field, Mapping):
        raise r.fail("ammunition", f"{ammo_field!r}: write a number, or a table like {{ \"Hand grenade\" = 2 }}")
    for wname, count in ammo_field.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise r.fail("ammunition", f"{wname} = {count!r}: give a whole number of uses left (0 or more)")
        try:
            real = catalog.weapon(wname).name
        except RulesError as exc:
            raise r.fail("ammunition", str(exc)) from None
        if real not in [w.name for w in loadout]:
            raise r.fail("ammunition", f"the unit does not carry the {real}; add it to weapons")
        loadout = [WeaponState(w.name, count) if w.name == real else w for w in loadout]
    equipment = []
    for item in r.names("equipment"):
        try:
            equipment.append(catalog.equipment_item(item).name)
        except RulesError as exc:
            raise r.fail("equipment", str(exc)) from None
    untrained = []
    for wname in r.names("untrained"):
        try:
            untrained.append(catalog.weapon(wname).name)
        except RulesError as exc:
            raise r.fail("untrained", str(exc)) from None
    commander = r.integer("commander")
    if commander is not None and commander < 1:
        raise r.fail("commander", f"{commander}: seniority starts at 1 (the most senior)")
    compartment = r.data.get("compartment", "enclosed")
    try:
        compartment_value = Compartment(compartment)
    except ValueError:
        raise r.fail("compartment", f"{compartment!r}: use enclosed, open or exposed") from None
    status = r.data.get("status", "active")
    try:
        status_value = Status(status)
    except ValueError:
        raise r.fail("status", f"{status!r}: use active, down or removed") from None
    x, y, heading, on_table = start_pose(Fields(r.data, source=r.source, entry=r.where, error=ScenarioRulesError))
    length = r.number("length_in", length)
    width = r.number("width_in", width)
    if (length is None) != (width is None):
        raise r.fail("width_in" if width is None else "length_in", "give both length_in and width_in, or neither")
    radius = r.number("base_radius_in", radius if radius is not None else 0.5) or 0.5
    specialty = r.text("specialty")
    override_skill = r.dice("skill", single=True)
    override_specialty = r.dice("specialty_skill", single=True)
    return Unit(
        unit_id=tag, name=name, side=side, type_name=type_name, kind=kind,
        skill=override_skill or skill, defense=r.dice("defense") or defense,
        move_in=r.number("move_in", move, allow_inf=True) or 0.0,
        x_in=x, y_in=y, heading_deg=heading, radius_in=radius, length_in=length, width_in=width,
        on_table=on_table and r.data.get("aboard") is None,
        specialty=specialty, specialty_skill=override_specialty or (specialty_skill if specialty else None),
        equipment=tuple(equipment), weapons=tuple(loadout), untrained=tuple(untrained),
        commander=commander, reports_to=r.integer("reports_to"), team=r.text("team"),
        crew=r.integer("crew") if r.integer("crew") is not None else crew,  # type: ignore[arg-type]  # the None case is tested on the same line
        capacity=r.integer("capacity") if r.integer("capacity") is not None else capacity,  # type: ignore[arg-type]  # the None case is tested on the same line
        mobility=mobility, control=control, flammable=r.flag("flammable"),
        aboard=r.integer("aboard"), compartment=compartment_value, operator=r.integer("operator"),
        status=status_value, injured=r.flag("injured"), overburdened=r.flag("overburdened"),
        overloaded=r.flag("overloaded"),
    )


def game_from_scenario(scenario: Mapping[str, Any], *, source: str = "<scenario>",
                       base_dir: str | Path | None = None, catalog: Catalog | None = None) -> GameState:
    """A fresh game (round 0, before the first initiative roll) from a parsed scenario, in its set-up:
    the units are being placed until the first turn begins."""
    rules = scenario.get("rules", {})
    if not isinstance(rules, Mapping):
        raise ScenarioRulesError(f"{source}: [rules] must be a table")
    options = RulesOptions.from_mapping(rules, source=f"{source}: [rules]")
    lighting = rules.get("lighting", "day")
    if lighting not in LIGHTING:
        raise ScenarioRulesError(f"{source}: [rules], field 'lighting': {lighting!r}: use one of {', '.join(LIGHTING)}")
    data = rules.get("data", [])
    if isinstance(data, str):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(d, str) for d in data):
        raise ScenarioRulesError(f"{source}: [rules], field 'data': {data!r}: give a list of data file paths")
    base = Path(base_dir) if base_dir is not None else Path(".")
    data_files = tuple(str((base / d).resolve()) for d in data)
    catalog = catalog or load_catalog(data_files, variants=options.variants)
    ruleset = scenario.get("ruleset", "down-range")
    if ruleset != "down-range":
        raise ScenarioRulesError(f"{source}: ruleset {ruleset!r} is not Down Range")
    raw_sides = scenario.get("sides", [])
    if not isinstance(raw_sides, list):
        raise ScenarioRulesError(f"{source}: [[sides]] must be a list of tables")
    sides = []
    for i, s in enumerate(raw_sides):
        r = _Reader(source, f"[[sides]] #{i + 1}", s if isinstance(s, Mapping) else {})
        name = r.text("name")
        if name is None:
            raise r.fail("name", "missing: every side has a name")
        unknown_side = sorted(set(s) - SIDE_FIELDS)
        if unknown_side:
            raise r.fail(unknown_side[0], f"unknown field; the side fields are {', '.join(sorted(SIDE_FIELDS))}")
        age = r.integer("age_rank")
        sides.append(SideState(name, r.text("color"), age_rank=age))
    side_names = [s.name for s in sides]
    raw_units = scenario.get("units", [])
    if not isinstance(raw_units, list):
        raise ScenarioRulesError(f"{source}: [[units]] must be a list of tables")
    units: list[Unit] = []
    for i, u in enumerate(raw_units):
        label = f"unit {u.get('name', '#' + str(i + 1))!r}" if isinstance(u, Mapping) else f"unit #{i + 1}"
        if not isinstance(u, Mapping):
            raise ScenarioRulesError(f"{source}: {label} is not a table")
        r = _Reader(source, label, u)
        unknown = sorted(set(u) - SHARED_UNIT_FIELDS - RULES_UNIT_FIELDS)
        if unknown:
            import difflib

            close = difflib.get_close_matches(unknown[0], sorted(SHARED_UNIT_FIELDS | RULES_UNIT_FIELDS), n=1)
            raise r.fail(unknown[0], "unknown field" + (f" (did you mean {close[0]!r}?)" if close else "")
                         + "; see docs/rules-down-range.md for the Down Range unit fields")
        unit = _unit(catalog, r, side_names)
        if any(x.unit_id == unit.unit_id for x in units):
            raise r.fail("tag_id", f"{unit.unit_id} is used by another unit; every unit needs its own tag")
        units.append(unit)
    if not sides:
        sides = [SideState(n) for n in dict.fromkeys(u.side for u in units)]
    ids = {u.unit_id for u in units}
    for u in units:
        for field in ("reports_to", "aboard", "operator"):
            ref = getattr(u, field)
            if ref is not None and ref not in ids:
                raise ScenarioRulesError(f"{source}: unit {u.name!r}, field {field!r}: no unit has tag_id {ref}")
    if len(sides) < 1:
        raise ScenarioRulesError(f"{source}: no sides and no units: a game needs at least one side")
    return GameState(units=tuple(units), sides=tuple(sides), lighting=lighting, options=options,
                     data_files=data_files, name=str(scenario.get("name", "")), catalog_=catalog, setting_up=True)


def load_scenario_file(path: str | Path) -> GameState:
    """Read a scenario TOML file and build the game."""
    return load_scenario_with(game_from_scenario, path)


#: The scenario of the in-depth example (5.2), shipped with the rules.
IN_DEPTH_SCENARIO = Path(__file__).parent / "examples" / "in_depth.toml"


def demo_state() -> GameState:
    """The in-depth example's forces at the start (handy in examples and tests)."""
    return load_scenario_file(IN_DEPTH_SCENARIO)
