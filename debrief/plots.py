"""The debrief's pictures, drawn with matplotlib (Agg backend: no display needed) as PNG bytes.

* :func:`table_map` — the table seen from above like a map: every unit's movement trail in its
  side's colour (lifts dashed), engagements as lines from shooter to target coloured by outcome,
  blast circles where explosives landed, casualties crossed out where they fell; with each unit's
  MIL-STD-2525 symbol where it ended, as SVG placed over the picture (:class:`TableMap`).
* :func:`casualties_png` — units out of the fight per side over the session, with the instructor's
  bookmarks marked.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from appmodel.recording.reader import position_at
from debrief.facts import DebriefFacts, EngagementOutcome, ruleset_front_end

#: The outcomes a Down Range attack comes to (its map's legend lists them all).
#: Line styles of engagement outcomes (colour, line style, width) — chosen to stay apart from the
#: side colours (blue/red by default) the trails use.
OUTCOME_STYLE: dict[EngagementOutcome, tuple[str, str, float]] = {
    EngagementOutcome.KILLED: ("#111111", "-", 2.2),
    EngagementOutcome.HIT: ("#e67e22", "-", 1.8),
    EngagementOutcome.MISS: ("#8c8c8c", "--", 1.2),
    EngagementOutcome.SUPPRESSED: ("#8e44ad", ":", 1.8),
    EngagementOutcome.WON: ("#e67e22", "-", 2.0),
    EngagementOutcome.LOST: ("#6c3483", "--", 1.5),
    EngagementOutcome.NO_WINNER: ("#8c8c8c", ":", 1.4),
}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)  # files only; never opens a window, works without a display
    # Unit names and notes are the players' text, never mathematics: "$5 bounty$" must not be parsed
    # as TeX (an unbalanced "$" stops the whole report).
    matplotlib.rcParams["text.parse_math"] = False
    matplotlib.rcParams["text.usetex"] = False
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    _pyplot().close(fig)
    return buffer.getvalue()


#: A unit's symbol on the debrief's map: its height, inches of the 11"-wide figure.
SYMBOL_HEIGHT_IN = 0.27


@dataclass(frozen=True)
class PlacedSymbol:
    """A unit's MIL-STD-2525 symbol over the map picture, standing where the unit ended: its SVG
    (milsymbol's) and its box as fractions of the picture's width and height (left, top, width,
    height), so a page of any size (the HTML report, the PDF) lays it over the picture."""

    tag_id: int
    name: str
    svg: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class TableMap:
    """The map picture and the unit symbols to lay over it (an SVG is drawn by the page itself:
    matplotlib cannot draw one, and the debrief has no SVG rasteriser)."""

    png: bytes
    symbols: tuple[PlacedSymbol, ...] = ()


def table_map_png(facts: DebriefFacts) -> bytes:
    """The table from above with trails, engagements, blasts and casualties (no symbols)."""
    return table_map(facts).png


def table_map(facts: DebriefFacts, *, contour_interval: float | None = None) -> TableMap:
    """The table from above with trails, engagements, blasts and casualties, and each unit's symbol
    where it ended; the target terrain's contours every ``contour_interval`` (the map's metres when it
    has a scale, else table inches; None: the interval the window drew, as the recording keeps it, else
    about ten lines over its relief, as the window opens)."""
    plt = _pyplot()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Rectangle

    width, depth = facts.table_size_in
    (vx0, vx1), (vy0, vy1), _ = _view(facts)
    fig, ax = plt.subplots(figsize=(11, min(14.0, 11 * (vy1 - vy0) / (vx1 - vx0) + 0.8)))
    ax.add_patch(Rectangle((0, 0), width, depth, facecolor="#efe6d2", edgecolor="#6b5b3e", linewidth=1.5, zorder=0))
    step = 6.0 if max(width, depth) <= 96 else 12.0
    for x in _range(step, width, step):
        ax.plot([x, x], [0, depth], color="#d8ccb2", linewidth=0.6, zorder=1)
    for y in _range(step, depth, step):
        ax.plot([0, width], [y, y], color="#d8ccb2", linewidth=0.6, zorder=1)
    _contours(ax, facts, interval=contour_interval)

    for e in facts.engagements:
        if e.impact_in is not None and e.radius_in:
            ax.add_patch(Circle(e.impact_in, e.radius_in, facecolor="none", edgecolor="#e67e22",
                                linewidth=0.9, linestyle="--", alpha=0.8, zorder=2))
            ax.plot(*e.impact_in, marker="*", markersize=11, color="#e67e22", markeredgecolor="#7a4a0a", zorder=6)

    for tag_id, trail in sorted(facts.trails.items()):
        unit = facts.unit(tag_id)
        color = unit.color if unit else "#666666"
        for run in trail.runs:
            xs, ys = [p[1] for p in run], [p[2] for p in run]
            ax.plot(xs, ys, color=color, linewidth=1.6, alpha=0.85, zorder=3, solid_capstyle="round")
        for (x0, y0), (x1, y1) in trail.jumps:
            ax.plot([x0, x1], [y0, y1], color=color, linewidth=1.0, linestyle=(0, (2, 2)), alpha=0.6, zorder=3)
        first, last = trail.runs[0][0], trail.runs[-1][-1]
        ax.plot(first[1], first[2], marker="o", markersize=5, markerfacecolor="white", markeredgecolor=color, zorder=4)
        ax.plot(last[1], last[2], marker="o", markersize=7, color=color, markeredgecolor="white", zorder=5)
        if unit:
            # beside the symbol when there is one (it covers the end dot)
            nudge = (13, 8) if facts.symbols is not None else (5, 4)
            ax.annotate(unit.name, (last[1], last[2]), xytext=nudge, textcoords="offset points", fontsize=7.5,
                        color="#222222", zorder=7,
                        bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.7})

    for e in facts.engagements:
        if e.from_in is None or e.to_in is None:
            continue
        color, style, lw = OUTCOME_STYLE[e.outcome]
        (x0, y0), (x1, y1) = e.from_in, e.to_in
        if math.hypot(x1 - x0, y1 - y0) < 1e-6:
            continue
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0), zorder=6,
                    arrowprops={"arrowstyle": "-|>", "color": color, "linestyle": style, "linewidth": lw,
                                "shrinkA": 4, "shrinkB": 5, "mutation_scale": 11})

    for c in facts.casualties:
        if c.change == "back in play" or c.tag_id not in facts.trails:
            continue
        where = position_at(facts.trails[c.tag_id], c.t_s)
        if where is not None:
            ax.plot(*where, marker="X", markersize=10, color="#111111", markeredgecolor="white", zorder=8)

    # The outcomes the ruleset always lists (Down Range's four), and those the engagements came to.
    always = ruleset_front_end(facts.ruleset).outcomes_always
    shown = [o for o in EngagementOutcome if o in {e.outcome for e in facts.engagements} or o.value in always]
    handles = [Line2D([], [], color=OUTCOME_STYLE[o][0], linestyle=OUTCOME_STYLE[o][1], linewidth=OUTCOME_STYLE[o][2], label=o.value)
               for o in shown]
    handles += [Line2D([], [], color=c, linewidth=2, label=side or "(no side)") for side, c in facts.side_colors.items()]
    handles += [Line2D([], [], marker="X", color="#111111", linestyle="", markersize=8, label="out of the fight"),
                Line2D([], [], marker="*", color="#e67e22", linestyle="", markersize=10, label="explosive impact")]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.06), ncol=5, fontsize=8, frameon=False)
    (x0, x1), (y0, y1), zoomed = _view(facts)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_xlabel("x (inches)")
    ax.set_ylabel("y (inches)")
    where = f" (the part of the {width:g}\" x {depth:g}\" table where units were)" if zoomed else ""
    ax.set_title(f"{facts.title}: movement and engagements{where}", fontsize=11)
    symbols = _placed_symbols(fig, ax, facts)
    return TableMap(_png(fig), symbols)


def crossed_out(svg: str) -> str:
    """The symbol with the map's 'out of the fight' cross over it (as 2525 crosses out a destroyed
    unit): the cross under it on the picture would be hidden.

    >>> crossed_out('<svg viewBox="0 0 10 20"><path d=""/></svg>').count("<path")
    3
    """
    import re

    box = re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"', svg)
    if box is None:
        return svg
    x, y, w, h = (float(v) for v in box.groups())
    d = f"M{x + 0.15 * w:.1f},{y + 0.1 * h:.1f} L{x + 0.85 * w:.1f},{y + 0.9 * h:.1f} M{x + 0.15 * w:.1f},{y + 0.9 * h:.1f} L{x + 0.85 * w:.1f},{y + 0.1 * h:.1f}"
    width = 0.09 * min(w, h)
    cross = (f'<path d="{d}" stroke="white" stroke-width="{1.8 * width:.1f}" fill="none"/>'
             f'<path d="{d}" stroke="#111111" stroke-width="{width:.1f}" fill="none"/>')
    return svg.replace("</svg>", cross + "</svg>")


def _placed_symbols(fig: Any, ax: Any, facts: DebriefFacts) -> tuple[PlacedSymbol, ...]:
    """Each unit's symbol box where its trail ends, in fractions of the picture ``_png`` saves (the
    figure cropped to its tight box, as ``bbox_inches="tight"`` crops it)."""
    if facts.symbols is None:
        return ()
    import matplotlib

    from debrief.facts import map_symbol

    fig.canvas.draw()
    box = fig.get_tightbbox(fig.canvas.get_renderer()).padded(float(matplotlib.rcParams["savefig.pad_inches"]))
    sides = tuple(facts.side_colors)
    last_change: dict[int, str] = {}
    for c in sorted(facts.casualties, key=lambda c: c.t_s):
        last_change[c.tag_id] = c.change
    out = []
    for tag_id, trail in sorted(facts.trails.items()):
        unit = facts.unit(tag_id)
        if unit is None or not trail.runs:
            continue
        last = trail.runs[-1][-1]
        sym = map_symbol(facts.symbols, unit, sides)
        svg = sym.svg if last_change.get(tag_id, "back in play") == "back in play" else crossed_out(sym.svg)
        x_in, y_in = (ax.transData.transform((last[1], last[2])) / fig.dpi)
        k = SYMBOL_HEIGHT_IN / sym.height_px  # figure inches per symbol pixel
        left, top = x_in - sym.anchor_xy_px[0] * k, y_in + sym.anchor_xy_px[1] * k
        out.append(PlacedSymbol(tag_id, unit.name, svg,
                                ((left - box.x0) / box.width, (box.y1 - top) / box.height,
                                 sym.width_px * k / box.width, SYMBOL_HEIGHT_IN / box.height)))
    return tuple(out)


def _contours(ax: Any, facts: DebriefFacts, *, interval: float | None = None) -> None:
    """The scenario's target terrain as contour lines, index lines heavier and labelled (in the map's
    metres when it has a scale, else in table inches), every ``interval`` of those units when given."""
    if facts.relief is None:
        return
    from appmodel.overlays.sandmap import contour_lines_for
    from appmodel.overlays.sand_map_model import SandMap, default_interval_m, map_relief_m

    # a bare CSV target is a height grid in table inches (no map scale): labelled in inches; a map at
    # the window's default interval (about ten lines over its relief), labelled in its metres; either
    # at the interval the instructor chose in the window when the recording says it (the flag first)
    sand = SandMap(target=facts.target)
    if interval is None and facts.contours is not None:
        interval = facts.contours.interval(in_map_units=sand.in_map_units)
    if sand.in_map_units:
        sand = sand.with_(contour_interval_m=interval or default_interval_m(map_relief_m(facts.target)))
    elif interval:
        sand = sand.with_(contour_interval_in=interval)
    for line in contour_lines_for(facts.relief, sand, of_target=True):
        xs, ys = line.points_in[:, 0], line.points_in[:, 1]
        ax.plot(xs, ys, color="#a0825a", linewidth=1.1 if line.index else 0.6, alpha=0.9, zorder=1)
        if line.index:
            ax.text(*line.label_xy_in, line.label, rotation=line.label_angle_deg, fontsize=6.5, color="#6b5b3e",
                    ha="center", va="center", zorder=1,
                    bbox={"boxstyle": "round,pad=0.1", "facecolor": "#efe6d2", "edgecolor": "none"})


def casualties_png(facts: DebriefFacts) -> bytes:
    """Units out of the fight per side over time, with bookmarks and attacks marked."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(11, 3.6))
    end = max(facts.duration_s, max((c.t_s for c in facts.casualties), default=0.0), 1.0)
    top = 1
    for side, curve in facts.casualties_over_time().items():
        xs = [t for t, _ in curve] + [end]
        ys = [n for _, n in curve] + [curve[-1][1]]
        top = max(top, max(ys))
        ax.step(xs, ys, where="post", color=facts.color_of(side), linewidth=2, label=side or "(no side)")
    for e in {e.t_s for e in facts.engagements}:
        ax.axvline(e, color="#e67e22", linewidth=0.7, alpha=0.5, zorder=0)
    for i, b in enumerate(facts.bookmarks, 1):
        ax.axvline(b.t_s, color="#2e7d32", linewidth=1.0, linestyle="--", zorder=0)
        ax.annotate(f"B{i}", (b.t_s, top + 0.3), xytext=(3, 0), textcoords="offset points", ha="left", fontsize=8,
                    color="#2e7d32")
    ax.set_xlim(0, end)
    ax.set_ylim(0, top + 0.8)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("session time (s)")
    ax.set_ylabel("units out of the fight")
    ax.set_title("Casualties over time (orange lines: attacks, green: bookmarks)", fontsize=10)
    if facts.sides:
        ax.legend(loc="upper left", fontsize=8, frameon=False)
    ax.grid(axis="y", color="#dddddd")
    return _png(fig)


