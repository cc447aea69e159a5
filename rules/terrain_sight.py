"""Line of sight over the ground: does the sand rise above the line between two figures' eyes?

Pure numpy, in table inches. The ground is a height grid (the relief scan's, or a scenario's height
map): ``heights_in[row, col]`` at x = col * cell_in, y = row * cell_in, bilinear in between. The sight
line runs from one eye (ground under the figure + its eye height) to the other; it is sampled every
quarter cell, and wherever the ground stands above it (by more than ``tolerance_in``, so grains and the
scan's own error do not block) the line is blocked there. The first and last ``ignore_ends_in`` are
left out: the ground a figure stands on does not hide it from itself.

:func:`propose_sight` turns that into what the players confirm: no line of sight (the ground hides the
target's top), partly hidden (its top is seen, its foot is not: a hull-down vehicle, a man behind a
crest, which rules call cover), or clear.

>>> import numpy as np
>>> ridge = np.zeros((5, 9)); ridge[:, 4] = 3.0            # a 3" ridge along x = 4, 1" cells
>>> g = Ground(ridge, 1.0)
>>> s = sight_over_ground(g, (1.0, 2.0), 1.0, (7.0, 2.0), 1.0)
>>> s.clear, [tuple(round(v, 2) for v in span) for span in s.blocked_spans_in]
(False, [(2.38, 3.62)])
>>> sight_over_ground(g, (1.0, 2.0), 5.0, (7.0, 2.0), 5.0).clear
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True, eq=False)
class Ground:
    """The ground's height over the table plane on a regular grid (inches); flat beyond its edges
    (clamped to the edge values)."""

    heights_in: np.ndarray = field(repr=False)
    cell_in: float

    def __post_init__(self) -> None:
        h = np.asarray(self.heights_in, dtype=np.float64)
        if h.ndim != 2 or min(h.shape) < 2 or not np.all(np.isfinite(h)):
            raise ValueError("the ground must be a 2-D grid of finite heights, at least 2x2")
        if not self.cell_in > 0:
            raise ValueError(f"cell_in={self.cell_in}: give a positive spacing in inches")
        object.__setattr__(self, "heights_in", h)

    def height_at(self, x_in: np.ndarray | float, y_in: np.ndarray | float) -> np.ndarray:
        rows, cols = self.heights_in.shape
        fx = np.clip(np.asarray(x_in, dtype=np.float64) / self.cell_in, 0.0, cols - 1.0)
        fy = np.clip(np.asarray(y_in, dtype=np.float64) / self.cell_in, 0.0, rows - 1.0)
        c0 = np.minimum(np.floor(fx).astype(np.intp), cols - 2)
        r0 = np.minimum(np.floor(fy).astype(np.intp), rows - 2)
        ax, ay = fx - c0, fy - r0
        h = self.heights_in
        top = h[r0, c0] * (1 - ax) + h[r0, c0 + 1] * ax
        bottom = h[r0 + 1, c0] * (1 - ax) + h[r0 + 1, c0 + 1] * ax
        return top * (1 - ay) + bottom * ay


@dataclass(frozen=True)
class SightLine:
    """The sight line from ``a`` to ``b`` over the ground.

    ``blocked_spans_in``: (from, to) distances along the line from ``a``, inches, where the ground
    stands above it. ``clearance_in``: the least height of the line over the ground (negative where
    blocked) between the ignored ends.
    """

    a_xyz: tuple[float, float, float]
    b_xyz: tuple[float, float, float]
    clear: bool
    blocked_spans_in: tuple[tuple[float, float], ...]
    clearance_in: float

    @property
    def length_in(self) -> float:
        return float(np.hypot(self.b_xyz[0] - self.a_xyz[0], self.b_xyz[1] - self.a_xyz[1]))

    def blocked_segments_xy(self) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
        """The blocked parts as table segments ((x0, y0), (x1, y1)), for drawing."""
        length = self.length_in
        if length == 0:
            return ()
        ax, ay = self.a_xyz[:2]
        ux, uy = (self.b_xyz[0] - ax) / length, (self.b_xyz[1] - ay) / length
        return tuple(((ax + ux * s0, ay + uy * s0), (ax + ux * s1, ay + uy * s1)) for s0, s1 in self.blocked_spans_in)


def sight_over_ground(
    ground: Ground,
    a_xy: tuple[float, float],
    a_eye_z_in: float,
    b_xy: tuple[float, float],
    b_eye_z_in: float,
    *,
    ignore_ends_in: float = 0.5,
    tolerance_in: float = 0.05,
) -> SightLine:
    """Whether the ground rises above the straight line between two eyes (absolute heights, inches)."""
    a = np.array([a_xy[0], a_xy[1], a_eye_z_in], dtype=np.float64)
    b = np.array([b_xy[0], b_xy[1], b_eye_z_in], dtype=np.float64)
    length = float(np.hypot(*(b[:2] - a[:2])))
    step = ground.cell_in / 4.0
    n = max(2, int(np.ceil(length / step)) + 1)
    s = np.linspace(0.0, length, n)
    t = s / length if length > 0 else np.zeros(n)
    pts = a[None, :] + t[:, None] * (b - a)[None, :]
    inner = (s >= ignore_ends_in) & (s <= length - ignore_ends_in)
    above = pts[:, 2] - ground.height_at(pts[:, 0], pts[:, 1])
    blocked = inner & (above < -tolerance_in)
    spans = []
    if blocked.any():
        edges = np.diff(np.r_[0, blocked.astype(np.int8), 0])
        for i0, i1 in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)):
            # the span reaches halfway to the neighbouring unblocked samples
            lo = s[i0] - (step / 2 if i0 > 0 else 0.0)
            hi = s[i1 - 1] + (step / 2 if i1 < n else 0.0)
            spans.append((float(max(lo, 0.0)), float(min(hi, length))))
    clearance = float(above[inner].min()) if inner.any() else float("inf")
    return SightLine((float(a[0]), float(a[1]), float(a[2])), (float(b[0]), float(b[1]), float(b[2])), not spans, tuple(spans),
                     clearance)


@dataclass(frozen=True)
class SightProposal:
    """What the ground says about an attacker seeing a target, for the players to confirm.

    ``line_of_sight``: the attacker's eyes see the target's top. ``partly_hidden``: they do, but not its
    foot (cover from the ground). ``sight``: the line to the target's top (its blocked part drawn).
    """

    line_of_sight: bool
    partly_hidden: bool
    sight: SightLine
    reason: str


def propose_sight(
    ground: Ground,
    attacker_xy: tuple[float, float],
    target_xy: tuple[float, float],
    *,
    eye_height_in: float = 1.0,
    target_height_in: float = 1.0,
) -> SightProposal:
    """Does the attacker (eyes ``eye_height_in`` over the ground under it) see the target (a figure
    ``target_height_in`` tall)? Its top and its foot are checked."""
    za = float(ground.height_at(*attacker_xy)) + eye_height_in
    zt = float(ground.height_at(*target_xy))
    top = sight_over_ground(ground, attacker_xy, za, target_xy, zt + target_height_in)
    if not top.clear:
        first = top.blocked_spans_in[0][0]
        return SightProposal(False, False, top, f"the ground blocks the line of sight {first:.1f}\" from the attacker")
    foot = sight_over_ground(ground, attacker_xy, za, target_xy, zt + 0.1 * target_height_in)
    if not foot.clear:
        return SightProposal(True, True, top, "the ground hides the target's lower part (cover)")
    return SightProposal(True, False, top, "clear over the ground")


@dataclass(frozen=True)
class GroundDeclarations:
    """What the ground proposes for an attack's declarations, for the players to confirm or change.

    ``attack``: attack-level keys; ``targets``: per target id, target-level keys (the ruleset's own
    :class:`~rules.ruleset.Declaration` keys); ``reasons``: per target id, a sentence; ``sights``: per
    target id, the sight line checked (its blocked part is what a window draws).
    """

    attack: dict[str, Any] = field(default_factory=dict)
    targets: dict[int, dict[str, Any]] = field(default_factory=dict)
    reasons: dict[int, str] = field(default_factory=dict)
    sights: dict[int, SightLine] = field(default_factory=dict)


@runtime_checkable
class GroundSightProposals(Protocol):
    """A ruleset whose line-of-sight declarations the relief can propose (Down Range, Force on Force)."""

    def propose_from_ground(self, state: Any, request: Any, ground: Ground) -> GroundDeclarations: ...
