"""The builders every rule system shares: the grid, unit bases and names, weapon range and movement
rings, the tape, placed templates, lines of sight and the odds per target (Qt-free; registered in
:mod:`appmodel.overlays.registry`).

Every shape comes from the ruleset through the session's :class:`~appmodel.session.snapshot.Snapshot`;
these functions only decide how it looks, as :class:`~appmodel.overlays.draw_item.DrawItem` values in
table inches.

>>> from rules.downrange.examples.in_depth import SCENARIO_PATH
>>> from appmodel.game_session import GameSession
>>> s = GameSession.from_scenario_file(SCENARIO_PATH); s.select_unit(13)
>>> [i.label for i in range_items(s.snapshot())]
['Carl Gustaf / MAAWS Range 38"', 'Range + Radius 44"']
"""
from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from appmodel.overlays.draw_item import (LABEL_PRIORITY, NO_MEMO, RING_SEGMENTS, XY, DrawItem, base_radius, bottom_of,
                                         height_of, lighter, outline, ring_around, top_of)
from appmodel.overlays.draw_item import pts as _pts
from appmodel.overlays.draw_memo import DrawMemo
from appmodel.session.snapshot import Snapshot
from rules.geometry import Circle, Segment

#: Grid spacing of the top-down view, inches, and the spacing of its labels.
GRID_IN = 6.0


GRID_LABEL_IN = 12.0


def grid_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """The table's edge, a 6" grid and inch labels every 12" along two edges (static: cached)."""
    return memo.get(("grid", snap.table_size_in), lambda: _grid_now(snap.table_size_in))


def _grid_now(table_size_in: XY) -> list[DrawItem]:
    w, d = table_size_in
    out = [DrawItem("grid", ("edge", w, d), _pts([(0, 0), (w, 0), (w, d), (0, d)]), "#f0f0f0", closed=True, width_px=2.0)]
    x = GRID_IN
    while x < w - 1e-6:
        out.append(DrawItem("grid", ("gx", x, d), _pts([(x, 0), (x, d)]), "#9aa0a6", width_px=1.0,
                            label=f'{x:g}"' if abs(x / GRID_LABEL_IN - round(x / GRID_LABEL_IN)) < 1e-9 else "",
                            text_in=(x, 0.9), text_color="#d8d8d8"))
        x += GRID_IN
    y = GRID_IN
    while y < d - 1e-6:
        out.append(DrawItem("grid", ("gy", y, w), _pts([(0, y), (w, y)]), "#9aa0a6", width_px=1.0,
                            label=f'{y:g}"' if abs(y / GRID_LABEL_IN - round(y / GRID_LABEL_IN)) < 1e-9 else "",
                            text_in=(1.2, y), text_color="#d8d8d8"))
        y += GRID_IN
    return out


