"""A session snapshot as the class view's scene: JSON-ready data in table inches.

The scene holds the draw items the Qt painter draws (:func:`build_items` with the class's overlay
toggles) as polylines and polygons in inches, their labels placed without overlaps by the same
:func:`place_labels` every Qt view uses (in a nominal top-down view of ``PX_PER_IN`` pixels per inch,
then given back in inches), the units with their names and states, the round and whose turn it is,
the last resolved roll as a card, and the tail of the log. The browser (``static/classview.js``)
only turns it into SVG: what the rules compute is drawn once.

>>> from rules.downrange.examples.in_depth import SCENARIO_PATH
>>> from appmodel.game_session import GameSession
>>> s = GameSession.from_scenario_file(SCENARIO_PATH, seed=1)
>>> scene = SceneBuilder(class_layers()).scene(s.snapshot(), s.log)
>>> scene["table_in"], len(scene["units"]) > 5, sorted({i["layer"] for i in scene["items"]}) [:2]
([72.0, 48.0], True, ['units', 'voice'])
"""
from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from appmodel.overlays.registry import DEFAULT_OFF, PLAYERS_DEFAULT_HIDDEN
from classview.model import OVERLAYS, REQUIRED_PRIORITY, DrawItem, LabelRequest, Memo, PlacedLabel, build_items, \
    place_labels
from rules.events import RulesEvent
from rules.ruleset import RulesState, ruleset_of, set_up_words

#: The nominal view the labels are placed in: pixels per table inch and the label font, pixels (the
#: Qt views' 15 px bold font on a 1366-wide window showing a 72" table is about this scale).
PX_PER_IN = 20.0
FONT_PX = 14.0


@dataclass(frozen=True)
class LabelScale:
    """A screen size the labels are placed for: ``px_per_in`` screen pixels per table inch, ``font_px``
    the labels' font there. A page picks the placement made for its own scale, so a label is as many
    pixels high on a phone as on a laptop; on a small screen fewer fit, and the placement keeps the
    ones that matter most (the selected unit, the odds), then short names, then drops the rest."""

    px_per_in: float
    font_px: float


#: The nominal placement first (the page's ``labels``), then smaller screens down to a phone's (a 72"
#: table across a 390-pixel phone is about 5 px per inch: a 0.7" label there was 4 px high). A page
#: takes the largest not above its own scale: a font at most 1.4 times its ``font_px`` high.
LAPTOP = LabelScale(PX_PER_IN, FONT_PX)
LABEL_SCALES = (LAPTOP, LabelScale(14.0, 14.0), LabelScale(10.0, 13.0), LabelScale(7.0, 12.0), LabelScale(5.0, 12.0))
#: How wide a bold sans-serif character is, in font sizes (an estimate: the browser shrinks a label
#: whose text turns out wider than its box, so the placed box is never overflowed).
CHAR_EM = 0.6
#: Log lines sent with each scene (the page shows the newest first).
LOG_TAIL = 40
#: Coordinates are rounded to this many decimals of an inch (1/100": far below a pixel on any screen).
DECIMALS = 2




def class_layers(projector: Any = None) -> frozenset[str]:
    """The overlays the class sees: those the projector's "What the players see" toggles have on
    (``names()`` / ``is_on(name)``: so hidden odds stay hidden; by default all but the grid, the
    odds and placed templates), with the unit bases and names always on — the projector leaves names off because the
    figures stand on the table under them; a screen has no figures to read them from.

    >>> sorted(class_layers() & {"grid", "odds", "templates"}), {"units", "labels"} <= class_layers()
    ([], True)
    """
    if projector is None:
        # the players' default (the viewshed, sculpting and symbols once the instructor turns them on)
        on = set(OVERLAYS) - PLAYERS_DEFAULT_HIDDEN - DEFAULT_OFF
    else:
        on = {name for name in projector.names() if projector.is_on(name)}
    return frozenset(on | {"units", "labels"})


