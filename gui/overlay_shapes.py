"""What to draw, in table inches: one Qt-free builder per overlay kind, and the registry of them.

Every shape comes from the ruleset (``ruleset.overlays`` and :mod:`rules.geometry` outlines) through
the session's :class:`~gui.session.Snapshot`; nothing here decides a rule. A builder turns a snapshot
into :class:`DrawItem` values (polylines, polygons and labels in table inches, with a colour and a
style); :mod:`gui.overlay_painter` draws them through any ``device_from_table`` transform (top-down
view, camera perspective with lens distortion, projector).

Adding an overlay = one builder + one :data:`OVERLAYS` entry (+ one flag in
:class:`gui.settings.OverlayToggles`).

>>> from rules.downrange.examples.in_depth import SCENARIO_PATH
>>> from gui.session import GameSession
>>> s = GameSession.from_scenario_file(SCENARIO_PATH); s.select_unit(13)
>>> [i.label for i in build_items(s.snapshot(), ("range",))]
['Carl Gustaf / MAAWS Range 38"', 'Range + Radius 44"']
"""
from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from rules.geometry import Circle, CommsGraph, Cone, OrientedRect, Reach

XY = tuple[float, float]

#: Samples of a ring: enough that a 48" ring seen through a wide-angle lens is a smooth curve
#: (the painter also subdivides long straight segments for the camera view).
RING_SEGMENTS = 192
#: Grid spacing of the top-down view, inches, and the spacing of its labels.
GRID_IN = 6.0
GRID_LABEL_IN = 12.0


@dataclass(frozen=True, eq=False)
class DrawItem:
    """One thing to draw: a polyline or polygon (``points_in``, (N, 2) inches) and/or a label.

    ``key`` identifies the geometry for caching its projection (equal keys = equal points).
    ``width_px`` is a screen width (the painter scales it for zoom only in the top-down view);
    ``fill`` is a fill opacity 0-255 in ``color``; ``text_in`` is where the label goes.
    """

    layer: str
    key: Hashable
    points_in: np.ndarray
    color: str
    closed: bool = False
    width_px: float = 2.0
    fill: int = 0
    dashed: bool = False
    label: str = ""
    text_in: XY | None = None
    text_color: str = "#ffffff"
    marker: str = ""  # "x" draws a cross over points_in[0] of size width_px*4; "dot" a filled dot


@dataclass(frozen=True)
class OverlaySpec:
    """An overlay kind: its toggle name, what the menus call it, its shortcut and its builder."""

    name: str
    title: str
    shortcut: str
    build: Callable[..., list[DrawItem]] = field(repr=False)


def _pts(points: Iterable[XY]) -> np.ndarray:
    return np.asarray(list(points), dtype=np.float64).reshape(-1, 2)


def _outline(shape: object, segments: int = RING_SEGMENTS) -> np.ndarray:
    if isinstance(shape, Reach):
        return _pts(shape.outline_in(segments))
    if isinstance(shape, Circle):
        return _pts(shape.outline_in(max(24, min(segments, int(8 * shape.radius_in) + 24))))
    if isinstance(shape, Cone):
        return _pts(shape.outline_in(64))
    if isinstance(shape, OrientedRect):
        return _pts(shape.corners_in())
    outline = getattr(shape, "outline_in", None)
    return _pts(outline()) if outline else np.zeros((0, 2))


def _top_of(points: np.ndarray) -> XY:
    """Where a ring's label goes: its top point (largest y), so labels of nested rings do not collide."""
    if len(points) == 0:
        return (0.0, 0.0)
    i = int(np.argmax(points[:, 1]))
    return (float(points[i, 0]), float(points[i, 1]))


def _lighter(color: str, amount: float = 0.45) -> str:
    """A colour mixed toward white (movement and secondary rings).

    >>> _lighter("#000000", 0.5)
    '#808080'
    """
    c = color.lstrip("#")
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    mix = [round(v + (255 - v) * amount) for v in (r, g, b)]
    return "#" + "".join(f"{v:02x}" for v in mix)


# -- builders ----------------------------------------------------------------------------------

