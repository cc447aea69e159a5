"""The synthetic sand table: camera frames of a table with known ground truth.

Rendering is by inverse mapping, so that the image is exactly what the camera model predicts: for
``supersample`` x ``supersample`` points inside every output pixel, the pixel is undistorted, turned
into a viewing ray in table inches and intersected with the scene (terrain, anchor cards, unit blocks, a
hand); the scene's colour there is averaged over the pixel's area. Tag edges are therefore drawn where
``cv2.projectPoints`` puts them, and detected corners are unbiased against the truth.

Speed: the static part (sand, floor, hills, anchors, projector light) is rendered once per table; each
frame copies it, draws the units and hands in small patches (cached while a unit stands still) and
applies the faults of real footage. 1280x720 with a dozen units renders above 30 frames/s on one core
(about 40 frames/s with all the faults of a webcam; ``bench/synthetic_speed.py``).
"""
from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationError
from calibration.synthetic.faults import apply_faults
from calibration.synthetic.scene import Faults, Hand, Projector, RenderedFrame, TagPlacement, TagTruth
from calibration.synthetic.texture import TableLook, shading
from calibration.synthetic.view_geometry import ViewGeometry
from calibration.table_layout import TableLayout, tag_corners_in
from calibration.tag_bitmaps import TAG_CELLS, card_size_in, tag_bitmap
from calibration.terrain import Terrain, near_terrain

#: A typical wide-angle 720p/1080p webcam lens (OpenCV k1, k2, p1, p2, k3).
WIDE_ANGLE_DIST = (-0.28, 0.09, 0.0, 0.0, -0.012)
WIDE_ANGLE_HFOV_DEG = 78.0

PAPER_BGR = np.array([236.0, 238.0, 240.0], dtype=np.float32)
INK_BGR = np.array([28.0, 26.0, 26.0], dtype=np.float32)
BODY_BGR = np.array([70.0, 96.0, 88.0], dtype=np.float32)
SKIN_BGR = np.array([128.0, 160.0, 214.0], dtype=np.float32)
SKY_BGR = np.array([40.0, 40.0, 44.0], dtype=np.float32)

_STRIP_ROWS = 48
_PATCH_CACHE_SIZE = 512

#: A rendered piece of the picture: pixel box (x0, y0, x1, y1), premultiplied BGR colour and coverage
#: (both float32, the box's size); None when nothing of it is in view.
Patch = tuple[tuple[int, int, int, int], np.ndarray, np.ndarray] | None


def webcam_model(
    width_px: int = 1280,
    height_px: int = 720,
    *,
    hfov_deg: float = WIDE_ANGLE_HFOV_DEG,
    dist_coeffs: tuple[float, ...] = WIDE_ANGLE_DIST,
) -> CameraModel:
    """A wide-angle webcam: ``hfov_deg`` is the field of view across the image centre line.

    >>> m = webcam_model(1920, 1080)
    >>> (m.width_px, m.source, round(m.fx_px))
    (1920, 'synthetic', 1186)
    """
    # The uncalibrated default's pinhole (same field-of-view rule), with a real lens's distortion.
    return replace(CameraModel.default(width_px, height_px, hfov_deg=hfov_deg),
                   dist_coeffs=tuple(float(c) for c in dist_coeffs), source="synthetic")


def overhead_pose(layout: TableLayout, *, tilt_deg: float = 20.0, height_in: float | None = None) -> CameraPose:
    """A camera over the middle of the table's long edge, tilted ``tilt_deg`` from straight down, aimed
    at the table centre, the table shown like a map (+x right, +y up)."""
    cx, cy = layout.width_in / 2.0, layout.depth_in / 2.0
    h = height_in if height_in is not None else 1.05 * layout.depth_in
    back = h * math.tan(math.radians(tilt_deg))
    return CameraPose.looking_at((cx, cy - back, h), (cx, cy, 0.0))


@dataclass(frozen=True)
class _Block:
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


