"""Scenario files that ship with the program, and finding or copying one (``sandtable scenarios``).

| name | file | what |
|---|---|---|
| ``starter-skirmish`` | ``appmodel/scenarios/starter_skirmish.toml`` | a small game to learn with, every field commented |
| ``in-depth`` | ``rules/downrange/examples/in_depth.toml`` | the rulebook's in-depth example (section 6) |
| ``hill-203`` | ``calibration/synthetic/scenarios/skirmish.toml`` | the synthetic table's test footage (a hand, a lift) |

Besides these, every registered rule system's examples are listed (``rules.available_rulesets()``;
each rule system's package keeps them in its ``examples/`` folder, e.g. ``patrol`` for Force on Force
and ``solo`` for the generic rules), so a rule system added to the registry brings its own.

The files stay where their package keeps them (one copy each); users copy one to edit it.
"""
from __future__ import annotations

import difflib
import importlib
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]
_SHIPPED = (
    ("starter-skirmish", Path(__file__).with_name("starter_skirmish.toml")),
    ("in-depth", _ROOT / "rules" / "downrange" / "examples" / "in_depth.toml"),
    ("hill-203", _ROOT / "calibration" / "synthetic" / "scenarios" / "skirmish.toml"),
)


@dataclass(frozen=True)
class ShippedScenario:
    name: str  # what a user types: sandtable scenarios --copy NAME DIR
    path: Path
    title: str
    description: str
    units: int
    synthetic: bool  # has [simulation]: sandtable simulate / track can film it
    ruleset: str = "down-range"  # the rule system that plays it (its ``ruleset`` field)


def _rulesets_examples() -> list[tuple[str, Path]]:
    """(name, path) of each registered rule system's example scenarios: the ``examples/*.toml`` of the
    package its class lives in."""
    from rules.ruleset import available_rulesets, get_ruleset

    out = []
    for key in available_rulesets():
        package = type(get_ruleset(key)).__module__.rpartition(".")[0]
        module = importlib.import_module(package) if package else None
        folder = Path(module.__file__).parent / "examples" if module is not None and module.__file__ else None
        if folder is None or not folder.is_dir():
            continue
        out += [(p.stem.replace("_", "-"), p) for p in sorted(folder.glob("*.toml"))]
    return out


def shipped_scenarios() -> tuple[ShippedScenario, ...]:
    """Every scenario that ships with the program, in the order a newcomer should try them: the
    curated ones first, then every rule system's examples."""
    from rules.ruleset import DEFAULT_RULESET

    out = []
    listed = {p.resolve() for _, p in _SHIPPED}
    names = {n for n, _ in _SHIPPED}
    extra = [(n, p) for n, p in _rulesets_examples() if p.resolve() not in listed and n not in names]
    for name, path in list(_SHIPPED) + extra:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        out.append(ShippedScenario(name, path, str(data.get("name", name)), str(data.get("description", "")),
                                   len(data.get("units", [])), "simulation" in data,
                                   str(data.get("ruleset", DEFAULT_RULESET))))
    return tuple(out)


def find_shipped(name: str) -> ShippedScenario:
    """The shipped scenario called ``name`` (``UsageError`` naming the choices otherwise)."""
    from appmodel.errors import UsageError

    scenarios = shipped_scenarios()
    wanted = name.strip().lower().replace("_", "-").removesuffix(".toml")
    for s in scenarios:
        if wanted in (s.name, s.path.stem.replace("_", "-")):
            return s
    names = [s.name for s in scenarios]
    close = difflib.get_close_matches(wanted, names, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise UsageError(f"no shipped scenario {name!r}; {hint}the scenarios are {', '.join(names)} (sandtable scenarios lists them)")


def copy_shipped(name: str, folder: str | Path) -> Path:
    """Copy shipped scenario ``name`` into ``folder``; an existing file is never overwritten."""
    from appmodel.errors import UsageError

    scenario = find_shipped(name)
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"--copy {name} {folder}: folder {str(folder)!r} does not exist; create it first")
    target = folder / scenario.path.name
    if target.exists():
        raise UsageError(f"{target} already exists; rename it or copy into another folder (your edits are never overwritten)")
    shutil.copyfile(scenario.path, target)
    return target