def grid_items(snap) -> list[DrawItem]:
    """The table's edge, a 6" grid and inch labels every 12" along two edges (static: cached)."""
    w, d = snap.table_size_in
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


def unit_items(snap) -> list[DrawItem]:
    """Each unit's base in its side's colour, a tick toward its front, down units greyed and crossed."""
    out = []
    for u in snap.units:
        if not u.on_table:
            continue
        fp = u.footprint
        active = u.status == "active"
        color = snap.color_of(u.side) if active else "#7a7a7a"
        outline = _outline(fp, 32)
        out.append(DrawItem("units", ("base", fp), outline, color, closed=True, width_px=2.0, fill=200 if active else 90))
        h = math.radians(u.heading_deg)
        reach = (getattr(fp, "radius_in", None) or (getattr(fp, "length_in", 1.0) / 2)) + 0.5
        out.append(DrawItem("units", ("front", u.x_in, u.y_in, u.heading_deg, reach),
                            _pts([(u.x_in, u.y_in), (u.x_in + reach * math.cos(h), u.y_in + reach * math.sin(h))]),
                            "#ffffff" if active else "#9a9a9a", width_px=2.0))
        if not active:
            out.append(DrawItem("units", ("down", u.x_in, u.y_in), _pts([(u.x_in, u.y_in)]), "#ffffff", marker="x", width_px=2.5))
        if u.unit_id == snap.selected_unit:
            ring = _outline(Circle(u.x_in, u.y_in, reach + 0.3), 40)
            out.append(DrawItem("units", ("selected", u.x_in, u.y_in, reach), ring, "#ffe14d", closed=True, width_px=3.0))
        if u.unit_id in snap.radio_units and active:
            out.append(DrawItem("units", ("radio", u.x_in, u.y_in), _pts([(u.x_in + 0.55, u.y_in + 0.55)]), "#ffffff",
                                marker="dot", width_px=2.0))
    return out


def label_items(snap) -> list[DrawItem]:
    """Unit names under their bases (units sharing one spot, like a gun team, share one label); the
    selected unit also shows its Move left."""
    spots: dict[tuple[float, float], list[str]] = {}
    where: dict[tuple[float, float], float] = {}
    for u in snap.units:
        if not u.on_table:
            continue
        r = getattr(u.footprint, "radius_in", None) or getattr(u.footprint, "width_in", 1.0) / 2
        text = u.name
        if u.unit_id == snap.selected_unit:
            left = "unlimited" if math.isinf(u.move_left_in) else f'{u.move_left_in:.1f}"'
            text += f" (move left {left})"
        if u.status != "active":
            text += f" [{u.status}]"
        spot = (round(u.x_in, 1), round(u.y_in, 1))
        spots.setdefault(spot, []).append(text)
        where[spot] = max(where.get(spot, 0.0), r)
    return [DrawItem("labels", ("label", spot, tuple(texts)), np.zeros((0, 2)), "#ffffff", label=" + ".join(texts),
                     text_in=(spot[0], spot[1] - where[spot] - 0.9)) for spot, texts in spots.items()]


def range_items(snap) -> list[DrawItem]:
    """The selected weapon's range ring from the closest point of the base, and for explosives the
    dashed ring of Range + Radius."""
    out = []
    for o in snap.overlays:
        if o.kind in ("range", "blast reach"):
            pts = _outline(o.shape)
            if len(pts) == 0:
                continue
            color = snap.color_of(o.side)
            out.append(DrawItem("range", ("ring", o.shape), pts, color if o.kind == "range" else _lighter(color, 0.3),
                                closed=True, width_px=2.5 if o.kind == "range" else 2.0, dashed=o.kind == "blast reach",
                                label=o.label, text_in=_top_of(pts)))
    return out


