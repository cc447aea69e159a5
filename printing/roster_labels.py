"""Names to print under unit tags, read from a scenario file's [[units]] (docs/scenario-format.md)."""
from __future__ import annotations

import tomllib
from pathlib import Path

from appmodel.errors import UsageError
from printing.tag_sheets import TagLabel


def roster_labels(path: str | Path, *, default_size_in: float) -> dict[float, list[TagLabel]]:
    """Tag labels of the scenario's units, grouped by tag size (inches)."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"--roster {str(p)!r}: no such file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"--roster {str(p)!r} is not a valid scenario file: {exc}") from None
    units = data.get("units")
    if not isinstance(units, list) or not units:
        raise UsageError(f"--roster {str(p)!r} lists no [[units]]; add units with tag_id and name")
    groups: dict[float, list[TagLabel]] = {}
    seen: set[int] = set()
    for k, u in enumerate(units, start=1):
        if not isinstance(u, dict):
            raise UsageError(f"{p.name} [[units]] #{k}: expected a table of fields")
        tag_id = u.get("tag_id")
        if isinstance(tag_id, bool) or not isinstance(tag_id, int) or not 10 <= tag_id <= 399:
            raise UsageError(f"{p.name} [[units]] #{k}: tag_id = {tag_id!r} must be a whole number from 10 to 399")
        if tag_id in seen:
            raise UsageError(f"{p.name} [[units]] #{k}: tag_id {tag_id} is used twice; give every unit its own tag")
        seen.add(tag_id)
        size = u.get("tag_size_in", default_size_in)
        if isinstance(size, bool) or not isinstance(size, (int, float)) or size <= 0:
            raise UsageError(f"{p.name} [[units]] #{k}: tag_size_in = {size!r} must be a positive number of inches")
        name = u.get("name", "")
        side = u.get("side", "")
        groups.setdefault(float(size), []).append(TagLabel(tag_id, str(name), str(side)))
    return groups