class SyntheticTable:
    """A sand table seen by one camera; ``render`` draws unit tags on it with ground truth.

    The model and pose default to a wide-angle 1280x720 webcam, tilted 20
    degrees. ``supersample`` is the number of samples per pixel edge for tags and hands (their edges must
    be exact); ``background_supersample`` for the sand, hills and projector light.
    """

    def __init__(
        self,
        layout: TableLayout | None = None,
        model: CameraModel | None = None,
        pose: CameraPose | None = None,
        terrain: Terrain | None = None,
        texture_seed: int = 0,
        projector: Projector | None = None,
        *,
        supersample: int = 4,
        background_supersample: int = 2,
    ) -> None:
        if supersample < 1 or background_supersample < 1:
            raise CalibrationError(
                f"supersample={supersample}, background_supersample={background_supersample}: use 1 or more"
            )
        self.layout = layout if layout is not None else TableLayout.default()
        self.model = model if model is not None else webcam_model()
        self.pose = pose if pose is not None else overhead_pose(self.layout)
        self.terrain = terrain if terrain is not None else Terrain()
        self.texture_seed = int(texture_seed)
        self.projector = projector
        self.supersample = int(supersample)
        self.background_supersample = int(background_supersample)
        self._geom = ViewGeometry(self.model, self.pose)
        self._background: np.ndarray | None = None
        self._patches: OrderedDict[tuple, Patch] = OrderedDict()
        self._hands: dict[Hand, Patch] = {}

    # ------------------------------------------------------------------ variants
    def moved(self, pose: CameraPose) -> "SyntheticTable":
        """The same table and lens seen from another camera pose (a nudged camera)."""
        return SyntheticTable(
            self.layout, self.model, pose, self.terrain, self.texture_seed, self.projector,
            supersample=self.supersample, background_supersample=self.background_supersample,
        )

    def with_projector(self, projector: Projector | None) -> "SyntheticTable":
        """The same scene lit by ``projector`` (or none)."""
        return SyntheticTable(
            self.layout, self.model, self.pose, self.terrain, self.texture_seed, projector,
            supersample=self.supersample, background_supersample=self.background_supersample,
        )

    @property
    def size_px(self) -> tuple[int, int]:
        return self.model.width_px, self.model.height_px

    # ------------------------------------------------------------------ rendering
    @property
    def background_bgr(self) -> np.ndarray:
        """The empty table with its anchors and projector light, rendered once (read-only)."""
        if self._background is None:
            bg = self._render_ground()
            for a in self.layout.anchors:
                block = _Block(a.tag_id, a.x_in, a.y_in, a.heading_deg, a.size_in, a.z_in, a.z_in,
                               light=self._block_light(a.x_in, a.y_in, a.z_in))
                _composite(bg, self._render_block(block))
            bg = np.clip(np.rint(bg), 0, 255).astype(np.uint8)
            bg.setflags(write=False)
            self._background = bg
        return self._background

    def render(
        self,
        placements: Sequence[TagPlacement],
        *,
        faults: Faults = Faults(),
        hands: Sequence[Hand] = (),
        rng: np.random.Generator | None = None,
        t_s: float = 0.0,
        frame_index: int = 0,
    ) -> RenderedFrame:
        """One camera frame with ``placements`` on the table, ``hands`` over it and ``faults`` applied."""
        rng = rng if rng is not None else np.random.default_rng(0)
        frame = self.background_bgr.copy()
        # painter's order: the farthest block first, so a near tall model hides what stands behind it
        cam = self._geom.center_in
        for p in sorted(placements, key=lambda q: -math.dist(cam, (q.x_in, q.y_in, q.z_in))):
            _composite(frame, self._unit_patch(p, faults))
        for hand in hands:
            if hand not in self._hands:
                self._hands[hand] = self._render_hand(hand)
            _composite(frame, self._hands[hand])
        frame = apply_faults(frame, faults, rng)
        return RenderedFrame(image_bgr=frame, truth=self.truth(placements, hands=hands), t_s=t_s, frame_index=frame_index)

    def truth(self, placements: Sequence[TagPlacement], *, hands: Sequence[Hand] = ()) -> tuple[TagTruth, ...]:
        """Ground truth for the anchors and ``placements`` without rendering anything."""
        out = []
        for a in self.layout.anchors:
            out.append(self._truth(a.tag_id, a.x_in, a.y_in, a.z_in, a.heading_deg, a.size_in, hands))
        for p in placements:
            out.append(self._truth(p.tag_id, p.x_in, p.y_in, p.z_in, p.heading_deg, p.size_in, hands))
        return tuple(out)

    # ------------------------------------------------------------------ internals
    def _truth(self, tag_id: int, x: float, y: float, z: float, heading: float, size: float, hands: Sequence[Hand]) -> TagTruth:
        corners = np.column_stack([tag_corners_in((x, y), size, heading), np.full(4, z)])
        pts = np.vstack([corners, [[x, y, z]]])
        px, inside = self._geom.project(pts)
        return TagTruth(
            tag_id=int(tag_id), x_in=float(x), y_in=float(y), z_in=float(z), heading_deg=float(heading) % 360.0,
            size_in=float(size), corners_px=px[:4], center_px=px[4], in_view=bool(np.all(inside[:4])),
            occluded=any(self._hand_covers(h, corners, (x, y), size, heading) for h in hands),
        )

    def _hand_covers(self, hand: Hand, corners: np.ndarray, centre: tuple[float, float], size: float, heading: float) -> bool:
        z = corners[0, 2]
        if hand.z_in <= z:
            return False
        # corners, edge midpoints and centre: any of them hidden means the detector loses the tag
        ring = np.column_stack([tag_corners_in(centre, size, heading), np.full(4, z)])
        mids = (ring + np.roll(ring, -1, axis=0)) / 2
        pts = np.vstack([ring, mids, [[centre[0], centre[1], z]]])
        cam = self._geom.center_in
        lam = (hand.z_in - cam[2]) / (pts[:, 2] - cam[2])
        hits = cam[None, :2] + lam[:, None] * (pts[:, :2] - cam[None, :2])
        return bool(np.any(_hand_mask(hand, self.layout, hits[:, 0], hits[:, 1])))

    def _block_light(self, x: float, y: float, z: float) -> float:
        if self.projector is None:
            return 1.0
        light = _projector_light(self.projector, np.array([[x, y, z]]))
        return float(self.projector.room_light + self.projector.brightness * light.mean())

    def _unit_patch(self, p: TagPlacement, faults: Faults) -> Patch:
        smear = (0.0, 0.0)
        vx, vy = p.velocity_in_s
        if faults.motion_blur and (vx or vy) and faults.exposure_s > 0:
            smear = (vx * faults.exposure_s, vy * faults.exposure_s)
        key = (p, smear)
        if key in self._patches:
            self._patches.move_to_end(key)
            return self._patches[key]
        ground = float(self.terrain.height_at(p.x_in, p.y_in))
        block = _Block(p.tag_id, p.x_in, p.y_in, p.heading_deg, p.size_in, p.z_in, min(ground, p.z_in),
                       light=self._block_light(p.x_in, p.y_in, p.z_in))
        patch = self._render_block(block, smear)
        self._patches[key] = patch
        if len(self._patches) > _PATCH_CACHE_SIZE:
            self._patches.popitem(last=False)
        return patch

    def _render_block(self, block: _Block, smear_in: tuple[float, float] = (0.0, 0.0)) -> Patch:
        """The block as a premultiplied patch; ``smear_in`` is how far it travels during the exposure
        (the tag is at its position mid-exposure)."""
        offsets = [(0.0, 0.0)]
        if smear_in != (0.0, 0.0):
            offsets = [(-smear_in[0] / 2, -smear_in[1] / 2), (smear_in[0] / 2, smear_in[1] / 2)]
        box = self._geom.pixel_bbox(block.hull_points(offsets))
        if box is None:
            return None
        n = self.supersample
        dirs = self._geom.sample_rays(box, n)
        cam = self._geom.center_in
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
            if self.projector is not None and len(ti):
                # the projector's light on the card, sample by sample: an overlay's edge across a tag
                # is what the camera sees (the sides keep the light at the block's centre)
                hx = cam[0] + tt * dirs[..., 0].ravel()[ti]
                hy = cam[1] + tt * dirs[..., 1].ravel()[ti]
                pts = np.column_stack([hx, hy, np.full(len(ti), block.z_top_in)]).astype(np.float32)
                gain = self.projector.room_light + self.projector.brightness * _projector_light(self.projector, pts[None])[0]
                flat = colour.reshape(-1, 3)
                flat[ti] = lut_unlit[kind.ravel()[ti]] * gain
        patch = _downsample(box, colour, hit.astype(np.float32), n)
        if patch is None or smear_in == (0.0, 0.0):
            return patch
        # Motion blur: over the short exposure the block's image slides along a straight line, so
        # averaging over time is a convolution of the patch with that line.
        ends, _ = self._geom.project(
            np.array([[block.x_in - smear_in[0] / 2, block.y_in - smear_in[1] / 2, block.z_top_in],
                      [block.x_in + smear_in[0] / 2, block.y_in + smear_in[1] / 2, block.z_top_in]])
        )
        if not np.all(np.isfinite(ends)):
            return patch
        return _smear(patch, ends[1] - ends[0])

    def _render_hand(self, hand: Hand) -> Patch:
        outline = _hand_outline(hand, self.layout)
        box = self._geom.pixel_bbox(outline)
        if box is None:
            return None
        n = min(2, self.supersample)  # a hand's outline needs no sub-pixel exactness
        dirs = self._geom.sample_rays(box, n)
        cam = self._geom.center_in
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (hand.z_in - cam[2]) / dirs[..., 2]
        x = cam[0] + s * dirs[..., 0]
        y = cam[1] + s * dirs[..., 1]
        inside = (s > 0) & _hand_mask(hand, self.layout, x, y)
        r = np.hypot(x - hand.x_in, y - hand.y_in) / hand.radius_in
        tone = (1.0 - 0.18 * np.clip(r, 0, 1) ** 2).astype(np.float32)
        colour = SKIN_BGR * tone[..., None] * inside[..., None]
        return _downsample(box, colour, inside.astype(np.float32), n)

    def _render_ground(self) -> np.ndarray:
        """Sand, floor, hills and projector light, area-sampled; float32 BGR."""
        w, h = self.size_px
        n = self.background_supersample
        look = TableLook(self.layout.width_in, self.layout.depth_in, seed=self.texture_seed)
        out = np.empty((h, w, 3), np.float32)
        cam = self._geom.center_in
        for y0 in range(0, h, _STRIP_ROWS):
            y1 = min(h, y0 + _STRIP_ROWS)
            dirs = self._geom.sample_rays((0, y0, w, y1), n)
            x, y, z, shade, valid = _ground_hits(cam, dirs, self.terrain)
            colour = look.sample(x, y)
            colour *= shade[..., None]
            if self.projector is not None:
                pts = np.stack([x, y, z], axis=-1)
                light = _projector_light(self.projector, pts)
                if not self.terrain.is_flat:  # behind a hill, as the projector sees it, no light falls
                    from calibration.synthetic.projected_light import shadowed

                    light[shadowed(pts, self.projector.pose.camera_position_in, self.terrain)] = 0.0
                colour *= self.projector.room_light + self.projector.brightness * light
            colour[~valid] = SKY_BGR
            out[y0:y1] = cv2.resize(colour, (w, y1 - y0), interpolation=cv2.INTER_AREA)
        return out


