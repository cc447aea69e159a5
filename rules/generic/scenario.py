"""The generic rules' part of a scenario file: ``[rules]``, ``[[sides]]`` and the rules fields of
``[[units]]``: each unit names a unit record template (``type``) and may set any record field of its
own (``unit_name = "I1"``, ``max_range_in = 20`` ...). Every problem names the file, the unit and the field.

>>> state = game_from_scenario({"format": "sandtable-scenario", "version": 1, "ruleset": "generic",
...     "sides": [{"name": "Blue"}, {"name": "Red", "automated": True}],
...     "units": [{"tag_id": 10, "name": "1st section", "side": "Blue", "type": "Rifle section", "unit_name": "I1"},
...               {"tag_id": 20, "name": "Decoy", "side": "Red", "dummy": True, "unit_name": "R9"}]})
>>> u = state.unit("I1")
>>> u.record.delivery, u.record.max_range_in, state.unit(20).anonymous, state.side("Red").automated
('Rifle', 24.0, True, True)
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.errors import RulesError, ScenarioRulesError
from rules.generic.catalog import RECORD_FIELDS, UnitRecord, load_data, read_record
from rules.generic.options import GenericOptions
from rules.generic.state import RULESET_NAME, GenericState, Presence, SideState, Unit
from rules.record_fields import SHARED_UNIT_FIELDS, Fields, start_pose
from rules.scenario_reading import (finish_unit, load_scenario_with, read_identity, read_rectangle, read_rules_header,
                                     unit_entries)

#: [[units]] keys the generic rules add, besides every unit record field (docs/rules-generic.md).
UNIT_FIELDS = frozenset({"hidden", "dummy", "identified", "shots_left", "x_in", "y_in", "heading_deg", "on_table",
                         "length_in", "width_in", *RECORD_FIELDS})
SIDE_FIELDS = frozenset({"name", "color", "automated", "objective"})


def _dummy_record(unit_name: str, status: str) -> UnitRecord:
    """A fake counter moves like foot infantry (proposal) and has nothing else."""
    return UnitRecord(name="dummy", unit_name=unit_name, description="a fake counter", status=status,
                      movement_probability=4, max_speed_in=6.0)


def game_from_scenario(scenario: Mapping[str, Any], *, source: str = "<scenario>",
                       base_dir: str | Path | None = None) -> GenericState:
    """A fresh game (turn 0) from a parsed scenario, in its set-up: the units are being placed until the
    first turn begins."""
    head = read_rules_header(scenario, source=source, base_dir=base_dir, ruleset=RULESET_NAME,
                             title="the generic miniatures rules", options=GenericOptions.from_mapping,
                             load_data=load_data)
    top, options, data_files, data = head.top, head.options, head.data_files, head.data

    sides: list[SideState] = []
    for f in top.tables("sides"):
        f.entry = f"[[sides]] {f.data.get('name', '#?')!r}"
        objective = f.point("objective") if f.has("objective") else None
        sides.append(SideState(f.text("name"), f.maybe_text("color"), f.flag("automated"),
                               objective[0] if objective else None, objective[1] if objective else None))
        f.finish(hint=f"the side fields are {', '.join(sorted(SIDE_FIELDS))}")
    side_names = [s.name for s in sides]

    units: list[Unit] = []
    for raw, f in unit_entries(scenario, source=source):
        tag, name, side = read_identity(f, side_names=side_names, taken={u.unit_id for u in units})
        dummy = f.flag("dummy")
        if dummy:
            unit_name = f.text("unit_name", name)
            record = _dummy_record(unit_name, data.status_ladder[0])
        else:
            type_name = f.text("type")
            try:
                template = data.record(type_name)
            except RulesError as exc:
                raise f.fail("type", str(exc) + " (the records are listed by `sandtable odds --ruleset generic --list records`)") from None
            own = {k: v for k, v in raw.items() if k in RECORD_FIELDS}
            merged = Fields({**data.record_fields[template.name], **own}, source=source, entry=f.entry,
                            error=ScenarioRulesError)
            record = read_record(merged, data, name=template.name)
            merged.finish(hint="see docs/rules-generic.md for the unit record fields")
            f.used |= set(own)
        x, y, heading, on_table = start_pose(f)
        length, width = read_rectangle(f)
        hidden = f.flag("hidden") or dummy
        shots_left = f.maybe_whole("shots_left", low=0, high=10000)
        if shots_left is None:
            shots_left = record.shots
        unit = Unit(unit_id=tag, name=name, side=side, record=record, x_in=x, y_in=y, heading_deg=heading,
                    radius_in=f.number("base_radius_in", 0.5, low=0.01), length_in=length, width_in=width,
                    on_table=on_table, status_level=data.status_index(record.status) if not dummy else 0,
                    presence=Presence.ACTIVE, shots_left=shots_left, hidden=hidden,
                    identified=f.flag("identified", not hidden), dummy=dummy)
        finish_unit(f, hint="see docs/rules-generic.md for the generic unit fields", unused=("type",))
        units.append(unit)
    ids = [u.short_id.lower() for u in units]
    for u in units:
        if ids.count(u.short_id.lower()) > 1:
            raise ScenarioRulesError(f"{source}: unit {u.name!r}, field 'unit_name': {u.short_id!r} is on two counters; "
                                     "give each unit its own short ID")
        ref = u.record.commander_id
        if ref is not None and ref.lower() not in ids:
            raise ScenarioRulesError(f"{source}: unit {u.name!r}, field 'commander_id': no unit has the short ID {ref!r}")
    if not sides:
        sides = [SideState(n) for n in dict.fromkeys(u.side for u in units)]
    return GenericState(units=tuple(units), sides=tuple(sides), options=options, data_files=data_files,
                        name=str(scenario.get("name", "")), setting_up=True)


def load_scenario_file(path: str | Path) -> GenericState:
    return load_scenario_with(game_from_scenario, path)


__all__ = ["SHARED_UNIT_FIELDS", "UNIT_FIELDS", "game_from_scenario", "load_scenario_file"]
