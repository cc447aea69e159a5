"""The sand as a map (issue 31): contour lines and elevation tints, the selected unit's viewshed, the
sculpting guidance against the target terrain, and military symbols for the units. Qt-free builders
of :class:`~appmodel.overlays.draw_item.DrawItem` values, drawn by the same painter as every other
overlay in the window's views and on the projector.

The reliefs come from the snapshot: ``snap.ground`` (the scanned sand, a
:class:`rules.terrain_sight.Ground`) and ``snap.sand`` (:class:`appmodel.overlays.sand_map_model.SandMap`: the
scenario's target terrain and the settings). Per-cell pictures (a viewshed, the guidance, the tints)
are ``marker="raster"`` items: one RGBA pixel per grid node, stretched over the cells' rectangle.

What is slow is remembered by value, across views and frames: a relief's contour lines (by the relief
and the interval), a unit's viewshed (by the relief, the unit's position, its eye height and range),
the guidance (by both reliefs). Selecting a unit again, or a second view drawing the same unit, costs
a dictionary look-up.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from appmodel.overlays.draw_item import NO_MEMO, DrawItem, pts
from appmodel.overlays.draw_memo import DrawMemo
from appmodel.overlays.sand_map_model import NO_SAND_MAP, SandMap
from appmodel.session.snapshot import Snapshot
from rules.terrain_sight import Ground
from rules.viewshed import Sight, Viewshed, viewshed

#: Contour lines shorter than this are a grain's ripple, not ground, inches.
MIN_CONTOUR_IN = 3.0
#: Levels this close over the table plane (the lowest 5% of the relief) are not drawn, inches.
FLAT_MARGIN_IN = 0.05
#: Contour lines: light tan, so the projector lights them on the sand (black is no light), index lines heavier.
CONTOUR_COLOR = "#ffe3a8"
#: The target's contour lines over the sculpting guidance (which is white where the sand matches).
TARGET_CONTOUR_COLOR = "#202020"
#: Viewshed shading (RGBA): seen ground lightly green, cover amber, hidden ground dark red.
SEEN_RGBA = (60, 200, 90, 70)
COVER_RGBA = (255, 176, 0, 120)
HIDDEN_RGBA = (120, 0, 20, 150)
#: The sculpting guidance's opacity in the window (the projector's light is the colour itself).
GUIDANCE_ALPHA = 200
TINT_ALPHA = 110
#: Eyes over the ground for a viewshed, and the height of the figure it must see, inches.
EYE_HEIGHT_IN = 1.0
TARGET_HEIGHT_IN = 1.0
#: The viewshed's reach when the unit has no weapon with a range, inches.
DEFAULT_SIGHT_RANGE_IN = 24.0


def _sand(snap: Snapshot) -> SandMap:
    return snap.sand if isinstance(snap.sand, SandMap) else NO_SAND_MAP


def raster_item(layer: str, key: Any, rgba: np.ndarray, cell_in: float, origin_rc: tuple[int, int] = (0, 0)) -> DrawItem:
    """A per-node picture: pixel (r, c) of ``rgba`` is the node at row ``origin_rc[0] + r``, column
    ``origin_rc[1] + c`` of a grid of ``cell_in`` (each pixel covers the cell centred on its node)."""
    rows, cols = rgba.shape[:2]
    r0, c0 = origin_rc
    x0, y0 = (c0 - 0.5) * cell_in, (r0 - 0.5) * cell_in
    x1, y1 = (c0 + cols - 0.5) * cell_in, (r0 + rows - 0.5) * cell_in
    return DrawItem(layer, key, pts([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), "#000000", closed=True, width_px=0.0,
                    marker="raster", raster=rgba, units=None)


# -- contours -------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=16)
def _contour_lines(ground: Ground, interval_in: float, base_in: float, label: Callable[[float], str] | None) -> tuple[Any, ...]:
    from calibration.contours import contour_lines

    kw: dict[str, Any] = {"interval_in": interval_in, "base_in": base_in, "min_length_in": MIN_CONTOUR_IN}
    if label is not None:
        kw["label"] = label
    h: Any = ground.heights_in
    # The scan's grain (0.01") would draw a maze of loops where a level runs along flat sand: a light
    # smoothing (3x3 mean, twice) for the lines only, and no line on the table plane itself.
    for _ in range(2):
        p = np.pad(h, 1, mode="edge")
        h = sum(p[1 + dr:p.shape[0] - 1 + dr, 1 + dc:p.shape[1] - 1 + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)) / 9.0
    plane = float(np.percentile(h, 5)) + FLAT_MARGIN_IN
    return tuple(line for line in contour_lines(h, ground.cell_in, **kw) if line.level_in > plane)


@functools.lru_cache(maxsize=8)
def _target_label(target: Any, interval_m: float) -> tuple[float, float, Callable[[float], str]]:
    opts = target.contour_options(interval_m)
    return opts["interval_in"], opts["base_in"], opts["label"]


def contour_lines_for(ground: Ground, sand: SandMap, *, of_target: bool) -> tuple[Any, ...]:
    """The contour lines of ``ground`` at the map's interval: in the target's metres when the target
    has a scale and the settings give ``contour_interval_m`` (the scanned sand too: shaped to the map,
    its heights are the map's elevations at the same scales), else every ``contour_interval_in``."""
    if sand.target is not None and sand.contour_interval_m and (of_target or sand.in_map_units):
        interval, base, label = _target_label(sand.target, float(sand.contour_interval_m))
        return _contour_lines(ground, interval, base, label)
    return _contour_lines(ground, float(sand.contour_interval_in), 0.0, None)


def contour_line_items(lines: Sequence[Any], layer: str, color: str, tag: Any) -> list[DrawItem]:
    out = []
    for k, line in enumerate(lines):
        out.append(DrawItem(layer, (layer, tag, k), line.points_in, color, closed=line.closed,
                            width_px=2.2 if line.index else 1.1,
                            label=line.label if line.index or len(lines) <= 12 else "",
                            text_in=line.label_xy_in, text_color="#f3e3c3", units=None))
    return out


def contour_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Contour lines (index lines heavier and labelled) of the scanned relief, else of the target;
    with ``tints``, elevation tints under them."""
    sand = _sand(snap)
    ground, of_target = sand.contour_ground(snap.ground)
    if ground is None:
        return []
    out = []
    if sand.tints:
        out.append(memo.get(("tints", id(ground)), lambda: _tint_item(ground)))
    lines = contour_lines_for(ground, sand, of_target=of_target)
    tag = (id(ground), sand.contour_interval_in, sand.contour_interval_m, of_target)
    out += memo.get(("contours", tag), lambda: contour_line_items(lines, "contours", CONTOUR_COLOR, tag))
    return out


def _tint_item(ground: Ground) -> DrawItem:
    from calibration.contours import elevation_tints

    rgb = elevation_tints(ground.heights_in)
    rgba = np.dstack([rgb, np.full(rgb.shape[:2], TINT_ALPHA, np.uint8)])
    return raster_item("contours", ("tints", id(ground)), rgba, ground.cell_in)


# -- viewshed -------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def unit_viewshed(ground: Ground, x_in: float, y_in: float, range_in: float | None,
                  eye_height_in: float = EYE_HEIGHT_IN, target_height_in: float = TARGET_HEIGHT_IN) -> Viewshed:
    """The viewshed of a unit standing at (x_in, y_in), remembered by its pose and the relief (a
    Ground is compared by identity: a new scan is a new relief)."""
    return viewshed(ground, (x_in, y_in), eye_height_in=eye_height_in, target_height_in=target_height_in,
                    range_in=range_in)


def sight_range_in(snap: Snapshot, unit_id: int) -> float:
    """How far the viewshed reaches: the unit's weapons' longest range (the selected unit's weapons
    are in the snapshot), else :data:`DEFAULT_SIGHT_RANGE_IN`."""
    ranges = [w.range_in for w in snap.weapons if w.range_in and math.isfinite(w.range_in)] \
        if snap.selected_unit == unit_id else []
    return max(ranges) if ranges else DEFAULT_SIGHT_RANGE_IN


def viewshed_rgba(v: Viewshed) -> tuple[np.ndarray, tuple[int, int]]:
    """The viewshed's shading cut to the nodes within range: (RGBA, (first row, first column))."""
    inside = np.argwhere(v.sight != Sight.OUT_OF_RANGE)
    if not len(inside):
        return np.zeros((0, 0, 4), np.uint8), (0, 0)
    (r0, c0), (r1, c1) = inside.min(axis=0), inside.max(axis=0) + 1
    s = v.sight[r0:r1, c0:c1]
    rgba = np.zeros(s.shape + (4,), np.uint8)
    rgba[s == Sight.SEEN] = SEEN_RGBA
    rgba[s == Sight.COVER] = COVER_RGBA
    rgba[s == Sight.HIDDEN] = HIDDEN_RGBA
    return rgba, (int(r0), int(c0))


def viewshed_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """The selected unit's viewshed over the scanned sand (else the target): seen, cover and hidden
    ground within its weapons' longest range, for a figure's eyes and a figure's height."""
    if snap.selected_unit is None:
        return []
    u = snap.unit(snap.selected_unit)
    ground = _sand(snap).sight_ground(snap.ground)
    if u is None or not u.on_table or ground is None or u.counter_only:
        return []
    reach = sight_range_in(snap, u.unit_id)
    key = ("viewshed", id(ground), round(u.x_in, 2), round(u.y_in, 2), reach)

    def make() -> list[DrawItem]:
        v = unit_viewshed(ground, round(u.x_in, 2), round(u.y_in, 2), reach)
        rgba, origin = viewshed_rgba(v)
        return [raster_item("viewshed", key, rgba, v.cell_in, origin)] if rgba.size else []

    return memo.get(key, make)


# -- sculpting guidance ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def _guidance(sand_ground: Ground, sand: SandMap) -> tuple[np.ndarray, Any]:
    """The guidance's RGBA and the match score, remembered by the scan and the SandMap (both compared
    by identity: a new scan or new settings compute again)."""
    from calibration.sculpting import guidance_colours, match_score

    assert sand.target_ground is not None
    sand_h, target_h = _same_grid(sand_ground, sand.target_ground)
    covered = sand.target_covered
    unknown = None if covered is None else ~_crop(np.asarray(covered, bool), sand_h.shape)
    rgb = guidance_colours(target_h - sand_h, deadband_in=sand.deadband_in, saturation_in=sand.saturation_in,
                           unknown=unknown)
    alpha = np.where(rgb.any(axis=-1), GUIDANCE_ALPHA, 0).astype(np.uint8)
    score = match_score(sand_h, target_h, tolerance_in=sand.tolerance_in, mask=None if unknown is None else ~unknown,
                        cell_in=sand_ground.cell_in)
    return np.dstack([rgb, alpha]), score


def _crop(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return a[:shape[0], :shape[1]]


def _same_grid(sand: Ground, target: Ground) -> tuple[np.ndarray, np.ndarray]:
    """Both reliefs on the scan's grid (the target sampled at the scan's nodes)."""
    rows, cols = sand.heights_in.shape
    if target.cell_in == sand.cell_in and target.heights_in.shape[0] >= rows and target.heights_in.shape[1] >= cols:
        return sand.heights_in, target.heights_in[:rows, :cols]
    yy, xx = np.mgrid[0:rows, 0:cols] * sand.cell_in
    return sand.heights_in, target.height_at(xx, yy)


def sculpting_score(snap: Snapshot) -> Any:
    """The match score of the scanned sand against the target (calibration.sculpting.MatchScore), or
    None without both: for the window's status strip."""
    return match_score_of(snap.ground, _sand(snap))


def match_score_of(ground: Ground | None, sand: Any) -> Any:
    """The match score of a scanned ``ground`` against ``sand``'s target (cached), or None without both."""
    if ground is None or not isinstance(sand, SandMap) or sand.target_ground is None:
        return None
    return _guidance(ground, sand)[1]


def sculpting_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """How much sand to add (blue) or remove (red) at each cell to match the target (white where it
    does), the target's contour lines over it, and the match score in the table's near-left corner."""
    sand = _sand(snap)
    target = sand.target_ground
    if snap.ground is None or target is None:
        return []
    ground = snap.ground
    tag = (id(ground), id(target), sand.deadband_in, sand.saturation_in, sand.tolerance_in)
    rgba, score = _guidance(ground, sand)
    out = [memo.get(("guidance", tag), lambda: raster_item("sculpting", ("guidance", tag), rgba, ground.cell_in))]
    lines = contour_lines_for(target, sand, of_target=True)
    out += memo.get(("target contours", tag), lambda: contour_line_items(lines, "sculpting", TARGET_CONTOUR_COLOR, tag))
    out.append(DrawItem("sculpting", ("match score", tag), np.zeros((0, 2)), "#ffffff",
                        label=f"Sand vs target: {score.summary()}", text_in=(1.0, 1.0), priority=91, units=None))
    return out


# -- military symbols -----------------------------------------------------------------------------
def symbol_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Each unit's MIL-STD-2525 symbol (the rule system's, with the scenario's overrides), centred on
    it; a counter the other side sees only as a counter gets its side's generic symbol."""
    sand = _sand(snap)
    table = sand.symbols
    if table is None:
        return []
    from appmodel.overlays.unit_symbols import unit_symbol

    sides = tuple(snap.side_colors)
    size = float(sand.symbol_size_px)
    out = []
    for u in snap.units:
        if not u.on_table:
            continue
        sidc = table.sidc_for_unit(None if u.counter_only else u.type_name, u.side, sides,
                                   tag_id=None if u.counter_only else u.unit_id)
        sym = unit_symbol(sidc, size_px=size, outline_px=2.0)
        out.append(DrawItem("symbols", ("symbol", u.unit_id, u.x_in, u.y_in, sidc, size), pts([(u.x_in, u.y_in)]),
                            snap.color_of(u.side), width_px=size / 5, marker="symbol", symbol_svg=sym.svg,
                            units=(u.unit_id,), z_in=u.z_in))
    return out
