"""Cutting projected outlines down to a small rectangle before Qt draws them (Qt-free, numpy).

When a unit moves, the compositor repaints only small dirty rectangles of the overlay layer. Qt's
antialiased rasteriser, however, strokes and fills a whole 400-point range ring even when a clip
rectangle keeps all but a few pixels of it (about 5 ms for one ring at 1080p), so painting "only
the dirty rectangle" would cost nearly a full repaint. These functions cut the geometry first:
:func:`clip_polygon` keeps the part of a filled polygon inside a rectangle (Sutherland-Hodgman), and
:func:`clip_polyline` keeps the runs of an outline inside it, each with the distance along the
original outline where it starts — a dashed pen continues its pattern from there, so the dashes fall
where they fall on the whole ring.

The rectangle handed in is the dirty one grown by a margin wider than the pen: the cut ends and the
edges the cut adds lie outside the dirty rectangle, where Qt's clip hides them.

>>> square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
>>> clip_polygon(square, (5, -1, 20, 20)).tolist()
[[5.0, 0.0], [10.0, 0.0], [10.0, 10.0], [5.0, 10.0]]
>>> [(run.tolist(), start) for run, start in clip_polyline(square, (5, -1, 20, 20), closed=True)]
[([[5.0, 0.0], [10.0, 0.0], [10.0, 10.0], [5.0, 10.0]], 5.0)]
"""
from __future__ import annotations

import numpy as np

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


def _outcodes(p: np.ndarray, rect: Rect) -> np.ndarray:
    """Cohen-Sutherland codes: bit 1 left of the rectangle, 2 right, 4 above (smaller y), 8 below."""
    x0, y0, x1, y1 = rect
    return ((p[:, 0] < x0) * 1 | (p[:, 0] > x1) * 2 | (p[:, 1] < y0) * 4 | (p[:, 1] > y1) * 8).astype(np.int64)


def _clip_edge(poly: list[tuple[float, float]], axis: int, bound: float, keep_below: bool) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    n = len(poly)
    for i in range(n):
        cur, nxt = poly[i], poly[(i + 1) % n]
        dc = cur[axis] - bound if keep_below else bound - cur[axis]
        dn = nxt[axis] - bound if keep_below else bound - nxt[axis]
        if dc <= 0:
            out.append(cur)
        if (dc <= 0) != (dn <= 0):
            t = dc / (dc - dn)
            out.append((cur[0] + (nxt[0] - cur[0]) * t, cur[1] + (nxt[1] - cur[1]) * t))
    return out


def clip_polygon(points: np.ndarray, rect: Rect) -> np.ndarray:
    """The part of a closed polygon inside ``rect`` (a polygon again; empty if none).

    A run of vertices that all lie beyond the same side of the rectangle is first cut down to its
    two ends: the dropped corner lies beyond that side too, so what is inside does not change, and a
    400-point ring cut to a small rectangle is clipped as a polygon of a dozen points.
    """
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(p) < 3:
        return p[:0]
    codes = _outcodes(p, rect)
    for bit in (1, 2, 4, 8):
        # One side at a time: a vertex between two neighbours beyond the same side as itself goes
        # (the shortcut between its neighbours stays beyond that side too).
        has = (codes & bit) != 0
        if has.all():
            return p[:0]  # every vertex beyond this side
        inner = has & np.roll(has, 1) & np.roll(has, -1)
        if inner.any():
            p, codes = p[~inner], codes[~inner]
    poly: list[tuple[float, float]] = [tuple(v) for v in p.tolist()]  # type: ignore[misc]  # tolist() rows are list[Any]: each is a 2-vertex
    x0, y0, x1, y1 = rect
    for axis, bound, below in ((0, x1, True), (0, x0, False), (1, y1, True), (1, y0, False)):
        if not poly:
            break
        poly = _clip_edge(poly, axis, bound, below)
    return np.asarray(poly, dtype=np.float64).reshape(-1, 2)