class SceneBuilder:
    """Builds scenes for one audience (one set of overlays), remembering what did not change: the
    builders' memo (a moved unit re-computes only its own shapes) and the last label placement (labels
    do not hop while a unit is carried)."""

    def __init__(self, layers: frozenset[str], *, scales: Sequence[LabelScale] = (LAPTOP,)) -> None:
        self.layers = frozenset(layers)
        self.memo = Memo()
        #: The screen sizes labels are placed for: the first is the scene's ``labels``; with more, the
        #: scene's ``label_sets`` holds one placement per scale (the live class view's phones).
        self.scales = tuple(scales)
        self._placed: dict[LabelScale, dict[Hashable, PlacedLabel]] = {}
        self._item_json: dict[int, tuple[DrawItem, dict[str, Any]]] = {}

    def set_layers(self, layers: frozenset[str]) -> None:
        self.layers = frozenset(layers)

    def items(self, snapshot: Any) -> list[DrawItem]:
        return build_items(snapshot, self.layers, memo=self.memo)

    def scene(self, snapshot: Any, log: Sequence[Any] = (), *, t_s: float | None = None) -> dict[str, Any]:
        """The scene of ``snapshot`` (a :class:`Snapshot`) and the session's ``log`` entries."""
        items = self.items(snapshot)
        w, d = (float(v) for v in snapshot.table_size_in)
        sets = [{"px_per_in": sc.px_per_in, "font_in": round(sc.font_px / sc.px_per_in, 3),
                 "labels": self._labels(items, (w, d), sc)} for sc in self.scales]
        scene = {
            "version": int(snapshot.version),
            "t_s": round(float(snapshot.t_s if t_s is None else t_s), 3),
            "table_in": [w, d],
            "font_in": sets[0]["font_in"],
            "items": [self._item(i) for i in items if len(i.points_in)],
            "labels": sets[0]["labels"],
            "units": units_json(snapshot),
            "turn": turn_json(snapshot.state),
            "roll": last_roll_json(snapshot.state.events, ruleset_of(snapshot.state)),
            "log": log_json(log),
        }
        if len(sets) > 1:
            scene["label_sets"] = sets
        return scene

    def _item(self, item: DrawItem) -> dict[str, Any]:
        # Items come back as the same objects while they do not change (the memo): their JSON too.
        hit = self._item_json.get(id(item))
        if hit is not None and hit[0] is item:
            return hit[1]
        data = item_json(item)
        if len(self._item_json) > 20000:
            self._item_json.clear()
        self._item_json[id(item)] = (item, data)
        return data

    def _labels(self, items: Sequence[DrawItem], table_in: tuple[float, float],
                scale: LabelScale = LAPTOP) -> list[dict[str, Any]]:
        w, d = table_in
        ppi = scale.px_per_in
        labelled = [i for i in items if i.label and i.text_in is not None]
        requests: list[LabelRequest] = []
        for item in labelled:
            at = _px(item.text_in, d, ppi)
            anchor = _px(item.anchor_in or item.text_in, d, ppi)
            size = text_size(item.label, scale.font_px)
            if item.label_on_outline:
                at = anchor = _visible_spot(item, at, size, table_in, ppi)
            prio = item.label_priority
            requests.append(LabelRequest((item.layer, item.key), item.label, size, at, anchor, prio,
                                         required=prio >= REQUIRED_PRIORITY, short_text=item.short_label,
                                         short_size_px=text_size(item.short_label, scale.font_px) if item.short_label
                                         else None))
        bases = [_bounds_px(i.points_in, d, ppi) for i in items
                 if i.layer == "units" and isinstance(i.key, tuple) and i.key and i.key[0] == "base" and len(i.points_in)]
        placed = place_labels(requests, bounds_px=(0.0, 0.0, w * ppi, d * ppi), previous=self._placed.get(scale),
                              obstacles_px=bases)
        self._placed[scale] = {p.key: p for p in placed}
        by_key = {(i.layer, i.key): i for i in labelled}
        return [label_json(p, by_key[p.key], d, ppi) for p in placed]


def text_size(text: str, font_px: float = FONT_PX) -> tuple[float, float]:
    """The estimated box of a label in the nominal view, pixels (text plus the Qt painter's padding)."""
    return (len(text) * CHAR_EM * font_px + 8.0, font_px * 1.3 + 2.0)


def _px(xy: tuple[float, float], depth_in: float, ppi: float = PX_PER_IN) -> tuple[float, float]:
    return (float(xy[0]) * ppi, (depth_in - float(xy[1])) * ppi)


def _bounds_px(points_in: np.ndarray, depth_in: float, ppi: float = PX_PER_IN) -> tuple[float, float, float, float]:
    x, y = points_in[:, 0] * ppi, (depth_in - points_in[:, 1]) * ppi
    return (float(x.min()), float(y.min()), float(x.max()), float(y.max()))


def _visible_spot(item: DrawItem, at: tuple[float, float], size: tuple[float, float],
                  table_in: tuple[float, float], ppi: float = PX_PER_IN) -> tuple[float, float]:
    """A ring's label spot, slid along the ring to the nearest point on the table when it is off it."""
    w, d = table_in
    mx, my = size[0] / 2 + 2, size[1] / 2 + 2
    W, H = w * ppi, d * ppi
    if mx <= at[0] <= W - mx and my <= at[1] <= H - my:
        return at
    p = np.column_stack([item.points_in[:, 0] * ppi, (d - item.points_in[:, 1]) * ppi])
    ok = (p[:, 0] >= mx) & (p[:, 0] <= W - mx) & (p[:, 1] >= my) & (p[:, 1] <= H - my)
    if not ok.any():
        return at
    vis = p[ok]
    k = int(np.argmin((vis[:, 0] - at[0]) ** 2 + (vis[:, 1] - at[1]) ** 2))
    return (float(vis[k, 0]), float(vis[k, 1]))