def fan_items(snap) -> list[DrawItem]:
    """The 45-degree cone along the unit's facing out to the weapon's range; enemy units inside are
    ringed and counted against the weapon's Fan."""
    out = []
    for o in snap.overlays:
        if o.kind != "fan" or not isinstance(o.shape, Cone):
            continue
        cone = o.shape
        pts = _outline(cone)
        color = snap.color_of(o.side)
        inside = [u for u in snap.units if u.on_table and u.status == "active" and u.side != o.side
                  and u.unit_id not in o.unit_ids and cone.touches(u.footprint)]
        for u in inside:
            r = (getattr(u.footprint, "radius_in", None) or getattr(u.footprint, "length_in", 1.0) / 2) + 0.45
            out.append(DrawItem("fan", ("in fan", u.unit_id, u.x_in, u.y_in, r), _outline(Circle(u.x_in, u.y_in, r), 40),
                                "#ffe14d", closed=True, width_px=2.5))
        reach = cone.reach.distance_in if not math.isinf(cone.reach.distance_in) else 24.0
        ax = math.radians(cone.axis_deg)
        at = (cone.apex_x_in + 0.55 * reach * math.cos(ax), cone.apex_y_in + 0.55 * reach * math.sin(ax))
        out.append(DrawItem("fan", ("fan", cone), pts, color, closed=True, width_px=2.0, fill=26,
                            label=f"{o.label}: {len(inside)} in the fan", text_in=at))
    return out


def movement_items(snap) -> list[DrawItem]:
    """What is left of the selected unit's Move this turn (halved when injured, overburdened or
    impaired, as the rules compute it)."""
    out = []
    for o in snap.overlays:
        if o.kind == "movement":
            pts = _outline(o.shape)
            if len(pts):
                out.append(DrawItem("movement", ("move", o.shape), pts, "#7be3a0", closed=True, width_px=2.0, dashed=True,
                                    label=o.label, text_in=(float(pts[:, 0].mean()), float(pts[:, 1].min()) - 0.2)))
    return out


def blast_items(snap) -> list[DrawItem]:
    """The blast radius around the picked point with every unit inside ringed, and after a miss the
    miss radius around the intended point (and where it landed)."""
    out = []
    if snap.blast_point is not None and snap.blast_radius_in:
        c = Circle(snap.blast_point[0], snap.blast_point[1], snap.blast_radius_in)
        names = [snap.unit(uid).name for uid in snap.blast_caught if snap.unit(uid) is not None]
        out.append(DrawItem("blast", ("blast", c), _outline(c), "#ff8c1a", closed=True, width_px=2.5, fill=55,
                            label=f'Radius {snap.blast_radius_in:g}": {len(names)} inside',
                            text_in=(c.x_in, c.y_in + c.radius_in + 0.4)))
        out.append(DrawItem("blast", ("aim", c.x_in, c.y_in), _pts([snap.blast_point]), "#ff8c1a", marker="x", width_px=3.0))
        for uid in snap.blast_caught:
            u = snap.unit(uid)
            if u is None:
                continue
            r = (getattr(u.footprint, "radius_in", None) or getattr(u.footprint, "length_in", 1.0) / 2) + 0.45
            out.append(DrawItem("blast", ("caught", uid, u.x_in, u.y_in, r), _outline(Circle(u.x_in, u.y_in, r), 40),
                                "#ff8c1a", closed=True, width_px=2.5))
    miss = snap.miss
    if miss is not None:
        c = Circle(miss.intended_in[0], miss.intended_in[1], miss.miss_radius_in)
        label = f'miss radius {miss.miss_radius_in:g}": {miss.chooser} chooses' if miss.landed_in is None else \
            f'miss radius {miss.miss_radius_in:g}"'
        out.append(DrawItem("blast", ("miss", c), _outline(c), "#ff4d4d", closed=True, width_px=2.0, dashed=True,
                            label=label, text_in=(c.x_in, c.y_in - c.radius_in - 0.6)))
        if miss.landed_in is not None:
            out.append(DrawItem("blast", ("landed", miss.landed_in), _pts([miss.landed_in]), "#ff4d4d", marker="x", width_px=3.0,
                                label="landed", text_in=(miss.landed_in[0], miss.landed_in[1] + 1.0)))
    return out


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull (monotone chain) of (N, 2) points, counter-clockwise."""
    pts = sorted(set(map(tuple, np.round(points, 6).tolist())))
    if len(pts) <= 2:
        return np.asarray(pts, dtype=np.float64)

    def cross(o: Sequence[float], a: Sequence[float], b: Sequence[float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, ...]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, ...]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.asarray(lower[:-1] + upper[:-1], dtype=np.float64)


def voice_items(snap) -> list[DrawItem]:
    """Voice-comms chains: edges between friendly units within their Move of each other, each
    connected group shaded, radio units marked (units layer), and who the selected unit's word reaches."""
    out = []
    for o in snap.overlays:
        if o.kind != "voice" or not isinstance(o.shape, CommsGraph):
            continue
        graph = o.shape
        color = snap.color_of(o.side)
        where = {n.unit_id: n.footprint.center.xy for n in graph.nodes}
        for group in graph.groups:
            if len(group) < 2:
                continue
            ring = np.concatenate([_outline(Circle(*where[uid], 1.6), 16) for uid in sorted(group)])
            out.append(DrawItem("voice", ("group", o.side, tuple(sorted((uid, where[uid]) for uid in group))), _hull(ring),
                                color, closed=True, width_px=1.0, fill=38))
        done: set[tuple[int, int]] = set()
        for a, b in graph.edges:
            pair = (min(a, b), max(a, b))
            if pair in done:
                continue
            done.add(pair)
            both = (b, a) in graph.edges
            out.append(DrawItem("voice", ("edge", where[a], where[b], both), _pts([where[a], where[b]]), _lighter(color, 0.35),
                                width_px=2.0, dashed=not both))
        sel = snap.selected_unit
        if sel is not None and sel in where:
            reached = sorted(graph.reachable_from(sel) - {sel})
            for uid in reached:
                x, y = where[uid]
                out.append(DrawItem("voice", ("heard", uid, x, y), _outline(Circle(x, y, 1.05), 32), "#b6f5c8",
                                    closed=True, width_px=2.0, dashed=True))
            x, y = where[sel]
            out.append(DrawItem("voice", ("reach label", sel, len(reached)), np.zeros((0, 2)), "#b6f5c8",
                                label=f"voice reaches {len(reached)}", text_in=(x, y + 2.0)))
    return out


