"""The overlay registry: every overlay kind, its menu entry and builder (:data:`OVERLAYS`), the order
they are drawn in, and which of them are drawn (:class:`OverlayToggles`, derived from the registry).

Every shape comes from the ruleset (``ruleset.overlays`` and :mod:`rules.geometry` outlines) through
the session's :class:`~appmodel.session.snapshot.Snapshot`; nothing here decides a rule. A builder turns a
snapshot into :class:`~appmodel.overlays.draw_item.DrawItem` values (polylines, polygons and labels in
table inches, with a colour and a style); :mod:`gui.overlay_painter` draws them through any
``device_from_table`` transform (top-down view, camera perspective with lens distortion, projector).

Adding an overlay = one builder + one :data:`OVERLAYS` entry (and its place in :data:`DRAW_ORDER`); its
on/off flag in :class:`OverlayToggles` follows. The builders every rule system shares are in
:mod:`appmodel.overlays.shared`; each rule system's own in :mod:`appmodel.overlays.downrange`,
:mod:`appmodel.overlays.forceonforce` and :mod:`appmodel.overlays.generic`. An entry drawn from shapes
only some rule systems produce is ``own``: the menus offer it when the rule system lists it in its
``FrontEnd.overlays`` (:func:`overlays_for`).

Builders take an optional :class:`appmodel.overlays.draw_memo.Memo`: a compositor passes its own, so a
frame in which one unit moved re-computes only that unit's shapes (outlines, who stands in a fan, comms
hulls are remembered by their frozen inputs). Labels carry a priority, the point they describe
(``anchor_in``) and a short form; :mod:`appmodel.overlays.label_placement` keeps them from overlapping.

>>> from rules.downrange.examples.in_depth import SCENARIO_PATH
>>> from appmodel.game_session import GameSession
>>> s = GameSession.from_scenario_file(SCENARIO_PATH); s.select_unit(13)
>>> [i.label for i in build_items(s.snapshot(), ("range",))]
['Carl Gustaf / MAAWS Range 38"', 'Range + Radius 44"']
>>> OverlayToggles().with_("fan", False).fan, OverlayToggles.projector_default().odds
(False, False)
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field, fields, make_dataclass, replace
from typing import Any

from appmodel.overlays.downrange import (AREA_COLORS, area_items, blast_items, emission_items, fan_items, jamming_items,
                                         voice_items)
from appmodel.overlays.draw_item import NO_MEMO, DrawItem, lighter, outline, ring_around, top_of
from appmodel.overlays.draw_item import pts as _pts
from appmodel.overlays.draw_memo import DrawMemo, Memo
from appmodel.overlays.forceonforce import cohesion_items, hot_spot_items, line_of_fire_items
from appmodel.overlays.generic import automation_items, band_items, command_items, scatter_items
from appmodel.overlays.sandmap import contour_items, sculpting_items, symbol_items, viewshed_items
from appmodel.overlays.shared import (grid_items, label_items, movement_items, odds_items, range_items, sight_items,
                                      tape_items, template_items, unit_items)
from appmodel.session.snapshot import Snapshot
from appmodel.tracking.frame_gate import pause_point
from rules.geometry import Cluster, Segment


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


#: Overlay kinds the builders draw; any other kind a ruleset returns is drawn by other_items.
DRAWN_KINDS = frozenset({"range", "blast reach", "minimum range", "fan", "movement", "voice", "signal", "jamming",
                         "emission", "fires observation", *AREA_COLORS, "range band", "cohesion", "leader",
                         "line of fire", "line of sight", "hot spot", "scatter", "scatter reach", "area of effect",
                         "command range", "automation move"})


def other_items(snap: Snapshot, memo: DrawMemo = NO_MEMO) -> list[DrawItem]:
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
    OverlaySpec("contours", "Contour lines of the sand", "Alt+Y", contour_items),
    OverlaySpec("viewshed", "Selected unit's viewshed", "Alt+Q", viewshed_items),
    OverlaySpec("sculpting", "Sculpting guidance (sand vs target)", "Alt+Z", sculpting_items),
    OverlaySpec("symbols", "Military symbols", "Alt+2", symbol_items),
)}

#: Overlays off until the instructor turns them on: the viewshed and the sculpting guidance cover the
#: table in colour, and the symbols are drawn beside the bases only when asked for.
DEFAULT_OFF = frozenset({"viewshed", "sculpting", "symbols"})


#: Drawing order, bottom to top: areas under everything, labels on top.
DRAW_ORDER = ("sculpting", "contours", "viewshed", "grid", "areas", "hot_spots", "jamming", "voice", "cohesion", "movement", "command", "range", "bands",
              "fan", "line_of_fire", "blast", "scatter", "automation", "emissions", "other", "sight", "units", "symbols", "templates",
              "tape", "labels", "odds")


def overlays_for(offered: Collection[str] | None) -> tuple[OverlaySpec, ...]:
    """The overlays worth offering in the menus for a rule system whose ``FrontEnd.overlays`` is
    ``offered`` (its own and the shared ones), in menu order; every overlay when it lists none (None).

    >>> [spec.name for spec in overlays_for(("cohesion", "line_of_fire", "hot_spots"))][3:7]
    ['cohesion', 'line_of_fire', 'hot_spots', 'tape']
    """
    return tuple(spec for spec in OVERLAYS.values() if spec.offered_for(offered))


def build_items(snap: Snapshot, layers: Iterable[str], *, memo: Memo | None = None) -> list[DrawItem]:
    """Draw items of the given overlay kinds, in drawing order. With a ``memo`` (one per view), what
    did not change since the last call is taken from it instead of being computed again."""
    wanted = set(layers)
    m: Any = memo if memo is not None else NO_MEMO
    out: list[DrawItem] = []
    for name in DRAW_ORDER:
        pause_point()  # (a view's worker: a camera frame on its way goes first, frame_gate)
        if name in wanted:
            out += OVERLAYS[name].build(snap, m)
    m.sweep()
    return _said_once(out, snap.selected_unit)


def _said_once(items: list[DrawItem], selected: int | None) -> list[DrawItem]:
    """The selected unit's movement ring without its "Move left 8.0"" when the unit's own label (the
    selected unit's is always shown) already says "(move left 8.0")": the same words twice a few pixels
    apart read as two figures (in the set-up, "(set-up: move 8.0")"). Without the names (the players'
    table) the ring keeps its label."""
    said = selected is not None and any(i.layer == "labels" and selected in (i.units or ())
                                        and ("(move left" in i.label or "(set-up: move" in i.label) for i in items)
    if not said:
        return items
    return [replace(i, label="") if i.layer == "movement" and i.units == (selected,) else i for i in items]


class _Toggles:
    """What every :class:`OverlayToggles` does (its fields, one flag per overlay, are made from :data:`OVERLAYS`)."""

    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self))  # type: ignore[arg-type]  # self is a dataclass instance; mypy cannot see it through the mixin

    def is_on(self, name: str) -> bool:
        return bool(getattr(self, name))

    def toggled(self, name: str) -> Any:
        return replace(self, **{name: not getattr(self, name)})  # type: ignore[type-var]  # self is a dataclass instance; mypy cannot see it through the mixin

    def with_(self, name: str, on: bool) -> Any:
        if name not in self.names():
            raise KeyError(name)
        return replace(self, **{name: bool(on)})  # type: ignore[type-var]  # self is a dataclass instance; mypy cannot see it through the mixin

    @classmethod
    def all_on(cls) -> Any:
        return cls(**{name: True for name in DEFAULT_OFF})

    @classmethod
    def projector_default(cls) -> Any:
        """What the players see on the table by default (:data:`PLAYERS_DEFAULT_HIDDEN` is off)."""
        return cls(**{name: False for name in PLAYERS_DEFAULT_HIDDEN})


#: Which overlays are drawn: a frozen value with one ``bool`` field per :data:`OVERLAYS` entry, in menu
#: order, on unless given or in :data:`DEFAULT_OFF` (``OverlayToggles(grid=False)``). Made from the registry, so a new overlay
#: needs no flag written by hand; an unknown name is refused as any dataclass refuses it (TypeError).
OverlayToggles = make_dataclass(
    "OverlayToggles", [(name, bool, field(default=name not in DEFAULT_OFF)) for name in OVERLAYS], bases=(_Toggles,), frozen=True)
OverlayToggles.__module__ = __name__
OverlayToggles.__doc__ = "Which overlays are drawn (one flag per overlay kind of :data:`OVERLAYS`)."
