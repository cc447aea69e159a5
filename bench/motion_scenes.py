"""Rendered hand-and-unit sequences for the tracker on motion (issue 27): what no public footage shows, a
fixed camera over a table with units moved one at a time by a hand. Used by ``bench/real_motion.py`` and
the tests (``tests/tracker/test_real_motion.py``). Deterministic: seeded noise, no timing.

Each sequence is a list of :class:`calibration.synthetic.RenderedFrame` (pictures with the true corners of
every tag) at 30 frames/s, 960x540 with a 1080p camera's tag size (1" tags about 25 px):

* ``push``: a unit pushed slowly across the table (1.5 px/frame after 1.5 s still), its neighbours still;
* ``carry``: a unit picked up by a hand, carried (under the hand for half a second), and set down
  elsewhere, the hand beside it before and after;
* ``bump``: the camera bumped 1.5 s in and left at its new angle (the picture shifted and turned);
* ``exposure``: the auto-exposure stepping the brightness down and up again;
* ``bump_slide``: the camera knocked while a hand slides two units (motion-blurred): it jumps, shakes and
  settles at a new angle, each frame of the shake smeared by the camera's own motion.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import cv2
import numpy as np

from calibration.camera_model import CameraModel, CameraPose
from calibration.synthetic import Faults, Hand, SyntheticTable, TagPlacement
from calibration.synthetic.scene import RenderedFrame

FPS = 30.0
STILL = [(10 + k, 24.0 + 6.0 * (k % 5), 19.0 + 5.0 * (k // 5), 31.0 * k) for k in range(12)]
FAULTS = Faults(noise_sigma=1.5, blur_px=0.5)


def table_960() -> SyntheticTable:
    """960x540 with a 1080p camera's focal length: 1" tags about 25 px, a quarter of the pixels."""
    w, h = 960, 540
    fx = (1920 / 2) / math.tan(math.radians(32.0))
    model = CameraModel(w, h, fx, fx, (w - 1) / 2, (h - 1) / 2, (0.0,) * 5, source="synthetic")
    pose = CameraPose.looking_at((36.0, 24.0 - 60.0 * math.tan(math.radians(8.0)), 60.0), (36.0, 24.0, 0.0))
    return SyntheticTable(model=model, pose=pose, texture_seed=9)


def _still() -> list[TagPlacement]:
    return [TagPlacement(t, x, y, 1.0, a) for t, x, y, a in STILL]


def push(frames: int = 120) -> Iterator[RenderedFrame]:
    """Unit 30 stands 1.5 s, then is pushed along x at 1.5 px/frame (about 1.7 in/s), motion-blurred."""
    table = table_960()
    rng = np.random.default_rng(1)
    speed_in_s = 1.5 * FPS / 26.0  # 1.5 px a frame at about 26 px per inch
    for i in range(frames):
        moving_s = max(0.0, (i - 45) / FPS)
        x = 36.0 + speed_in_s * moving_s
        unit = TagPlacement(30, x, 32.5, 1.0, 10.0, velocity_in_s=(speed_in_s if moving_s > 0 else 0.0, 0.0))
        yield table.render(_still() + [unit], faults=Faults(noise_sigma=1.5, blur_px=0.5, motion_blur=True),
                           rng=rng, t_s=i / FPS, frame_index=i)


def carry(frames: int = 120) -> Iterator[RenderedFrame]:
    """Unit 31 picked up at 1.0 s (a hand over it), carried 10" in 0.5 s, set down, the hand gone at 2.0 s."""
    table = table_960()
    rng = np.random.default_rng(2)
    for i in range(frames):
        t = i / FPS
        k = min(1.0, max(0.0, (t - 1.0) / 0.5))
        x, y = 20.0 + 10.0 * k, 32.0 - 1.0 * k
        placements = _still()
        hands: list[Hand] = []
        if 0.8 <= t < 1.0 or 1.5 <= t < 2.0:
            hands = [Hand(x + 0.5, y - 2.2, 1.2)]  # reaching for it / letting go: beside it, not over it
        if 1.0 <= t < 1.5:
            hands = [Hand(x, y, 1.8)]  # held: the tag is under the hand
        else:
            placements = placements + [TagPlacement(31, x, y, 1.0, 200.0)]
        yield table.render(placements, faults=Faults(noise_sigma=1.5, blur_px=0.5, motion_blur=True), hands=hands,
                           rng=rng, t_s=t, frame_index=i)


def _warp(image: np.ndarray, dx: float, dy: float, deg: float) -> np.ndarray:
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
    m[:, 2] += (dx, dy)
    return cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _warp_points(points: np.ndarray, w: int, h: int, dx: float, dy: float, deg: float) -> np.ndarray:
    m = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
    m[:, 2] += (dx, dy)
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return p @ m[:, :2].T + m[:, 2]