def jamming_items(snap) -> list[DrawItem]:
    """Jamming circles (36") of EW units, and a cross on every radio or remote-piloted system cut off."""
    out = []
    for o in snap.overlays:
        if o.kind != "jamming":
            continue
        pts = _outline(o.shape)
        color = snap.color_of(o.side)
        out.append(DrawItem("jamming", ("jam", o.shape), pts, color, closed=True, width_px=2.0, fill=22, dashed=True,
                            label=o.label, text_in=_top_of(pts)))
        for uid in o.unit_ids:
            u = snap.unit(uid)
            if u is not None and u.on_table:
                out.append(DrawItem("jamming", ("cut", uid, u.x_in, u.y_in), _pts([(u.x_in, u.y_in)]), "#ff4dff", marker="x",
                                    width_px=3.0, label="jammed", text_in=(u.x_in, u.y_in + 1.3)))
    return out


def emission_items(snap) -> list[DrawItem]:
    """Emission tokens (a unit signalling or jamming gives itself away), and fires-observation tokens."""
    out = []
    for o in snap.overlays:
        if o.kind in ("emission", "fires observation"):
            pts = _outline(o.shape, 48)
            out.append(DrawItem("emissions", (o.kind, o.shape), pts, "#ff4dff" if o.kind == "emission" else "#4dd2ff",
                                closed=True, width_px=2.0, dashed=o.kind != "emission", label=o.label,
                                text_in=(float(pts[:, 0].mean()), float(pts[:, 1].max()) + 0.4)))
    return out


AREA_COLORS = {"smoke": ("#c8c8c8", 120), "illumination": ("#fff3a0", 60), "IR illumination": ("#ff9f9f", 45)}


def area_items(snap) -> list[DrawItem]:
    """Smoke clouds and illumination areas placed by explosive variants, until they lift."""
    out = []
    for o in snap.overlays:
        if o.kind in AREA_COLORS:
            color, alpha = AREA_COLORS[o.kind]
            pts = _outline(o.shape)
            out.append(DrawItem("areas", ("area", o.kind, o.shape), pts, color, closed=True, width_px=1.5, fill=alpha,
                                label=o.label, text_in=(o.shape.x_in, o.shape.y_in)))
    return out


