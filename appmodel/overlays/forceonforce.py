"""Builders for the shapes Force on Force measures: unit cohesion, attached leaders, the line-of-fire
corridor with who stands in it, and the Hot Spots (Qt-free; registered in :mod:`appmodel.overlays.registry`).

Every shape and verdict is the rules' (``ruleset.overlays`` / ``attack_overlays``: a
:class:`~rules.geometry.Cluster` per fireteam, a :class:`~rules.geometry.Corridor` and the figures the
rules found in it); these functions only decide how they look. A fireteam is drawn as the area each of
its connected groups holds, shaded in its side's colour, with the links that join its figures; a
figure the links do not reach (a straggler) is ringed in red with a dashed line to the nearest figure
of its unit and the gap in inches.

>>> from appmodel.game_session import GameSession
>>> from rules.forceonforce.examples.patrol import SCENARIO_PATH
>>> s = GameSession.from_scenario_file(SCENARIO_PATH); s.select_unit(10)
>>> [i.label for i in cohesion_items(s.snapshot()) if i.label][:2]
['Alpha: in cohesion (1")', 'Bravo: in cohesion (1")']
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from appmodel.overlays.draw_item import (CAUTION, NO_MEMO, WARNING, XY, DrawItem, heights_along, lighter, outline, pts,
                           ring_around, top_of)
from appmodel.overlays.draw_memo import DrawMemo
from appmodel.overlays.shared import draft_heights
from appmodel.session.snapshot import Snapshot
from rules.geometry import Circle, Cluster, Corridor, Reach, Segment, gap_in

#: How far a fireteam's shaded area reaches beyond its figures' bases, inches (so it shows around them).
COHESION_PAD_IN = 0.35
#: Hot Spot counters: the counter's colour (they belong to no side).
HOT_SPOT_COLOR = "#ffb000"


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull of (N, 2) inches (OpenCV's), read-only: shared between frames through the memo.

    >>> _hull(np.array([[0, 0], [2, 0], [1, 1], [2, 2], [0, 2]], float)).shape
    (4, 2)
    """
    import cv2

    p = np.ascontiguousarray(np.asarray(points, dtype=np.float32).reshape(-1, 1, 2))
    out = p.reshape(-1, 2).astype(np.float64) if len(p) <= 2 else cv2.convexHull(p).reshape(-1, 2).astype(np.float64)
    out.setflags(write=False)
    return out


def _team_name(label: str) -> str:
    """The unit's name at the start of a cohesion label ("Alpha: in cohesion (1\")").

    >>> _team_name('Cell 1: OUT OF COHESION (2 astray) (1")')
    'Cell 1'
    """
    return label.split(":", 1)[0]


def _area_item(side_key: Any, members: tuple[tuple[int, Any], ...], color: str, *, straggling: bool,
               memo: DrawMemo) -> DrawItem:
    """The area one connected group of a fireteam holds: the hull of its bases grown by a little."""
    rings = [outline(Reach(fp, COHESION_PAD_IN), 24, memo) for _, fp in members]
    hull = _hull(np.concatenate(rings))
    ids = tuple(i for i, _ in members)
    return DrawItem("cohesion", ("cohesion area", side_key, hull.tobytes()), hull, WARNING if straggling else color,
                    closed=True, width_px=2.0 if straggling else 1.5, fill=60 if straggling else 45, dashed=straggling,
                    units=ids)