def unit_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Each unit's base in its side's colour, a tick toward its front, down units greyed and crossed."""
    out: list[DrawItem] = []
    for u in snap.units:
        if not u.on_table:
            continue
        color = snap.color_of(u.side) if u.status == "active" else "#7a7a7a"
        selected = u.unit_id == snap.selected_unit
        radio = u.unit_id in snap.radio_units
        out += memo.get(("unit", u, color, selected, radio), lambda: _unit_now(u, color, selected, radio, memo))
    return out


def _unit_now(u: Any, color: str, selected: bool, radio: bool, memo: DrawMemo) -> list[DrawItem]:
    fp = u.footprint
    active = u.status == "active"
    uid = (u.unit_id,)
    z = height_of(u)  # a figure on a rooftop: its base is drawn up there, where the camera sees it
    out = [DrawItem("units", ("base", fp), outline(fp, 32, memo), color, closed=True, width_px=2.0,
                    fill=200 if active else 90, units=uid, z_in=z)]
    h = math.radians(u.heading_deg)
    reach = base_radius(u) + 0.5
    out.append(DrawItem("units", ("front", u.x_in, u.y_in, u.heading_deg, reach),
                        _pts([(u.x_in, u.y_in), (u.x_in + reach * math.cos(h), u.y_in + reach * math.sin(h))]),
                        "#ffffff" if active else "#9a9a9a", width_px=2.0, units=uid, z_in=z))
    if not active:
        out.append(DrawItem("units", ("down", u.x_in, u.y_in), _pts([(u.x_in, u.y_in)]), "#ffffff", marker="x", width_px=2.5,
                            units=uid, z_in=z))
    if selected:
        ring = outline(Circle(u.x_in, u.y_in, reach + 0.3), 40, memo)
        out.append(DrawItem("units", ("selected", u.x_in, u.y_in, reach), ring, "#ffe14d", closed=True, width_px=3.0,
                            units=uid, z_in=z))
    if radio and active:
        out.append(DrawItem("units", ("radio", u.x_in, u.y_in), _pts([(u.x_in + 0.55, u.y_in + 0.55)]), "#ffffff",
                            marker="dot", width_px=2.0, units=uid, z_in=z))
    return out


def tenths(text: str) -> str:
    """Distances in a label (a number of inches) to a tenth, as the unit's own "(move left 8.0")" gives them.

    >>> tenths('Move left 46.4853"'), tenths('Move left 8"'), tenths('Move left 2.5" of 8"')
    ('Move left 46.5"', 'Move left 8.0"', 'Move left 2.5" of 8.0"')
    """
    return re.sub(r'(\d+(?:\.\d+)?)"', lambda m: f'{float(m[1]):.1f}"', text)


def abbreviated(name: str) -> str:
    """A unit's name in fewer letters, still readable where the full name does not fit: every word but
    the last cut to four letters and a full stop; numbers, short words and the last word kept.

    >>> abbreviated("Automatic rifleman"), abbreviated("Mortar gunner"), abbreviated("Rifleman 3")
    ('Auto. rifleman', 'Mort. gunner', 'Rifl. 3')
    >>> abbreviated("Sgt. Reyes"), abbreviated("ZBL-09"), abbreviated("Assistant gunner")
    ('Sgt. Reyes', 'ZBL-09', 'Assi. gunner')
    """
    words = name.split()
    out = [w[:4] + "." if (len(w) > 5 and w.isalpha() and i < len(words) - 1) else w for i, w in enumerate(words)]
    return " ".join(out)


def label_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Unit names under their bases (units sharing one spot, like a gun team, share one label); the
    selected unit also shows its Move left (in the game's set-up, before its first turn: its Move, which
    placing it does not spend). Figures of a unit of several figures (a Force on Force
    fireteam) share one label with the unit's name, under the unit; the selected figure keeps its
    own. Short form: the names abbreviated (a fireteam's: its name), never bare tag numbers."""
    spots: dict[tuple[float, float], list[Any]] = {}
    teams: dict[tuple[str, str], list[Any]] = {}
    sel = snap.selected_unit
    set_up = bool(getattr(snap.state, "setting_up", False))
    for u in snap.units:
        if not u.on_table:
            continue
        if u.group is not None and u.unit_id != sel:
            teams.setdefault((u.side, u.group), []).append(u)
        else:
            spots.setdefault((round(u.x_in, 1), round(u.y_in, 1)), []).append(u)
    out = [memo.get(("label", spot, tuple(units), sel, set_up), lambda: _label_now(spot, units, sel, set_up))
           for spot, units in spots.items()]
    out += [memo.get(("team label", team, tuple(units)), lambda: _team_label_now(team[1], units))
            for team, units in teams.items()]
    return out


def _team_label_now(name: str, units: list[Any]) -> DrawItem:
    """A fireteam's name under its lowest figure, centred on its figures."""
    x = sum(u.x_in for u in units) / len(units)
    y = sum(u.y_in for u in units) / len(units)
    low = min(units, key=lambda u: u.y_in - base_radius(u))
    down = sum(1 for u in units if u.status != "active")
    text = name + (f" [{down} down]" if down else "")
    return DrawItem("labels", ("team label", name, x, low.y_in, text), np.zeros((0, 2)), "#ffffff", label=text,
                    text_in=(x, low.y_in - base_radius(low) - 0.9), anchor_in=(x, y),
                    short_label=name + (f" [{down} down]" if down else ""),
                    units=tuple(u.unit_id for u in units), z_in=sum(height_of(u) for u in units) / len(units))


