"""Which part of the table each camera sees: gaps no camera covers and seams where views overlap.

With several cameras over one table, each camera's table calibration says where a table point lands in
its image. A point is seen when it lands inside the picture, at least ``margin_px`` from its border (a
tag must be whole to be read), and maps back onto itself (far outside the picture a wide-angle lens's
distortion polynomial folds back and would otherwise put it "in view").
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from calibration.table_calibration import TableCalibration

#: A point mapped into the picture and back must land within this of itself to count as seen.
_ROUND_TRIP_IN = 0.05


def seen_by(cal: TableCalibration, points_in: np.ndarray, *, z_in: float = 0.0, margin_px: float = 0.0) -> np.ndarray:
    """Boolean (N,): which table points (N, 2) at height ``z_in`` this camera sees."""
    pts = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0:
        return np.zeros(0, dtype=bool)
    with np.errstate(invalid="ignore", over="ignore"):
        px = cal.camera_from_table(pts, z_in=z_in)
        w, h = cal.model.size_px
        inside = (
            np.all(np.isfinite(px), axis=1)
            & (px[:, 0] >= margin_px) & (px[:, 0] <= w - 1 - margin_px)
            & (px[:, 1] >= margin_px) & (px[:, 1] <= h - 1 - margin_px)
        )
        if not np.any(inside):
            return inside
        back = np.full_like(pts, np.nan)
        back[inside] = cal.table_from_camera(px[inside], z_in=z_in)
        return inside & (np.hypot(*(back - pts).T) < _ROUND_TRIP_IN)


@dataclass(frozen=True, eq=False)
class CoverageMap:
    """How many cameras see each ``cell_in`` square of the table (cell centres), and which.

    ``counts`` is (rows, cols): row 0 is the table's front edge (y = 0), column 0 its left (x = 0).
    ``by_camera[i]`` is the boolean map of camera ``names[i]``.
    """

    width_in: float
    depth_in: float
    cell_in: float
    names: tuple[str, ...]
    by_camera: np.ndarray = field(repr=False)  # (cameras, rows, cols) bool

    @property
    def counts(self) -> np.ndarray:
        return self.by_camera.sum(axis=0)

    @property
    def gap_fraction(self) -> float:
        """Share of the table no camera sees."""
        return float(np.mean(self.counts == 0))

    @property
    def overlap_fraction(self) -> float:
        """Share of the table seen by two cameras or more (the seams)."""
        return float(np.mean(self.counts >= 2))

    def count_at(self, x_in: float, y_in: float) -> int:
        col = int(np.clip(x_in // self.cell_in, 0, self.counts.shape[1] - 1))
        row = int(np.clip(y_in // self.cell_in, 0, self.counts.shape[0] - 1))
        return int(self.counts[row, col])

    def summary(self) -> str:
        """One line for people: how much of the table is seen, by how many cameras, and the gaps."""
        seen = 100.0 * (1.0 - self.gap_fraction)
        shown = f"{seen:.0f}%" if seen in (0.0, 100.0) else f"{min(99.0, max(1.0, float(np.floor(seen)))):.0f}%"
        text = f"{len(self.names)} camera(s) see {shown} of the {self.width_in:g}x{self.depth_in:g} in table; {self.overlap_fraction:.0%} is seen by two or more"
        if self.gap_fraction > 0:
            gaps = np.argwhere(self.counts == 0)
            xs = (gaps[:, 1] + 0.5) * self.cell_in
            ys = (gaps[:, 0] + 0.5) * self.cell_in
            text += f"; no camera sees x {xs.min() - self.cell_in / 2:g}-{xs.max() + self.cell_in / 2:g} in, y {ys.min() - self.cell_in / 2:g}-{ys.max() + self.cell_in / 2:g} in (units there stay stale)"
        return text


def coverage_map(
    calibrations: Sequence[TableCalibration],
    names: Sequence[str] | None = None,
    *,
    cell_in: float = 2.0,
    z_in: float = 0.0,
    margin_px: float = 12.0,
) -> CoverageMap:
    """Which cells of the table each camera sees (the layout is the first calibration's)."""
    if not calibrations:
        raise ValueError("coverage_map needs at least one calibration")
    layout = calibrations[0].layout
    cols = max(1, int(np.ceil(layout.width_in / cell_in)))
    rows = max(1, int(np.ceil(layout.depth_in / cell_in)))
    xs = (np.arange(cols) + 0.5) * cell_in
    ys = (np.arange(rows) + 0.5) * cell_in
    gx, gy = np.meshgrid(xs, ys)
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    maps = np.stack([seen_by(c, pts, z_in=z_in, margin_px=margin_px).reshape(rows, cols) for c in calibrations])
    labels = tuple(names) if names is not None else tuple(f"camera {i}" for i in range(len(calibrations)))
    return CoverageMap(layout.width_in, layout.depth_in, float(cell_in), labels, maps)


#: BGR tints of up to six cameras' views in the coverage picture.
_CAMERA_BGR = ((200, 120, 40), (40, 150, 220), (60, 170, 60), (170, 60, 170), (40, 200, 200), (120, 120, 120))


def coverage_image(cover: CoverageMap, calibrations: Sequence[TableCalibration] = (), *, px_per_in: float = 6.0) -> np.ndarray:
    """A top-down picture of the table (BGR, +y up as on a map): each camera's view in its own tint,
    overlaps darker (labelled with how many cameras see them), gaps in red with a cross-hatch, the
    anchors as black squares with their ids, and each camera's name where it hangs (a ring)."""
    import cv2

    rows, cols = cover.counts.shape
    w_px, h_px = int(round(cover.width_in * px_per_in)), int(round(cover.depth_in * px_per_in))
    img = np.full((h_px, w_px, 3), 245, np.float32)
    for k in range(len(cover.names)):
        mask = cv2.resize(cover.by_camera[k].astype(np.uint8), (w_px, h_px), interpolation=cv2.INTER_NEAREST).astype(bool)
        tint = np.array(_CAMERA_BGR[k % len(_CAMERA_BGR)], np.float32)
        img[mask] = img[mask] * 0.55 + tint * 0.45
    counts = cv2.resize(cover.counts.astype(np.uint8), (w_px, h_px), interpolation=cv2.INTER_NEAREST)
    img[counts == 0] = (60, 60, 220)
    out = np.clip(img, 0, 255).astype(np.uint8)
    step = max(6, int(px_per_in * 2))
    for d in range(-h_px, w_px, step):  # hatch the gaps
        line = np.zeros((h_px, w_px), np.uint8)
        cv2.line(line, (d, h_px), (d + h_px, 0), 1, 1)
        out[(line > 0) & (counts == 0)] = (30, 30, 140)
    out = np.ascontiguousarray(out[::-1])  # row 0 of the map is the table's front edge: draw it at the bottom

    def at(x: float, y: float) -> tuple[int, int]:
        return int(round(x * px_per_in)), int(round(h_px - y * px_per_in))

    font = cv2.FONT_HERSHEY_SIMPLEX

    def label(text: str, x: float, y: float, scale: float, colour: tuple[int, int, int], thickness: int) -> None:
        """Text at table point (x, y), moved inside the picture if it would run off it (a camera hangs at
        the table's edge or beyond, and its name was cut off there)."""
        (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
        px, py = at(x, y)
        px = min(max(px, 2), max(2, w_px - 2 - tw))
        py = min(max(py, th + 2), max(th + 2, h_px - 2 - base))
        cv2.putText(out, text, (px, py), font, scale, colour, thickness, cv2.LINE_AA)

    if calibrations:
        for a in calibrations[0].layout.anchors:
            half = a.size_in / 2
            cv2.rectangle(out, at(a.x_in - half, a.y_in + half), at(a.x_in + half, a.y_in - half), (0, 0, 0), -1)
            right = a.x_in + half + 3.0 < cover.width_in  # label inside the picture
            lx = a.x_in + half + 0.5 if right else a.x_in - half - 0.5 - 2.2 * len(str(a.tag_id))
            ly = a.y_in - half if a.y_in - half > 2.0 else a.y_in + half + 0.5
            label(str(a.tag_id), lx, ly, 0.5, (0, 0, 0), 1)
    for k, name in enumerate(cover.names):
        if k < len(calibrations):  # the camera's name under where it hangs
            cx, cy = (float(v) for v in calibrations[k].pose.camera_position_in[:2])
            cv2.circle(out, at(cx, cy), max(3, int(px_per_in)), (0, 0, 0), 2, cv2.LINE_AA)
            cy -= 3.0
        else:
            cells = np.argwhere(cover.by_camera[k])
            if not len(cells):
                continue
            cy, cx = (cells.mean(axis=0) + 0.5) * cover.cell_in
        label(name, cx - len(name) * 0.6, cy - 1.0, 0.7, (0, 0, 0), 2)
    overlap = np.argwhere(cover.counts >= 2)
    if len(overlap):
        cy, cx = (overlap.mean(axis=0) + 0.5) * cover.cell_in
        label("overlap", cx - 4.0, cy - 4.0, 0.5, (40, 40, 40), 1)
    cv2.rectangle(out, (0, 0), (w_px - 1, h_px - 1), (0, 0, 0), 1)
    return out
