"""Builders for the shapes only Down Range draws: the fan of fire, blast and miss radii, voice-comms
chains and Signals, jamming, emission and observation tokens, smoke and illumination (Qt-free;
registered in :mod:`appmodel.overlays.registry`).

>>> from rules.downrange.examples.in_depth import SCENARIO_PATH
>>> from appmodel.game_session import GameSession
>>> s = GameSession.from_scenario_file(SCENARIO_PATH); s.select_unit(13)
>>> [i.label for i in voice_items(s.snapshot()) if i.label]
['voice reaches 5']
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from appmodel.overlays.draw_item import NO_MEMO, RING_SEGMENTS, XY, DrawItem, height_of, lighter, outline, ring_around, top_of
from appmodel.overlays.draw_item import pts as _pts
from appmodel.overlays.draw_memo import DrawMemo
from appmodel.session.snapshot import Snapshot
from rules.geometry import Circle, CommsGraph, Cone

def fan_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
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


def _names(snap: Snapshot, ids: Iterable[int]) -> list[str]:
    return [u.name for u in (snap.unit(uid) for uid in ids) if u is not None]


def blast_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
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
    # The red circle only while the round waits for its landing point; once placed, the mark of where it landed.
    if miss is not None and miss.landed_in is None:
        c = Circle(miss.intended_in[0], miss.intended_in[1], miss.miss_radius_in)
        label = f'miss radius {miss.miss_radius_in:g}": {miss.chooser} chooses where it lands'
        out.append(DrawItem("blast", ("miss", c), outline(c, RING_SEGMENTS, memo), "#ff4d4d", closed=True, width_px=2.0,
                            dashed=True, label=label, text_in=(c.x_in, c.y_in - c.radius_in - 0.6)))
    if miss is not None and miss.landed_in is not None:
        out.append(DrawItem("blast", ("landed", miss.landed_in), _pts([miss.landed_in]), "#ff4d4d", marker="x", width_px=3.0,
                            label="the missed round landed here", text_in=(miss.landed_in[0], miss.landed_in[1] + 1.0),
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


def _group_item(side: str, members: tuple[tuple[int, XY], ...], color: str, memo: DrawMemo) -> DrawItem:
    """A comms group's shaded hull. Its key is the hull itself: a member moving inside the group
    leaves the drawing unchanged, so nothing is repainted."""
    hull = _hull(np.concatenate([outline(Circle(*xy, 1.6), 16, memo) for _, xy in members]))
    hull.setflags(write=False)
    return DrawItem("voice", ("group", side, hull.tobytes()), hull, color, closed=True, width_px=1.0, fill=38,
                    units=tuple(uid for uid, _ in members))


def _chain_items(side: str, graph: CommsGraph, where: dict[int, XY], color: str, memo: DrawMemo) -> list[DrawItem]:
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
        # The ids belong in the key: two units on one spot (a gun team's crew) make the same line
        # between different units, and the item names the units it is drawn from.
        out.append(memo.get(("edge", a, b, where[a], where[b], both, edge_color), lambda: DrawItem(
            "voice", ("edge", where[a], where[b], both), _pts([where[a], where[b]]), edge_color, width_px=2.0,
            dashed=not both, units=(a, b))))
    return out


def voice_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
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


def jamming_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
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


def emission_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
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


def area_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Smoke clouds and illumination areas placed by explosive variants, until they lift."""
    out = []
    for o in snap.overlays:
        if o.kind in AREA_COLORS:
            color, alpha = AREA_COLORS[o.kind]
            pts = outline(o.shape, RING_SEGMENTS, memo)
            out.append(DrawItem("areas", ("area", o.kind, o.shape), pts, color, closed=True, width_px=1.5, fill=alpha,
                                label=o.label, text_in=(o.shape.x_in, o.shape.y_in)))
    return out