def _label_now(spot: tuple[float, float], units: list[Any], sel: int | None, set_up: bool = False) -> DrawItem:
    texts = []
    for u in units:
        text = u.name
        if u.unit_id == sel and not math.isinf(u.move_in):  # (a rule system that does not count movement: inf)
            left = "unlimited" if math.isinf(u.move_left_in) else f'{u.move_left_in:.1f}"'
            text += f" (set-up: move {left})" if set_up else f" (move left {left})"
        if u.status != "active":
            text += f" [{u.status}]"
        texts.append(text)
    r = max(u.footprint.radius_in if isinstance(u.footprint, Circle) else u.footprint.width_in / 2 for u in units)
    selected = any(u.unit_id == sel for u in units)
    return DrawItem("labels", ("label", spot, tuple(texts)), np.zeros((0, 2)), "#ffffff", label=" + ".join(texts),
                    text_in=(spot[0], spot[1] - r - 0.9), anchor_in=(units[0].x_in, units[0].y_in),
                    priority=LABEL_PRIORITY["selected"] if selected else LABEL_PRIORITY["units"],
                    # the short form keeps what matters most: who is out of the fight
                    short_label=" + ".join(abbreviated(u.name) + (f" [{u.status}]" if u.status != "active" else "")
                                           for u in units), units=tuple(u.unit_id for u in units),
                    z_in=height_of(units[0]))


def range_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """The selected weapon's range ring from the closest point of the base, for explosives the dashed
    ring of Range + Radius, and a weapon's minimum range (shaded: no fire inside it)."""
    out = []
    for o in snap.overlays:
        if o.kind in ("range", "blast reach"):
            pts = outline(o.shape, RING_SEGMENTS, memo)
            if len(pts) == 0:
                continue
            color = snap.color_of(o.side)
            out.append(DrawItem("range", ("ring", o.shape), pts, color if o.kind == "range" else lighter(color, 0.3),
                                closed=True, width_px=2.5 if o.kind == "range" else 2.0, dashed=o.kind == "blast reach",
                                label=o.label, text_in=top_of(pts),
                                priority=LABEL_PRIORITY["range"] - (0 if o.kind == "range" else 5), units=o.unit_ids,
                                label_on_outline=True))
        elif o.kind == "minimum range" and snap.selected_unit in o.unit_ids:
            # No fire inside it: shaded, dashed, labelled under the unit (the ring labels above go outward).
            pts = outline(o.shape, RING_SEGMENTS, memo)
            color = lighter(snap.color_of(o.side), 0.2)
            out.append(DrawItem("range", ("min ring", o.shape), pts, color, closed=True, width_px=2.0, dashed=True,
                                fill=45, label=o.label, text_in=bottom_of(pts), priority=LABEL_PRIORITY["range"] - 3,
                                units=o.unit_ids, label_on_outline=True))
    return out


def movement_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """What is left of the selected unit's Move this turn (halved when injured, overburdened or
    impaired, as the rules compute it)."""
    out = []
    for o in snap.overlays:
        if o.kind == "movement":
            pts = outline(o.shape, RING_SEGMENTS, memo)
            if len(pts):
                out.append(DrawItem("movement", ("move", o.shape), pts, "#7be3a0", closed=True, width_px=2.0, dashed=True,
                                    label=tenths(o.label), text_in=(float(pts[:, 0].mean()), float(pts[:, 1].min()) - 0.2),
                                    units=o.unit_ids, label_on_outline=True))
    return out


def tape_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """The tape measure with its distance (base to base between units)."""
    t = snap.tape
    if t is None:
        return []
    mid = ((t.start_in[0] + t.end_in[0]) / 2, (t.start_in[1] + t.end_in[1]) / 2)
    return [DrawItem("tape", ("tape", t.start_in, t.end_in), _pts([t.start_in, t.end_in]), "#ffffff", width_px=2.5,
                     label=f'{t.distance_in:.1f}"', text_in=(mid[0], mid[1] + 0.8), text_color="#ffe14d", anchor_in=mid,
                     units=tuple(u for u in (t.start_unit, t.end_unit) if u is not None))]


TEMPLATE_COLOR = "#b388ff"


