"""What the views draw at one moment: :class:`Snapshot`, and :class:`SnapshotInputs`, what it is built from.

The session captures the inputs on its own thread (immutable values, and the lock-guarded lazy attack
analysis); building them asks the rules for the shapes and may run on a view's worker thread. The
snapshot is the one object the compositor, the overlays, the panels and the class view read.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from appmodel.session.attack_analysis import AttackAnalysis
from appmodel.session.attacks import AttackDraft, MissMarker
from appmodel.session.tape import TapeMeasure
from rules.errors import RulesError
from rules.geometry import units_in_blast
from rules.ruleset import OddsLegend, Overlay, Ruleset, TargetOdds, TargetProposal, UnitView, \
    WeaponView

XY = tuple[float, float]


@dataclass(frozen=True)
class Snapshot:
    """Everything a view draws at one moment, immutable (the compositor and the overlays read it)."""

    version: int
    state: Any
    ruleset: Ruleset
    units: tuple[UnitView, ...]
    table_size_in: XY
    side_colors: Mapping[str, str]
    radio_units: frozenset[int]
    selected_unit: int | None
    selected_weapon: str | None
    weapons: tuple[WeaponView, ...]
    overlays: tuple[Overlay, ...]
    blast_point: XY | None
    blast_radius_in: float | None
    blast_caught: tuple[int, ...]
    tape: TapeMeasure | None
    draft: AttackDraft | None
    analysis: AttackAnalysis
    miss: MissMarker | None
    t_s: float
    #: The templates players placed (appmodel.overlays.placed_templates.TemplateBoard), or None.
    templates: Any = None
    #: The ground's heights (rules.terrain_sight.Ground: the scanned relief) when known, else None.
    ground: Any = None
    #: The sand as a map (appmodel.overlays.sand_map_model.SandMap: target terrain, symbols, contour settings), or None.
    sand: Any = None

    @property
    def proposals(self) -> tuple[TargetProposal, ...]:
        """Every unit the geometry allows (or not) as a target of the draft (computed on first use)."""
        return self.analysis.proposals

    @property
    def odds(self) -> tuple[TargetOdds, ...]:
        """Exact odds per ticked target of the draft (computed on first use)."""
        return self.analysis.odds

    @property
    def odds_error(self) -> str:
        return self.analysis.error

    @property
    def odds_legend(self) -> OddsLegend:
        """What the draft's odds mean in this ruleset (the words of the panel's columns and the table's labels)."""
        return self.analysis.legend

    def unit(self, unit_id: int) -> UnitView | None:
        for u in self.units:
            if u.unit_id == unit_id:
                return u
        return None

    def color_of(self, side: str | None) -> str:
        return self.side_colors.get(side or "", "#dddddd")

    def weapon(self, name: str | None) -> WeaponView | None:
        for w in self.weapons:
            if w.name == name:
                return w
        return None


