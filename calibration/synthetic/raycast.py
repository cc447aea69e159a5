"""Rays against the synthetic scene: where camera samples meet the sand and hills, the blocks with tag
cards, the projector's light and a hill's shadow; and the premultiplied patches they are drawn as.

The layer under both the camera renderer (:mod:`calibration.synthetic.renderer`) and the projected
light sequences (:mod:`calibration.synthetic.projected_light`): pure functions of the view geometry,
the terrain and the projector, so neither of those modules needs the other's insides.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationError
from calibration.synthetic.scene import Projector
from calibration.synthetic.texture import shading
from calibration.synthetic.view_geometry import ViewGeometry
from calibration.table_layout import tag_corners_in
from calibration.tag_bitmaps import TAG_CELLS, card_size_in, tag_bitmap
from calibration.terrain import Terrain, near_terrain

PAPER_BGR = np.array([236.0, 238.0, 240.0], dtype=np.float32)
INK_BGR = np.array([28.0, 26.0, 26.0], dtype=np.float32)
BODY_BGR = np.array([70.0, 96.0, 88.0], dtype=np.float32)

_SHADOW_STEPS = 24

#: A rendered piece of the picture: pixel box (x0, y0, x1, y1), premultiplied BGR colour and coverage
#: (both float32, the box's size); None when nothing of it is in view.
PatchData = tuple[tuple[int, int, int, int], np.ndarray, np.ndarray]
Patch = PatchData | None


@dataclass(frozen=True)
class Block:
    """A square block standing on the table with a tag card on top (anchors: a flat card)."""

    tag_id: int
    x_in: float
    y_in: float
    heading_deg: float
    tag_size_in: float
    z_top_in: float
    z_bottom_in: float
    light: float = 1.0

    @property
    def half_in(self) -> float:
        return card_size_in(self.tag_size_in) / 2.0

    def hull_points(self, offsets: Sequence[tuple[float, float]]) -> np.ndarray:
        pts = []
        for dx, dy in offsets:
            sq = tag_corners_in((self.x_in + dx, self.y_in + dy), 2 * self.half_in, self.heading_deg)
            for z in {self.z_top_in, self.z_bottom_in}:
                pts.append(np.column_stack([sq, np.full(4, z)]))
        return np.concatenate(pts)


def render_block(
    geom: ViewGeometry,
    block: Block,
    *,
    supersample: int,
    projector: Projector | None = None,
    smear_in: tuple[float, float] = (0.0, 0.0),
) -> Patch:
    """``block`` as ``geom``'s camera sees it, a premultiplied patch sampled ``supersample`` x
    ``supersample`` per pixel; ``projector``'s light falls on its card; ``smear_in`` is how far it
    travels during the exposure (the tag is at its position mid-exposure)."""
    offsets = [(0.0, 0.0)]
    if smear_in != (0.0, 0.0):
        offsets = [(-smear_in[0] / 2, -smear_in[1] / 2), (smear_in[0] / 2, smear_in[1] / 2)]
    box = geom.pixel_bbox(block.hull_points(offsets))
    if box is None:
        return None
    n = supersample
    dirs = geom.sample_rays(box, n)
    cam = geom.center_in
    a = math.radians(block.heading_deg - 90.0)
    ca, sa = math.cos(a), math.sin(a)
    # Work in the block's own frame: u to the right of the printed tag, v toward its top edge.
    du = ca * dirs[..., 0] + sa * dirs[..., 1]
    dv = ca * dirs[..., 1] - sa * dirs[..., 0]
    h = block.half_in
    cell = block.tag_size_in / TAG_CELLS
    bits = tag_bitmap(block.tag_id).astype(bool)
    # Colour of each kind of surface: 0 nothing, 1 paper, 2 ink, 3-6 the block's sides (+u, -u, +v, -v)
    lut = np.zeros((7, 3), np.float32)
    lut[1], lut[2] = PAPER_BGR, INK_BGR
    for k, (nx, ny) in enumerate(((ca, sa), (-ca, -sa), (-sa, ca), (sa, -ca))):
        lut[3 + k] = BODY_BGR * float(shading(nx, ny, 0.0))
    lut_unlit = lut.copy()
    lut *= np.float32(block.light)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv_u, inv_v, inv_z = 1.0 / du, 1.0 / dv, 1.0 / dirs[..., 2]
        t_top = (block.z_top_in - cam[2]) * inv_z
        t_bottom = (block.z_bottom_in - cam[2]) * inv_z
        side_u = np.where(du > 0, np.uint8(4), np.uint8(3))
        side_v = np.where(dv > 0, np.uint8(6), np.uint8(5))
        rx, ry = cam[0] - block.x_in, cam[1] - block.y_in
        ou = ca * rx + sa * ry
        ov = ca * ry - sa * rx
        tu1, tu2 = (-h - ou) * inv_u, (h - ou) * inv_u
        tv1, tv2 = (-h - ov) * inv_v, (h - ov) * inv_v
        nu = np.minimum(tu1, tu2)
        nv = np.minimum(tv1, tv2)
        near_side = np.maximum(nu, nv)
        near = np.maximum(near_side, t_top)
        far = np.minimum(np.minimum(np.maximum(tu1, tu2), np.maximum(tv1, tv2)), t_bottom)
        hit = (near <= far) & (far > 0)
        top = hit & (t_top >= near_side)
        kind = np.where(nu >= nv, side_u, side_v)
        kind[~hit] = 0
        ti = np.flatnonzero(top)
        if len(ti):
            tt = t_top.ravel()[ti]
            col = np.floor((ou + tt * du.ravel()[ti]) / cell + TAG_CELLS / 2).astype(np.int32)
            row = np.floor(TAG_CELLS / 2 - (ov + tt * dv.ravel()[ti]) / cell).astype(np.int32)
            in_tag = (col >= 0) & (col < TAG_CELLS) & (row >= 0) & (row < TAG_CELLS)
            white = np.ones(len(ti), bool)
            white[in_tag] = bits[row[in_tag], col[in_tag]]
            kind.ravel()[ti] = np.where(white, 1, 2)
        colour = lut[kind]
        if projector is not None and len(ti):
            # the projector's light on the card, sample by sample: an overlay's edge across a tag
            # is what the camera sees (the sides keep the light at the block's centre)
            hx = cam[0] + tt * dirs[..., 0].ravel()[ti]
            hy = cam[1] + tt * dirs[..., 1].ravel()[ti]
            pts = np.column_stack([hx, hy, np.full(len(ti), block.z_top_in)]).astype(np.float32)
            gain = projector.room_light + projector.brightness * projector_light(projector, pts[None])[0]
            flat = colour.reshape(-1, 3)
            flat[ti] = lut_unlit[kind.ravel()[ti]] * gain
    patch = downsample(box, colour, hit.astype(np.float32), n)
    if patch is None or smear_in == (0.0, 0.0):
        return patch
    # Motion blur: over the short exposure the block's image slides along a straight line, so
    # averaging over time is a convolution of the patch with that line.
    ends, _ = geom.project(
        np.array([[block.x_in - smear_in[0] / 2, block.y_in - smear_in[1] / 2, block.z_top_in],
                  [block.x_in + smear_in[0] / 2, block.y_in + smear_in[1] / 2, block.z_top_in]])
    )
    if not np.all(np.isfinite(ends)):
        return patch
    return smear(patch, ends[1] - ends[0])


def ground_hits(cam: np.ndarray, dirs: np.ndarray, terrain: Terrain) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where each ray meets the ground: x, y, z (float32 arrays), shading factor, and whether it does."""
    dz = dirs[..., 2].astype(np.float64)
    valid = dz < -1e-9
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(valid, -cam[2] / dz, 0.0)
    x = cam[0] + s * dirs[..., 0]
    y = cam[1] + s * dirs[..., 1]
    z = np.zeros_like(x)
    shade = np.ones(x.shape, np.float32)
    top = terrain.max_height_in
    if top > 0:
        with np.errstate(divide="ignore", invalid="ignore"):
            s_top = np.where(valid, (top - cam[2]) / dz, 0.0)
        xt = cam[0] + s_top * dirs[..., 0]
        yt = cam[1] + s_top * dirs[..., 1]
        near = near_terrain(terrain, np.minimum(x, xt), np.maximum(x, xt), np.minimum(y, yt), np.maximum(y, yt)) & valid
        if np.any(near):
            d = dirs[near].astype(np.float64)
            ss = s_top[near]
            lo, hi = ss.copy(), s[near]
            for _ in range(10):
                px = cam[0] + ss * d[:, 0]
                py = cam[1] + ss * d[:, 1]
                f = cam[2] + ss * d[:, 2] - terrain.height_at(px, py)
                gx, gy = terrain.gradient_at(px, py)
                fp = np.minimum(d[:, 2] - gx * d[:, 0] - gy * d[:, 1], 0.25 * d[:, 2])
                ss = np.clip(ss - f / fp, lo, hi)
            px = cam[0] + ss * d[:, 0]
            py = cam[1] + ss * d[:, 1]
            x[near], y[near] = px, py
            z[near] = terrain.height_at(px, py)
            gx, gy = terrain.gradient_at(px, py)
            norm = np.sqrt(gx**2 + gy**2 + 1.0)
            shade[near] = shading(-gx / norm, -gy / norm, 1.0 / norm)
    return x.astype(np.float32), y.astype(np.float32), z.astype(np.float32), shade, valid


