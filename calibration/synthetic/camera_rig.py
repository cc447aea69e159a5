"""Several synthetic cameras over one table: one scene, one frame per camera, one ground truth.

A table bigger than one camera sees is filmed by several, each with its own lens, pose and faults of
real footage. :class:`CameraRig` renders the same placements and hands through every camera (one
:class:`~calibration.synthetic.renderer.SyntheticTable` each, sharing the layout, terrain and sand
texture) and hands back each camera's frame with its own truth, so fusion, hand-over between views and
the seams where views overlap are tested against where the tags really are.

>>> from calibration.table_layout import TableLayout
>>> layout = seam_layout(144.0, 72.0)
>>> rig = CameraRig.side_by_side(layout, cameras=2, size_px=(640, 360))
>>> frame = rig.render([TagPlacement(10, 72.0, 36.0, 1.0, 90.0)])
>>> sorted(frame.views), frame.seen_by(10)
(['cam0', 'cam1'], ('cam0', 'cam1'))
"""
from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.errors import CalibrationError
from calibration.synthetic.renderer import SyntheticTable, webcam_model
from calibration.synthetic.scene import Faults, Hand, RenderedFrame, TagPlacement
from calibration.synthetic.view_geometry import ViewGeometry
from calibration.table_layout import DEFAULT_ANCHOR_INSET_IN, MAX_ANCHOR_TAG_ID, AnchorTag, TableLayout
from calibration.terrain import Terrain


@dataclass(frozen=True)
class RigCamera:
    """One camera of the rig: its name (as the user would call it), lens, pose and faults."""

    name: str
    model: CameraModel
    pose: CameraPose
    faults: Faults = Faults()


@dataclass(frozen=True, eq=False)
class RigFrame:
    """The same moment seen by every camera: ``views[name]`` is that camera's frame and truth."""

    views: Mapping[str, RenderedFrame]
    placements: tuple[TagPlacement, ...]
    t_s: float = 0.0
    frame_index: int = 0

    def seen_by(self, tag_id: int) -> tuple[str, ...]:
        """Names of the cameras in which the tag is fully in view and not under a hand."""
        out = []
        for name, view in self.views.items():
            truth = view.truth_of(tag_id)
            if truth is not None and truth.visible:
                out.append(name)
        return tuple(out)


