"""Exposure: how long each unit stood where an enemy weapon could reach it, and where on the table.

What small-unit tactics teaches (cover, concealment, exposure) measured from the recording with the
rules' own geometry: at moments spread over the game (``max_samples`` at most, ``min_step_s`` apart at
least) the replay puts every unit where the tracker saw it, and the ruleset's target proposal — the
same one the window's attack panel shows — says, for every enemy unit and each of its weapons, whether
the unit is in range and the weapon can hurt it. The facing is not held against the shooter (a unit
turns to fire: the 45-degree fan of an automatic weapon is left out). Line of sight is the window's:
over the recording's scanned relief when the session has one (``rules.terrain_sight``, eyes
``EYE_HEIGHT_IN`` over the ground at both ends, as the window's sight lines), else a flat table where
nothing blocks it (the players judge sight): the report says which.

    exposure = exposure_of("game.sqlite", facts)
    exposure.units[0].exposed_s, exposure.line_of_sight
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: Exposure is sampled this often at most, and at most this many times for a whole game.
MIN_STEP_S = 1.0
MAX_SAMPLES = 150
#: Heat-map cells, inches.
CELL_IN = 2.0


@dataclass(frozen=True)
class UnitExposure:
    """One unit's exposure: seconds on the table and seconds within reach of an enemy weapon, and the
    enemy unit that had it in reach the longest."""

    tag_id: int
    name: str
    side: str
    on_table_s: float
    exposed_s: float
    most_from: str = ""

    @property
    def share(self) -> float:
        """Exposed time as a fraction of the time on the table (0 when never on it)."""
        return self.exposed_s / self.on_table_s if self.on_table_s > 0 else 0.0


@dataclass(frozen=True)
class Exposure:
    """Exposure over a game: per unit, and per side as heat maps of the table (seconds per cell)."""

    step_s: float
    samples: int
    line_of_sight: str
    units: tuple[UnitExposure, ...]
    cell_in: float
    #: Per side: (rows, columns) grid of unit-seconds exposed in each cell (row 0 at y = 0).
    exposed_grid: dict[str, np.ndarray]


def exposure_of(recording: str | Path, facts: Any, *, max_samples: int = MAX_SAMPLES, min_step_s: float = MIN_STEP_S,
                progress: Callable[[int, int], None] | None = None, reference: bool = False,
                replay: Any = None) -> Exposure | None:
    """The exposure of ``recording`` (None when the recording has no game to replay). ``reference``:
    ask the rules about every pair at every moment (the slow way the fast one is tested against);
    ``replay``: the recording already opened for replay (an ``appmodel.replay_model.ReplayModel``,
    left open), else it is opened here."""
    from appmodel.replay_model import ReplayModel

    reach = _reached_reference if reference else _Reach()
    if replay is not None:
        return _exposure(replay, facts, max_samples, min_step_s, progress, reach)
    try:
        opened = ReplayModel(recording)
    except (ValueError, OSError):
        return None
    try:
        return _exposure(opened, facts, max_samples, min_step_s, progress, reach)
    finally:
        opened.close()


#: Who reaches whom at one moment: ``reach(ruleset, state, units, ground) -> {target id: attacker name}``.
Reach = Callable[[Any, Any, list[Any], Any], dict[int, str]]


def _exposure(replay: Any, facts: Any, max_samples: int, min_step_s: float,
              progress: Callable[[int, int], None] | None, reach: Reach) -> Exposure:
    ruleset = replay.session.ruleset
    duration = float(replay.duration_s)
    step = max(min_step_s, duration / max_samples) if duration > 0 else min_step_s
    times = np.arange(0.0, duration + 1e-9, step) if duration > 0 else np.zeros(1)
    width, depth = facts.table_size_in
    shape = (max(1, int(np.ceil(depth / CELL_IN))), max(1, int(np.ceil(width / CELL_IN))))
    grids: dict[str, np.ndarray] = {}
    on_table: dict[int, float] = {}
    exposed: dict[int, float] = {}
    by_whom: dict[int, dict[str, float]] = {}
    names: dict[int, tuple[str, str]] = {}
    ground = getattr(replay.session, "ground", None)
    for k, t in enumerate(times):
        state = replay.state_at(float(t))
        units = [u for u in ruleset.units(state) if u.on_table and u.status == "active"]
        for u in units:
            names[u.unit_id] = (u.name, u.side)
            on_table[u.unit_id] = on_table.get(u.unit_id, 0.0) + step
        reached = reach(ruleset, state, units, ground)
        for u in units:
            if u.unit_id not in reached:
                continue
            exposed[u.unit_id] = exposed.get(u.unit_id, 0.0) + step
            whom = by_whom.setdefault(u.unit_id, {})
            whom[reached[u.unit_id]] = whom.get(reached[u.unit_id], 0.0) + step
            grid = grids.setdefault(u.side, np.zeros(shape))
            row, col = int(u.y_in // CELL_IN), int(u.x_in // CELL_IN)
            if 0 <= row < shape[0] and 0 <= col < shape[1]:
                grid[row, col] += step
        if progress is not None:
            progress(k + 1, len(times))
    rows = []
    for uid in sorted(on_table):
        name, side = names[uid]
        whom = by_whom.get(uid, {})
        rows.append(UnitExposure(uid, name, side, round(on_table[uid], 3), round(exposed.get(uid, 0.0), 3),
                                 max(whom, key=lambda n: whom[n]) if whom else ""))
    return Exposure(step, len(times), line_of_sight(replay), tuple(rows), CELL_IN, grids)


def _reached_reference(ruleset: Any, state: Any, units: list[Any], ground: Any) -> dict[int, str]:
    """Who reaches whom, asking the rules' target proposal for every unit and weapon (the window's
    attack panel): each target with the first enemy (in the roster's order) that reaches and sees it."""
    reached: dict[int, str] = {}
    where = {u.unit_id: u for u in units}
    for a in units:
        for w in ruleset.weapons(state, a.unit_id):
            try:
                proposals = ruleset.propose_targets(state, a.unit_id, w.name)
            except (ValueError, KeyError):
                continue  # a weapon the rules cannot aim now (out of ammunition...) reaches nobody
            for p in proposals:
                if p.side != a.side and p.in_range and p.can_damage and p.unit_id not in reached \
                        and (ground is None or _sees(ground, a, where.get(p.unit_id))):
                    reached[p.unit_id] = a.name
    return reached


#: A pair of round bases whose centres are this close to the weapon's reach is asked of the rules
#: rather than decided by the arithmetic (rounding at the exact edge of Range, as in the rules' tables).
EDGE_IN = 1e-6


class _Reach:
    """Who reaches whom, as :func:`_reached_reference` says, without asking the rules at every moment.

    What the rules' proposal says of a pair of units (can the weapon hurt the target; how far its
    measure is from the bases' centres) changes only with what the units are, not with where they stand:
    it is asked once per pair and weapon and asked again when either unit changes in anything but its
    place (its status, tokens, weapons, ammunition left). Between two round bases the rules' distance
    is the centres' distance less a constant (the radii, base to base; nothing, centre to centre), so
    range is then a numpy comparison over every pair at once; a pair of another shape (a vehicle's
    oriented rectangle), or one at the very edge of the range, is asked of the rules each moment."""

    def __init__(self) -> None:
        # (attacker id, weapon, attacker's kind) -> (targets' kinds, {target: (offset or None, can damage)}), or None: no aim
        self._known: dict[tuple[Any, ...], Any] = {}

    def __call__(self, ruleset: Any, state: Any, units: list[Any], ground: Any) -> dict[int, str]:
        from rules.geometry import Circle

        reached: dict[int, str] = {}
        if not units:
            return reached
        where = {u.unit_id: u for u in units}
        kinds = {u.unit_id: _kind(u) for u in units}
        index = {u.unit_id: i for i, u in enumerate(units)}
        xy = np.array([(u.x_in, u.y_in) for u in units], dtype=np.float64)
        centres = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
        for a in units:
            enemies = [u for u in units if u.side != a.side]
            if not enemies or all(u.unit_id in reached for u in enemies):
                continue
            for w in ruleset.weapons(state, a.unit_id):
                key = (a.unit_id, w, kinds[a.unit_id])
                known = self._known.get(key, ())
                if known is not None and (not known or any(known[0].get(u.unit_id) != kinds[u.unit_id] for u in enemies)):
                    known = self._ask(ruleset, state, a, w, units, key)
                if known is None:
                    continue  # a weapon the rules cannot aim now reaches nobody
                pairs = known[1]
                asked: dict[int, bool] | None = None
                for b in enemies:
                    if b.unit_id in reached:
                        continue
                    offset, damages = pairs.get(b.unit_id, (None, False))
                    if not damages:
                        continue
                    d = float(centres[index[a.unit_id], index[b.unit_id]])
                    if offset is not None and isinstance(a.footprint, Circle) and isinstance(b.footprint, Circle) \
                            and abs(d - offset - w.range_in) > EDGE_IN:
                        in_range = d - offset <= w.range_in
                    else:
                        if asked is None:
                            asked = self._in_range_now(ruleset, state, a, w)
                        in_range = asked.get(b.unit_id, False)
                    if in_range and (ground is None or _sees(ground, a, where.get(b.unit_id))):
                        reached[b.unit_id] = a.name
        return reached

    def _ask(self, ruleset: Any, state: Any, a: Any, w: Any, units: list[Any], key: tuple[Any, ...]) -> Any:
        try:
            proposals = ruleset.propose_targets(state, a.unit_id, w.name)
        except (ValueError, KeyError):
            self._known[key] = None
            return None
        where = {u.unit_id: u for u in units}
        pairs: dict[int, tuple[float | None, bool]] = {}
        seen: dict[int, Any] = {}
        for p in proposals:
            b = where.get(p.unit_id)
            if b is None:
                continue
            seen[p.unit_id] = _kind(b)
            d = float(np.hypot(a.x_in - b.x_in, a.y_in - b.y_in))
            # Touching bases measure 0 whatever the radii: the constant is learnt from a pair apart.
            offset = d - float(p.distance_in) if p.distance_in > 0 else None
            pairs[p.unit_id] = (offset, bool(p.can_damage))
        known = (seen, pairs)
        self._known[key] = known
        return known

    @staticmethod
    def _in_range_now(ruleset: Any, state: Any, a: Any, w: Any) -> dict[int, bool]:
        try:
            return {p.unit_id: bool(p.in_range) for p in ruleset.propose_targets(state, a.unit_id, w.name)}
        except (ValueError, KeyError):
            return {}


def _kind(u: Any) -> tuple[Any, ...]:
    """What a unit is, apart from where it stands (what the rules' proposal may depend on)."""
    from dataclasses import fields

    footprint = u.footprint
    shape = tuple(getattr(footprint, f.name) for f in fields(footprint) if f.name not in ("x_in", "y_in", "heading_deg"))
    return (type(footprint).__name__, shape, *(getattr(u, f.name) for f in fields(u)
                                               if f.name not in ("x_in", "y_in", "heading_deg", "footprint")))


def _sees(ground: Any, a: Any, b: Any) -> bool:
    """Whether the ground leaves the sight line between two units' eyes clear (the window's check)."""
    if b is None:
        return False
    from appmodel.overlays.shared import EYE_HEIGHT_IN
    from rules.terrain_sight import sight_over_ground

    za = float(ground.height_at(a.x_in, a.y_in)) + EYE_HEIGHT_IN
    zb = float(ground.height_at(b.x_in, b.y_in)) + EYE_HEIGHT_IN
    return bool(sight_over_ground(ground, (a.x_in, a.y_in), za, (b.x_in, b.y_in), zb).clear)


def line_of_sight(replay: Any) -> str:
    """What the exposure's line of sight assumed, in a sentence."""
    from appmodel.overlays.shared import EYE_HEIGHT_IN

    if getattr(replay.session, "ground", None) is not None:
        return (f"over the recording's scanned relief, eyes {EYE_HEIGHT_IN:g}\" over the ground at both ends "
                "(as the window's sight lines)")
    return "a flat table (no scanned relief in this recording): nothing blocks sight, so eye heights do not matter"


__all__ = ["CELL_IN", "Exposure", "UnitExposure", "exposure_of", "line_of_sight"]
