"""Synthetic scenarios: the [table], [terrain], [simulation] and unit paths of a scenario file.

The same TOML file a game uses (docs/scenario-format.md) also drives the synthetic table: units move
along keyframed paths, hands reach over the table, and a simulated camera with the faults of real
footage films it. This module reads only the calibration layer's part and refuses typos in it; the
rules and roster fields of ``[[units]]`` belong to other layers and are left alone.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from calibration.camera_model import CameraModel, CameraPose, vec3
from calibration.errors import CalibrationError, ScenarioFileError
from calibration.synthetic.renderer import WIDE_ANGLE_DIST, WIDE_ANGLE_HFOV_DEG, SyntheticTable, overhead_pose, webcam_model
from calibration.synthetic.scene import Faults, Hand, RenderedFrame, TagPlacement
from calibration.table_layout import FIRST_UNIT_TAG_ID, TableLayout
from calibration.table_setup import read_scenario_top, read_table, read_terrain
from calibration.tag_bitmaps import MAX_TAG_ID
from calibration.terrain import Terrain
from calibration.toml_fields import Fields

DEFAULT_BASE_HEIGHT_IN = 1.0
#: The longest clip a scenario may ask for (a day): a longer one is a typo, and would render for weeks.
MAX_DURATION_S = 86_400.0
#: Heading of a unit whose first keyframe gives none: facing +y, away from the near edge.
DEFAULT_HEADING_DEG = 90.0


@dataclass(frozen=True)
class Keyframe:
    """Where a unit is at ``t_s``; positions are linear in between, headings turn the short way."""

    t_s: float
    x_in: float
    y_in: float
    heading_deg: float
    on_table: bool = True


@dataclass(frozen=True)
class UnitPath:
    """One unit's tag and its keyframes (sorted by time)."""

    tag_id: int
    base_height_in: float
    tag_size_in: float
    keyframes: tuple[Keyframe, ...]

    def pose_at(self, t_s: float) -> tuple[float, float, float, tuple[float, float]] | None:
        """(x_in, y_in, heading_deg, velocity_in_s) at ``t_s``, or None while the unit is off the table.

        Before its first keyframe a unit is not on the table yet; a keyframe with ``on_table = false``
        lifts it until the next keyframe puts it back.
        """
        times = [k.t_s for k in self.keyframes]
        i = bisect.bisect_right(times, t_s) - 1
        if i < 0:
            return None
        k0 = self.keyframes[i]
        if not k0.on_table:
            return None
        if i + 1 >= len(self.keyframes) or not self.keyframes[i + 1].on_table:
            return k0.x_in, k0.y_in, k0.heading_deg % 360.0, (0.0, 0.0)
        k1 = self.keyframes[i + 1]
        span = k1.t_s - k0.t_s
        a = (t_s - k0.t_s) / span
        turn = (k1.heading_deg - k0.heading_deg + 180.0) % 360.0 - 180.0
        velocity = ((k1.x_in - k0.x_in) / span, (k1.y_in - k0.y_in) / span)
        return (
            k0.x_in + a * (k1.x_in - k0.x_in),
            k0.y_in + a * (k1.y_in - k0.y_in),
            (k0.heading_deg + a * turn) % 360.0,
            velocity,
        )


@dataclass(frozen=True)
class TimedHand:
    """A hand over the table from ``t_start_s`` until (not including) ``t_end_s``."""

    t_start_s: float
    t_end_s: float
    hand: Hand