class CameraRig:
    """Several cameras over one table (mutable only through its per-camera render caches)."""

    def __init__(
        self,
        layout: TableLayout,
        cameras: Sequence[RigCamera],
        *,
        terrain: Terrain | None = None,
        texture_seed: int = 0,
        supersample: int = 4,
        background_supersample: int = 2,
    ) -> None:
        names = [c.name for c in cameras]
        if not cameras:
            raise CalibrationError("a camera rig needs at least one camera")
        if len(set(names)) != len(names):
            raise CalibrationError(f"camera names repeat in the rig: {names}; give each camera its own name")
        self.layout = layout
        self.cameras = tuple(cameras)
        self.terrain = terrain if terrain is not None else Terrain()
        self.texture_seed = int(texture_seed)
        self._options: dict[str, int] = {"supersample": supersample, "background_supersample": background_supersample}
        self.tables = {
            c.name: SyntheticTable(layout, c.model, c.pose, self.terrain, self.texture_seed, None, **self._options)
            for c in cameras
        }

    @classmethod
    def side_by_side(cls, layout: TableLayout, *, cameras: int = 2, **kwargs: Any) -> "CameraRig":
        """``cameras`` webcams in a row along the table's width (see :meth:`grid`)."""
        return cls.grid(layout, cols=cameras, rows=1, **kwargs)

    @classmethod
    def grid(
        cls,
        layout: TableLayout,
        *,
        cols: int = 2,
        rows: int = 1,
        size_px: tuple[int, int] = (1920, 1080),
        overlap_in: float = 10.0,
        margin_in: float = 1.0,
        faults: Faults = Faults(),
        jitter_deg: float = 1.0,
        **options: Any,  # CameraRig's keyword options (terrain, texture_seed, supersample...), passed on as they are
    ) -> "CameraRig":
        """``cols`` x ``rows`` wide-angle webcams, each looking down at its share of the table plus
        ``overlap_in`` into its neighbours', hung as low as lets it see that share (plus ``margin_in``
        round it). Each is turned by up to ``jitter_deg`` like a hand-mounted camera, and each gets the
        same ``faults`` but its own noise. Cameras are named cam0, cam1... row by row from the front."""
        poses = grid_poses(layout, cols, rows, size_px=size_px, overlap_in=overlap_in, margin_in=margin_in, jitter_deg=jitter_deg)
        model = webcam_model(*size_px)
        rig = [RigCamera(f"cam{i}", model, pose, faults) for i, pose in enumerate(poses)]
        return cls(layout, rig, **options)

    # ------------------------------------------------------------------ variants
    def moved(self, name: str, pose: CameraPose) -> "CameraRig":
        """The same rig with camera ``name`` moved to ``pose`` (a bumped camera); the others unchanged."""
        if name not in self.tables:
            raise CalibrationError(f"no camera {name!r} in the rig; it has {', '.join(self.tables)}")
        out = copy.copy(self)  # the other cameras keep their rendered backgrounds
        out.cameras = tuple(replace(c, pose=pose) if c.name == name else c for c in self.cameras)
        out.tables = {**self.tables, name: self.tables[name].moved(pose)}
        return out

    def camera(self, name: str) -> RigCamera:
        for c in self.cameras:
            if c.name == name:
                return c
        raise CalibrationError(f"no camera {name!r} in the rig; it has {', '.join(self.tables)}")

    # ------------------------------------------------------------------ rendering
    def render(
        self,
        placements: Sequence[TagPlacement],
        *,
        hands: Sequence[Hand] = (),
        rng: np.random.Generator | None = None,
        t_s: float = 0.0,
        frame_index: int = 0,
    ) -> RigFrame:
        """One frame per camera of the same moment; each camera's noise is its own."""
        rng = rng if rng is not None else np.random.default_rng(frame_index)
        seeds = rng.integers(0, 2**63 - 1, size=len(self.cameras))
        views = {}
        for cam, seed in zip(self.cameras, seeds):
            views[cam.name] = self.tables[cam.name].render(
                placements, faults=cam.faults, hands=hands, rng=np.random.default_rng(int(seed)), t_s=t_s, frame_index=frame_index
            )
        return RigFrame(views=views, placements=tuple(placements), t_s=t_s, frame_index=frame_index)

    def anchors_seen(self, name: str) -> tuple[int, ...]:
        """Anchor ids camera ``name`` sees whole (the walkthrough checks each camera sees two or more)."""
        truth = self.tables[name].truth(())
        return tuple(t.tag_id for t in truth if t.in_view)


def grid_poses(
    layout: TableLayout,
    cols: int,
    rows: int = 1,
    *,
    size_px: tuple[int, int] = (1920, 1080),
    overlap_in: float = 10.0,
    margin_in: float = 1.0,
    jitter_deg: float = 1.0,
) -> list[CameraPose]:
    """Poses of a ``cols`` x ``rows`` grid of cameras over the table (see :meth:`CameraRig.grid`)."""
    if cols < 1 or rows < 1:
        raise CalibrationError(f"a {cols}x{rows} camera grid: give one or more columns and rows")
    model = webcam_model(*size_px)
    w, d = layout.width_in / cols, layout.depth_in / rows
    poses = []
    for j in range(rows):
        for i in range(cols):
            x0 = max(0.0, i * w - overlap_in / 2) - margin_in
            x1 = min(layout.width_in, (i + 1) * w + overlap_in / 2) + margin_in
            y0 = max(0.0, j * d - overlap_in / 2) - margin_in
            y1 = min(layout.depth_in, (j + 1) * d + overlap_in / 2) + margin_in
            # alternate small turns, as cameras clamped by hand are never quite square to the table
            roll = jitter_deg * (1 if (i + j) % 2 == 0 else -1)
            poses.append(_lowest_pose_seeing(model, (x0, y0, x1, y1), roll_deg=roll))
    return poses


