"""What to draw, in table inches: one Qt-free builder per overlay kind, and the registry of them.

Every shape comes from the ruleset (``ruleset.overlays`` and :mod:`rules.geometry` outlines) through
the session's :class:`~appmodel.game_session.Snapshot`; nothing here decides a rule. A builder turns a snapshot
into :class:`DrawItem` values (polylines, polygons and labels in table inches, with a colour and a
style); :mod:`gui.overlay_painter` draws them through any ``device_from_table`` transform (top-down
view, camera perspective with lens distortion, projector).

Adding an overlay = one builder + one :data:`OVERLAYS` entry (+ one flag in
:class:`gui.settings.OverlayToggles`). Down Range's builders and the shared ones are here; Force on
Force's (cohesion, leaders, line of fire, Hot Spots) in :mod:`appmodel.overlay_shapes_fof`, the generic
rules' (range bands, scatter and area of effect, command range, the solo tables' moves) in
:mod:`appmodel.overlay_shapes_generic`. An entry drawn from shapes only some rule systems produce is
``own``: the menus offer it when the rule system lists it in its ``FrontEnd.overlays`` (:func:`overlays_for`); :class:`DrawItem` and the helpers they share are in
:mod:`appmodel.draw_item`.

Builders take an optional :class:`appmodel.draw_memo.Memo`: a compositor passes its own, so a frame in
which one unit moved re-computes only that unit's shapes (outlines, who stands in a fan, comms hulls
are remembered by their frozen inputs). Labels carry a priority (:data:`LABEL_PRIORITY`), the point
they describe (``anchor_in``) and a short form; :mod:`appmodel.label_placement` keeps them from overlapping.

>>> from rules.downrange.examples.in_depth import SCENARIO_PATH
>>> from appmodel.game_session import GameSession
>>> s = GameSession.from_scenario_file(SCENARIO_PATH); s.select_unit(13)
>>> [i.label for i in build_items(s.snapshot(), ("range",))]
['Carl Gustaf / MAAWS Range 38"', 'Range + Radius 44"']
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from appmodel.draw_item import REQUIRED_PRIORITY  # noqa: F401 (kept importable from here)
from appmodel.draw_item import (LABEL_PRIORITY, NO_MEMO, RING_SEGMENTS, XY, DrawItem, base_radius, bottom_of, height_of,
                           lighter, outline, ring_around, top_of)
from appmodel.draw_item import pts as _pts
from appmodel.draw_memo import Memo
from appmodel.overlay_shapes_fof import cohesion_items, draft_heights, hot_spot_items, line_of_fire_items
from appmodel.overlay_shapes_generic import automation_items, band_items, command_items, scatter_items
from rules.geometry import Circle, Cluster, CommsGraph, Cone, Segment

#: Grid spacing of the top-down view, inches, and the spacing of its labels.
GRID_IN = 6.0
GRID_LABEL_IN = 12.0


@dataclass(frozen=True)
class OverlaySpec:
    """An overlay: its toggle name, what the menus call it, its shortcut, its builder, and whether only
    some rule systems produce what it draws."""

    name: str
    title: str
    shortcut: str
    build: Callable[..., list[DrawItem]] = field(repr=False)
    #: It draws shapes only some rule systems produce (the menus offer it when the rule system's
    #: ``FrontEnd.overlays`` names it); False: every game has what it draws (bases, the tape...).
    own: bool = False

    def offered_for(self, offered: Collection[str] | None) -> bool:
        return not self.own or offered is None or self.name in offered


# -- builders ----------------------------------------------------------------------------------

def grid_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
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


def unit_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
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


def _unit_now(u: Any, color: str, selected: bool, radio: bool, memo: Any) -> list[DrawItem]:
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


def label_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """Unit names under their bases (units sharing one spot, like a gun team, share one label); the
    selected unit also shows its Move left. Figures of a unit of several figures (a Force on Force
    fireteam) share one label with the unit's name, under the unit; the selected figure keeps its
    own. Short form: the names abbreviated (a fireteam's: its name), never bare tag numbers."""
    spots: dict[tuple[float, float], list[Any]] = {}
    teams: dict[tuple[str, str], list[Any]] = {}
    sel = snap.selected_unit
    for u in snap.units:
        if not u.on_table:
            continue
        if u.group is not None and u.unit_id != sel:
            teams.setdefault((u.side, u.group), []).append(u)
        else:
            spots.setdefault((round(u.x_in, 1), round(u.y_in, 1)), []).append(u)
    out = [memo.get(("label", spot, tuple(units), sel), lambda: _label_now(spot, units, sel))
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
                    text_in=(x, low.y_in - base_radius(low) - 0.9), anchor_in=(x, y), short_label=name,
                    units=tuple(u.unit_id for u in units), z_in=sum(height_of(u) for u in units) / len(units))


def _label_now(spot: tuple[float, float], units: list[Any], sel: int | None) -> DrawItem:
    texts = []
    for u in units:
        text = u.name
        if u.unit_id == sel and not math.isinf(u.move_in):  # (a rule system that does not count movement: inf)
            left = "unlimited" if math.isinf(u.move_left_in) else f'{u.move_left_in:.1f}"'
            text += f" (move left {left})"
        if u.status != "active":
            text += f" [{u.status}]"
        texts.append(text)
    r = max(u.footprint.radius_in if isinstance(u.footprint, Circle) else u.footprint.width_in / 2 for u in units)
    selected = any(u.unit_id == sel for u in units)
    return DrawItem("labels", ("label", spot, tuple(texts)), np.zeros((0, 2)), "#ffffff", label=" + ".join(texts),
                    text_in=(spot[0], spot[1] - r - 0.9), anchor_in=(units[0].x_in, units[0].y_in),
                    priority=LABEL_PRIORITY["selected"] if selected else LABEL_PRIORITY["units"],
                    short_label=" + ".join(abbreviated(u.name) for u in units), units=tuple(u.unit_id for u in units),
                    z_in=height_of(units[0]))


def range_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
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


def fan_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """The 45-degree cone along the unit's facing out to the weapon's range; enemy units inside are
    ringed and counted against the weapon's Fan."""
    out = []
    for o in snap.overlays:
        if o.kind != "fan" or not isinstance(o.shape, Cone):
            continue
        cone = o.shape
        pts = outline(cone, 64, memo)
        color = snap.color_of(o.side)
        # Cone.touches is the rules' own test; remembered per (cone, base) so only moved units are re-tested.
        inside = [u for u in snap.units if u.on_table and u.status == "active" and u.side != o.side
                  and u.unit_id not in o.unit_ids and memo.get(("touches", cone, u.footprint), lambda: cone.touches(u.footprint))]
        for u in inside:
            out.append(ring_around(u, "fan", "#ffe14d", memo))
        reach = cone.reach.distance_in if not math.isinf(cone.reach.distance_in) else 24.0
        ax = math.radians(cone.axis_deg)
        at = (cone.apex_x_in + 0.55 * reach * math.cos(ax), cone.apex_y_in + 0.55 * reach * math.sin(ax))
        fan = next((w.fan for w in snap.weapons if w.name == snap.selected_weapon), None)
        label = f"{o.label}: {len(inside)} in the fan"
        if fan and len(inside) > fan:
            label += f", more than its {fan} attacks"
        # The outline follows the attacker; the count in its label follows every unit.
        out.append(DrawItem("fan", ("fan", cone), pts, color, closed=True, width_px=2.0, fill=26, units=o.unit_ids))
        out.append(DrawItem("fan", ("fan label", cone, label), np.zeros((0, 2)), color, label=label, text_in=at,
                            short_label=f"{len(inside)} in fan ({o.label})", units=None))
    return out


def movement_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
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


def _names(snap: Any, ids: Iterable[int]) -> list[str]:
    return [u.name for u in (snap.unit(uid) for uid in ids) if u is not None]


def blast_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """The blast radius around the picked point with every unit inside ringed and listed, and after a
    miss the miss radius around the intended point (and where it landed)."""
    out = []
    if snap.blast_point is not None and snap.blast_radius_in:
        c = Circle(snap.blast_point[0], snap.blast_point[1], snap.blast_radius_in)
        names = _names(snap, snap.blast_caught)
        listed = ", ".join(names) if names else "nobody"
        out.append(DrawItem("blast", ("blast", c), outline(c, RING_SEGMENTS, memo), "#ff8c1a", closed=True, width_px=2.5,
                            fill=55))
        out.append(DrawItem("blast", ("blast label", c, listed), np.zeros((0, 2)), "#ff8c1a",
                            label=f'Radius {snap.blast_radius_in:g}": {listed}',
                            short_label=f'Radius {snap.blast_radius_in:g}": {len(names)} inside',
                            text_in=(c.x_in, c.y_in + c.radius_in + 0.4), units=None))
        out.append(DrawItem("blast", ("aim", c.x_in, c.y_in), _pts([snap.blast_point]), "#ff8c1a", marker="x", width_px=3.0))
        for uid in snap.blast_caught:
            u = snap.unit(uid)
            if u is not None:
                out.append(ring_around(u, "blast", "#ff8c1a", memo))
    miss = snap.miss
    if miss is not None:
        c = Circle(miss.intended_in[0], miss.intended_in[1], miss.miss_radius_in)
        label = f'miss radius {miss.miss_radius_in:g}": {miss.chooser} chooses' if miss.landed_in is None else \
            f'miss radius {miss.miss_radius_in:g}"'
        out.append(DrawItem("blast", ("miss", c), outline(c, RING_SEGMENTS, memo), "#ff4d4d", closed=True, width_px=2.0,
                            dashed=True, label=label, text_in=(c.x_in, c.y_in - c.radius_in - 0.6)))
        if miss.landed_in is not None:
            out.append(DrawItem("blast", ("landed", miss.landed_in), _pts([miss.landed_in]), "#ff4d4d", marker="x", width_px=3.0,
                                label="landed", text_in=(miss.landed_in[0], miss.landed_in[1] + 1.0),
                                anchor_in=miss.landed_in))
    return out


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull of (N, 2) points (OpenCV's, in float32: hundredths of a thousandth of an inch).

    >>> _hull(np.array([[0, 0], [2, 0], [1, 1], [2, 2], [0, 2]], float)).shape
    (4, 2)
    """
    import cv2

    pts = np.ascontiguousarray(np.asarray(points, dtype=np.float32).reshape(-1, 1, 2))
    if len(pts) <= 2:
        return pts.reshape(-1, 2).astype(np.float64)
    return cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)


def _group_item(side: str, members: tuple[tuple[int, XY], ...], color: str, memo: Any) -> DrawItem:
    """A comms group's shaded hull. Its key is the hull itself: a member moving inside the group
    leaves the drawing unchanged, so nothing is repainted."""
    hull = _hull(np.concatenate([outline(Circle(*xy, 1.6), 16, memo) for _, xy in members]))
    hull.setflags(write=False)
    return DrawItem("voice", ("group", side, hull.tobytes()), hull, color, closed=True, width_px=1.0, fill=38,
                    units=tuple(uid for uid, _ in members))


def _chain_items(side: str, graph: CommsGraph, where: dict[int, XY], color: str, memo: Any) -> list[DrawItem]:
    out = []
    for group in graph.groups:
        if len(group) < 2:
            continue
        members = tuple(sorted((uid, where[uid]) for uid in group))
        out.append(memo.get(("group", side, members, color), lambda: _group_item(side, members, color, memo)))
    done: set[tuple[int, int]] = set()
    edge_color = lighter(color, 0.35)
    edges = set(graph.edges)
    for a, b in graph.edges:
        pair = (min(a, b), max(a, b))
        if pair in done:
            continue
        done.add(pair)
        both = (b, a) in edges
        out.append(memo.get(("edge", where[a], where[b], both, edge_color), lambda: DrawItem(
            "voice", ("edge", where[a], where[b], both), _pts([where[a], where[b]]), edge_color, width_px=2.0,
            dashed=not both, units=(a, b))))
    return out


def voice_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """Voice-comms chains: edges between friendly units within their Move of each other, each
    connected group shaded, radio units marked (units layer), and who the selected unit's word reaches."""
    out = []
    for o in snap.overlays:
        if o.kind != "voice" or not isinstance(o.shape, CommsGraph):
            continue
        graph = o.shape
        color = snap.color_of(o.side)
        where = {n.unit_id: n.footprint.center.xy for n in graph.nodes}
        # A side whose units did not change hands back the same graph: its whole chain is remembered.
        out += memo.get(("voice chain", o.side, graph, color), lambda: _chain_items(o.side, graph, where, color, memo))
        sel = snap.selected_unit
        if sel is not None and sel in where:
            reached = sorted(graph.reachable_from(sel) - {sel})
            for uid in reached:
                x, y = where[uid]
                out.append(memo.get(("heard", uid, x, y), lambda: DrawItem(
                    "voice", ("heard", uid, x, y), outline(Circle(x, y, 1.05), 32, memo), "#b6f5c8", closed=True,
                    width_px=2.0, dashed=True, units=(uid,))))
            x, y = where[sel]
            out.append(DrawItem("voice", ("reach label", sel, len(reached)), np.zeros((0, 2)), "#b6f5c8",
                                label=f"voice reaches {len(reached)}", text_in=(x, y + 2.0), anchor_in=(x, y), units=None))
    # Who the selected unit's Signal reaches by radio and relay (the rules' "signal" overlay).
    for o in snap.overlays:
        if o.kind != "signal" or snap.selected_unit is None:
            continue
        by_voice = set()
        for v in snap.overlays:
            if v.kind == "voice" and isinstance(v.shape, CommsGraph) and v.side == o.side:
                by_voice = set(v.shape.reachable_from(snap.selected_unit))
        for uid in o.unit_ids:
            u = snap.unit(uid)
            if u is None or not u.on_table or uid in by_voice:
                continue
            out.append(memo.get(("signalled", uid, u.x_in, u.y_in), lambda: DrawItem(
                "voice", ("signalled", uid, u.x_in, u.y_in), outline(Circle(u.x_in, u.y_in, 1.25), 32, memo), "#ff9df5",
                closed=True, width_px=2.0, dashed=True, units=(uid,))))
        u = snap.unit(snap.selected_unit)
        if u is not None:
            out.append(DrawItem("voice", ("signal label", u.unit_id, o.label), np.zeros((0, 2)), "#ff9df5", label=o.label,
                                text_in=(u.x_in, u.y_in + 3.2), anchor_in=(u.x_in, u.y_in), text_color="#ffc9fa", units=None))
    return out


def jamming_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """Jamming circles (36") of EW units, and a cross on every radio or remote-piloted system cut off."""
    out = []
    for o in snap.overlays:
        if o.kind != "jamming":
            continue
        pts = outline(o.shape, RING_SEGMENTS, memo)
        color = snap.color_of(o.side)
        out.append(DrawItem("jamming", ("jam", o.shape), pts, color, closed=True, width_px=2.0, fill=22, dashed=True,
                            label=o.label, text_in=top_of(pts), label_on_outline=True))
        for uid in o.unit_ids:
            u = snap.unit(uid)
            if u is not None and u.on_table:
                out.append(DrawItem("jamming", ("cut", uid, u.x_in, u.y_in), _pts([(u.x_in, u.y_in)]), "#ff4dff", marker="x",
                                    width_px=3.0, label="jammed", text_in=(u.x_in, u.y_in + 1.3), anchor_in=(u.x_in, u.y_in),
                                    units=(uid,), z_in=height_of(u)))
    return out


def emission_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """Emission tokens (a unit signalling or jamming gives itself away), and fires-observation tokens."""
    out = []
    for o in snap.overlays:
        if o.kind in ("emission", "fires observation"):
            pts = outline(o.shape, 48, memo)
            out.append(DrawItem("emissions", (o.kind, o.shape), pts, "#ff4dff" if o.kind == "emission" else "#4dd2ff",
                                closed=True, width_px=2.0, dashed=o.kind != "emission", label=o.label,
                                text_in=(float(pts[:, 0].mean()), float(pts[:, 1].max()) + 0.4),
                                anchor_in=(float(pts[:, 0].mean()), float(pts[:, 1].mean())), units=o.unit_ids))
    return out


AREA_COLORS = {"smoke": ("#c8c8c8", 120), "illumination": ("#fff3a0", 60), "IR illumination": ("#ff9f9f", 45)}


def area_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """Smoke clouds and illumination areas placed by explosive variants, until they lift."""
    out = []
    for o in snap.overlays:
        if o.kind in AREA_COLORS:
            color, alpha = AREA_COLORS[o.kind]
            pts = outline(o.shape, RING_SEGMENTS, memo)
            out.append(DrawItem("areas", ("area", o.kind, o.shape), pts, color, closed=True, width_px=1.5, fill=alpha,
                                label=o.label, text_in=(o.shape.x_in, o.shape.y_in)))
    return out


def tape_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """The tape measure with its distance (base to base between units)."""
    t = snap.tape
    if t is None:
        return []
    mid = ((t.start_in[0] + t.end_in[0]) / 2, (t.start_in[1] + t.end_in[1]) / 2)
    return [DrawItem("tape", ("tape", t.start_in, t.end_in), _pts([t.start_in, t.end_in]), "#ffffff", width_px=2.5,
                     label=f'{t.distance_in:.1f}"', text_in=(mid[0], mid[1] + 0.8), text_color="#ffe14d", anchor_in=mid,
                     units=tuple(u for u in (t.start_unit, t.end_unit) if u is not None))]


TEMPLATE_COLOR = "#b388ff"


def template_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """Templates players placed (appmodel.placed_templates): circles and fans drawn from the rules'
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


def sight_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
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


def odds_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
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


#: Overlay kinds the builders draw; any other kind a ruleset returns is drawn by other_items.
DRAWN_KINDS = frozenset({"range", "blast reach", "minimum range", "fan", "movement", "voice", "signal", "jamming",
                         "emission", "fires observation", *AREA_COLORS, "range band", "cohesion", "leader",
                         "line of fire", "line of sight", "hot spot", "scatter", "scatter reach", "area of effect",
                         "command range", "automation move"})


def other_items(snap: Any, memo: Any = NO_MEMO) -> list[DrawItem]:
    """Every other shape the ruleset returns (a kind no builder knows yet), drawn plainly: its outline
    in its side's colour, its links, its label, the units it names ringed."""
    out = []
    for o in snap.overlays:
        if o.kind in DRAWN_KINDS:
            continue
        shape = o.shape
        color = snap.color_of(o.side)
        pts = outline(shape, 72, memo)
        if len(pts):
            closed = len(pts) > 2 and not isinstance(shape, Segment)
            out.append(DrawItem("other", (o.kind, shape), pts, color, closed=closed, width_px=2.0,
                                dashed=o.kind in ("scatter reach", "range band", "command range"),
                                fill=18 if closed and o.kind in ("line of fire", "cohesion", "area of effect") else 0,
                                label=o.label, text_in=top_of(pts), label_on_outline=closed, units=None))
        if isinstance(shape, Cluster):  # a unit's figures and the links that hold it together
            for a, b in shape.segments_in():
                out.append(DrawItem("other", (o.kind, "link", a, b), _pts([a, b]), lighter(color, 0.35), width_px=1.5))
        for uid in o.unit_ids:
            u = snap.unit(uid)
            if u is not None and u.on_table:
                out.append(ring_around(u, "other", color, memo, pad_in=0.6))
    return out


#: What the players do not see by default on the table (the projector) and on their own screens (the
#: class view): no grid (the table is real), no odds, no names over the figures, and placed templates
#: only once the instructor turns them on.
PLAYERS_DEFAULT_HIDDEN = frozenset({"grid", "odds", "labels", "templates"})

OVERLAYS: dict[str, OverlaySpec] = {spec.name: spec for spec in (
    OverlaySpec("grid", "Table grid", "Alt+G", grid_items),
    OverlaySpec("units", "Unit bases", "Alt+U", unit_items),
    OverlaySpec("labels", "Unit names", "Alt+N", label_items),
    OverlaySpec("range", "Weapon range", "Alt+R", range_items, own=True),
    OverlaySpec("bands", "Range bands and to-hit numbers", "Alt+H", band_items, own=True),
    OverlaySpec("fan", "Fan of fire", "Alt+F", fan_items, own=True),
    OverlaySpec("movement", "Movement left", "Alt+M", movement_items, own=True),
    OverlaySpec("blast", "Blast and miss radius", "Alt+B", blast_items, own=True),
    OverlaySpec("scatter", "Area of effect and scatter", "Alt+A", scatter_items, own=True),
    OverlaySpec("cohesion", "Unit cohesion and leaders", "Alt+C", cohesion_items, own=True),
    OverlaySpec("line_of_fire", "Line of fire (who is in it)", "Alt+I", line_of_fire_items, own=True),
    OverlaySpec("hot_spots", "Hot Spots", "Alt+P", hot_spot_items, own=True),
    OverlaySpec("command", "Command range", "Alt+D", command_items, own=True),
    OverlaySpec("automation", "Solo tables' suggested moves", "Alt+W", automation_items, own=True),
    OverlaySpec("voice", "Voice-comms chains", "Alt+V", voice_items, own=True),
    OverlaySpec("jamming", "Jamming", "Alt+J", jamming_items, own=True),
    OverlaySpec("emissions", "Emission and observation tokens", "Alt+E", emission_items, own=True),
    OverlaySpec("areas", "Smoke and illumination", "Alt+S", area_items, own=True),
    OverlaySpec("tape", "Tape measure", "Alt+T", tape_items),
    OverlaySpec("templates", "Placed templates", "Alt+K", template_items),
    OverlaySpec("sight", "Lines of sight", "Alt+L", sight_items),
    OverlaySpec("odds", "Odds per target", "Alt+O", odds_items),
    OverlaySpec("other", "Other shapes of the ruleset", "Alt+X", other_items),
)}

#: Drawing order, bottom to top: areas under everything, labels on top.
DRAW_ORDER = ("grid", "areas", "hot_spots", "jamming", "voice", "cohesion", "movement", "command", "range", "bands",
              "fan", "line_of_fire", "blast", "scatter", "automation", "emissions", "other", "sight", "units", "templates",
              "tape", "labels", "odds")


def overlays_for(offered: Collection[str] | None) -> tuple[OverlaySpec, ...]:
    """The overlays worth offering in the menus for a rule system whose ``FrontEnd.overlays`` is
    ``offered`` (its own and the shared ones), in menu order; every overlay when it lists none (None).

    >>> [spec.name for spec in overlays_for(("cohesion", "line_of_fire", "hot_spots"))][3:7]
    ['cohesion', 'line_of_fire', 'hot_spots', 'tape']
    """
    return tuple(spec for spec in OVERLAYS.values() if spec.offered_for(offered))


def build_items(snap: Any, layers: Iterable[str], *, memo: Memo | None = None) -> list[DrawItem]:
    """Draw items of the given overlay kinds, in drawing order. With a ``memo`` (one per view), what
    did not change since the last call is taken from it instead of being computed again."""
    wanted = set(layers)
    m: Any = memo if memo is not None else NO_MEMO
    out: list[DrawItem] = []
    for name in DRAW_ORDER:
        if name in wanted:
            out += OVERLAYS[name].build(snap, m)
    m.sweep()
    return out
