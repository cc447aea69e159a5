"""Builders for the shapes the generic miniatures rules measure: range bands with their to-hit numbers,
where an area-of-effect shot may scatter and where it came down, the area of effect, a commander's
command range and the moves the solo-play tables suggest (Qt-free; registered in
:mod:`appmodel.overlays.registry`).

The rings, circles and segments are the rules' (``ruleset.overlays`` and ``attack_overlays``); the
words on them too. These functions only decide how they look: range bands as rings from the base in
the side's colour, paler with each band outward, each labelled where it crosses the line straight up
from the unit ("Medium 4+ (12-18")", short form "4+"), so the to-hit numbers read as a column.

>>> from appmodel.game_session import GameSession
>>> from rules.generic.examples.solo import SCENARIO_PATH, M1
>>> s = GameSession.from_scenario_file(SCENARIO_PATH); s.select_unit(M1)
>>> [(i.label, i.short_label) for i in band_items(s.snapshot())][:2]
[('Point Blank 2+ (0-6")', '2+'), ('Short 3+ (6-12")', '3+')]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from appmodel.overlays.draw_item import (NO_MEMO, RING_SEGMENTS, WARNING, DrawItem, arrow_head, base_radius, bottom_of, lighter,
                           outline, pts, ring_around, top_of)
from appmodel.overlays.draw_memo import DrawMemo
from appmodel.session.snapshot import Snapshot
from rules.geometry import Circle, Reach, Segment

#: Area-of-effect fill: the colour of Down Range's blast, so an area that hurts looks the same in both.
EFFECT_COLOR = "#ff8c1a"
#: Units within a commander's command range are ringed in this colour (as Down Range's "heard").
IN_COMMAND_COLOR = "#b6f5c8"


def to_hit_text(label: str) -> str:
    """The to-hit number in a range band's label ("Medium 4+ (12-18\")" -> "4+"), or "" if none.

    >>> to_hit_text('Medium 4+ (12-18")'), to_hit_text("Very Long 6+ (24-30\\")"), to_hit_text("nothing")
    ('4+', '6+', '')
    """
    return next((w for w in label.split() if w.endswith("+") and w[:-1].isdigit()), "")


def band_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """The selected unit's range bands: a ring at the far edge of each band, labelled with the band,
    its to-hit number and its inches; nearer (easier) bands in the stronger colour."""
    bands = [o for o in snap.overlays if o.kind == "range band" and snap.selected_unit in o.unit_ids]
    out: list[DrawItem] = []
    for k, o in enumerate(bands):
        color = lighter(snap.color_of(o.side), 0.05 + 0.35 * k / max(1, len(bands) - 1))
        out.append(memo.get(("band", o, color), lambda: _band_now(o, color, memo)))
    return out


def _band_now(o: Any, color: str, memo: DrawMemo) -> DrawItem:
    ring = outline(o.shape, RING_SEGMENTS, memo)
    return DrawItem("bands", ("band", o.shape), ring, color, closed=True, width_px=1.75, label=o.label,
                    text_in=top_of(ring), text_color=lighter(color, 0.4), short_label=to_hit_text(o.label), units=o.unit_ids,
                    label_on_outline=True)


def scatter_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """While an area weapon is aimed: its area of effect at the aim point and, dashed red, how far a
    miss may scatter. After a shot: the area of effect where it came down and, for a miss, the
    scatter from the intended point to where it landed (an arrow, the distance in inches); a Dud
    marked where it was aimed."""
    out: list[DrawItem] = []
    for o in snap.overlays:
        shape = o.shape
        if o.kind == "area of effect" and isinstance(shape, Circle):
            ring = outline(shape, RING_SEGMENTS, memo)
            # Shaded like a blast, outlined in the firing side's colour.
            out.append(DrawItem("scatter", ("effect fill", shape), ring, EFFECT_COLOR, closed=True, width_px=1.0,
                                fill=70, units=o.unit_ids))
            out.append(DrawItem("scatter", ("effect", shape), ring, snap.color_of(o.side), closed=True, width_px=2.5,
                                label=o.label, text_in=top_of(ring), text_color="#ffc08a", units=o.unit_ids))
        elif o.kind == "scatter reach" and isinstance(shape, Circle):
            ring = outline(shape, RING_SEGMENTS, memo)
            out.append(DrawItem("scatter", ("scatter reach", shape), ring, WARNING, closed=True, width_px=2.0,
                                dashed=True, label=o.label, text_in=bottom_of(ring), label_on_outline=True,
                                units=_attacker(snap)))
        elif o.kind == "scatter" and isinstance(shape, Segment):
            out += memo.get(("scatter", o), lambda: _scatter_now(o))
        elif o.kind == "scatter" and isinstance(shape, Circle):  # a Dud: where it was aimed
            ring = outline(shape, 24, memo)
            out.append(DrawItem("scatter", ("dud", shape), ring, WARNING, closed=True, width_px=2.0, dashed=True,
                                label=o.label, text_in=(shape.x_in, shape.y_in + shape.radius_in + 0.8),
                                anchor_in=(shape.x_in, shape.y_in)))
            out.append(DrawItem("scatter", ("dud x", shape), pts([(shape.x_in, shape.y_in)]), WARNING, marker="x",
                                width_px=2.5))
    return out


def _scatter_now(o: Any) -> list[DrawItem]:
    seg: Segment = o.shape
    a, b = (seg.ax_in, seg.ay_in), (seg.bx_in, seg.by_in)
    words = f'{o.label} {seg.length_in:.1f}"'
    out = [DrawItem("scatter", ("scatter line", a, b), pts([a, b]), WARNING, width_px=2.5, units=o.unit_ids),
           DrawItem("scatter", ("intended", a), pts([a]), WARNING, marker="x", width_px=2.5)]
    if seg.length_in > 1e-6:
        out.append(DrawItem("scatter", ("scatter head", a, b), arrow_head(a, b), WARNING, width_px=2.5))
    out.append(DrawItem("scatter", ("landed", b), pts([b]), WARNING, marker="dot", width_px=2.5, label=words,
                        text_in=(b[0], b[1] - 1.1), anchor_in=b, text_color="#ffb3b3",
                        short_label=f'scattered {seg.length_in:.1f}"'))
    return out


def _attacker(snap: Snapshot) -> tuple[int, ...]:
    return (snap.draft.attacker_id,) if snap.draft is not None else ()


def command_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """The selected commander's command range (dashed, from the base) and the units under command
    within it ringed."""
    out: list[DrawItem] = []
    sel = snap.unit(snap.selected_unit) if snap.selected_unit is not None else None
    for o in snap.overlays:
        if o.kind != "command range" or sel is None or not isinstance(o.shape, Reach) or o.shape.around != sel.footprint:
            continue
        ring = outline(o.shape, RING_SEGMENTS, memo)
        color = lighter(snap.color_of(o.side), 0.25)
        out.append(DrawItem("command", ("command", o.shape), ring, color, closed=True, width_px=2.0, dashed=True,
                            label=o.label, text_in=bottom_of(ring), label_on_outline=True, units=(sel.unit_id,)))
        for uid in o.unit_ids:
            u = snap.unit(uid)
            if u is not None and u.on_table:
                out.append(ring_around(u, "command", IN_COMMAND_COLOR, memo, pad_in=0.55, width_px=2.0, dashed=True))
    return out


def automation_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
    """The moves the solo-play tables suggest for the automated side: a dashed arrow from where the
    unit stood when the tables decided to where the route leads, its base's outline there, and the
    route in words."""
    out: list[DrawItem] = []
    for o in snap.overlays:
        if o.kind == "automation move" and isinstance(o.shape, Segment):
            u = snap.unit(o.unit_ids[0]) if o.unit_ids else None
            r = base_radius(u) if u is not None else 0.5
            out += memo.get(("automation", o, r, snap.color_of(o.side)),
                            lambda: _automation_now(o, r, snap.color_of(o.side), memo))
    return out


def _automation_now(o: Any, r: float, color: str, memo: DrawMemo) -> list[DrawItem]:
    seg: Segment = o.shape
    a, b = (seg.ax_in, seg.ay_in), (seg.bx_in, seg.by_in)
    pale = lighter(color, 0.3)
    out = [DrawItem("automation", ("auto line", a, b), pts([a, b]), pale, width_px=2.5, dashed=True, units=o.unit_ids)]
    if seg.length_in > 1e-6:
        out.append(DrawItem("automation", ("auto head", a, b), arrow_head(a, b, size_in=0.9), pale, width_px=2.5,
                            units=o.unit_ids))
    ghost = outline(Circle(b[0], b[1], r), 32, memo)
    out.append(DrawItem("automation", ("auto ghost", b, r), ghost, pale, closed=True, width_px=1.5, dashed=True,
                        fill=40, units=o.unit_ids))
    out.append(DrawItem("automation", ("auto label", o.label, b), np.zeros((0, 2)), pale, label=o.label,
                        text_in=(b[0], b[1] + r + 0.9), anchor_in=b, text_color=lighter(color, 0.6),
                        short_label=o.label.split(":")[0], units=o.unit_ids))
    return out


__all__ = ["EFFECT_COLOR", "IN_COMMAND_COLOR", "automation_items", "band_items", "command_items", "scatter_items",
           "to_hit_text"]