def _view(facts: DebriefFacts, *, margin_in: float = 5.0) -> tuple[tuple[float, float], tuple[float, float], bool]:
    """The part of the table to show: where units went and fired, unless that is most of the table."""
    width, depth = facts.table_size_in
    xs: list[float] = []
    ys: list[float] = []
    for trail in facts.trails.values():
        for run in trail.runs:
            xs += [p[1] for p in run]
            ys += [p[2] for p in run]
    for e in facts.engagements:
        for point in (e.from_in, e.to_in, e.impact_in):
            if point is not None:
                xs.append(point[0])
                ys.append(point[1])
    full = ((-1.0, width + 1.0), (-1.0, depth + 1.0), False)
    if not xs:
        return full
    x0, x1 = max(-1.0, min(xs) - margin_in), min(width + 1.0, max(xs) + margin_in)
    y0, y1 = max(-1.0, min(ys) - margin_in), min(depth + 1.0, max(ys) + margin_in)
    if (x1 - x0) * (y1 - y0) > 0.6 * (width + 2) * (depth + 2):
        return full
    return (x0, x1), (y0, y1), True


def _range(start: float, stop: float, step: float) -> list[float]:
    out, v = [], start
    while v < stop - 1e-9:
        out.append(v)
        v += step
    return out


def exposure_png(facts: DebriefFacts, exposure: Any) -> bytes:
    """Heat maps of the table, one row per side: where its units stood within an enemy weapon's reach
    (unit-seconds per cell), where its fire came from and where it landed (each attack a dot)."""
    plt = _pyplot()
    from matplotlib.patches import Rectangle

    width, depth = facts.table_size_in
    sides = [s for s in facts.sides if s] or [""]
    fig, axes = plt.subplots(len(sides), 3, figsize=(12, 2.2 + 2.6 * len(sides) * depth / max(width, 1.0)), squeeze=False)
    for row, side in enumerate(sides):
        color = facts.color_of(side)
        grid = exposure.exposed_grid.get(side) if exposure is not None else None
        fired = [e for e in facts.engagements if e.side == side]
        froms = [e.from_in for e in fired if e.from_in is not None]
        landed = [e.impact_in or e.to_in for e in fired if (e.impact_in or e.to_in) is not None]
        for col, (title, points) in enumerate(((f"{side or 'units'}: where in enemy reach", None),
                                               (f"{side or 'units'}: where its fire came from", froms),
                                               (f"{side or 'units'}: where its fire landed", landed))):
            ax = axes[row][col]
            ax.add_patch(Rectangle((0, 0), width, depth, facecolor="#efe6d2", edgecolor="#6b5b3e", linewidth=1.0, zorder=0))
            if col == 0 and grid is not None and grid.any():
                shown = np.ma.masked_equal(grid, 0.0)
                im = ax.imshow(shown, origin="lower", extent=(0, grid.shape[1] * exposure.cell_in, 0, grid.shape[0] * exposure.cell_in),
                               cmap="magma_r", zorder=1, alpha=0.9, interpolation="nearest")
                fig.colorbar(im, ax=ax, fraction=0.035, pad=0.02).set_label("unit-seconds")
            elif col == 0:
                ax.text(width / 2, depth / 2, "never in reach", ha="center", va="center", color="#555")
            elif points:
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                ax.scatter(xs, ys, s=26, color=color, edgecolor="#111", linewidth=0.5, alpha=0.75, zorder=2)
            else:
                ax.text(width / 2, depth / 2, "no attack", ha="center", va="center", color="#555")
            ax.set_title(title, fontsize=10)
            ax.set_xlim(0, width)
            ax.set_ylim(0, depth)
            ax.set_aspect("equal")
            ax.tick_params(labelsize=7)
    fig.tight_layout()
    return _png(fig)