def clip_polyline(points: np.ndarray, rect: Rect, *, closed: bool) -> list[tuple[np.ndarray, float]]:
    """The runs of a polyline (a closed one wraps around) inside ``rect`` (Liang-Barsky on the
    segments whose bounding box meets it), each with the length along the whole outline at which it
    starts."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(p) < 2:
        return []
    a = p
    b = np.roll(p, -1, axis=0) if closed else p[1:]
    a = a if closed else p[:-1]
    lengths = np.hypot(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1])
    start_len = np.concatenate([[0.0], np.cumsum(lengths)[:-1]])
    x0, y0, x1, y1 = rect
    near = (np.minimum(a[:, 0], b[:, 0]) <= x1) & (np.maximum(a[:, 0], b[:, 0]) >= x0) \
        & (np.minimum(a[:, 1], b[:, 1]) <= y1) & (np.maximum(a[:, 1], b[:, 1]) >= y0)
    where = np.flatnonzero(near)
    if not len(where):
        return []
    idx = where.tolist()
    al, bl, ll, sl = a[where].tolist(), b[where].tolist(), lengths[where].tolist(), start_len[where].tolist()
    kept: list[tuple[int, float, float, int]] = []
    for k, i in enumerate(idx):
        (ax, ay), (bx, by) = al[k], bl[k]
        dx, dy = bx - ax, by - ay
        t0, t1 = 0.0, 1.0
        ok = True
        for pk, qk in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
            if pk == 0:
                if qk < 0:
                    ok = False
                    break
                continue
            r = qk / pk
            if pk < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
        if ok and t0 <= t1:
            kept.append((i, t0, t1, k))
    if not kept:
        return []
    runs: list[tuple[np.ndarray, float]] = []
    current: list[tuple[float, float]] = []
    run_start = 0.0
    last_i, last_t1 = -2, 0.0
    for i, t0, t1, k in kept:
        (ax, ay), (bx, by) = al[k], bl[k]
        s = (ax + (bx - ax) * t0, ay + (by - ay) * t0)
        e = (ax + (bx - ax) * t1, ay + (by - ay) * t1)
        if current and i == last_i + 1 and t0 == 0.0 and last_t1 == 1.0:
            current.append(e)
        else:
            if current:
                runs.append((np.asarray(current), run_start))
            current = [s, e]
            run_start = sl[k] + ll[k] * t0
        last_i, last_t1 = i, t1
    runs.append((np.asarray(current), run_start))
    n = len(a)
    if closed and len(runs) > 1 and kept[0][0] == 0 and kept[0][1] == 0.0 and kept[-1][0] == n - 1 and kept[-1][2] == 1.0:
        # The run through the closing vertex: join its two halves.
        tail, tail_start = runs.pop()
        head, _ = runs[0]
        runs[0] = (np.concatenate([tail, head[1:]]), tail_start)
    return runs


def dash_runs(points: np.ndarray, *, closed: bool, dash_px: float, gap_px: float) -> list[np.ndarray]:
    """The dashes of a dashed outline as short polylines, dash after gap from its first point.

    Drawn with a solid pen they look like Qt's own dashes, and unlike those they are the same
    whether the whole outline is drawn or only the dashes near a small rectangle (Qt skips the
    dashes far outside the view and loses their phase).

    >>> [d.tolist() for d in dash_runs(np.array([[0.0, 0.0], [10.0, 0.0]]), closed=False, dash_px=3, gap_px=2)]
    [[[0.0, 0.0], [3.0, 0.0]], [[5.0, 0.0], [8.0, 0.0]]]
    """
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if closed and len(p) > 1:
        p = np.concatenate([p, p[:1]])
    if len(p) < 2:
        return []
    seg = np.hypot(*np.diff(p, axis=0).T)
    along = np.concatenate([[0.0], np.cumsum(seg)])
    total = float(along[-1])
    period = dash_px + gap_px
    starts = np.arange(0.0, total, period)
    ends = np.minimum(starts + dash_px, total)

    def at(d: np.ndarray) -> np.ndarray:
        i = np.clip(np.searchsorted(along, d, side="right") - 1, 0, len(seg) - 1)
        t = np.where(seg[i] > 0, (d - along[i]) / np.where(seg[i] > 0, seg[i], 1.0), 0.0)
        return p[i] + (p[i + 1] - p[i]) * t[:, None]

    a, b = at(starts), at(ends)
    first = np.searchsorted(along, starts, side="right")  # vertices strictly inside each dash
    last = np.searchsorted(along, ends, side="left")
    out = []
    for k in range(len(starts)):
        if last[k] > first[k]:
            out.append(np.concatenate([a[k:k + 1], p[first[k]:last[k]], b[k:k + 1]]))
        else:
            out.append(np.stack([a[k], b[k]]))
    return out


def _side(points: np.ndarray, a: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Signed distance-like value of points (first two columns) to the edge from ``a`` along ``e``:
    >= 0 on the left (inside a counter-clockwise region)."""
    return e[0] * (points[:, 1] - a[1]) - e[1] * (points[:, 0] - a[0])