def _transformed(frame: RenderedFrame, image: np.ndarray, fn: Callable[[np.ndarray], np.ndarray]) -> RenderedFrame:
    from dataclasses import replace

    truth = tuple(replace(t, corners_px=fn(t.corners_px), center_px=fn(t.center_px).reshape(2)) for t in frame.truth)
    return RenderedFrame(image_bgr=image, truth=truth, t_s=frame.t_s, frame_index=frame.frame_index)


def bump(frames: int = 90) -> Iterator[RenderedFrame]:
    """The camera bumped over three frames from 1.5 s: shifted (22, -12) px and turned 2 degrees, left so."""
    table = table_960()
    rng = np.random.default_rng(3)
    for i in range(frames):
        k = min(1.0, max(0.0, (i - 45) / 3))
        f = table.render(_still(), faults=FAULTS, rng=rng, t_s=i / FPS, frame_index=i)
        dx, dy, deg = 22.0 * k, -12.0 * k, 2.0 * k
        image = _warp(f.image_bgr, dx, dy, deg)
        yield _transformed(f, image, lambda p, dx=dx, dy=dy, deg=deg: _warp_points(p, 960, 540, dx, dy, deg))


def exposure(frames: int = 90) -> Iterator[RenderedFrame]:
    """Auto-exposure: the picture's gain steps to 0.6 at 1.0 s and back to 1.0 at 2.0 s, eased over 3 frames."""
    table = table_960()
    rng = np.random.default_rng(4)
    for i in range(frames):
        t = i / FPS
        down = min(1.0, max(0.0, (t - 1.0) * FPS / 3))
        up = min(1.0, max(0.0, (t - 2.0) * FPS / 3))
        gain = 1.0 - 0.4 * down + 0.4 * up
        f = table.render(_still(), faults=FAULTS, rng=rng, t_s=t, frame_index=i)
        image = np.clip(f.image_bgr.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        yield RenderedFrame(image_bgr=image, truth=f.truth, t_s=t, frame_index=i)


def _smear(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """The picture smeared along (dx, dy) px: a camera moving while the shutter is open."""
    n = max(1, int(round(math.hypot(dx, dy))))
    kernel = np.zeros((2 * n + 1, 2 * n + 1), np.float32)
    for s in np.linspace(-0.5, 0.5, 4 * n + 1):
        kernel[int(round(n + s * dy)), int(round(n + s * dx))] += 1.0
    return cv2.filter2D(image, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REPLICATE)


def bump_slide(frames: int = 75, *, knock_frame: int = 45) -> Iterator[RenderedFrame]:
    """Units 30 and 31 slid 7 in/s by a hand from 1.0 s (motion-blurred, the hand behind each); at frame 45
    the camera is knocked: it jumps (22, -12) px and 2 degrees, shakes about that (40%, dying away over a
    few frames) and stays there. Each frame the camera moved in is smeared by half of that motion."""
    table = table_960()
    rng = np.random.default_rng(5)
    movers = [(30, 26.0, 31.0, 1.0), (31, 44.0, 17.0, -1.0)]
    speed_in_s = 7.0
    knock = (22.0, -12.0, 2.0)

    def offset(i: int) -> float:  # how far the camera has gone towards its new pose (1: there)
        if i < knock_frame:
            return 0.0
        if i == knock_frame:
            return 1.0
        return 1.0 + 0.4 * math.exp(-(i - knock_frame) / 2.0) * math.cos(math.pi * 0.8 * (i - knock_frame))

    for i in range(frames):
        t = i / FPS
        placements, hands = _still(), []
        for tag, x0, y0, way in movers:
            sliding = 1.0 <= t < 2.2
            x = x0 + way * speed_in_s * min(max(t - 1.0, 0.0), 1.2)
            placements.append(TagPlacement(tag, x, y0, 1.0, 15.0 * tag, velocity_in_s=(way * speed_in_s if sliding else 0.0, 0.0)))
            if sliding:
                hands.append(Hand(x - way * 1.6, y0 + 0.4, 1.0))  # pushing it from behind
        f = table.render(placements, faults=Faults(noise_sigma=1.5, blur_px=0.5, motion_blur=True), hands=hands,
                         rng=rng, t_s=t, frame_index=i)
        k, before = offset(i), offset(i - 1)
        dx, dy, deg = (v * k for v in knock)
        image = _warp(f.image_bgr, dx, dy, deg)
        if k != before:
            image = _smear(image, 0.5 * knock[0] * (k - before), 0.5 * knock[1] * (k - before))
        yield _transformed(f, image, lambda p, dx=dx, dy=dy, deg=deg: _warp_points(p, 960, 540, dx, dy, deg))


SEQUENCES: dict[str, Callable[[], Iterator[RenderedFrame]]] = {
    "push": push, "carry": carry, "bump": bump, "exposure": exposure, "bump_slide": bump_slide,
}
