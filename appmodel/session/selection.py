"""What is selected on the map: a unit, one of its weapons, and where a blast is shown.

A frozen value and the rules for changing it, worked out from names the caller looks up (the
unit's name, its weapons' names), so it needs no ruleset: selecting a unit keeps its weapon when
the unit stays selected, else takes its first; a weapon it does not have is refused by name.

>>> s = Selection().with_unit(7, None, unit_name="Sgt. Ruiz", weapon_names=["M4", "M203"])
>>> s.weapon
'M4'
>>> s.with_unit(7, "M203", unit_name="Sgt. Ruiz", weapon_names=["M4", "M203"]).weapon
'M203'
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from appmodel.errors import UsageError

XY = tuple[float, float]


@dataclass(frozen=True)
class Selection:
    """The selected unit (None: nothing), its selected weapon, and the blast point the map shows."""

    unit_id: int | None = None
    weapon: str | None = None
    blast_point: XY | None = None

    def with_unit(self, unit_id: int | None, weapon: str | None, *, unit_name: str = "",
                  weapon_names: Sequence[str] = ()) -> "Selection":
        """``unit_id`` selected with ``weapon`` (by default the weapon it had if it stays selected,
        else its first); None clears the unit and its weapon, the blast point stays."""
        if unit_id is None:
            return replace(self, unit_id=None, weapon=None)
        if weapon is not None and weapon not in weapon_names:
            raise UsageError(f"{unit_name} has no weapon {weapon!r}: it has {', '.join(weapon_names) or 'none'}")
        weapon = weapon or (self.weapon if self.weapon in weapon_names and unit_id == self.unit_id else None) \
            or (weapon_names[0] if weapon_names else None)
        return replace(self, unit_id=unit_id, weapon=weapon)

    def with_blast_point(self, point: XY | None) -> "Selection":
        return replace(self, blast_point=None if point is None else (float(point[0]), float(point[1])))

    @staticmethod
    def restored(unit_id: int | None, weapon: str | None, blast_point: XY | None, *,
                 unit_ids: Collection[int], weapon_names: Sequence[str]) -> "Selection":
        """The selection a recording kept, against the game as it is: a unit no longer in the game is
        dropped, a weapon the unit no longer has falls back to its first."""
        unit = unit_id if unit_id in unit_ids else None
        kept = weapon if weapon in weapon_names else (weapon_names[0] if weapon_names and unit is not None else None)
        return Selection(unit, kept, tuple(blast_point) if blast_point else None)  # type: ignore[arg-type]  # a recorded blast point is a 2-list; tuple() of it is typed tuple[float, ...]
