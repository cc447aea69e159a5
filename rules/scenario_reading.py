"""The parts of reading a scenario file that rule systems do the same way: the ``ruleset`` check, the
``[rules]`` table (options and extra data files), each ``[[units]]`` entry's tag, name and side, its
rectangular footprint, the shared fields it may carry, and the TOML file itself.

Each rule system's ``scenario`` module reads its own fields around these (docs/scenario-format.md
for the shared file, docs/rules-*.md for each system's fields); every message names the file, the
entry and the field.

>>> from rules.generic.options import GenericOptions
>>> head = read_rules_header({"ruleset": "generic", "rules": {"strict": False}}, source="s.toml", base_dir=None,
...                          ruleset="generic", title="the generic rules", options=GenericOptions.from_mapping,
...                          load_data=len)
>>> head.options.strict, head.data_files, head.data
(False, (), 0)
>>> read_rules_header({"ruleset": "chess"}, source="s.toml", base_dir=None, ruleset="generic",
...                   title="the generic rules", options=GenericOptions.from_mapping, load_data=len)
Traceback (most recent call last):
...
rules.errors.ScenarioRulesError: s.toml: ruleset 'chess' is not the generic rules ('generic')
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from rules.errors import RulesError, ScenarioRulesError
from rules.record_fields import Fields, read_toml_file

O = TypeVar("O")  # noqa: E741 - a type variable beside D, never confused with 0 where it is used
D = TypeVar("D")
G = TypeVar("G")

#: Shared [[units]] fields a rule system accepts without using them (the tracker and the synthetic
#: table read them).
TRACKING_FIELDS = ("commander", "base_height_in", "tag_size_in", "path", "facing_offset_deg")


@dataclass(frozen=True)
class RulesHeader(Generic[O, D]):
    """What the top of a scenario gives every rule system: the file's fields, its ``[rules]`` table,
    the options read from it, the extra data files (absolute paths) and the data loaded with them."""

    top: Fields
    rules: Fields
    options: O
    data_files: tuple[str, ...]
    data: D


def read_rules_header(scenario: Mapping[str, Any], *, source: str, base_dir: str | Path | None, ruleset: str,
                      title: str, options: Callable[..., O], load_data: Callable[[tuple[str, ...]], D]) -> RulesHeader[O, D]:
    """Check ``ruleset = ...`` is this rule system's (``title`` names it in the message), read the
    ``[rules]`` options (``options(table, source=...)``) and its ``data`` files (one path or a list,
    relative to ``base_dir``), and load the data with them."""
    top = Fields(scenario, source=source, entry="the scenario", error=ScenarioRulesError)
    named = scenario.get("ruleset", ruleset)
    if named != ruleset:
        raise ScenarioRulesError(f"{source}: ruleset {named!r} is not {title} ({ruleset!r})")
    rules = top.table("rules") or Fields({}, source=source, entry="[rules]", error=ScenarioRulesError)
    rules.entry = "[rules]"
    read = options(rules.data, source=f"{source}: [rules]")
    extra = rules.names("data") if isinstance(rules.data.get("data"), list) else (
        (rules.text("data"),) if rules.has("data") else ())
    base = Path(base_dir) if base_dir is not None else Path(".")
    data_files = tuple(str((base / d).resolve()) for d in extra)
    try:
        data = load_data(data_files)
    except RulesError as exc:
        raise ScenarioRulesError(f"{source}: [rules] data: {exc}") from None
    return RulesHeader(top, rules, read, data_files, data)


def unit_entries(scenario: Mapping[str, Any], *, source: str) -> Iterator[tuple[Any, Fields]]:
    """Each ``[[units]]`` entry as it stands in the file and as :class:`Fields` labelled ``unit 'Name'``
    (``unit #3`` when it has no name)."""
    for i, raw in enumerate(scenario.get("units", []) or []):
        label = f"unit {raw.get('name', '#' + str(i + 1))!r}" if isinstance(raw, Mapping) else f"unit #{i + 1}"
        yield raw, Fields(raw, source=source, entry=label, error=ScenarioRulesError)


def read_identity(f: Fields, *, side_names: Sequence[str], taken: Collection[int],
                  what: str = "unit") -> tuple[int, str, str]:
    """(tag id, name, side) of a ``[[units]]`` entry: the tag is a whole number no other ``what`` has
    (``taken``), the name defaults to "tag N", the side must be one of ``side_names`` (when any)."""
    tag = f.whole("tag_id", low=0, high=100000)
    name = f.text("name", f"tag {tag}")
    side = f.text("side")
    if side_names and side not in side_names:
        raise f.fail("side", f"{side!r} is not one of the [[sides]]: {', '.join(side_names)}")
    if tag in taken:
        raise f.fail("tag_id", f"{tag} is used by another {what}; every {what} needs its own tag")
    return tag, name, side


def read_rectangle(f: Fields) -> tuple[float | None, float | None]:
    """(length_in, width_in) of a rectangular base (a vehicle), or (None, None) for a round one."""
    length = f.maybe_number("length_in", low=0.01)
    width = f.maybe_number("width_in", low=0.01)
    if (length is None) != (width is None):
        raise f.fail("width_in" if width is None else "length_in", "give both length_in and width_in, or neither")
    return length, width


def finish_unit(f: Fields, *, hint: str, unused: Sequence[str] = ()) -> None:
    """Accept the shared fields this rule system does not use (checking the name lists), then refuse
    any key nobody read, with ``hint`` saying where the fields are documented."""
    f.names("weapons")
    f.names("equipment")
    for key in (*TRACKING_FIELDS, *unused):
        f.raw(key, None)
    f.finish(hint=hint)


def load_scenario_with(build: Callable[..., G], path: str | Path) -> G:
    """Read a scenario TOML file and build the game with ``build(doc, source=..., base_dir=...)``
    (a rule system's ``game_from_scenario``); data file paths are relative to the file's folder."""
    p = Path(path)
    doc = read_toml_file(p, error=ScenarioRulesError, what="scenario file")
    return build(doc, source=str(p), base_dir=p.parent)
