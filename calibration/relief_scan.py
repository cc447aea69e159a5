"""The relief of the sand, measured: camera and projector as a structured-light scanner.

Every camera pixel that read the scan's patterns (calibration/structured_light.py) knows the projector
pixel lighting it; the camera's viewing ray and the projector's ray of light cross at the sand. The
crossing points are binned into a height grid of ``cell_in`` cells (the grid calibration/terrain.py
reads), each cell the median of the points in it. Cells no point fell in (hidden from the camera behind
a hill, in a hill's shadow from the projector, off the picture) are the **unseen** area: filled from
their seen neighbours so the grid stays usable, and marked in the file.

The estimated error of a cell is the spread of its points about the local slope (median absolute
deviation, scaled to a standard deviation) over the square root of their number, combined with the
projector calibration's own error carried to heights; the scan's figure is the RMS over the seen
cells. A cell measured from fewer than ``MIN_POINTS_FOR_SPREAD`` points has no spread of its own (one
point spreads about nothing): it takes the whole scan's spread per point instead, and is flagged
**thin** (counted in the summary, listed in the file), since one stray pixel can make it.

A scan whose result cannot be a relief (most of the table unseen, or heights scattered by inches: frames
out of order, a camera that moved) is refused by :meth:`ReliefScan.problem` before anything is written.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import numpy as np

from calibration.errors import CalibrationError
from calibration.files import _guard, _now, read_calibration_json, write_json_atomically
from calibration.projection import rays_from_camera
from calibration.projector_model import ProjectorModel
from calibration.structured_light import DecodedScan
from calibration.table_calibration import TableCalibration
from calibration.terrain import HeightGrid, Terrain

RELIEF_FORMAT = "sandtable-relief"
VERSION = 1
MIN_POINTS_PER_CELL = 1
MIN_POINTS_FOR_SPREAD = 3
# a relief worse than these is not a measurement (a good scan: under 0.05" RMS and a few % unseen)
MAX_UNSEEN_FRACTION = 0.5
MAX_ERROR_IN = 0.5


def triangulate(decoded: DecodedScan, table: TableCalibration, projector: ProjectorModel) -> tuple[np.ndarray, np.ndarray]:
    """Table points (N, 3) where camera and projector rays cross, and how far apart the two rays pass
    there (N,) inches: the midpoint of their closest approach."""
    if decoded.u_px is None or decoded.v_px is None:
        return _triangulate_one_axis(decoded, table, projector)
    cam_px, proj_px = decoded.correspondences()
    c0, dc = rays_from_camera(cam_px, table.model, table.pose)
    p0, dp = projector.rays(proj_px)
    w0 = c0 - p0
    b = np.einsum("ij,ij->i", dc, dp)
    d = dc @ w0
    e = dp @ w0
    denom = 1.0 - b * b
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (b * e - d) / denom
        t = (e - b * d) / denom
    on_cam = c0[None, :] + s[:, None] * dc
    on_proj = p0[None, :] + t[:, None] * dp
    ok = (denom > 1e-8) & (s > 0) & (t > 0)
    pts = (on_cam + on_proj) / 2
    gap = np.linalg.norm(on_cam - on_proj, axis=1)
    return pts[ok], gap[ok]


def quick_scan_axis(table: TableCalibration, projector: ProjectorModel) -> str:
    """The projector axis a quick scan shows: the one along which heights move the light the most
    (across the camera-projector baseline), 'columns' or 'rows'."""
    centre = np.array([[table.layout.width_in / 2, table.layout.depth_in / 2]])
    px = table.camera_from_table(centre, z_in=0.0)
    origin, d = rays_from_camera(px, table.model, table.pose)
    at = [origin + (z - origin[2]) / d[0, 2] * d[0] for z in (0.0, 4.0)]
    du, dv = np.abs(projector.projector_from_table(np.array(at))[1] - projector.projector_from_table(np.array(at))[0])
    return "columns" if du >= dv else "rows"


def _triangulate_one_axis(decoded: DecodedScan, table: TableCalibration, projector: ProjectorModel) -> tuple[np.ndarray, np.ndarray]:
    """A quick scan's points: only one projector axis was shown, so each camera ray is followed to the
    depth where the decoded column (or row) lights it (secant steps between two heights)."""
    axis = 0 if decoded.u_px is not None else 1
    coord_img = decoded.u_px if axis == 0 else decoded.v_px
    assert coord_img is not None  # a quick scan decoded one of the two axes
    rows, cols = np.nonzero(decoded.valid)
    cam_px = np.column_stack([cols, rows]).astype(np.float64)
    u = coord_img[rows, cols].astype(np.float64)
    c0, dc = rays_from_camera(cam_px, table.model, table.pose)

    def column_at(s: np.ndarray, at: np.ndarray) -> np.ndarray:
        return projector.projector_from_table(c0[None, :] + s[:, None] * dc[at])[:, axis]

    everyone = np.arange(len(u))
    s_a = (0.0 - c0[2]) / dc[:, 2]
    s_b = (12.0 - c0[2]) / dc[:, 2]
    f_a, f_b = column_at(s_a, everyone) - u, column_at(s_b, everyone) - u
    # Secant steps, each for the rays still more than a thousandth of a pixel off (most settle in
    # three or four: projecting every ray eight times was the quick scan's slowest step).
    for _ in range(8):
        at = np.flatnonzero(np.abs(f_b) >= 1e-3)
        if not len(at):
            break
        with np.errstate(divide="ignore", invalid="ignore"):
            s_n = s_b[at] - f_b[at] * (s_b[at] - s_a[at]) / (f_b[at] - f_a[at])
        s_n = np.where(np.isfinite(s_n), s_n, s_b[at])
        s_a[at], f_a[at] = s_b[at], f_b[at]
        s_b[at], f_b[at] = s_n, column_at(s_n, at) - u[at]
    ok = np.abs(f_b) < 0.05
    pts = c0[None, :] + s_b[:, None] * dc
    # no second coordinate, so no gap between rays: the column's miss stands for it
    return pts[ok], np.abs(f_b[ok]) / max(projector.px_per_in_at(*pts[ok].mean(axis=0)), 1e-9) if ok.any() else np.zeros(0)


@dataclass(frozen=True, eq=False)
class ReliefScan:
    """A measured relief: heights (rows, cols) at x = col * cell_in, y = row * cell_in, NaN where unseen.

    ``error_in``: estimated RMS height error over the seen cells. ``seen``: cells measured.
    """

    heights_in: np.ndarray = field(repr=False)
    cell_in: float
    error_in: float
    cell_error_in: np.ndarray = field(repr=False)
    points: int = 0
    created_utc: str = ""
    thin: np.ndarray | None = field(default=None, repr=False)  # seen cells from fewer than MIN_POINTS_FOR_SPREAD points

    @property
    def thin_cells(self) -> int:
        return int(np.count_nonzero(self.thin)) if self.thin is not None else 0

    def problem(self) -> str | None:
        """Why this is not a usable relief (one line saying what to check), or None when it is."""
        if self.unseen_fraction > MAX_UNSEEN_FRACTION:
            return (f"the scan measured only {100 * (1 - self.unseen_fraction):.1f}% of the table: check that the frames are "
                    "in pattern order, the camera and projector did not move, and the projector lights the table")
        if not np.isfinite(self.error_in) or self.error_in > MAX_ERROR_IN:
            return (f"the scan's heights scatter by {self.error_in:.2f} in RMS: check that the frames are in pattern order, "
                    "the camera's exposure is locked, and nothing moved during the scan")
        return None

    @property
    def seen(self) -> np.ndarray:
        return np.isfinite(self.heights_in)

    @property
    def unseen_fraction(self) -> float:
        return float(1.0 - np.mean(self.seen))

    def filled_heights(self) -> np.ndarray:
        """Heights with every unseen cell filled from its nearest seen neighbours (for a HeightGrid)."""
        return _fill(self.heights_in)

    def terrain(self) -> Terrain:
        return Terrain(grid=HeightGrid(self.filled_heights(), self.cell_in))

    def summary(self) -> str:
        rows, cols = self.heights_in.shape
        seen = self.heights_in[self.seen]
        top = float(seen.max()) if seen.size else 0.0
        return (f"relief {cols}x{rows} cells of {self.cell_in:g} in from {self.points} points: highest {top:.2f} in, "
                f"estimated error {self.error_in:.3f} in RMS; {100 * self.unseen_fraction:.1f}% of the table unseen "
                "(filled from its neighbours)"
                + (f"; {self.thin_cells} cells measured from fewer than {MIN_POINTS_FOR_SPREAD} points (flagged thin in the file)"
                   if self.thin_cells else ""))


def relief_from_points(points: np.ndarray, width_in: float, depth_in: float, *, cell_in: float = 0.25,
                       calibration_error_in: float = 0.0) -> ReliefScan:
    """Bin triangulated points (N, 3) into a height grid over the table [0, width] x [0, depth]."""
    if not 0 < cell_in <= 1.0:
        raise CalibrationError(f"cell_in={cell_in}: use a cell of at most 1 inch (0.25 or finer for a relief scan)")
    cols = int(round(width_in / cell_in)) + 1
    rows = int(round(depth_in / cell_in)) + 1
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    c = np.rint(pts[:, 0] / cell_in).astype(np.int64)
    r = np.rint(pts[:, 1] / cell_in).astype(np.int64)
    inside = (c >= 0) & (c < cols) & (r >= 0) & (r < rows) & np.isfinite(pts[:, 2])
    c, r, pts = c[inside], r[inside], pts[inside]
    cell = r * cols + c
    heights = _cell_median(cell, pts[:, 2], rows * cols)
    counts = np.bincount(cell, minlength=rows * cols)
    heights[counts < MIN_POINTS_PER_CELL] = np.nan
    grid = heights.reshape(rows, cols)
    # spread about the local slope: each point against the cell's height plus the slope times its offset
    filled = _fill(grid)
    gy, gx = np.gradient(filled, cell_in)
    local = (filled.ravel()[cell] + gx.ravel()[cell] * (pts[:, 0] - c * cell_in)
             + gy.ravel()[cell] * (pts[:, 1] - r * cell_in))
    dev = np.abs(pts[:, 2] - local)
    mad = _cell_median(cell, dev, rows * cols) * 1.4826
    # a cell of one or two points has no spread of its own: it takes the scan's spread per point
    thin = (counts > 0) & (counts < MIN_POINTS_FOR_SPREAD)
    pooled = float(np.median(dev) * 1.4826) if len(dev) else 0.0
    mad = np.where(thin, pooled, mad)
    with np.errstate(invalid="ignore", divide="ignore"):
        cell_err = np.sqrt((mad / np.sqrt(np.maximum(counts, 1))) ** 2 + calibration_error_in**2).reshape(rows, cols)
    cell_err[~np.isfinite(grid)] = np.nan
    err = float(np.sqrt(np.nanmean(cell_err**2))) if np.any(np.isfinite(cell_err)) else float("nan")
    return ReliefScan(grid, float(cell_in), err, cell_err, points=int(len(pts)), created_utc=_now(),
                      thin=thin.reshape(rows, cols) & np.isfinite(grid))


def scan_relief(decoded: DecodedScan, table: TableCalibration, projector: ProjectorModel, *, cell_in: float = 0.25) -> ReliefScan:
    """The relief from a decoded scan: triangulate, bin, estimate the error."""
    pts, _gap = triangulate(decoded, table, projector)
    if len(pts) < 100:
        raise CalibrationError(
            f"the scan decoded only {len(pts)} points; dim the room, check the projector lights the table and the camera sees it"
        )
    # the projector's own error, carried from the ground to heights by the rays' angle (about 1:1 here)
    return relief_from_points(pts, table.layout.width_in, table.layout.depth_in, cell_in=cell_in,
                              calibration_error_in=projector.residual_in)


def _cell_median(cell: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    out = np.full(size, np.nan)
    if len(cell) == 0:
        return out
    order = np.lexsort((values, cell))
    cs, vs = cell[order], values[order]
    starts = np.flatnonzero(np.r_[True, cs[1:] != cs[:-1]])
    ends = np.r_[starts[1:], len(cs)]
    lo = vs[starts + (ends - starts - 1) // 2]
    hi = vs[starts + (ends - starts) // 2]
    out[cs[starts]] = (lo + hi) / 2
    return out


def _fill(grid: np.ndarray) -> np.ndarray:
    """Unseen (NaN) cells filled by growing the mean of seen neighbours inward, ring by ring."""
    g = np.array(grid, dtype=np.float64)
    if not np.any(np.isfinite(g)):
        return np.zeros_like(g)
    for _ in range(max(g.shape)):
        missing = ~np.isfinite(g)
        if not missing.any():
            break
        vals = np.where(missing, 0.0, g)
        have = (~missing).astype(np.float64)
        pv = np.pad(vals, 1)
        ph = np.pad(have, 1)
        # sum() of arrays is typed array | Literal[0] (its start); nine arrays are always summed here
        s = cast(np.ndarray, sum(pv[1 + dy : pv.shape[0] - 1 + dy, 1 + dx : pv.shape[1] - 1 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)))
        n = cast(np.ndarray, sum(ph[1 + dy : ph.shape[0] - 1 + dy, 1 + dx : ph.shape[1] - 1 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)))
        grow = missing & (n > 0)
        g[grow] = s[grow] / n[grow]
    return g


# ---------------------------------------------------------------------------------- files
def save_relief(scan: ReliefScan, path: str | Path, *, reference_bgr: np.ndarray | None = None) -> Path:
    """Write ``path`` (JSON: the scan's figures and unseen cells) and the height grid beside it as CSV
    (``<stem>.heights.csv``, unseen cells filled), the file a scenario's ``[terrain] height_map`` reads;
    with ``reference_bgr``, the camera's view of the sand at scan time as ``<stem>.reference.png``
    (what :class:`~calibration.sand_change.SandChangeWatch` compares with). Returns the CSV's path."""
    p = Path(path)
    reference = None
    if reference_bgr is not None:
        import cv2

        reference = p.with_name(p.stem + ".reference.png")
        if not cv2.imwrite(str(reference), np.asarray(reference_bgr)):
            raise CalibrationError(f"cannot write {str(reference)!r}")
    csv = p.with_name(p.stem + ".heights.csv")
    tmp = csv.with_name("." + csv.name + ".tmp")
    np.savetxt(tmp, scan.filled_heights(), delimiter=",", fmt="%.4f")
    tmp.replace(csv)
    rows, cols = scan.heights_in.shape
    write_json_atomically(p, {
        "format": RELIEF_FORMAT,
        "version": VERSION,
        "created_utc": scan.created_utc or _now(),
        "cell_in": scan.cell_in,
        "rows": rows,
        "cols": cols,
        "height_map": csv.name,
        "error_in": scan.error_in,
        "points": scan.points,
        "unseen_fraction": scan.unseen_fraction,
        # unseen cells, run-length encoded row by row: [row, first col, count]
        "unseen_runs": _runs(~scan.seen),
        # seen cells measured from fewer than min_points_for_spread points, the same way
        "min_points_for_spread": MIN_POINTS_FOR_SPREAD,
        "thin_cells": scan.thin_cells,
        "thin_runs": _runs(scan.thin) if scan.thin is not None else [],
        "reference_image": reference.name if reference is not None else None,
    })
    return csv


def load_relief(path: str | Path) -> ReliefScan:
    f = read_calibration_json(path, RELIEF_FORMAT)

    def build() -> ReliefScan:
        rows, cols = f.integer("rows", minimum=2), f.integer("cols", minimum=2)
        csv = Path(path).with_name(f.string("height_map"))
        try:
            heights = np.loadtxt(csv, delimiter=",", ndmin=2)
        except (OSError, ValueError) as exc:
            raise CalibrationError(f"its height map {csv.name!r} cannot be read ({exc})") from None
        if heights.shape != (rows, cols):
            raise CalibrationError(f"its height map is {heights.shape[1]}x{heights.shape[0]}, the file says {cols}x{rows}")
        runs = f.data.get("unseen_runs", [])
        for run in runs if isinstance(runs, list) else []:
            r, c0, n = (int(v) for v in run)
            heights[r, c0 : c0 + n] = np.nan
        thin = np.zeros(heights.shape, bool)
        thin_runs = f.data.get("thin_runs", [])
        for run in thin_runs if isinstance(thin_runs, list) else []:
            r, c0, n = (int(v) for v in run)
            thin[r, c0 : c0 + n] = True
        err = f.number("error_in", minimum=0)
        return ReliefScan(heights, f.number("cell_in", positive=True), err, np.where(np.isfinite(heights), err, np.nan),
                          points=f.integer("points", 0, minimum=0), created_utc=f.string("created_utc", ""),
                          thin=thin & np.isfinite(heights))

    return _guard(path, RELIEF_FORMAT, build)


def _runs(mask: np.ndarray) -> list[list[int]]:
    out = []
    for r, row in enumerate(mask):
        d = np.diff(np.r_[0, row.astype(np.int8), 0])
        for a, b in zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1)):
            out.append([int(r), int(a), int(b - a)])
    return out


def load_relief_reference(path: str | Path) -> np.ndarray | None:
    """The scan's reference view of the sand (BGR), or None when the scan kept none."""
    import cv2

    f = read_calibration_json(path, RELIEF_FORMAT)
    name = f.data.get("reference_image")
    if not isinstance(name, str):
        return None
    img = cv2.imread(str(Path(path).with_name(name)), cv2.IMREAD_COLOR)
    return img