@dataclass(frozen=True, eq=False)
class SyntheticScenario:
    """A scenario file ready to film: the table, the camera, the units' paths, hands and faults."""

    path: str
    name: str
    fps: float
    duration_s: float
    seed: int
    table: SyntheticTable
    faults: Faults
    units: tuple[UnitPath, ...]
    hands: tuple[TimedHand, ...] = field(default=())

    @property
    def frame_count(self) -> int:
        return max(1, int(round(self.duration_s * self.fps)))

    @property
    def layout(self) -> TableLayout:
        return self.table.layout

    @property
    def terrain(self) -> Terrain:
        return self.table.terrain

    def placements_at(self, t_s: float) -> list[TagPlacement]:
        """The unit tags on the table at ``t_s`` (lifted units and units not yet placed are omitted)."""
        out = []
        for u in self.units:
            pose = u.pose_at(t_s)
            if pose is None:
                continue
            x, y, heading, velocity = pose
            z = float(self.terrain.height_at(x, y)) + u.base_height_in
            out.append(TagPlacement(u.tag_id, x, y, z, heading, size_in=u.tag_size_in, velocity_in_s=velocity))
        return out

    def hands_at(self, t_s: float) -> list[Hand]:
        return [h.hand for h in self.hands if h.t_start_s <= t_s < h.t_end_s]

    def render_frame(self, index: int) -> RenderedFrame:
        """Frame ``index`` at t = index / fps; the same seed always gives the same frame."""
        if not 0 <= index < self.frame_count:
            raise CalibrationError(f"frame {index} is outside the scenario's 0-{self.frame_count - 1}")
        t = index / self.fps
        return self.table.render(
            self.placements_at(t),
            faults=self.faults,
            hands=self.hands_at(t),
            rng=np.random.default_rng([self.seed, index]),
            t_s=t,
            frame_index=index,
        )


_TOP_KEYS = {"format", "version", "name", "ruleset", "description", "table", "sides", "units", "terrain", "simulation"}


def load_synthetic_scenario(path: str | Path, *, width_px: int | None = None, height_px: int | None = None) -> SyntheticScenario:
    """Read a scenario file for the synthetic table. ``width_px``/``height_px`` override the file's
    resolution (the camera's field of view stays the same)."""
    p = Path(path)
    top = read_scenario_top(p)
    layout = read_table(top, p)
    terrain = read_terrain(top, p)
    sim = top.table("simulation") or Fields({}, f"{p.name} [simulation]", error=ScenarioFileError)
    sim.refuse_unknown({"fps", "duration_s", "width_px", "height_px", "seed", "camera", "faults", "hands", "texture_seed"})
    fps = sim.number("fps", 30.0, positive=True, maximum=240)
    duration = sim.number("duration_s", 10.0, positive=True, maximum=MAX_DURATION_S)
    w = width_px if width_px is not None else sim.integer("width_px", 1280, minimum=64, maximum=8192)
    h = height_px if height_px is not None else sim.integer("height_px", 720, minimum=64, maximum=8192)
    seed = sim.integer("seed", 0, minimum=0)
    model, pose = _read_camera(sim, layout, w, h)
    faults = _read_faults(sim)
    hands = tuple(_read_hand(f) for f in sim.tables("hands"))
    units = tuple(u for u in (_read_unit(f, layout) for f in top.tables("units")) if u is not None)
    table = SyntheticTable(layout, model, pose, terrain, texture_seed=sim.integer("texture_seed", seed, minimum=0))
    return SyntheticScenario(
        path=str(p), name=top.string("name", p.stem), fps=fps, duration_s=duration, seed=seed, table=table,
        faults=faults, units=units, hands=hands,
    )


def _read_camera(sim: Fields, layout: TableLayout, w: int, h: int) -> tuple[CameraModel, CameraPose]:
    c = sim.table("camera")
    if c is None:
        return webcam_model(w, h), overhead_pose(layout)
    c.refuse_unknown({"position_in", "look_at_in", "hfov_deg", "dist_coeffs", "roll_deg"})
    hfov = c.number("hfov_deg", WIDE_ANGLE_HFOV_DEG, minimum=10, maximum=150)
    dist = c.numbers("dist_coeffs", (4, 5, 8), WIDE_ANGLE_DIST)
    model = webcam_model(w, h, hfov_deg=hfov, dist_coeffs=dist)
    if not c.has("position_in") and not c.has("look_at_in"):
        return model, overhead_pose(layout)
    eye = c.numbers("position_in", 3)
    target = c.numbers("look_at_in", 3, (layout.width_in / 2, layout.depth_in / 2, 0.0))
    if eye[2] <= target[2]:
        raise c.fail("position_in", "must be above the point it looks at (z is height in inches)")
    try:
        pose = CameraPose.looking_at(vec3(eye), vec3(target), roll_deg=c.number("roll_deg", 0.0))
    except CalibrationError as exc:
        raise c.fail("look_at_in", str(exc)) from None
    return model, pose


