"""Force on Force's part of a scenario file: ``[rules]``, ``[[sides]]``, ``[[fireteams]]`` and the
rules fields of ``[[units]]`` (one entry per figure, each with its own tag).

See docs/scenario-format.md for the shared file and docs/rules-force-on-force.md for the fields read
here. Every problem names the file, the entry and the field.

>>> state = game_from_scenario({"format": "sandtable-scenario", "version": 1, "ruleset": "force-on-force",
...     "sides": [{"name": "Blue", "initiative_level": "d8", "quality": "d8", "morale": "d8"},
...               {"name": "Red", "troop_type": "irregular", "quality": "d6", "morale": "d10"}],
...     "units": [{"tag_id": 10, "name": "A1", "side": "Blue", "unit": "Alpha", "x_in": 10, "y_in": 10},
...               {"tag_id": 11, "name": "A2", "side": "Blue", "unit": "Alpha", "x_in": 11.5, "y_in": 10},
...               {"tag_id": 20, "name": "R1", "side": "Red", "unit": "Cell", "x_in": 40, "y_in": 30}]})
>>> [(t.name, t.quality, t.troop_type.value, len(state.members(t))) for t in state.teams]
[('Alpha', 8, 'regular', 2), ('Cell', 6, 'irregular', 1)]
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules.errors import RulesError, ScenarioRulesError
from rules.forceonforce.catalog import FofData, load_data
from rules.forceonforce.hotspots import spacing_problems
from rules.forceonforce.options import FofOptions
from rules.forceonforce.state import (RULESET_NAME, Figure, FigureStatus, FofState, HotSpot, SideState, Team, TeamKind,
                                      TroopType)
from rules.record_fields import Fields, start_pose
from rules.scenario_reading import (finish_unit, load_scenario_with, read_identity, read_rectangle, read_rules_header,
                                     unit_entries)

#: [[units]] keys Force on Force adds (docs/rules-force-on-force.md).
FIGURE_FIELDS = frozenset({"unit", "leader", "leader_effect", "morale", "quality", "troop_type", "remote_contact",
                           "z_in", "x_in", "y_in", "heading_deg", "on_table", "status", "length_in", "width_in"})
#: Unit characteristics a [[fireteams]] entry sets, and a [[sides]] entry sets as the default for its units.
TEAM_FIELDS = ("troop_type", "rating", "quality", "morale", "confidence", "supplies")
SIDE_FIELDS = frozenset({"name", "color", "initiative_level", "civilians", *TEAM_FIELDS})
FIRETEAM_FIELDS = frozenset({"name", "side", "kind", "defensive", "firepower", "strength", "reinforcement",
                             *TEAM_FIELDS})


def _fail(source: str, message: str) -> ScenarioRulesError:
    return ScenarioRulesError(f"{source}: {message}")


def _characteristics(f: Fields, data: FofData, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """Troop type, TQ, Morale, Confidence and Supplies from a table, over ``defaults``."""
    out = dict(defaults)
    try:
        if f.has("rating"):
            r = data.rating(f.text("rating"))
            out["quality"] = r.troop_quality
            for key in ("morale", "confidence", "supplies"):
                if getattr(r, key) is not None:
                    out[key] = getattr(r, key)
    except RulesError as exc:
        raise f.fail("rating", str(exc)) from None
    if f.has("troop_type"):
        out["troop_type"] = TroopType(f.choice("troop_type", ("regular", "irregular")))
    for key, lookup in (("quality", data.quality), ("morale", data.morale)):
        if f.has(key):
            try:
                out[key] = lookup(f.raw(key))
            except RulesError as exc:
                raise f.fail(key, str(exc)) from None
    for key, lookup2 in (("confidence", data.confidence), ("supplies", lambda v: data.supplies(v).name)):
        if f.has(key):
            try:
                out[key] = lookup2(f.text(key))
            except RulesError as exc:
                raise f.fail(key, str(exc)) from None
    return out


def _team(name: str, side: str, values: Mapping[str, Any], data: FofData, f: Fields | None, source: str) -> Team:
    troop_type = values.get("troop_type", TroopType.REGULAR)
    for key in ("quality", "morale"):
        if key not in values:
            what = "Troop Quality" if key == "quality" else "Morale"
            message = (f"{what} is not given: set {key} = \"d8\" (or a rating) in its [[fireteams]] entry or as its "
                       "[[sides]] default")
            if f is not None:
                raise f.fail(key, message)
            raise _fail(source, f"unit {name!r}: {message}")
    quality = values["quality"]
    if troop_type is TroopType.IRREGULAR and quality > data.irregular_max_quality:
        message = (f"Troop Quality D{quality}: Irregular units never exceed D{data.irregular_max_quality} (A.2.1)")
        if f is not None:
            raise f.fail("quality", message)
        raise _fail(source, f"unit {name!r}: {message}")
    return Team(name=name, side=side, troop_type=troop_type, kind=values.get("kind", TeamKind.INFANTRY),
                quality=quality, morale=values["morale"],
                confidence=values.get("confidence", data.confidence()),
                supplies=values.get("supplies", data.supplies().name), strength=values.get("strength", 0),
                defensive=values.get("defensive", False), firepower=values.get("firepower"),
                reinforcement=values.get("reinforcement", False))


def game_from_scenario(scenario: Mapping[str, Any], *, source: str = "<scenario>",
                       base_dir: str | Path | None = None) -> FofState:
    """A fresh game (turn 0, before the first initiative) from a parsed scenario, in its set-up: the
    figures are being placed until the first turn begins."""
    head = read_rules_header(scenario, source=source, base_dir=base_dir, ruleset=RULESET_NAME, title="Force on Force",
                             options=FofOptions.from_mapping, load_data=load_data)
    top, rules, options, data_files, data = head.top, head.rules, head.options, head.data_files, head.data

    sides: list[SideState] = []
    side_defaults: dict[str, dict[str, Any]] = {}
    for f in top.tables("sides"):
        f.entry = f"[[sides]] {f.data.get('name', '#?')!r}"
        name = f.text("name")
        civilians = f.flag("civilians")
        level = f.die("initiative_level", "d6", allowed=data.ladder)
        side_defaults[name] = _characteristics(f, data, {})
        color = f.maybe_text("color")
        f.finish(hint=f"the side fields are {', '.join(sorted(SIDE_FIELDS))}")
        sides.append(SideState(name, color, level, civilians))
    side_names = [s.name for s in sides]
    civilian_sides = {s.name for s in sides if s.civilians}

    declared: dict[str, Team] = {}
    for f in top.tables("fireteams"):
        f.entry = f"[[fireteams]] {f.data.get('name', '#?')!r}"
        name = f.text("name")
        side = f.text("side")
        if side not in side_names:
            raise f.fail("side", f"{side!r} is not one of the [[sides]]: {', '.join(side_names)}")
        if name.lower() in (n.lower() for n in declared):
            raise f.fail("name", f"{name!r} is used by another fireteam; give each unit its own name")
        values = _characteristics(f, data, side_defaults.get(side, {}))
        values["kind"] = TeamKind(f.choice("kind", ("infantry", "vehicle"), "infantry"))
        values["defensive"] = f.flag("defensive")
        values["firepower"] = f.maybe_whole("firepower", low=0, high=50)
        values["reinforcement"] = f.flag("reinforcement")
        if f.has("strength"):
            values["strength"] = f.whole("strength", low=1, high=100)
        f.finish(hint=f"the fireteam fields are {', '.join(sorted(FIRETEAM_FIELDS))}")
        declared[name] = _team(name, side, values, data, f, source)

    figures: list[Figure] = []
    teams: dict[str, Team] = dict(declared)
    attach: dict[str, int] = {}
    for _, f in unit_entries(scenario, source=source):
        tag, name, side = read_identity(f, side_names=side_names, taken={x.figure_id for x in figures}, what="figure")
        x, y, heading, on_table = start_pose(f)
        leader = f.maybe_text("leader")
        if leader is not None:
            try:
                leader = data.leader_levels[data.leader_level(leader)]
            except RulesError as exc:
                raise f.fail("leader", str(exc)) from None
        team_name = f.maybe_text("unit")
        civilian = side in civilian_sides
        morale = quality = None
        try:
            if f.has("morale"):
                morale = data.morale(f.raw("morale"))
            if f.has("quality"):
                quality = data.quality(f.raw("quality"))
        except RulesError as exc:
            raise f.fail("morale" if "morale" in str(exc) else "quality", str(exc)) from None
        status_text = f.choice("status", tuple(s.value for s in FigureStatus), "active")
        length, width = read_rectangle(f)
        figure = Figure(
            figure_id=tag, name=name, side=side, team=None, role=f.text("type", "leader" if leader else "rifleman"),
            x_in=x, y_in=y, heading_deg=heading, z_in=f.number("z_in", 0.0),
            radius_in=f.number("base_radius_in", 0.5, low=0.01), length_in=length, width_in=width,
            on_table=on_table, status=FigureStatus(status_text), leader_level=leader,
            leader_effect=f.whole("leader_effect", 0, low=-5, high=5),
            morale=morale if morale is not None else (side_defaults.get(side, {}).get("morale") if leader else None),
            quality=quality,
            troop_type=TroopType(f.choice("troop_type", ("regular", "irregular"))) if f.has("troop_type") else None,
            remote_contact=f.flag("remote_contact"), civilian=civilian)
        finish_unit(f, hint="see docs/rules-force-on-force.md for the Force on Force unit fields")
        if leader is not None:
            if team_name is not None:
                attach[team_name] = tag
        elif not civilian:
            team_name = team_name or name
            if team_name not in teams:
                teams[team_name] = _team(team_name, side, side_defaults.get(side, {}), data, None, source)
            if teams[team_name].side != side:
                raise f.fail("side", f"{side!r}, but unit {team_name!r} is on {teams[team_name].side!r}; "
                             "a unit's figures are all on one side")
            figure = replace(figure, team=team_name)
        figures.append(figure)

    finished: list[Team] = []
    for t in teams.values():
        members = [fg for fg in figures if fg.team == t.name]
        if not members:
            raise _fail(source, f"[[fireteams]] {t.name!r} has no figures: give some [[units]] unit = {t.name!r}")
        if t.kind is TeamKind.VEHICLE and len(members) != 1:
            raise _fail(source, f"vehicle {t.name!r} has {len(members)} figures: a vehicle unit is one model")
        strength = t.strength or len(members)
        leader_tag = attach.pop(t.name, None)
        fixed = replace(t, strength=strength, leader=leader_tag)
        if fixed.reinforcement:
            members_off = {fg.figure_id for fg in members}
            figures = [replace(fg, on_table=False) if fg.figure_id in members_off else fg
                       for fg in figures]
        finished.append(fixed)
    if attach:
        name, tag = next(iter(attach.items()))
        raise _fail(source, f"leader with tag {tag} is attached to unit {name!r}, which has no figures")

    spots: list[HotSpot] = []
    if rules.has("hot_spots"):
        raw_spots = rules.raw("hot_spots")
        if not isinstance(raw_spots, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p) for p in raw_spots):
            raise rules.fail("hot_spots", f"{raw_spots!r}: give a list of points, e.g. [[12, 30], [40, 10]]")
        if len(raw_spots) > data.hot_spots.count:
            raise rules.fail("hot_spots", f"{len(raw_spots)} points: at most {data.hot_spots.count} Hot Spots")
        problems = spacing_problems([(float(p[0]), float(p[1])) for p in raw_spots],
                                    min_spacing_in=data.hot_spots.min_spacing_in)
        if problems:
            raise rules.fail("hot_spots", problems[0])
        spots = [HotSpot(i + 1, float(p[0]), float(p[1])) for i, p in enumerate(raw_spots)]
    forces = [s.name for s in sides if not s.civilians]
    for key in ("first_initiative", "fixed_initiative"):
        value = getattr(options, key)
        if value and value not in forces:
            raise rules.fail(key, f"{value!r} is not one of the forces: {', '.join(forces)}")
    if not sides:
        sides = [SideState(n) for n in dict.fromkeys(fg.side for fg in figures)]
    return FofState(figures=tuple(figures), teams=tuple(finished), sides=tuple(sides), hot_spots=tuple(spots),
                    options=options, data_files=data_files, name=str(scenario.get("name", "")), setting_up=True)


def load_scenario_file(path: str | Path) -> FofState:
    """Read a scenario TOML file and build the game."""
    return load_scenario_with(game_from_scenario, path)