def _lowest_pose_seeing(model: CameraModel, box_in: tuple[float, float, float, float], *, roll_deg: float) -> CameraPose:
    """A camera straight above the box's centre, as low as it can hang while seeing all of the box."""
    x0, y0, x1, y1 = box_in
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s = np.linspace(0.0, 1.0, 9)
    outline = np.concatenate([
        np.column_stack([x0 + (x1 - x0) * s, np.full_like(s, y0)]),
        np.column_stack([x0 + (x1 - x0) * s, np.full_like(s, y1)]),
        np.column_stack([np.full_like(s, x0), y0 + (y1 - y0) * s]),
        np.column_stack([np.full_like(s, x1), y0 + (y1 - y0) * s]),
    ])
    outline = np.column_stack([outline, np.zeros(len(outline))])

    def pose_at(h: float) -> CameraPose:
        return CameraPose.looking_at((cx, cy, h), (cx, cy, 0.0), roll_deg=roll_deg)

    lo, hi = 5.0, 2000.0
    for _ in range(40):
        mid = (lo + hi) / 2
        _, inside = ViewGeometry(model, pose_at(mid)).project(outline)
        lo, hi = (lo, mid) if np.all(inside) else (mid, hi)
    return pose_at(hi)


def seam_layout(width_in: float, depth_in: float, *, cols: int = 2, rows: int = 1, size_in: float = 2.0) -> TableLayout:
    """The four corner anchors plus extra anchors (ids 4-9) where the seams of a ``cols`` x ``rows``
    camera grid meet the table's edges and each other, so that every camera sees at least three.

    >>> [(a.tag_id, a.x_in, a.y_in) for a in seam_layout(144.0, 72.0).anchors[4:]]
    [(4, 72.0, 1.5), (5, 72.0, 70.5)]
    >>> [(a.x_in, a.y_in) for a in seam_layout(144.0, 72.0, cols=2, rows=2).anchors[4:]]
    [(72.0, 1.5), (72.0, 70.5), (72.0, 36.0), (1.5, 36.0), (142.5, 36.0)]
    """
    base = TableLayout.default(width_in, depth_in)
    inset = DEFAULT_ANCHOR_INSET_IN
    spots: list[tuple[float, float]] = []
    seams_x = [width_in * i / cols for i in range(1, cols)]
    seams_y = [depth_in * j / rows for j in range(1, rows)]
    for x in seams_x:
        spots += [(x, inset), (x, depth_in - inset)] + [(x, y) for y in seams_y]
    for y in seams_y:
        spots += [(inset, y), (width_in - inset, y)]
    free = MAX_ANCHOR_TAG_ID - 3
    if len(spots) > free:
        raise CalibrationError(
            f"a {cols}x{rows} camera grid needs {len(spots)} seam anchors; ids 4-9 allow {free}: use fewer cameras or a layout file of your own"
        )
    extra = tuple(AnchorTag(4 + k, x, y, size_in) for k, (x, y) in enumerate(spots))
    return TableLayout(width_in=width_in, depth_in=depth_in, anchors=base.anchors + extra, unit_tag_size_in=base.unit_tag_size_in)


def px_per_in(model: CameraModel, pose: CameraPose, x_in: float, y_in: float, z_in: float = 0.0) -> float:
    """How many pixels one inch of table spans at (x, y, z) in this camera (mean over both directions)."""
    geom = ViewGeometry(model, pose)
    px, _ = geom.project(np.array([[x_in, y_in, z_in], [x_in + 0.5, y_in, z_in], [x_in, y_in + 0.5, z_in]]))
    return float(math.dist(px[0], px[1]) + math.dist(px[0], px[2]))