def template_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Templates players placed (appmodel.overlays.placed_templates): circles and fans drawn from the rules'
    Circle and Cone with the units they touch ringed, lines and a tape's legs with their length; a
    pinned one is drawn solid, a free one dashed."""
    board = snap.templates
    if board is None or not board.templates:
        return []
    footprints = {u.unit_id: u.footprint for u in snap.units if u.on_table and u.status == "active"}
    out = []
    for t in board.templates:
        shapes = t.shapes()
        for k, shape in enumerate(shapes):
            pts = outline(shape, RING_SEGMENTS if t.kind == "circle" else 64, memo)
            closed = t.kind in ("circle", "fan")
            out.append(DrawItem("templates", ("template", t.template_id, k, shape, t.pinned), pts, TEMPLATE_COLOR,
                                closed=closed, width_px=2.5, dashed=not t.pinned, fill=22 if closed else 0))
        for px, py in (t.points_in if t.kind == "tape" else t.points_in[:1]):
            out.append(DrawItem("templates", ("template point", t.template_id, px, py), _pts([(px, py)]), TEMPLATE_COLOR,
                                marker="x", width_px=2.5))
        pts = np.array([p for s in shapes for p in outline(s, 32, memo)]) if shapes else np.zeros((0, 2))
        if len(pts):
            at = (float(pts[:, 0].mean()), float(pts[:, 1].max()) + 0.8)
            covered = t.covers(footprints)
            label = t.label + (f": {len(covered)} inside" if t.kind in ("circle", "fan") else "")
            out.append(DrawItem("templates", ("template label", t.template_id, label, at), np.zeros((0, 2)),
                                TEMPLATE_COLOR, label=label, text_in=at, text_color="#e0d0ff", units=None))
            for uid in covered:
                u = snap.unit(uid)
                if u is not None:
                    out.append(ring_around(u, "templates", TEMPLATE_COLOR, memo))
    return out


def unit_height(snap: Snapshot, unit_id: int | None) -> float:
    """The height a unit stands at: the mean ground height of the figures of its fireteam (Force on
    Force measures a unit's elevation so), of the figure itself when it has none; 0 for no unit."""
    u = snap.unit(unit_id) if unit_id is not None else None
    if u is None:
        return 0.0
    if u.group is None:
        return height_of(u)
    team = [f for f in snap.units if f.side == u.side and f.group == u.group and f.on_table] or [u]
    return sum(height_of(f) for f in team) / len(team)


def draft_heights(snap: Snapshot) -> tuple[float, float]:
    """The heights of the drafted attack's two ends: the firing unit's, and its first target's (0 for a
    point on the ground)."""
    d = snap.draft
    if d is None:
        return 0.0, 0.0
    return unit_height(snap, d.attacker_id), unit_height(snap, d.target_ids[0] if d.target_ids else None)


def sight_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Lines of sight of the attack being set up: the rules' own when the ruleset draws them (Force on
    Force: rough centre to rough centre; the generic rules: to the target or aim point, with the
    distance and range band), else from the attacker to each target (players judge them)."""
    d = snap.draft
    if d is None:
        return []
    ruled = [o for o in snap.overlays if o.kind == "line of sight" and isinstance(o.shape, Segment)]
    if ruled:
        z = _ends(*draft_heights(snap))
        items = [memo.get(("ruled sight", o, snap.color_of(o.side), z), lambda: _ruled_sight_now(o, z)) for o in ruled]
        ground = snap.ground
        for o in ruled if ground is not None else ():
            seg = o.shape
            items += memo.get(("blocked sight", id(ground), seg), lambda: blocked_sight_items(ground, (seg.ax_in, seg.ay_in), (seg.bx_in, seg.by_in), ()))
        return items
    a = snap.unit(d.attacker_id)
    if a is None or not a.on_table:
        return []
    out = []
    ground = snap.ground
    for uid in d.target_ids:
        t = snap.unit(uid)
        if t is not None and t.on_table:
            out.append(DrawItem("sight", ("sight", a.x_in, a.y_in, t.x_in, t.y_in), _pts([(a.x_in, a.y_in), (t.x_in, t.y_in)]),
                                "#ffffff", width_px=1.5, dashed=True, units=(a.unit_id, uid),
                                z_in=_ends(height_of(a), height_of(t))))
            if ground is not None:
                ends = ((a.x_in, a.y_in), (t.x_in, t.y_in))
                out += memo.get(("blocked sight", id(ground), ends, uid), lambda: blocked_sight_items(ground, *ends, (a.unit_id, uid)))
    if d.aim_point is not None:
        out.append(DrawItem("sight", ("aimline", a.x_in, a.y_in, d.aim_point), _pts([(a.x_in, a.y_in), d.aim_point]),
                            "#ff8c1a", width_px=1.5, dashed=True, units=(a.unit_id,), z_in=_ends(height_of(a), 0.0)))
    return out


#: Eye height over the ground for the sight line drawn over the relief, inches (a standing figure).
EYE_HEIGHT_IN = 1.0


def blocked_sight_items(ground: Any, a_xy: tuple[float, float], b_xy: tuple[float, float], units: tuple[int, ...]) -> list[DrawItem]:
    """The parts of the sight line from ``a`` to ``b`` that the ground hides (rules.terrain_sight), in
    red and thick, drawn at the sight line's own height where they are."""
    from rules.terrain_sight import sight_over_ground

    za = float(ground.height_at(*a_xy)) + EYE_HEIGHT_IN
    zb = float(ground.height_at(*b_xy)) + EYE_HEIGHT_IN
    sight = sight_over_ground(ground, a_xy, za, b_xy, zb)
    out = []
    length = sight.length_in or 1.0
    for k, ((x0, y0), (x1, y1)) in enumerate(sight.blocked_segments_xy()):
        s0, s1 = sight.blocked_spans_in[k]
        z = (za + (zb - za) * s0 / length, za + (zb - za) * s1 / length)
        out.append(DrawItem("sight", ("blocked", a_xy, b_xy, k), _pts([(x0, y0), (x1, y1)]), "#ff3b30", width_px=4.0,
                            units=units, z_in=z, label="ground blocks" if k == 0 else "",
                            text_in=((x0 + x1) / 2, (y0 + y1) / 2 + 0.8) if k == 0 else None, text_color="#ff3b30",
                            anchor_in=((x0 + x1) / 2, (y0 + y1) / 2) if k == 0 else None))
    return out