def _cut_closed(p: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Sutherland-Hodgman against one half-plane (``d >= 0`` kept) for a closed outline."""
    out: list[np.ndarray] = []
    n = len(p)
    for i in range(n):
        j = (i + 1) % n
        if d[i] >= 0:
            out.append(p[i])
        if (d[i] >= 0) != (d[j] >= 0):
            out.append(p[i] + (p[j] - p[i]) * (d[i] / (d[i] - d[j])))
    return np.asarray(out, dtype=np.float64).reshape(-1, p.shape[1])


def _cut_open(p: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The same for an open polyline: what lies beyond the half-plane's line is replaced by the
    stretch of that line between where the polyline leaves and re-enters (as the closed version
    does), and dropped at either end."""
    out: list[np.ndarray] = []
    n = len(p)
    for i in range(n):
        if d[i] >= 0:
            out.append(p[i])
        if i + 1 < n and (d[i] >= 0) != (d[i + 1] >= 0):
            out.append(p[i] + (p[i + 1] - p[i]) * (d[i] / (d[i] - d[i + 1])))
    return np.asarray(out, dtype=np.float64).reshape(-1, p.shape[1])


def clip_to_convex(points: np.ndarray, region: np.ndarray, *, closed: bool) -> np.ndarray:
    """The part of an outline (N, 2) or (N, 3) — x, y in inches, an optional height carried along —
    inside a convex counter-clockwise ``region`` (K, 2); empty when none of it is.

    Points already inside come back unchanged (the same array when nothing is cut), so an outline in
    view costs one vectorised test. Where the outline leaves the region, the cut follows the region's
    edge until it comes back in (Sutherland-Hodgman): a range ring stays one closed ring.

    >>> square = np.array([[0, 0], [4, 0], [4, 4], [0, 4]], float)
    >>> clip_to_convex(np.array([[-2, 1], [2, 1], [6, 1]], float), square, closed=False).tolist()
    [[0.0, 1.0], [2.0, 1.0], [4.0, 1.0]]
    >>> len(clip_to_convex(np.array([[5, 5], [6, 5], [6, 6]], float), square, closed=True))
    0
    """
    p = np.asarray(points, dtype=np.float64)
    p = p.reshape(-1, p.shape[-1] if p.ndim > 1 else 2)
    if not len(p) or len(region) < 3:
        return p[:0]
    a = np.asarray(region, dtype=np.float64)
    e = np.roll(a, -1, axis=0) - a
    inside = np.ones(len(p), dtype=bool)
    for k in range(len(a)):
        inside &= _side(p, a[k], e[k]) >= 0
    if inside.all():
        return points
    for k in range(len(a)):
        if not len(p):
            break
        d = _side(p, a[k], e[k])
        if (d >= 0).all():
            continue
        p = _cut_closed(p, d) if closed else _cut_open(p, d)
    if closed and len(p) < 3 or not closed and len(p) < 2:
        return p[:0]
    return p


__all__ = ["clip_polygon", "clip_polyline", "clip_to_convex", "dash_runs"]