def projector_light(projector: Projector, points_in: np.ndarray) -> np.ndarray:
    """Projected colour (0..1 BGR) falling on table points: (..., 3) -> (..., 3)."""
    pts = np.asarray(points_in, dtype=np.float32)
    shape = pts.shape[:-1]
    rows = shape[0] if len(shape) == 2 else 1
    px, front = project_fast(pts.reshape(rows, -1, 3), projector.model, projector.pose)
    map_x = np.where(front, px[..., 0], np.float32(-1e6))
    map_y = np.where(front, px[..., 1], np.float32(-1e6))
    # remap wants 2-D maps under 32767 on a side, hence the (rows, cols) shape
    light = cv2.remap(projector.image_bgr, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    return light.reshape(*shape, 3).astype(np.float32) / 255.0


def project_fast(points: np.ndarray, model: CameraModel, pose: CameraPose) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's pinhole + (k1, k2, p1, p2[, k3[, k4, k5, k6]]) projection of (..., 3) float32 points, in
    float32 numpy: millions of points without cv2.projectPoints' float64 copies."""
    rot = pose.rotation.astype(np.float32)
    cam = points @ rot.T + pose.translation.astype(np.float32)
    z = cam[..., 2]
    front = z > 1e-6
    with np.errstate(divide="ignore", invalid="ignore"):
        x = cam[..., 0] / z
        y = cam[..., 1] / z
    d = list(model.dist_coeffs) + [0.0] * (8 - len(model.dist_coeffs))
    if len(model.dist_coeffs) > 8:
        raise CalibrationError("the synthetic projector supports up to 8 distortion coefficients")
    k1, k2, p1, p2, k3, k4, k5, k6 = (np.float32(v) for v in d[:8])
    if any(d):
        r2 = x * x + y * y
        radial = (1 + r2 * (k1 + r2 * (k2 + r2 * k3))) / (1 + r2 * (k4 + r2 * (k5 + r2 * k6)))
        xy = x * y
        x, y = x * radial + 2 * p1 * xy + p2 * (r2 + 2 * x * x), y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * xy
    u = np.float32(model.fx_px) * x + np.float32(model.cx_px)
    v = np.float32(model.fy_px) * y + np.float32(model.cy_px)
    return np.stack([u, v], axis=-1), front


def shadowed(points_in: np.ndarray, projector_centre_in: np.ndarray, terrain: Terrain) -> np.ndarray:
    """True where the ground between a point (..., 3) and the projector rises above the light's path:
    the point lies in a hill's shadow and gets no projected light."""
    pts = np.asarray(points_in, dtype=np.float64)
    out = np.zeros(pts.shape[:-1], bool)
    top = terrain.max_height_in
    if top <= 0:
        return out
    c = np.asarray(projector_centre_in, dtype=np.float64)
    flat = pts.reshape(-1, 3)
    # how far toward the projector the light travels before it is above every hill
    t_top = np.clip((top - flat[:, 2]) / np.maximum(c[2] - flat[:, 2], 1e-9), 0.0, 1.0)
    end = flat + t_top[:, None] * (c - flat)
    cand = near_terrain(terrain, np.minimum(flat[:, 0], end[:, 0]), np.maximum(flat[:, 0], end[:, 0]),
                       np.minimum(flat[:, 1], end[:, 1]), np.maximum(flat[:, 1], end[:, 1]))
    idx = np.flatnonzero(cand & (t_top > 0))
    hit = np.zeros(len(idx), bool)
    p = flat[idx]
    d = c - p
    for k in range(1, _SHADOW_STEPS + 1):
        t = t_top[idx] * k / _SHADOW_STEPS
        q = p + t[:, None] * d
        hit |= terrain.height_at(q[:, 0], q[:, 1]) > q[:, 2] + 1e-3
    flat_out = out.reshape(-1)
    flat_out[idx] = hit
    return out


def downsample(box: tuple[int, int, int, int], colour: np.ndarray, cover: np.ndarray, n: int) -> Patch:
    x0, y0, x1, y1 = box
    size = (x1 - x0, y1 - y0)
    if n > 1:
        colour = cv2.resize(colour, size, interpolation=cv2.INTER_AREA)
        cover = cv2.resize(cover, size, interpolation=cv2.INTER_AREA)
    if not np.any(cover > 0):
        return None
    return box, colour.astype(np.float32), cover.astype(np.float32)


def smear(patch: PatchData, travel_px: np.ndarray) -> PatchData:
    """Convolve a premultiplied patch with a line of ``travel_px`` (dx, dy) centred on the origin."""
    box, colour, cover = patch
    length = float(np.hypot(*travel_px))
    if length < 0.05:
        return patch
    half = int(np.ceil(max(abs(travel_px[0]), abs(travel_px[1])) / 2)) + 1
    kernel = np.zeros((2 * half + 1, 2 * half + 1), np.float32)
    steps = max(8, int(np.ceil(length * 8)))
    for s in (np.arange(steps) + 0.5) / steps - 0.5:
        x, y = half + s * travel_px[0], half + s * travel_px[1]
        x0, y0 = int(np.floor(x)), int(np.floor(y))
        fx, fy = x - x0, y - y0
        kernel[y0, x0] += (1 - fx) * (1 - fy)
        kernel[y0, x0 + 1] += fx * (1 - fy)
        kernel[y0 + 1, x0] += (1 - fx) * fy
        kernel[y0 + 1, x0 + 1] += fx * fy
    kernel /= kernel.sum()
    colour = cv2.filter2D(colour, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    cover = cv2.filter2D(cover, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    return box, colour, cover


def composite(img: np.ndarray, patch: Patch) -> None:
    """Paint a premultiplied patch over ``img`` (float32 or uint8 BGR) in place."""
    if patch is None:
        return
    (x0, y0, x1, y1), colour, cover = patch
    region = img[y0:y1, x0:x1].astype(np.float32)
    region *= (1.0 - cover)[..., None]
    region += colour
    if img.dtype == np.uint8:
        np.rint(region, out=region)
        np.clip(region, 0, 255, out=region)
    img[y0:y1, x0:x1] = region