def _ends(z_a: float, z_b: float) -> float | tuple[float, float]:
    """The heights of a line's two ends: one number when level (the common case, table to table).

    >>> _ends(3.0, 0.0), _ends(0.0, 0.0)
    ((3.0, 0.0), 0.0)
    """
    return z_a if z_a == z_b else (z_a, z_b)


def _ruled_sight_now(o: Any, z: float | tuple[float, float] = 0.0) -> DrawItem:
    seg = o.shape
    a, b = (seg.ax_in, seg.ay_in), (seg.bx_in, seg.by_in)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return DrawItem("sight", ("ruled sight", a, b), _pts([a, b]), "#ffffff", width_px=2.0, label=o.label,
                    text_in=(mid[0], mid[1] - 0.9), anchor_in=mid, short_label=o.label.rsplit(" ", 1)[-1]
                    if o.label.endswith('"') else "", units=o.unit_ids, z_in=z)


#: Odds labels of targets the rules refuse: a muted red, apart from the yellow of real odds.
REFUSED_COLOR = "#ff9e80"


def odds_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Each target's odds while an attack is being set up, in the ruleset's words (``snap.odds_legend``:
    "hit 33%  kill 12%" in Down Range, "wins 50%" in Force on Force, "caught 66%  destroyed 2%" in the
    generic rules); a unit of several figures is labelled at the middle of its figures."""
    out = []
    legend = snap.odds_legend
    for o in snap.odds:
        figures = [snap.unit(i) for i in (o.members or (o.unit_id,))]
        figures = [f for f in figures if f is not None and f.on_table]
        if not figures:
            continue
        x, y = sum(f.x_in for f in figures) / len(figures), sum(f.y_in for f in figures) / len(figures)
        if o.allowed:
            text, short, color = legend.label(o), legend.short(o), "#ffe14d"
        else:
            # A refusal is a short marker by the unit ("no shot"); its reason is in the attack panel, where
            # it fits, not painted across the map and cut off at the view's edge.
            text, short, color = legend.short(o), "\u2715", REFUSED_COLOR
        out.append(DrawItem("odds", ("odds", o.unit_id, text), np.zeros((0, 2)), color, label=text,
                            text_in=(x, y + 1.6), text_color=color, anchor_in=(x, y),
                            short_label=short, units=None, z_in=sum(height_of(f) for f in figures) / len(figures)))
    return out
