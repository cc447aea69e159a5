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
from dataclasses import replace

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationError
from calibration.synthetic.faults import apply_faults
from calibration.synthetic.raycast import (
    Block,
    Patch,
    composite,
    downsample,
    ground_hits,
    projector_light,
    render_block,
    shadowed,
)
from calibration.synthetic.scene import Faults, Hand, Projector, RenderedFrame, TagPlacement, TagTruth
from calibration.synthetic.texture import TableLook
from calibration.synthetic.view_geometry import ViewGeometry
from calibration.table_layout import TableLayout, tag_corners_in
from calibration.terrain import Terrain

#: A typical wide-angle 720p/1080p webcam lens (OpenCV k1, k2, p1, p2, k3).
WIDE_ANGLE_DIST = (-0.28, 0.09, 0.0, 0.0, -0.012)
WIDE_ANGLE_HFOV_DEG = 78.0

SKIN_BGR = np.array([128.0, 160.0, 214.0], dtype=np.float32)
SKY_BGR = np.array([40.0, 40.0, 44.0], dtype=np.float32)

_STRIP_ROWS = 48
_PATCH_CACHE_SIZE = 512

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
        self._patches: OrderedDict[tuple[TagPlacement, tuple[float, float]], Patch] = OrderedDict()
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

    @property
    def geometry(self) -> ViewGeometry:
        """The camera's rays and projections over this table (shared with the lit-sequence renderer)."""
        return self._geom

    def render_block(self, block: Block, smear_in: tuple[float, float] = (0.0, 0.0)) -> Patch:
        """``block`` as this camera sees it, sampled ``supersample`` times per pixel edge and lit by the
        table's projector; ``smear_in`` is how far it travels during the exposure."""
        return render_block(self._geom, block, supersample=self.supersample, projector=self.projector, smear_in=smear_in)

    # ------------------------------------------------------------------ rendering
    @property
    def background_bgr(self) -> np.ndarray:
        """The empty table with its anchors and projector light, rendered once (read-only)."""
        if self._background is None:
            bg = self._render_ground()
            for a in self.layout.anchors:
                block = Block(a.tag_id, a.x_in, a.y_in, a.heading_deg, a.size_in, a.z_in, a.z_in,
                               light=self._block_light(a.x_in, a.y_in, a.z_in))
                composite(bg, self.render_block(block))
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
            composite(frame, self._unit_patch(p, faults))
        for hand in hands:
            if hand not in self._hands:
                self._hands[hand] = self._render_hand(hand)
            composite(frame, self._hands[hand])
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
        light = projector_light(self.projector, np.array([[x, y, z]]))
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
        block = Block(p.tag_id, p.x_in, p.y_in, p.heading_deg, p.size_in, p.z_in, min(ground, p.z_in),
                       light=self._block_light(p.x_in, p.y_in, p.z_in))
        patch = self.render_block(block, smear)
        self._patches[key] = patch
        if len(self._patches) > _PATCH_CACHE_SIZE:
            self._patches.popitem(last=False)
        return patch

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
        return downsample(box, colour, inside.astype(np.float32), n)

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
            x, y, z, shade, valid = ground_hits(cam, dirs, self.terrain)
            colour = look.sample(x, y)
            colour *= shade[..., None]
            if self.projector is not None:
                pts = np.stack([x, y, z], axis=-1)
                light = projector_light(self.projector, pts)
                if not self.terrain.is_flat:  # behind a hill, as the projector sees it, no light falls
                    light[shadowed(pts, self.projector.pose.camera_position_in, self.terrain)] = 0.0
                colour *= self.projector.room_light + self.projector.brightness * light
            colour[~valid] = SKY_BGR
            out[y0:y1] = cv2.resize(colour, (w, y1 - y0), interpolation=cv2.INTER_AREA)
        return out


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