def _cluster_items(c: Cluster, label: str, color: str, names: dict[int, str], memo: DrawMemo) -> list[DrawItem]:
    where = dict(c.members)
    out: list[DrawItem] = []
    for k, group in enumerate(c.groups):
        members = tuple((i, fp) for i, fp in c.members if i in group)
        out.append(_area_item((label, k), members, color, straggling=k > 0, memo=memo))
    link_color = lighter(color, 0.35)
    for (ax, ay), (bx, by) in c.segments_in():
        out.append(DrawItem("cohesion", ("cohesion link", ax, ay, bx, by), pts([(ax, ay), (bx, by)]), link_color,
                            width_px=1.5))
    ids = tuple(i for i, _ in c.members)
    main = c.groups[0] if c.groups else frozenset()
    top = (0.0, 0.0)
    if main:
        top = top_of(np.concatenate([outline(Reach(where[i], COHESION_PAD_IN), 24, memo) for i in main]))
    name = _team_name(label)
    if c.is_connected:
        # (no short form: when crowded, "in cohesion" is the label to drop, and the name is shown anyway)
        out.append(DrawItem("cohesion", ("cohesion label", label), np.zeros((0, 2)), color, label=label,
                            text_in=(top[0], top[1] + 0.5), anchor_in=top, units=ids))
        return out
    # Out of cohesion: the label in red and high in the placement order, each straggler ringed, with a
    # dashed line to the nearest figure of the largest group and how far apart they are.
    out.append(DrawItem("cohesion", ("cohesion label", label), np.zeros((0, 2)), WARNING, label=label,
                        text_in=(top[0], top[1] + 0.5), anchor_in=top, text_color="#ffb3b3", priority=80,
                        short_label=f"{name}: OUT", units=ids))
    for i in sorted(c.stragglers):
        fp = where[i]
        near = min(main, key=lambda j: gap_in(fp, where[j]))
        gap = gap_in(fp, where[near])
        a, b = fp.center.xy, where[near].center.xy
        r = (fp.radius_in if isinstance(fp, Circle) else 0.5) + 0.5
        out.append(DrawItem("cohesion", ("straggler", i, a), outline(Circle(a[0], a[1], r), 40, memo), WARNING,
                            closed=True, width_px=3.0, units=(i,)))
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        who = names.get(i, str(i))
        out.append(DrawItem("cohesion", ("straggler gap", i, a, b), pts([a, b]), WARNING, width_px=2.0, dashed=True,
                            label=f'{who}: {gap:.1f}" from {names.get(near, str(near))} (cohesion {c.link_in:g}")',
                            text_in=(mid[0], mid[1] - 0.9), anchor_in=a, text_color="#ffb3b3", priority=78,
                            short_label=f'{gap:.1f}" out', units=(i, near)))
    return out


def cohesion_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Each fireteam's cohesion (the rules' :class:`~rules.geometry.Cluster`): the area its figures
    hold in its side's colour and the links between them; out of cohesion, the stray figures ringed
    in red, the gap to their unit measured, the label in red. Attached leaders: a dashed line to the
    centre of the unit they lead, their own ring, the rules' words."""
    out: list[DrawItem] = []
    names = {u.unit_id: u.name for u in snap.units}
    for o in snap.overlays:
        if o.kind == "cohesion" and isinstance(o.shape, Cluster) and len(o.shape.members) > 1:
            # (a unit of one figure always holds together: nothing worth drawing)
            c, color = o.shape, snap.color_of(o.side)
            # Names only matter for the gap labels of a unit out of cohesion.
            figure_names = {} if c.is_connected else {i: names.get(i, str(i)) for i, _ in c.members}
            out += memo.get(("cohesion", c, o.label, color, tuple(sorted(figure_names.items()))),
                            lambda: _cluster_items(c, o.label, color, figure_names, memo))
        elif o.kind == "leader" and isinstance(o.shape, Segment):
            out += memo.get(("leader", o), lambda: _leader_items(o, snap.color_of(o.side), snap.unit(o.unit_ids[0])
                                                                 if o.unit_ids else None, memo))
    return out


def _leader_items(o: Any, color: str, leader: Any, memo: DrawMemo) -> list[DrawItem]:
    seg: Segment = o.shape
    a, b = (seg.ax_in, seg.ay_in), (seg.bx_in, seg.by_in)
    gold = "#ffd24d"
    out = [DrawItem("cohesion", ("leader link", a, b), pts([a, b]), gold, width_px=1.5, dashed=True, units=o.unit_ids)]
    if leader is not None and leader.on_table:
        out.append(ring_around(leader, "cohesion", gold, memo, pad_in=0.3, width_px=2.0))
    out.append(DrawItem("cohesion", ("leader label", o.label, a), np.zeros((0, 2)), gold, label=o.label,
                        text_in=(a[0], a[1] + 1.3), anchor_in=a, text_color="#ffe9a6", priority=33,
                        short_label=o.label.split(" ")[0], units=o.unit_ids))
    return out


def _draft_figures(snap: Snapshot) -> tuple[int, ...]:
    """The figures of the drafted attack's firing unit and targets (a corridor moves with them)."""
    d = snap.draft
    if d is None:
        return ()
    groups = set()
    ids = {d.attacker_id, *d.target_ids}
    for uid in ids:
        u = snap.unit(uid)
        if u is not None and u.group is not None:
            groups.add((u.side, u.group))
    return tuple(sorted(ids | {u.unit_id for u in snap.units if (u.side, u.group) in groups}))