def tape_items(snap) -> list[DrawItem]:
    """The tape measure with its distance (base to base between units)."""
    t = snap.tape
    if t is None:
        return []
    mid = ((t.start_in[0] + t.end_in[0]) / 2, (t.start_in[1] + t.end_in[1]) / 2)
    return [DrawItem("tape", ("tape", t.start_in, t.end_in), _pts([t.start_in, t.end_in]), "#ffffff", width_px=2.5,
                     label=f'{t.distance_in:.1f}"', text_in=(mid[0], mid[1] + 0.8), text_color="#ffe14d")]


def sight_items(snap) -> list[DrawItem]:
    """Lines of sight from the attacker to each target of the attack being set up (players judge them)."""
    d = snap.draft
    if d is None:
        return []
    a = snap.unit(d.attacker_id)
    if a is None or not a.on_table:
        return []
    out = []
    for uid in d.target_ids:
        t = snap.unit(uid)
        if t is not None and t.on_table:
            out.append(DrawItem("sight", ("sight", a.x_in, a.y_in, t.x_in, t.y_in), _pts([(a.x_in, a.y_in), (t.x_in, t.y_in)]),
                                "#ffffff", width_px=1.5, dashed=True))
    if d.aim_point is not None:
        out.append(DrawItem("sight", ("aimline", a.x_in, a.y_in, d.aim_point), _pts([(a.x_in, a.y_in), d.aim_point]),
                            "#ff8c1a", width_px=1.5, dashed=True))
    return out


def odds_items(snap) -> list[DrawItem]:
    """Each target's hit and kill probability while an attack is being set up."""
    out = []
    for o in snap.odds:
        u = snap.unit(o.unit_id)
        if u is None or not u.on_table:
            continue
        if o.allowed:
            text = f"hit {float(o.p_hit):.0%}  kill {float(o.p_kill_any):.0%}"
        else:
            text = f"no shot: {o.reason}"
        out.append(DrawItem("odds", ("odds", o.unit_id, text), np.zeros((0, 2)), "#ffe14d", label=text,
                            text_in=(u.x_in, u.y_in + 1.6), text_color="#ffe14d"))
    return out


OVERLAYS: dict[str, OverlaySpec] = {spec.name: spec for spec in (
    OverlaySpec("grid", "Table grid", "Alt+G", grid_items),
    OverlaySpec("units", "Unit bases", "Alt+U", unit_items),
    OverlaySpec("labels", "Unit names", "Alt+N", label_items),
    OverlaySpec("range", "Weapon range", "Alt+R", range_items),
    OverlaySpec("fan", "Fan of fire", "Alt+F", fan_items),
    OverlaySpec("movement", "Movement left", "Alt+M", movement_items),
    OverlaySpec("blast", "Blast and miss radius", "Alt+B", blast_items),
    OverlaySpec("voice", "Voice-comms chains", "Alt+V", voice_items),
    OverlaySpec("jamming", "Jamming", "Alt+J", jamming_items),
    OverlaySpec("emissions", "Emission and observation tokens", "Alt+E", emission_items),
    OverlaySpec("areas", "Smoke and illumination", "Alt+S", area_items),
    OverlaySpec("tape", "Tape measure", "Alt+T", tape_items),
    OverlaySpec("sight", "Lines of sight", "Alt+L", sight_items),
    OverlaySpec("odds", "Odds per target", "Alt+O", odds_items),
)}

#: Drawing order, bottom to top: areas under everything, labels on top.
DRAW_ORDER = ("grid", "areas", "jamming", "voice", "movement", "range", "fan", "blast", "emissions", "sight", "units",
              "tape", "labels", "odds")


def build_items(snap, layers: Iterable[str]) -> list[DrawItem]:
    """Draw items of the given overlay kinds, in drawing order."""
    wanted = set(layers)
    out: list[DrawItem] = []
    for name in DRAW_ORDER:
        if name in wanted:
            out += OVERLAYS[name].build(snap)
    return out