@dataclass(frozen=True)
class SnapshotInputs:
    """What a :class:`Snapshot` is made from, captured on the session's thread (every field is an
    immutable value or, for ``analysis``, a lock-guarded lazy one); :meth:`build` asks the rules for
    the shapes and may run on any thread."""

    version: int
    state: Any
    ruleset: Ruleset
    units: tuple[UnitView, ...] | None  # the units of ``state`` if already known
    table_size_in: XY
    side_colors: Mapping[str, str]
    radio_units: frozenset[int]
    selected_unit: int | None
    selected_weapon: str | None
    blast_point: XY | None
    tape: TapeMeasure | None
    draft: AttackDraft | None
    analysis: AttackAnalysis
    miss: MissMarker | None
    t_s: float
    templates: Any = None
    ground: Any = None
    sand: Any = None
    #: The snapshot, once built: every view's worker is handed the same inputs for a game change
    #: (``GameSession.snapshot_inputs``), so the rules are asked once, not once per view.
    _built: _Once = field(init=False, compare=False, repr=False, default_factory=lambda: _Once())

    def build(self) -> Snapshot:
        """The snapshot: the units as the rules show them, the selected unit's shapes and every side's
        table-wide ones, who a blast point catches. Built once; a second caller (another view's
        worker) waits for the first one's."""
        return self._built.get(self._build)

    def _build(self) -> Snapshot:
        ruleset, state = self.ruleset, self.state
        units = self.units if self.units is not None else ruleset.units(state)
        weapons: tuple[WeaponView, ...] = ()
        overlays: list[Overlay] = []
        sel = self.selected_unit
        on_table = {u.unit_id: u for u in units if u.on_table}
        if sel is not None:
            weapons = ruleset.weapons(state, sel)
            if sel in on_table:
                overlays += ruleset.overlays(state, sel, weapon=self.selected_weapon)
        # Table-wide overlays (voice chains of every side, jamming, smoke...) come with any unit's
        # overlays(); one call per side that the selection does not already cover.
        per_unit = ("range", "movement", "fan", "blast reach", "signal")
        shown_sides = {on_table[sel].side} if sel in on_table else set()
        for u in units:
            if u.on_table and u.status == "active" and u.side not in shown_sides:
                shown_sides.add(u.side)
                overlays += [o for o in ruleset.overlays(state, u.unit_id) if o.kind not in per_unit]
        draft = self.draft
        if draft is not None and draft.attacker_id in on_table and (draft.attacker_id, draft.weapon) != (sel, self.selected_weapon):
            # The attack panel's templates stand on their own: the attacker's range, fan and blast reach
            # stay drawn whatever is selected on the map (a click on empty table clears only the selection).
            overlays += [o for o in ruleset.overlays(state, draft.attacker_id, weapon=draft.weapon)
                         if o.kind in ("range", "fan", "blast reach")]
        if self.draft is not None:
            # Shapes of the attack being set up (another ruleset's line of fire, where a miss may land).
            try:
                overlays += ruleset.attack_overlays(state, self.draft.request())
            except (RulesError, ValueError):
                pass
        overlays = _dedupe_table_overlays(overlays)
        radius = None
        caught: tuple[int, ...] = ()
        w = next((x for x in weapons if x.name == self.selected_weapon), None)
        if self.blast_point is not None:
            radius = w.radius_in if w is not None and w.radius_in else None
            if not radius and draft is not None and draft.aim_point is not None:
                # The aim point's blast comes from the attack set up, not from what the map has selected.
                dw = next((x for x in ruleset.weapons(state, draft.attacker_id) if x.name == draft.weapon), None)
                radius = dw.radius_in if dw is not None and dw.radius_in else None
            if radius:
                caught = units_in_blast(self.blast_point, radius,
                                        {u.unit_id: u.footprint for u in units if u.on_table and u.status == "active"})
        return Snapshot(
            self.version, state, ruleset, units, self.table_size_in, dict(self.side_colors), self.radio_units, sel,
            self.selected_weapon, weapons, tuple(overlays), self.blast_point, radius, caught, self.tape, self.draft,
            self.analysis, self.miss, self.t_s, templates=self.templates, ground=self.ground, sand=self.sand)


class _Once:
    """A value computed by the first caller; callers meanwhile wait for it (mutable, thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._value: Any = None
        self._done = False

    def get(self, compute: Callable[[], Snapshot]) -> Snapshot:
        with self._lock:  # a failed build is not kept: the next caller tries again
            if not self._done:
                self._value, self._done = compute(), True
            value: Snapshot = self._value
            return value


def _dedupe_table_overlays(overlays: Sequence[Overlay]) -> list[Overlay]:
    """The same table-wide overlay (a jamming zone, a smoke cloud) comes back from each overlays() call."""
    seen: set[tuple[str, Any]] = set()
    out = []
    for o in overlays:
        key = (o.kind, o.side if o.kind == "voice" else repr(o.shape))
        if key in seen:
            continue
        seen.add(key)
        out.append(o)
    return out