def _ground_hits(cam: np.ndarray, dirs: np.ndarray, terrain: Terrain) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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


def _projector_light(projector: Projector, points_in: np.ndarray) -> np.ndarray:
    """Projected colour (0..1 BGR) falling on table points: (..., 3) -> (..., 3)."""
    pts = np.asarray(points_in, dtype=np.float32)
    shape = pts.shape[:-1]
    rows = shape[0] if len(shape) == 2 else 1
    px, front = _project_fast(pts.reshape(rows, -1, 3), projector.model, projector.pose)
    map_x = np.where(front, px[..., 0], np.float32(-1e6))
    map_y = np.where(front, px[..., 1], np.float32(-1e6))
    # remap wants 2-D maps under 32767 on a side, hence the (rows, cols) shape
    light = cv2.remap(projector.image_bgr, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    return light.reshape(*shape, 3).astype(np.float32) / 255.0


def _project_fast(points: np.ndarray, model: CameraModel, pose: CameraPose) -> tuple[np.ndarray, np.ndarray]:
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


def _hand_geometry(hand: Hand, layout: TableLayout) -> tuple[np.ndarray, np.ndarray, float]:
    """Palm centre, the far end of the arm (off the nearest table edge), and the arm's half width."""
    c = np.array([hand.x_in, hand.y_in])
    edges = [
        (hand.x_in, np.array([-1.0, 0.0])),
        (layout.width_in - hand.x_in, np.array([1.0, 0.0])),
        (hand.y_in, np.array([0.0, -1.0])),
        (layout.depth_in - hand.y_in, np.array([0.0, 1.0])),
    ]
    dist, direction = min(edges, key=lambda e: e[0])
    end = c + direction * (max(dist, 0.0) + 36.0)
    return c, end, 0.7 * hand.radius_in


def _hand_mask(hand: Hand, layout: TableLayout, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    c, end, half = _hand_geometry(hand, layout)
    palm = (x - c[0]) ** 2 + (y - c[1]) ** 2 <= hand.radius_in**2
    seg = end - c
    t = np.clip(((x - c[0]) * seg[0] + (y - c[1]) * seg[1]) / float(seg @ seg), 0.0, 1.0)
    arm = (x - c[0] - t * seg[0]) ** 2 + (y - c[1] - t * seg[1]) ** 2 <= half**2
    return palm | arm


def _hand_outline(hand: Hand, layout: TableLayout) -> np.ndarray:
    c, end, half = _hand_geometry(hand, layout)
    ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    ring = c + hand.radius_in * np.column_stack([np.cos(ang), np.sin(ang)])
    seg = (end - c) / np.linalg.norm(end - c)
    perp = np.array([-seg[1], seg[0]]) * half
    pts = np.vstack([ring, end + perp, end - perp])
    return np.column_stack([pts, np.full(len(pts), hand.z_in)])


def _downsample(box: tuple[int, int, int, int], colour: np.ndarray, cover: np.ndarray, n: int) -> Patch:
    x0, y0, x1, y1 = box
    size = (x1 - x0, y1 - y0)
    if n > 1:
        colour = cv2.resize(colour, size, interpolation=cv2.INTER_AREA)
        cover = cv2.resize(cover, size, interpolation=cv2.INTER_AREA)
    if not np.any(cover > 0):
        return None
    return box, colour.astype(np.float32), cover.astype(np.float32)


def _smear(patch: Patch, travel_px: np.ndarray) -> Patch:
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


def _composite(img: np.ndarray, patch: Patch) -> None:
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