def line_of_fire_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """The line-of-fire corridor of the attack being set up (the rules' :class:`~rules.geometry.Corridor`,
    2" each side of the line centre to centre), shaded in the firing side's colour; every figure the
    rules found in it ringed in amber, and who they are listed along it."""
    out: list[DrawItem] = []
    for o in snap.overlays:
        if o.kind != "line of fire" or not isinstance(o.shape, Corridor):
            continue
        lane = o.shape
        color = snap.color_of(o.side)
        movers = _draft_figures(snap)
        poly = outline(lane, 4, memo)
        # From a rooftop gunner down to the street: each end of the corridor at its unit's height.
        z_a, z_b = draft_heights(snap)
        a, b = (lane.ax_in, lane.ay_in), (lane.bx_in, lane.by_in)
        out.append(DrawItem("line_of_fire", ("corridor", lane), poly, color, closed=True, width_px=2.5, fill=60,
                            dashed=True, units=movers, z_in=heights_along(poly, a, b, z_a, z_b)))
        for uid in o.unit_ids:
            u = snap.unit(uid)
            if u is not None and u.on_table:
                out.append(ring_around(u, "line_of_fire", CAUTION, memo, pad_in=0.35, width_px=3.0))
        # The list goes beside the corridor, half-way along, on the side with fewer of the ringed
        # figures near it (above it in the top-down view when both are clear), clear of their rings.
        length = max(math.hypot(lane.bx_in - lane.ax_in, lane.by_in - lane.ay_in), 1e-9)
        nx, ny = -(lane.by_in - lane.ay_in) / length, (lane.bx_in - lane.ax_in) / length
        if ny < 0:
            nx, ny = -nx, -ny
        mid: XY = ((lane.ax_in + lane.bx_in) / 2, (lane.ay_in + lane.by_in) / 2)
        off = lane.half_width_in + 1.6
        ringed = [u for u in (snap.unit(uid) for uid in o.unit_ids) if u is not None and u.on_table]

        def crowding(sign: float) -> int:
            x, y = mid[0] + sign * nx * off, mid[1] + sign * ny * off
            return sum(1 for u in ringed if abs((u.x_in - x) * ny - (u.y_in - y) * nx) < length / 2 + 1.5
                       and abs((u.x_in - x) * nx + (u.y_in - y) * ny) < 1.8)

        if crowding(-1.0) < crowding(1.0):
            nx, ny = -nx, -ny
        inside = len(o.unit_ids)
        out.append(DrawItem("line_of_fire", ("corridor label", lane, o.label), np.zeros((0, 2)), color, label=o.label,
                            text_in=(mid[0] + nx * off, mid[1] + ny * off), anchor_in=mid,
                            text_color="#ffd27a" if inside else "#ffffff",
                            short_label=f"{inside} in the line of fire" if inside else "line of fire clear",
                            units=None, z_in=(z_a + z_b) / 2))
    return out


def hot_spot_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """Hot Spot counters (numbered, amber) and, while a reinforcing unit waits to come on, the area
    around its Hot Spot where it may be placed (dashed, in its side's colour)."""
    out: list[DrawItem] = []
    for o in snap.overlays:
        if o.kind != "hot spot" or not isinstance(o.shape, Circle):
            continue
        c = o.shape
        ring = outline(c, 48, memo)
        if o.unit_ids:  # a placement area: whose, and how far from the counter
            color = snap.color_of(o.side)
            out.append(DrawItem("hot_spots", ("arrival", c, o.label), ring, color, closed=True, width_px=2.0, fill=30,
                                dashed=True, label=o.label, text_in=top_of(ring), label_on_outline=True))
        else:
            number = o.label.rsplit(" ", 1)[-1]
            out.append(DrawItem("hot_spots", ("hot spot", c), ring, HOT_SPOT_COLOR, closed=True, width_px=2.0, fill=150,
                                label=o.label, text_in=(c.x_in, c.y_in + c.radius_in + 0.9),
                                anchor_in=(c.x_in, c.y_in), text_color="#ffd27a", short_label=number))
    return out


__all__ = ["COHESION_PAD_IN", "HOT_SPOT_COLOR", "cohesion_items", "hot_spot_items", "line_of_fire_items"]