def item_json(item: DrawItem) -> dict[str, Any]:
    """One draw item: its layer, points (flat x, y, x, y... in inches), colour and style as the Qt
    painter reads them (``width_px`` a pen width in screen pixels, ``fill`` an opacity 0-255)."""
    data: dict[str, Any] = {"layer": item.layer, "pts": np.round(item.points_in, DECIMALS).ravel().tolist(),
                            "color": item.color, "width_px": item.width_px}
    if item.closed:
        data["closed"] = True
    if item.fill:
        data["fill"] = int(item.fill)
    if item.dashed:
        data["dashed"] = True
    if item.marker:
        data["marker"] = item.marker
    if item.marker == "raster":
        # a per-cell picture (a viewshed, tints): a PNG the browser stretches over its rectangle,
        # flipped so its first line is the table's far edge (SVG's y runs down)
        data["png"] = "data:image/png;base64," + base64.b64encode(png_bytes(item.raster[::-1])).decode("ascii")
    if item.marker == "symbol":
        data["svg"] = item.symbol_svg  # milsymbol's SVG: the browser draws it as it is
    if item.units:
        data["units"] = list(item.units)
    if item.layer == "units" and isinstance(item.key, tuple) and item.key and item.key[0] == "base" and item.units:
        data["base_of"] = item.units[0]
    return data


def png_bytes(rgba: np.ndarray) -> bytes:
    """An RGBA (rows, cols, 4) uint8 picture as PNG (standard library only: the class view loads no
    image library for a few small per-cell pictures)."""
    a = np.ascontiguousarray(rgba, dtype=np.uint8)
    rows, cols = a.shape[:2]
    raw = b"".join(b"\x00" + a[r].tobytes() for r in range(rows))  # filter type 0 on every line

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", cols, rows, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def label_json(placed: PlacedLabel, item: DrawItem, depth_in: float, ppi: float = PX_PER_IN) -> dict[str, Any]:
    """A placed label: its text and box in inches (x0, y0 at the bottom left), its colour, and the
    leader line to what it names when it was pushed aside."""
    x0, y0, x1, y1 = placed.box_px

    def inch(px: float, py: float) -> list[float]:
        return [round(px / ppi, DECIMALS), round(depth_in - py / ppi, DECIMALS)]

    data: dict[str, Any] = {"text": placed.text, "box": inch(x0, y1) + inch(x1, y0), "color": item.text_color,
                            "layer": item.layer}
    if placed.leader_px is not None:
        (ax, ay), (bx, by) = placed.leader_px
        data["leader"] = inch(ax, ay) + inch(bx, by)
    if item.units and len(item.units) == 1:
        data["of"] = int(item.units[0])  # the unit it names: the debrief's timeline moves it with the unit
    return data


def units_json(snapshot: Any) -> list[dict[str, Any]]:
    """Every unit as the roster shows it: name, side (and its colour), status, tokens, where it stands."""
    out = []
    for u in snapshot.units:
        tokens = [t for t in u.tokens if t != u.status]  # the page shows the status first: never "down · down"
        out.append({"id": int(u.unit_id), "name": u.name, "side": u.side, "color": snapshot.color_of(u.side),
                    "status": u.status, "on_table": bool(u.on_table), "tokens": tokens,
                    "x_in": round(float(u.x_in), DECIMALS), "y_in": round(float(u.y_in), DECIMALS),
                    "heading_deg": round(float(u.heading_deg), 1), "group": u.group,
                    "selected": u.unit_id == snapshot.selected_unit})
    return out


_POSSESSIVE = {True: "'", False: "'s"}


def turn_json(state: RulesState) -> dict[str, Any]:
    """The round and whose turn it is, in words, as the turn panel says them ("Round 2 · US Army's
    turn"; "Round 1 · between turns"; "Set-up" until the first turn begins), and the order of play."""
    rnd, side, order = state.round, state.active_side, [str(s) for s in state.order]
    text = set_up_words(state) or f"Round {rnd}"
    if side:
        text += f" · {side}{_POSSESSIVE[side.endswith('s')]} turn"
    elif rnd and not state.setting_up:
        text += " · between turns"
    return {"round": int(rnd), "side": side, "order": order, "text": text}


def last_roll_json(events: Sequence[RulesEvent], ruleset: Any = None) -> dict[str, Any] | None:
    """The last action resolved, as a card: an event that rolled dice, or one ``ruleset`` says was an
    action (a Signal, a boarding: :meth:`rules.ruleset.Ruleset.action_summaries`), with what happened in
    the rules' words and each roll with its faces and total."""
    for e in reversed(tuple(events)):
        words = tuple(ruleset.action_summaries(e)) if ruleset is not None else ()
        if e.rolls or words:
            return {"kind": e.kind, "round": e.round, "side": e.side, "summary": e.summary,
                    "rolls": [{"label": r.label, "faces": list(r.faces) if r.faces is not None else None,
                               "total": r.dice_total} for r in e.rolls],
                    "warnings": list(e.warnings)}
    return None


def log_json(log: Sequence[Any], *, tail: int | None = LOG_TAIL) -> list[dict[str, Any]]:
    """The newest ``tail`` log lines (all with None), oldest first."""
    lines = list(log) if tail is None else list(log)[-tail:]
    return [{"t_s": round(float(e.t_s), 2), "kind": e.kind, "text": e.text, "round": e.round} for e in lines]


def scene_bytes(scene: dict[str, Any]) -> bytes:
    """The scene as compact JSON (what the server sends)."""
    return json.dumps(scene, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
