"""The projector's light on the synthetic relief: a ceiling projector as an inverse camera, its shadow
behind hills, and whole sequences of projected images (the scan's patterns) rendered at once.

A real projector is a camera run backwards: a lens (intrinsics and distortion) and a pose over the
table. :func:`ceiling_projector` hangs one like a classroom mount (lens shift, a little barrel
distortion). :func:`render_lit_sequence` films the bare sand table while the projector shows each of a
list of images: where every camera sample meets the ground, which projector pixel lights it and
whether a hill stands between it and the projector are worked out once, and each image then costs one
lookup, so the 40-odd patterns of a scan render in seconds.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationError
from calibration.projection import rays_from_camera, table_from_camera
from calibration.synthetic.faults import apply_faults
from calibration.synthetic.raycast import Block, composite, ground_hits, project_fast, shadowed
from calibration.synthetic.scene import Faults, Projector, TagPlacement
from calibration.synthetic.texture import TableLook
from calibration.table_layout import TableLayout
from calibration.terrain import Terrain

if TYPE_CHECKING:  # annotations only; the renderer does not import this module, so there is no loop either way
    from calibration.projector_model import ProjectorModel
    from calibration.synthetic.renderer import SyntheticTable

__all__ = [
    "busy_overlays",
    "ceiling_projector",
    "projector_pixels",
    "render_lit_sequence",
    "shadowed",  # re-exported: it lived here before calibration.synthetic.raycast
    "units_apart",
    "where_light_lands",
]

_STRIP_ROWS = 48


def ceiling_projector(
    layout: TableLayout,
    width_px: int = 1280,
    height_px: int = 800,
    *,
    height_in: float = 60.0,
    dist_coeffs: tuple[float, ...] = (-0.04, 0.01, 0.0, 0.0, 0.0),
) -> tuple[CameraModel, CameraPose]:
    """A projector hung ``height_in`` over the far part of the table and tilted toward its middle, its
    picture covering the whole table with a margin: its lens (as a camera model) and pose.

    A camera over the near edge (``overhead_pose``) and this projector over the far side stand about 40"
    apart: the baseline that lets the pair measure heights (the scan's precision grows with it).
    """
    cx, cy = layout.width_in / 2.0, layout.depth_in / 2.0
    eye = np.array([cx + 1.5, cy + 0.42 * layout.depth_in, height_in])
    target = np.array([cx - 0.5, cy - 0.02 * layout.depth_in, 0.0])
    distance = float(np.linalg.norm(eye - target))
    # focal length so that the table's long side plus 12% fills the picture's width at the aim point
    f = width_px * distance / (layout.width_in * 1.12)
    model = CameraModel(width_px, height_px, f, f, (width_px - 1) / 2.0 + 6.0, (height_px - 1) / 2.0 - 10.0,
                        dist_coeffs=tuple(float(c) for c in dist_coeffs), source="synthetic")
    pose = CameraPose.looking_at(tuple(eye), tuple(target), roll_deg=0.6)
    return model, pose


def projector_pixels(points_in: np.ndarray, model: CameraModel, pose: CameraPose) -> tuple[np.ndarray, np.ndarray]:
    """Projector pixels (..., 2) lighting table points (..., 3), and whether each is in front of the lens."""
    return project_fast(np.asarray(points_in, dtype=np.float32), model, pose)


def render_lit_sequence(
    table: SyntheticTable,
    projector: Projector,
    images: Sequence[np.ndarray],
    *,
    faults: Faults = Faults(),
    rng: np.random.Generator | None = None,
) -> list[np.ndarray]:
    """Camera frames (uint8 BGR) of ``table``'s bare sand (anchors included, no units) while
    ``projector`` shows each of ``images`` (grey or BGR, the projector's size) in turn.

    Every frame gets its own draw of ``faults`` from ``rng``. The light on each camera sample is
    ``room_light + brightness * colour`` of the projector pixel over it, or ``room_light`` alone in a
    hill's shadow, exactly as :class:`~calibration.synthetic.SyntheticTable` renders one image.
    """
    rng = rng if rng is not None else np.random.default_rng(0)
    pimgs = [_as_bgr(img, projector.model) for img in images]
    w, h = table.size_px
    n = table.background_supersample
    look = TableLook(table.layout.width_in, table.layout.depth_in, seed=table.texture_seed)
    geom = table.geometry
    cam = geom.center_in
    centre = projector.pose.camera_position_in
    out = [np.empty((h, w, 3), np.float32) for _ in pimgs]
    for y0 in range(0, h, _STRIP_ROWS):
        y1 = min(h, y0 + _STRIP_ROWS)
        dirs = geom.sample_rays((0, y0, w, y1), n)
        x, y, z, shade, valid = ground_hits(cam, dirs, table.terrain)
        albedo = look.sample(x, y) * shade[..., None]
        pts = np.stack([x, y, z], axis=-1)
        px, front = projector_pixels(pts, projector.model, projector.pose)
        dark = ~front | shadowed(pts, centre, table.terrain)
        map_x = np.where(dark, np.float32(-1e6), px[..., 0]).astype(np.float32)
        map_y = np.where(dark, np.float32(-1e6), px[..., 1]).astype(np.float32)
        for k, img in enumerate(pimgs):
            light = cv2.remap(img, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
            colour = albedo * (projector.room_light + projector.brightness * light.astype(np.float32) / 255.0)
            colour[~valid] = (40.0, 40.0, 44.0)
            out[k][y0:y1] = cv2.resize(colour, (w, y1 - y0), interpolation=cv2.INTER_AREA)
    # anchor cards: flat paper on the table, lit by the projector pixel over each camera pixel
    for a in table.layout.anchors:
        patch = table.render_block(Block(a.tag_id, a.x_in, a.y_in, a.heading_deg, a.size_in, a.z_in, a.z_in))
        if patch is None:
            continue
        (bx0, by0, bx1, by1), colour, cover = patch
        rows, cols = np.mgrid[by0:by1, bx0:bx1]
        xy = table_from_camera(np.column_stack([cols.ravel(), rows.ravel()]).astype(np.float64), table.model, table.pose, z_in=a.z_in)
        pts = np.column_stack([xy, np.full(len(xy), a.z_in)]).reshape(by1 - by0, bx1 - bx0, 3)
        px, front = projector_pixels(pts, projector.model, projector.pose)
        mx = np.where(front, px[..., 0], np.float32(-1e6)).astype(np.float32)
        my = np.where(front, px[..., 1], np.float32(-1e6)).astype(np.float32)
        for k, img in enumerate(pimgs):
            light = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
            gain = projector.room_light + projector.brightness * light.astype(np.float32) / 255.0
            composite(out[k], ((bx0, by0, bx1, by1), colour * gain, cover))
    frames = []
    for img in out:
        frame = np.clip(np.rint(img), 0, 255).astype(np.uint8)
        frames.append(apply_faults(frame, faults, rng))
    return frames


def _as_bgr(image: np.ndarray, model: CameraModel) -> np.ndarray:
    img = np.asarray(image)
    if img.ndim == 2:
        img = np.repeat(img[:, :, None], 3, axis=2)
    want = (model.height_px, model.width_px, 3)
    if img.shape != want:
        raise CalibrationError(f"projected image is {img.shape}; the projector shows {want[1]}x{want[0]} BGR images")
    return np.ascontiguousarray(img, dtype=np.uint8)


def where_light_lands(model: CameraModel, pose: CameraPose, pixels: np.ndarray, terrain: Terrain | None) -> np.ndarray:
    """Where the light of projector pixels (N, 2) really falls on the ground, table points (N, 3): the
    first crossing of each ray with the terrain (the oracle for projection errors on relief)."""
    origin, dirs = rays_from_camera(np.asarray(pixels, dtype=np.float64).reshape(-1, 2), model, pose)
    terrain = terrain if terrain is not None else Terrain()
    top = max(terrain.max_height_in, 0.0) + 1e-6
    with np.errstate(divide="ignore", invalid="ignore"):
        s_top = (top - origin[2]) / dirs[:, 2]
        s_floor = (0.0 - origin[2]) / dirs[:, 2]
    lo, hi = s_top.copy(), s_floor.copy()

    def above(s: np.ndarray) -> np.ndarray:
        p = origin[None, :] + s[:, None] * dirs
        return p[:, 2] - terrain.height_at(p[:, 0], p[:, 1]) > 0

    # march down in small steps to the first step below the ground, then bisect
    steps = 200
    found = np.zeros(len(dirs), bool)
    prev = lo.copy()
    for k in range(1, steps + 1):
        s = s_top + (s_floor - s_top) * k / steps
        below = ~above(s) & ~found
        lo[below], hi[below] = prev[below], s[below]
        found |= below
        prev = s
    for _ in range(40):
        mid = (lo + hi) / 2
        a = above(mid)
        lo = np.where(a, mid, lo)
        hi = np.where(a, hi, mid)
    s = (lo + hi) / 2
    return origin[None, :] + s[:, None] * dirs


def units_apart(terrain: Terrain, count: int, *, seed: int = 0, size_in: float = 1.5, base_in: float = 1.0,
                area_in: tuple[float, float, float, float] = (6.0, 6.0, 66.0, 42.0), apart_in: float = 3.0) -> list[TagPlacement]:
    """``count`` unit tags standing on ``terrain`` at random, never closer than ``apart_in`` (bases do not
    overlap), tag ids from 10."""
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = area_in
    out: list[TagPlacement] = []
    while len(out) < count:
        x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
        if any(np.hypot(x - u.x_in, y - u.y_in) < apart_in for u in out):
            continue
        out.append(TagPlacement(10 + len(out), x, y, float(terrain.height_at(x, y)) + base_in, rng.uniform(0, 360), size_in))
    return out


def busy_overlays(projector: ProjectorModel, placements: Sequence[TagPlacement], *, seed: int = 1) -> np.ndarray:
    """A projector picture as a busy game throws it: a coloured fill, a white line and an odds label
    over and around every unit (``projector``: a 3-D projector model)."""
    r = np.random.default_rng(seed)
    img = np.zeros((projector.height_px, projector.width_px, 3), np.uint8)
    for u in placements:
        c = projector.projector_from_table(np.array([[u.x_in + r.uniform(-1, 1), u.y_in + r.uniform(-1, 1), u.z_in]]))[0]
        ppi = projector.px_per_in_at(u.x_in, u.y_in)
        centre = (int(c[0]), int(c[1]))
        cv2.circle(img, centre, int(ppi * r.uniform(0.3, 1.5)), tuple(int(v) for v in r.integers(80, 256, 3)), -1)
        end = (int(c[0] + r.uniform(-200, 200)), int(c[1] + r.uniform(-200, 200)))
        cv2.line(img, centre, end, (255, 255, 255), int(ppi * 0.15) + 1)
        cv2.putText(img, "72%", (int(c[0] - ppi * 0.5), int(c[1])), cv2.FONT_HERSHEY_SIMPLEX, ppi / 40, (255, 255, 255), 2)
    return img
