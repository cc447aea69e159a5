"""Checking a scenario file through every layer that reads it, so a typo shows up before the game.

Each layer validates its own part and names the file, the entry and the field (with a "did you mean"
for unknown names): the tracker the roster, the rules the units' types, weapons, equipment and
options, calibration the table, terrain and synthetic camera. ``check_scenario`` runs them all and
raises the first problem as that layer's error (one line on the command line:
``sandtable scenarios --check FILE``).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ScenarioCheck:
    """What a scenario that passed holds."""

    path: Path
    name: str
    ruleset: str
    units: int
    sides: tuple[str, ...]
    table_in: tuple[float, float]
    synthetic_frames: int | None  # frames of its synthetic clip, None without [simulation]


def has_rules_part(data: dict[str, object]) -> bool:
    """Whether a parsed scenario says anything to the rules: a ``ruleset``, ``[rules]`` options, or a unit
    field other than the tracker's (type, weapons...). A file of tag ids and names alone does not."""
    from tracker.roster import ROSTER_KEYS

    units = data.get("units", [])
    return ("ruleset" in data or "rules" in data
            or any(isinstance(u, dict) and set(u) - ROSTER_KEYS - {"path"} for u in (units if isinstance(units, list) else [])))


def check_scenario(path: str | Path, *, rules: bool | None = True) -> ScenarioCheck:
    """Read ``path`` as the tracker, the rules and the table would; raises the first problem found.

    ``rules=None`` reads the rules' part only when the file has one (:func:`has_rules_part`): tracking
    needs only which tag is which unit, so a scenario of tag ids and names is not asked for sides and
    unit types; a scenario that does give them is checked as ``scenarios --check`` does (one path)."""
    from calibration.table_setup import load_table_setup
    from rules.ruleset import DEFAULT_RULESET, get_ruleset
    from tracker.roster import load_roster

    p = Path(path)
    roster = load_roster(p)  # file, TOML syntax, format, version, tag ids, sides, roster fields
    data = tomllib.loads(p.read_text(encoding="utf-8"))
    ruleset_name = str(data.get("ruleset", DEFAULT_RULESET))
    if rules is None:
        rules = has_rules_part(data)
    game = get_ruleset(ruleset_name).new_game(data, source=str(p), base_dir=str(p.parent)) if rules else None
    setup = load_table_setup(p)
    frames = None
    if "simulation" in data:
        from calibration.synthetic import load_synthetic_scenario

        frames = load_synthetic_scenario(p).frame_count
    sides = tuple(dict.fromkeys(u.side for u in roster.units))
    from appmodel.session.review_topics import review_topics

    review_topics(data)  # a topic naming an unknown unit or kind is refused before play, not at the debrief
    del game  # built only to validate the rules' part
    return ScenarioCheck(p, str(data.get("name", p.stem)), ruleset_name, len(roster.units), sides,
                         (setup.layout.width_in, setup.layout.depth_in), frames)