def _read_faults(sim: Fields) -> Faults:
    f = sim.table("faults")
    if f is None:
        return Faults()
    f.refuse_unknown({"noise_sigma", "blur_px", "motion_blur", "jpeg_quality", "uneven_light", "exposure_s"})
    return Faults(
        noise_sigma=f.number("noise_sigma", 0.0, minimum=0, maximum=64),
        blur_px=f.number("blur_px", 0.0, minimum=0, maximum=20),
        motion_blur=f.boolean("motion_blur", False),
        jpeg_quality=f.integer("jpeg_quality", 0, minimum=0, maximum=100),
        uneven_light=f.number("uneven_light", 0.0, minimum=0, maximum=1),
        exposure_s=f.number("exposure_s", 1.0 / 30.0, minimum=0, maximum=1),
    )


def _read_hand(f: Fields) -> TimedHand:
    f.refuse_unknown({"t_start_s", "t_end_s", "x_in", "y_in", "radius_in", "z_in"})
    start = f.number("t_start_s", minimum=0)
    end = f.number("t_end_s")
    if end <= start:
        raise f.fail("t_end_s", f"must be later than t_start_s = {start:g}")
    hand = Hand(f.number("x_in"), f.number("y_in"), f.number("radius_in", 3.0, positive=True), f.number("z_in", 6.0, positive=True))
    return TimedHand(start, end, hand)


def _read_unit(f: Fields, layout: TableLayout) -> UnitPath | None:
    tag_id = f.integer("tag_id", minimum=FIRST_UNIT_TAG_ID, maximum=MAX_TAG_ID)
    base = f.number("base_height_in", DEFAULT_BASE_HEIGHT_IN, minimum=0)
    size = f.number("tag_size_in", layout.unit_tag_size_in, positive=True)
    frames = f.tables("path")
    if not frames:
        return None  # a unit without a path is on the roster but not on the synthetic table
    keyframes: list[Keyframe] = []
    for k in frames:
        k.refuse_unknown({"t_s", "x_in", "y_in", "heading_deg", "on_table"})
        prev = keyframes[-1] if keyframes else None
        t = k.number("t_s", minimum=0)
        if prev is not None and t <= prev.t_s:
            raise k.fail("t_s", f"must be later than the previous keyframe's t_s = {prev.t_s:g}")
        on_table = k.boolean("on_table", True)
        if prev is None or (on_table and (k.has("x_in") or k.has("y_in"))) or (on_table and not prev.on_table):
            x, y = k.number("x_in"), k.number("y_in")
        else:
            x, y = k.number("x_in", prev.x_in), k.number("y_in", prev.y_in)
        heading = k.number("heading_deg", prev.heading_deg if prev else DEFAULT_HEADING_DEG)
        keyframes.append(Keyframe(t, x, y, heading, on_table))
        if on_table and not (-layout.width_in <= x <= 2 * layout.width_in and -layout.depth_in <= y <= 2 * layout.depth_in):
            raise k.fail("x_in" if not -layout.width_in <= x <= 2 * layout.width_in else "y_in",
                         f"is far off the {layout.width_in:g}x{layout.depth_in:g} in table; table inches start at the corner by anchor 0")
    return UnitPath(tag_id, base, size, tuple(keyframes))


__all__ = ["Keyframe", "SyntheticScenario", "TimedHand", "UnitPath", "load_synthetic_scenario"]
